// The viewer against a service that needs an API key (started with
// --api-keys): the first record is answered 401, and the page asks for a key;
// a wrong key is refused with its problem shown (title, code, detail) and the
// key asked for again; the right key draws the sheet. The key is kept in
// sessionStorage (this tab only: another tab of the same browser does not
// see it), never in localStorage or a cookie, and the field it was typed in
// is emptied. A key the service knows but without the operation's scope
// (SCOPED_KEY: it may only audit hands) is answered 403: the page shows the
// problem and asks for another key, and the right key then draws the sheet.
// Screenshots of the key prompt, the refused key, the key without the scope
// and the sheet are written to the directory given.
//
//   API_KEY=<key> SCOPED_KEY=<key> node keyed.mjs http://127.0.0.1:PORT openapi/openapi.json target/pictures
import { readFileSync, mkdirSync } from "node:fs";
import { chromium } from "playwright-core";

const [base, documentPath, out] = process.argv.slice(2);
const key = process.env.API_KEY;
const scoped = process.env.SCOPED_KEY;
if (!key || !scoped) {
  console.error("API_KEY and SCOPED_KEY are required: the keys the service was started with");
  process.exit(2);
}
const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const doc = JSON.parse(readFileSync(documentPath, "utf8"));
const operation = doc.paths["/v1/matches/score"].post;
const match = operation.requestBody.content["application/json"].examples.source_s0.value;
const answer = operation.responses["200"].content["application/json"].examples.source_s0.value;
// The storage key the page uses (src/pictures/viewer.js).
const STORAGE = "gin-referee-api-key";
// A key of the right shape that the service does not know.
const wrong = key.slice(0, -4) + (key.endsWith("AAAA") ? "BBBB" : "AAAA");

mkdirSync(out, { recursive: true });
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  console.log(`${ok ? "ok  " : "FAIL"} keyed: ${what}`);
};

const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 1024 } });
const foreign = [];
const errors = [];
const sent = [];
const watch = (page) => {
  page.on("request", (request) => {
    if (!request.url().startsWith(base)) foreign.push(request.url());
    if (request.method() === "POST") sent.push(request.headers()["authorization"] || "");
  });
  page.on("console", (message) => {
    // Each 401 and 403 is logged by Chromium as a failed load: the errors expected.
    const expected = /Failed to load resource: .* status of 40[13]/.test(message.text());
    if (message.type() === "error" && !expected) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
};
let page = await context.newPage();
watch(page);

// Waits for the page to answer the click on `button`: a picture or a problem.
const answered = async (button) => {
  await page.evaluate(() => {
    document.getElementById("picture").replaceChildren();
    document.getElementById("problem").hidden = true;
  });
  await page.click(button);
  await page.waitForFunction(
    () => document.querySelector("#picture svg") || !document.getElementById("problem").hidden,
  );
};
const stored = () =>
  page.evaluate((name) => ({
    session: sessionStorage.getItem(name),
    local: Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)]),
    cookies: document.cookie,
  }), STORAGE);
const keyBoxShown = () => page.evaluate(() => !document.getElementById("key-box").hidden);
const problem = () => page.locator("#problem").textContent();

await page.goto(`${base}/viewer`);
await page.fill("#record", JSON.stringify(match, null, 2));
await answered("#show");
check(await keyBoxShown(), "a record answered 401 makes the page ask for a key");
const asked = await problem();
check(/Unauthorized/.test(asked) && /code: unauthorized/.test(asked) && /API key/.test(asked),
  `the 401 is shown with its title, code and detail (${asked})`);
check(sent[0] === "", "the first request carries no key");
await page.screenshot({ path: `${out}/keyed-prompt.png`, fullPage: true });

// A wrong key: refused, shown, forgotten, asked for again.
await page.fill("#key", wrong);
await answered("#use-key");
const refused = await problem();
check(/Unauthorized/.test(refused) && /code: unauthorized/.test(refused) && /not known/.test(refused),
  `a wrong key shows the problem: ${refused}`);
check(await keyBoxShown(), "after a wrong key the page asks again");
check((await stored()).session === null, "a refused key is not kept");
check(sent[1] === `Bearer ${wrong}`, "the key typed is sent as Authorization: Bearer");
check(!(await page.locator("#picture svg").count()), "no picture for a refused key");
await page.screenshot({ path: `${out}/keyed-refused.png`, fullPage: true });

// The right key: the sheet, the key kept for this tab only.
await page.fill("#key", key);
await answered("#use-key");
const total = await page
  .locator(`#picture text[data-row="total"][data-col="0.total"]`)
  .first()
  .textContent()
  .catch(() => null);
check(total === String(answer.final[match.players[0]].total),
  `with the key the sheet appears (${match.players[0]}'s total ${total})`);
check(!(await keyBoxShown()), "the key prompt is hidden once the key is admitted");
const kept = await stored();
check(kept.session === key, "the key is in sessionStorage");
check(kept.local.length === 0 && !JSON.stringify(kept.local).includes(key), "nothing is in localStorage");
check(!kept.cookies.includes(key), "the key is in no cookie");
check((await context.cookies()).every((cookie) => !cookie.value.includes(key)), "the browser holds no cookie with the key");
check((await page.inputValue("#key")) === "", "the key field is emptied");
check(!(await page.content()).includes(key), "the key is nowhere in the page");
await page.locator("#picture svg").screenshot({ path: `${out}/keyed-sheet.png` });

// The next record is sent with the key kept, without asking.
await answered("#show");
check(sent.at(-1) === `Bearer ${key}` && (await page.locator("#picture svg").count()) === 1,
  "the next record is drawn with the kept key");

// Another tab of the same browser does not see the key.
const other = await context.newPage();
await other.goto(`${base}/viewer`);
const elsewhere = await other.evaluate((name) => sessionStorage.getItem(name), STORAGE);
check(elsewhere === null, "another tab has no key");
await other.close();

// A key without the operation's scope, in a tab of its own (no key kept):
// 403 shown, another key asked for, and the right key draws the sheet.
const scopedContext = await browser.newContext({ viewport: { width: 1280, height: 1024 } });
page = await scopedContext.newPage();
watch(page);
await page.goto(`${base}/viewer`);
await page.fill("#record", JSON.stringify(match, null, 2));
await answered("#show");
await page.fill("#key", scoped);
await answered("#use-key");
const forbidden = await problem();
check(/Forbidden/.test(forbidden) && /code: forbidden/.test(forbidden),
  `a key without the scope shows the 403 problem: ${forbidden}`);
check(!(await page.locator("#picture svg").count()), "no picture for a key without the scope");
const askedAgain = await keyBoxShown();
check(askedAgain, "after a 403 the page asks for another key");
await page.screenshot({ path: `${out}/keyed-forbidden.png`, fullPage: true });
if (askedAgain) {
  await page.fill("#key", key);
  await answered("#use-key");
  const drawn = await page
    .locator(`#picture text[data-row="total"][data-col="0.total"]`)
    .first()
    .textContent()
    .catch(() => null);
  check(drawn === String(answer.final[match.players[0]].total),
    `after the 403, the right key draws the sheet (${match.players[0]}'s total ${drawn})`);
  check(sent.at(-1) === `Bearer ${key}`, "the other key is sent as Authorization: Bearer");
  const held = await stored();
  check(held.session === key && held.local.length === 0 && !held.cookies.includes(key),
    "the other key is kept in sessionStorage only");
  check((await page.inputValue("#key")) === "", "the key field is emptied after the other key");
}
await scopedContext.close();

check(foreign.length === 0, `no request left the service (${foreign.join(", ")})`);
check(errors.length === 0, `no console error (${errors.join(" | ")})`);
await context.close();
await browser.close();
if (failures.length) {
  console.error(`${failures.length} checks failed`);
  process.exit(1);
}
console.log(`the viewer asks for a key, keeps it for the tab only, and refuses a wrong one; screenshots in ${out}`);
