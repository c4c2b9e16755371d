// The replay page's verifier (services/siegeworks/web/static/verify.mjs) under Node's WebCrypto:
// the normative vectors of docs/dice.md, then the exports that tests/unit/hosting/
// test_verify_js.py writes (a good match, and tampered ones whose first bad seq it knows).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { decode } from "../../clients/js/node_modules/@msgpack/msgpack/dist.esm/index.mjs";
import * as verify from "../../services/siegeworks/web/static/verify.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const vectors = readFileSync(`${root}docs/dice.md`, "utf8").split("\n")
  .filter((line) => line.startsWith('{"fn": ') && line.endsWith("}"))  // one-line vectors
  .map((line) => JSON.parse(line));

test("docs/dice.md has vectors of every function the verifier uses", () => {
  const fns = new Set(vectors.map((v) => v.fn));
  for (const fn of ["commitment", "mix_key", "uniform", "rolls", "shuffle"]) assert.ok(fns.has(fn), fn);
});

test("the verifier's derivation gives every vector of docs/dice.md", async () => {
  let checked = 0;
  for (const v of vectors) {
    const key = v.key && verify.unhex(v.key);
    if (v.fn === "commitment") assert.equal(await verify.commitment(verify.unhex(v.seed)), v.out);
    else if (v.fn === "mix_key") {
      const mixed = await verify.mixKey(verify.unhex(v.seed), v.player_seeds.map(verify.unhex));
      assert.equal(verify.hex(mixed), v.out);
    } else if (v.fn === "uniform") {
      const got = [];
      for (const i of v.indices) got.push(await verify.uniform(key, v.match_id, i, v.n));
      assert.deepEqual(got, v.out, `uniform n=${v.n} ${v.match_id}`);
    } else if (v.fn === "rolls") {
      assert.deepEqual(await verify.rolls(key, v.match_id, v.first_index, v.count, v.sides), v.out);
    } else if (v.fn === "shuffle") {
      assert.deepEqual(await verify.shuffle(key, v.match_id, v.first_index, v.count), v.out);
    } else if (v.fn === "trace") {
      assert.equal(await verify.uniform(key, v.match_id, v.index, v.n), v.out);
    } else continue;
    checked += 1;
  }
  assert.ok(checked >= 15, `only ${checked} vectors checked`);
});

const casesFile = process.env.SIEGE_VERIFY_CASES;
test("exported matches: a good one passes, tampered ones name their first bad seq",
     { skip: casesFile ? false : "run by tests/unit/hosting/test_verify_js.py" }, async () => {
  const { keys, cases } = JSON.parse(readFileSync(casesFile, "utf8"));
  assert.ok(cases.length >= 3);
  for (const c of cases) {
    const result = await verify.verifyExport(readFileSync(c.file, "utf8"), { decode, keys });
    for (const [field, want] of Object.entries(c.expect)) {
      const got = field === "bad_seq" ? result.bad?.seq ?? null : result[field];
      assert.equal(got, want, `${c.name}: ${field} (${result.summary})`);
    }
  }
});
