// What a provider host loads when it starts: the kinds that make or read certificates need
// node-forge, the others must not pay for loading it (it is about 40 modules, in every host start-up).
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const root = path.resolve(__dirname, "..");

/** The packages loaded in a fresh Node process after running `script` (provider modules via ts-node). */
function loadedAfter(script: string): string[] {
  const out = execFileSync(
    process.execPath,
    [
      "-r",
      "ts-node/register/transpile-only",
      "-e",
      `${script}; console.log(JSON.stringify(Object.keys(require.cache)))`,
    ],
    { cwd: root, encoding: "utf8" },
  );
  const files = JSON.parse(out.trim().split("\n").pop() as string) as string[];
  return [
    ...new Set(files.map((f) => f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1]).filter(Boolean)),
  ] as string[];
}

describe("provider host start-up", () => {
  // The kinds that use it still work: test/edge-resources.test.ts (CA verification),
  // test/frontdoor-certificates.test.ts (CSRs), test/identity-enrollment.test.ts (EST answers).
  it("a Service host loads undici and zod, not node-forge", () => {
    // The kind module loads the engine on the provider's first call (provider/dynamic.ts): a host
    // that serves a Service has both.
    const loaded = loadedAfter('require("./provider/kinds/Service"); require("./provider/engine")');
    assert.ok(loaded.includes("undici") && loaded.includes("zod"), loaded.join(", "));
    assert.ok(!loaded.includes("node-forge"), loaded.join(", "));
  });
});
