// The viewer in a real browser: headless Chromium (the system's, driven by
// playwright-core: Playwright's own browser download is not reachable here)
// loads GET /viewer from the running service, a record is pasted and shown,
// and what the page shows is checked: the match's totals and net, the
// audit's violation, the replay's violating action, a refused record's
// problem, and that every text of a replay (one with a long violation message
// among them) lies within the picture's width. No request may leave the service's origin, and no console error
// (a Content-Security-Policy violation among them) may occur. Screenshots of
// the viewer, the sheet and the replay, at 1280 x 1024 and at a phone's width
// (390 x 844), are written to the directory given.
//
//   node viewer.mjs http://127.0.0.1:PORT openapi/openapi.json target/pictures
import { readFileSync, mkdirSync } from "node:fs";
import { chromium } from "playwright-core";

const [base, documentPath, out] = process.argv.slice(2);
const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const doc = JSON.parse(readFileSync(documentPath, "utf8"));
const example = (path, name) =>
  doc.paths[path].post.requestBody.content["application/json"].examples[name].value;
const answerExample = (path, name) =>
  doc.paths[path].post.responses["200"].content["application/json"].examples[name].value;

const match = example("/v1/matches/score", "source_s0");
const matchAnswer = answerExample("/v1/matches/score", "source_s0");
const audit = example("/v1/matches/audit", "wrong_dealer");
const hand = example("/v1/hands/audit", "illegal_discard");
// Long violation messages: a knock over the limit, and a knock without a
// discard where big gin is not played (one of the longest messages the audit
// gives; with its code, wider than the picture at one line).
const overLimit = {
  deal: {
    dealer: ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
    non_dealer: ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"],
    upcard: "2C",
    stock: ["2H", "5D"],
  },
  actions: [
    { player: "non_dealer", action: "pass" },
    { player: "dealer", action: "pass" },
    { player: "non_dealer", action: "draw", from: "stock", card: "2H" },
    { player: "non_dealer", action: "knock", discard: "9C" },
    { player: "dealer", action: "lay_off" },
  ],
};
const noBigGin = structuredClone(overLimit);
noBigGin.actions[3] = { player: "non_dealer", action: "knock" };
const longViolations = [
  [overLimit, "knock_over_limit", /over the knock limit of 10/],
  [noBigGin, "big_gin_not_allowed", /a knock must discard a card/],
];
// The same hand with a card dealt twice: refused, 422 duplicate_card.
const refused = structuredClone(hand);
refused.deal.dealer[0] = refused.deal.non_dealer[0];

mkdirSync(out, { recursive: true });
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
for (const [label, viewport] of [["desktop", { width: 1280, height: 1024 }], ["phone", { width: 390, height: 844 }]]) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const foreign = [];
  const errors = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(base)) foreign.push(request.url());
  });
  page.on("console", (message) => {
    // The refused record's 422 is logged by Chromium as a failed load: the
    // one error expected.
    const expected = /Failed to load resource: .* status of 422/.test(message.text());
    if (message.type() === "error" && !expected) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("response", (response) => {
    if (response.status() === 404) errors.push(`404 for ${response.url()}`);
  });

  await page.goto(`${base}/viewer`);
  await page.screenshot({ path: `${out}/viewer-${label}.png`, fullPage: true });

  const show = async (record) => {
    // Cleared first, so that the wait below sees this record's answer.
    await page.evaluate(() => {
      document.getElementById("picture").replaceChildren();
      document.getElementById("problem").hidden = true;
    });
    await page.fill("#record", JSON.stringify(record, null, 2));
    await page.click("#show");
    await page.waitForFunction(
      () => document.querySelector("#picture svg") || !document.getElementById("problem").hidden,
    );
  };
  // The <text> boxes (as drawn, in the page's pixels) that pass the SVG's
  // left or right edge: each as its text and how far out it reaches.
  const outside = () =>
    page.evaluate(() => {
      const svg = document.querySelector("#picture svg");
      const edge = svg.getBoundingClientRect();
      return [...svg.querySelectorAll("text")]
        .map((text) => [text, text.getBoundingClientRect()])
        .filter(([, box]) => box.width > 0 && (box.left < edge.left - 0.5 || box.right > edge.right + 0.5))
        .map(([text, box]) => `"${text.textContent.slice(0, 40)}..." ${Math.round(box.left - edge.left)} to ${Math.round(box.right - edge.left)} of ${Math.round(edge.width)}`);
    });
  const cell = (row, col) =>
    page.locator(`#picture text[data-row="${row}"][data-col="${col}"]`).first().textContent();

  // The match: Mom 310, Dad 112, net 198, every hand's running total.
  await show(match);
  const names = match.players; // the request's order: the sheet's columns
  for (const [index, name] of names.entries()) {
    check((await cell("total", `${index}.total`)) === String(matchAnswer.final[name].total),
      `${label}: ${name}'s total is ${matchAnswer.final[name].total}`);
    for (const [line, h] of matchAnswer.hands.entries()) {
      check((await cell(`hand-${line + 1}`, `${index}.total`)) === String(h.totals[name]),
        `${label}: ${name}'s running total after hand ${line + 1} is ${h.totals[name]}`);
    }
  }
  const winner = names.indexOf(matchAnswer.winner);
  check((await cell("net", `${winner}.total`)) === String(matchAnswer.net), `${label}: the net is ${matchAnswer.net}`);
  await page.locator("#picture svg").screenshot({ path: `${out}/sheet-${label}.png` });

  // The audit: the violation named at its hand.
  await show(audit);
  const violation = await page.locator('#picture g[data-row="violation"]').textContent();
  check(/VIOLATION at hand 2/.test(violation) && /wrong_dealer/.test(violation),
    `${label}: the audit's sheet names the wrong dealer at hand 2`);
  await page.locator("#picture svg").screenshot({ path: `${out}/audit-${label}.png` });

  // The hand: the illegal discard marked by a word.
  await show(hand);
  const replay = await page.locator("#picture svg").textContent();
  check(/VIOLATION/.test(replay) && /discard_just_taken/.test(replay),
    `${label}: the replay marks the illegal discard`);
  await page.locator("#picture svg").screenshot({ path: `${out}/replay-${label}.png` });
  const outOfHand = await outside();
  check(outOfHand.length === 0, `${label}: every text of the replay is inside its width (${outOfHand.join(" | ")})`);

  // A long violation message stays inside the picture, and whole.
  for (const [record, code, end] of longViolations) {
    await show(record);
    const long = await page.locator("#picture svg").textContent();
    check(/VIOLATION/.test(long) && long.includes(code) && end.test(long),
      `${label}: the replay gives the ${code} violation, its message whole`);
    const outOfLong = await outside();
    check(outOfLong.length === 0,
      `${label}: every text of the ${code} replay is inside its width (${outOfLong.join(" | ")})`);
    await page.locator("#picture svg").screenshot({ path: `${out}/replay-${code}-${label}.png` });
  }

  // A refused record: its problem, clearly.
  await show(refused);
  const problem = await page.locator("#problem").textContent();
  check(/duplicate_card/.test(problem) && /\/deal\//.test(problem),
    `${label}: a refused record shows its code and pointer`);
  await page.screenshot({ path: `${out}/problem-${label}.png`, fullPage: true });

  check(foreign.length === 0, `${label}: no request left the service (${foreign.join(", ")})`);
  check(errors.length === 0, `${label}: no console error (${errors.join(" | ")})`);
  await context.close();
}
await browser.close();
if (failures.length) {
  console.error(`${failures.length} checks failed`);
  process.exit(1);
}
console.log(`the viewer, the sheet and the replay render offline; screenshots in ${out}`);
