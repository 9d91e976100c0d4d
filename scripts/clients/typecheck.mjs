// Type-checks every example of the OpenAPI document, of the README and of the
// guides in docs/ against
// the TypeScript types openapi-typescript generates from the document, under
// `tsc --strict`: a document whose types reject its own examples (a field with
// a default turned required, a variant that lost its shape, ...) fails.
//
//   node scripts/clients/typecheck.mjs [openapi.json] [out-dir] [PAGE.md ...]
//
// (the pages default to README.md and every docs/*.md)
//
// Examples checked:
// - each operation's request and response examples (`example` and every value
//   of `examples`), typed as that operation's body for its status and content
//   type; an NDJSON example is a string, split into lines, each typed as the
//   documented line (the item of the body's array schema);
// - each path parameter's examples;
// - each component schema's examples, and those of its properties and array
//   items (not inside `oneOf`/`anyOf`/`allOf`, whose branches have no name in
//   TypeScript);
// - each `curl -s localhost:8080/...` of each page with a JSON body (`-d '...'`)
//   or an NDJSON here-document, and the ```json answer shown right after it
//   (tests/api/readme.rs reads the README the same way), typed as the
//   operation's request body and, for the answer, as its response: the
//   problem's `status` for a problem, else 200.
//
// Also fails on any schema `default` (openapi-typescript makes such a field
// required). Prints one line per failing example and a summary; exits 1 on
// any failure.

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const documentPath = path.resolve(process.argv[2] ?? path.join(root, "openapi/openapi.json"));
const out = path.resolve(process.argv[3] ?? path.join(root, "target/clients/ts"));
const pagePaths = process.argv.length > 4
  ? process.argv.slice(4).map((page) => path.resolve(page))
  : [path.join(root, "README.md"),
     ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).sort()
       .map((f) => path.join(root, "docs", f))];
mkdirSync(out, { recursive: true });

const bin = (name) => path.join(here, "node_modules/.bin", name);
const document = JSON.parse(readFileSync(documentPath, "utf8"));

// 1. The generated types.
execFileSync(bin("openapi-typescript"), [documentPath, "-o", path.join(out, "openapi.d.ts")], {
  stdio: ["ignore", "ignore", "inherit"],
});

// 2. The examples, each with the TypeScript type it must have.
const examples = []; // {where, type, value}
const lit = (key) => JSON.stringify(key);
const add = (where, type, value) => examples.push({ where, type, value });

/** Adds an example value; an NDJSON one line by line. */
function addBodyExample(where, bodyType, contentType, value) {
  if (contentType === "application/x-ndjson") {
    if (typeof value !== "string") {
      add(where, "string", value);
      return;
    }
    value
      .split("\n")
      .filter((line) => line.trim() !== "")
      .forEach((line, index) => {
        let parsed;
        try {
          parsed = JSON.parse(line);
        } catch {
          add(`${where} line ${index + 1} (not JSON)`, "never", line);
          return;
        }
        add(`${where} line ${index + 1}`, `${bodyType}[number]`, parsed);
      });
  } else {
    add(where, bodyType, value);
  }
}

function mediaExamples(media) {
  const found = [];
  if ("example" in media) found.push(["example", media.example]);
  for (const [name, example] of Object.entries(media.examples ?? {})) {
    if (example.$ref) throw new Error(`example ${name} is a $ref: resolve it here`);
    if ("value" in example) found.push([`examples.${name}`, example.value]);
  }
  return found;
}

const operationTypes = {}; // "POST /v1/x" -> {request: {ct: type}, responses: {status: {ct: type}}}
for (const [route, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (!["get", "put", "post", "delete", "patch"].includes(method)) continue;
    const name = `${method.toUpperCase()} ${route}`;
    const op = `paths[${lit(route)}][${lit(method)}]`;
    const types = (operationTypes[name] = { request: {}, responses: {} });
    for (const [contentType, media] of Object.entries(operation.requestBody?.content ?? {})) {
      const type = `NonNullable<${op}["requestBody"]>["content"][${lit(contentType)}]`;
      types.request[contentType] = type;
      for (const [label, value] of mediaExamples(media)) {
        addBodyExample(`${name} request ${contentType} ${label}`, type, contentType, value);
      }
    }
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      types.responses[status] = {};
      for (const [contentType, media] of Object.entries(response.content ?? {})) {
        const type = `${op}["responses"][${status}]["content"][${lit(contentType)}]`;
        types.responses[status][contentType] = type;
        if (!contentType.includes("json")) continue; // text/plain metrics
        for (const [label, value] of mediaExamples(media)) {
          addBodyExample(`${name} ${status} ${contentType} ${label}`, type, contentType, value);
        }
      }
    }
    for (const parameter of operation.parameters ?? []) {
      const type = `${op}["parameters"][${lit(parameter.in)}][${lit(parameter.name)}]`;
      for (const [label, value] of mediaExamples(parameter)) {
        add(`${name} parameter ${parameter.name} ${label}`, type, value);
      }
      for (const [label, value] of schemaExamples(parameter.schema ?? {})) {
        add(`${name} parameter ${parameter.name} schema ${label}`, type, value);
      }
    }
  }
}

function schemaExamples(schema) {
  const found = [];
  if ("example" in schema) found.push(["example", schema.example]);
  (schema.examples ?? []).forEach((value, index) => found.push([`examples[${index}]`, value]));
  return found;
}

/** A component schema's examples, and its properties' and items' (not below a oneOf). */
function walkSchema(where, type, schema) {
  for (const [label, value] of schemaExamples(schema)) add(`${where} ${label}`, type, value);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    walkSchema(`${where}.${name}`, `NonNullable<${type}>[${lit(name)}]`, property);
  }
  if (schema.items && typeof schema.items === "object") {
    walkSchema(`${where}[]`, `NonNullable<${type}>[number]`, schema.items);
  }
}
for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
  walkSchema(`components.schemas.${name}`, `components["schemas"][${lit(name)}]`, schema);
}
const documentExamples = examples.length;

// A schema `default` makes openapi-typescript declare the field required (it
// is always present in an answer), which a request that leaves it out then
// fails; the service states its defaults in descriptions instead.
const defaults = [];
(function findDefaults(value, at) {
  if (Array.isArray(value)) value.forEach((item, index) => findDefaults(item, `${at}/${index}`));
  else if (value && typeof value === "object") {
    const inSchema = at.includes("/schema") && !at.endsWith("/properties");
    if ("default" in value && inSchema) defaults.push(at);
    for (const [key, item] of Object.entries(value)) {
      if (key !== "example" && key !== "examples") findDefaults(item, `${at}/${key}`);
    }
  }
})(document, "");

// The pages' requests and answers, read as tests/api/readme.rs reads them.
const CURL = "curl -s localhost:8080";
function command(text) {
  let end = 0;
  for (const line of text.split(/(?<=\n)/)) {
    end += line.length;
    if (!line.trimEnd().endsWith("\\")) break;
  }
  return text.slice(0, end);
}
let readmeCurls = 0;
for (const pagePath of pagePaths) {
  const readme = readFileSync(pagePath, "utf8");
  const page = path.relative(root, pagePath);
  for (let at = readme.indexOf(CURL); at !== -1; at = readme.indexOf(CURL, at + CURL.length)) {
    const rest = readme.slice(at + CURL.length);
    const route = rest.match(/^\S*/)[0];
    const head = command(rest);
    const line = readme.slice(0, at).split("\n").length;
    const where = `${page}:${line} ${route}`;
    const dash = head.indexOf("-d '");
    const body = dash === -1 ? null : rest.slice(dash + 4, rest.indexOf("'", dash + 4));
    const ndjson = head.includes("--data-binary @- <<'EOF'")
      ? rest.slice(head.length, rest.indexOf("\nEOF", head.length)) + "\n"
      : null;
    const afterFence = rest.indexOf("\n```");
    // The answer's block follows the command's, a blank line between or not.
    const after = afterFence === -1 ? "" : rest.slice(afterFence + 4).replace(/^\n+/, "");
    let shown = null;
    if (after.startsWith("```json\n")) {
      const text = after.slice("```json\n".length).split("\n```")[0];
      try {
        shown = JSON.parse(text);
      } catch {
        add(`${where} answer (not JSON)`, "never", text);
      }
    }
    const method = body !== null || ndjson !== null ? "POST" : "GET";
    const types = operationTypes[`${method} ${route}`];
    if (!types) {
      if (body !== null || ndjson !== null || shown !== null) {
        add(`${where}: ${method} ${route} is not in the document`, "never", null);
      }
      continue;
    }
    readmeCurls += 1;
    if (body !== null) {
      let parsed;
      try {
        parsed = JSON.parse(body);
      } catch {
        add(`${where} request (not JSON)`, "never", body);
      }
      if (parsed !== undefined) {
        const type = types.request["application/json"] ?? "never";
        add(`${where} request`, type, parsed);
      }
    }
    if (ndjson !== null) {
      const type = types.request["application/x-ndjson"] ?? "never";
      addBodyExample(`${where} request`, type, "application/x-ndjson", ndjson);
    }
    if (shown !== null) {
      const problem =
        typeof shown.status === "number" && String(shown.type).includes("/problems/");
      const status = problem ? String(shown.status) : "200";
      const contentType = problem ? "application/problem+json" : "application/json";
      const type = types.responses[status]?.[contentType] ?? "never";
      add(`${where} answer (${status} ${contentType})`, type, shown);
    }
  }
}

// 3. One file, one declaration per example; tsc's errors mapped back by line.
let source = `import type { paths, components } from "./openapi";\n\n`;
const spans = [];
examples.forEach((example, index) => {
  const start = source.split("\n").length;
  source += `// ${example.where.replace(/\n/g, " ")}\n`;
  source += `export const example${index}: ${example.type} = ${JSON.stringify(example.value, null, 2)};\n\n`;
  spans.push([start, source.split("\n").length - 1]);
});
const examplesFile = path.join(out, "examples.ts");
writeFileSync(examplesFile, source);

let output = "";
try {
  execFileSync(
    bin("tsc"),
    ["--strict", "--noEmit", "--skipLibCheck", "false", "--target", "es2022", "--module", "es2022",
      "--moduleResolution", "bundler", "--pretty", "false", examplesFile],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
} catch (error) {
  output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
  if (!output.trim()) throw error;
}

const failing = new Map(); // index -> messages
const unplaced = [];
for (const message of output.split(/\n(?=\S)/).filter((m) => m.trim())) {
  const match = message.match(/examples\.ts\((\d+),\d+\)/);
  const line = match ? Number(match[1]) : -1;
  const index = spans.findIndex(([from, to]) => line >= from && line <= to);
  if (index === -1) unplaced.push(message);
  else failing.set(index, [...(failing.get(index) ?? []), message.replace(/^.*?error /, "")]);
}
for (const [index, messages] of [...failing].sort((a, b) => a[0] - b[0])) {
  console.log(`FAIL ${examples[index].where}`);
  for (const message of messages) console.log(`    ${message.replace(/\n/g, "\n    ")}`);
}
for (const message of unplaced) console.log(`ERROR ${message}`);
for (const at of defaults) console.log(`FAIL ${at}: a schema default (required in the generated type)`);
console.log(
  `typescript: ${examples.length} examples type-checked (${documentExamples} from the document, ` +
    `${examples.length - documentExamples} from ${readmeCurls} commands of ${pagePaths.length} pages), ${failing.size} failing` +
    (unplaced.length ? `, ${unplaced.length} other tsc errors` : ""),
);
process.exit(failing.size || unplaced.length || defaults.length ? 1 : 0);
