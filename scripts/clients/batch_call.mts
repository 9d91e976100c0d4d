// One batch through a client typed by the generated TypeScript: openapi-fetch
// over the `paths` that openapi-typescript generates from the document (by
// typecheck.mjs, into target/clients/ts). The JSON form of
// POST /v1/hands/analyze/batch: its body typed as the document's request
// lines, its answer as `AnalyzeBatchLine[]`. Type-checked under `tsc --strict`
// and run against the live service by check.sh:
//
//   node batch_call.mjs BASE_URL
import createClient from "openapi-fetch";
import type { components, paths } from "../../target/clients/ts/openapi";

declare const process: { argv: string[]; exit(code: number): never };

type Line = components["schemas"]["AnalyzeBatchLine"];

const client = createClient<paths>({ baseUrl: process.argv[2] });
const hand = ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"];
const { data, error, response } = await client.POST("/v1/hands/analyze/batch", {
  body: [{ id: "a", hand }, { id: 2, hand: ["AS"] }],
});
const lines: Line[] | undefined = data;
const faults: string[] = [];
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
