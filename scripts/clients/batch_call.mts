// One batch through a client typed by the generated TypeScript: openapi-fetch
// over the `paths` that openapi-typescript generates from the document (by
// typecheck.mjs, into target/clients/ts). The JSON form of
// POST /v1/hands/analyze/batch: its body typed as the document's request
// lines, its answer as `AnalyzeBatchLine[]`. Type-checked under `tsc --strict`
// and run against the live service by check.sh:
//
//   node batch_call.mjs BASE_URL API_KEY
//
// The key goes as a bearer token, as the document's security scheme says;
// the same call without it must be refused with 401.
import createClient from "openapi-fetch";
import type { components, paths } from "../../target/clients/ts/openapi";

declare const process: { argv: string[]; exit(code: number): never };

type Line = components["schemas"]["AnalyzeBatchLine"];

const client = createClient<paths>({
  baseUrl: process.argv[2],
  headers: { Authorization: `Bearer ${process.argv[3]}` },
});
const hand = ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"];
const keyless = createClient<paths>({ baseUrl: process.argv[2] });
const refused = await keyless.POST("/v1/hands/analyze", { body: { hand } });
const { data, error, response } = await client.POST("/v1/hands/analyze/batch", {
  body: [{ id: "a", hand }, { id: 2, hand: ["AS"] }],
});
const lines: Line[] | undefined = data;
const faults: string[] = [];
if (refused.response.status !== 401 || refused.error?.code !== "unauthorized") {
  faults.push(`without the key: ${refused.response.status} ${JSON.stringify(refused.error)}`);
}
if (error !== undefined || lines === undefined) {
  faults.push(`answered ${response.status}: ${JSON.stringify(error)}`);
} else {
  const [first, second] = lines;
  if (lines.length !== 2) faults.push(`${lines.length} answers to 2 lines`);
  if (first?.line !== 1 || first.id !== "a") faults.push(`first answer ${JSON.stringify(first)}`);
  const deadwood: number | undefined = first?.result?.deadwood;
  if (deadwood !== 25) faults.push(`deadwood ${deadwood}, expected 25`);
  const code: string | undefined = second?.problem?.code;
  if (code !== "wrong_card_count") faults.push(`second answer's problem ${code}`);
}
for (const fault of faults) console.log(`FAIL typescript batch call: ${fault}`);
console.log(`typescript: one batch through openapi-fetch, ${faults.length} faults`);
process.exit(faults.length ? 1 : 0);
