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
  it("a Service host loads zod, not node-forge; undici only with its first HTTP client", () => {
    // The kind module loads the engine on the provider's first call (provider/dynamic.ts), and the
    // engine the Service kind's definition: a host that serves a Service has zod. undici comes with
    // the first client (the first request): a host that only checks and diffs never loads it.
    const started =
      'require("./provider/kinds/Service"); require("./provider/engine").fromState(require("./provider/resources").resourceDefinition("Service"), {})';
    const loaded = loadedAfter(started);
    assert.ok(loaded.includes("zod"), loaded.join(", "));
    assert.ok(!loaded.includes("undici"), loaded.join(", "));
    assert.ok(!loaded.includes("node-forge"), loaded.join(", "));
    // A client made (no request sent: the pool connects on the first request).
    const client = `${started}; const { HttpClient, noAuth } = require("./provider/http/client"); new HttpClient({ baseUrl: "http://127.0.0.1:9" }, noAuth, () => ({}))`;
    const withClient = loadedAfter(client);
    assert.ok(withClient.includes("undici"), withClient.join(", "));
    assert.ok(!withClient.includes("node-forge"), withClient.join(", "));
  });
});
