// The viewer: sends the record pasted or dropped to the operation it fits,
// asking for the SVG, and shows the picture or the problem. Text from the
// service is written with textContent; the SVG is parsed as XML (no script
// runs there) and adopted. A key, when the service asks for one (401) or
// refuses the one given for this operation (403), is asked for and kept in
// sessionStorage: this tab only.
"use strict";

const KEY = "gin-referee-api-key";

function routeOf(record) {
  if (record && Array.isArray(record.actions) && record.deal) return "/v1/hands/audit";
  const hands = record && Array.isArray(record.hands) ? record.hands : null;
  if (!hands) return null;
  const recorded = (hand) => hand && (hand.deal || (Array.isArray(hand.tables) && hand.tables.some((t) => t && t.deal)));
  return hands.some(recorded) ? "/v1/matches/audit" : "/v1/matches/score";
}

function showProblem(title, detail, code, errors) {
  const box = document.getElementById("problem");
  box.replaceChildren();
  const heading = document.createElement("strong");
  heading.textContent = title;
  box.append(heading);
  if (code) {
    const codeLine = document.createElement("p");
    codeLine.textContent = "code: " + code;
    codeLine.className = "code";
    box.append(codeLine);
  }
  if (detail) {
    const p = document.createElement("p");
    p.textContent = detail;
    box.append(p);
  }
  if (Array.isArray(errors) && errors.length) {
    const list = document.createElement("ul");
    for (const error of errors) {
      const item = document.createElement("li");
      item.textContent = `${error.pointer || "(body)"}: ${error.message || ""} (${error.code || ""})`;
      list.append(item);
    }
    box.append(list);
  }
  box.hidden = false;
  document.getElementById("picture").replaceChildren();
}

async function show() {
  const text = document.getElementById("record").value;
  const routeLine = document.getElementById("route");
  document.getElementById("problem").hidden = true;
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    showProblem("The record is not JSON", String(error.message || error), null, null);
    return;
  }
  const route = routeOf(record);
  if (!route) {
    showProblem("Not a hand or match record",
      "A hand has \"deal\" and \"actions\"; a match has \"players\" or \"teams\" and \"hands\".", null, null);
    return;
  }
  routeLine.textContent = "POST " + route;
  const headers = { "Content-Type": "application/json", "Accept": "image/svg+xml" };
  const key = sessionStorage.getItem(KEY);
  if (key) headers["Authorization"] = "Bearer " + key;
  let response;
  try {
    response = await fetch(route, { method: "POST", headers, body: text });
  } catch (error) {
    showProblem("The service could not be reached", String(error.message || error), null, null);
    return;
  }
  if (response.status === 401 || response.status === 403) askForKey(response.status);
  const type = response.headers.get("Content-Type") || "";
  if (response.ok && type.startsWith("image/svg+xml")) {
    const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
    const picture = document.getElementById("picture");
    picture.replaceChildren(document.importNode(svg.documentElement, true));
    return;
  }
  let problem = {};
  try {
    problem = await response.json();
  } catch (error) {
    problem = { title: `HTTP ${response.status}` };
  }
  showProblem(problem.title || `HTTP ${response.status}`, problem.detail, problem.code, problem.errors);
}

// Shows the key field. An unknown key (401) is forgotten; a key without this
// operation's scope (403) stays until another is given, as it may serve
// other records.
function askForKey(status) {
  if (status === 401) sessionStorage.removeItem(KEY);
  document.getElementById("key-label").textContent = status === 403
    ? "This key may not do this; enter another API key (kept for this tab only): "
    : "This service needs an API key (kept for this tab only): ";
  document.getElementById("key-box").hidden = false;
  document.getElementById("key").focus();
}

function useKey() {
  const field = document.getElementById("key");
  if (field.value) sessionStorage.setItem(KEY, field.value);
  field.value = "";
  document.getElementById("key-box").hidden = true;
  show();
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("show").addEventListener("click", show);
  document.getElementById("use-key").addEventListener("click", useKey);
  const drop = document.getElementById("drop");
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const file = event.dataTransfer.files[0];
    if (!file) return;
    document.getElementById("record").value = await file.text();
    show();
  });
  document.getElementById("record").addEventListener("paste", () => setTimeout(show, 0));
});
