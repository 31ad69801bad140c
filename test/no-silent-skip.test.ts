// Nothing stops running unnoticed: in CI a committed `.only` or a pending test fails the run (mocha's
// forbidOnly / forbidPending in .mocharc.js), every conditional skip goes through test/support/skip.ts
// (loud; a failure where skipping is forbidden), and no test calls mocha's silent skip directly.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { useTempDir } from "./support/fixtures";
import { skippingForbidden } from "./support/skip";

const ROOT = path.resolve(__dirname, "..");
const MOCHA = path.join(ROOT, "node_modules", "mocha", "bin", "mocha.js");

describe("no silent skip, no stray .only", function () {
  this.timeout(120_000);
  const dir = useTempDir("no-silent-skip-");

  /** Runs mocha with the project's .mocharc.js on one test file written to `dir`. */
  function mocha(name: string, source: string, env: Record<string, string | undefined>) {
    const file = path.join(dir.path, `${name}.test.ts`);
    fs.writeFileSync(file, source);
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
    return spawnSync(process.execPath, [MOCHA, file], { cwd: ROOT, env: childEnv, encoding: "utf8" });
  }
  const local = { CI: undefined, FRONTDOOR_REQUIRE_PEERS: undefined };
  const skipHelper = JSON.stringify(path.join(ROOT, "test", "support", "skip"));

  it("in CI a committed .only fails the run; locally it runs the one test", () => {
    const source = 'describe("s", () => { it.only("a", () => {}); it("b", () => {}); });\n';
    const ci = mocha("only", source, { ...local, CI: "true" });
    assert.notEqual(ci.status, 0, ci.stdout);
    assert.match(`${ci.stdout}${ci.stderr}`, /FORBIDDEN_EXCLUSIVITY|\.only forbidden/i);
    const dev = mocha("only", source, local);
    assert.equal(dev.status, 0, dev.stderr);
    assert.match(dev.stdout, /1 passed, 0 failed/);
  });

  it("in CI a pending test fails the run", () => {
    const ci = mocha("pending", 'describe("s", () => { it.skip("a", () => {}); it("b", () => {}); });\n', {
      ...local,
      CI: "true",
    });
    assert.notEqual(ci.status, 0, ci.stdout);
  });

  it("skipBecause prints why and skips locally; with CI or FRONTDOOR_REQUIRE_PEERS=1 it fails", () => {
    const source =
      `const { skipBecause } = require(${skipHelper});\n` +
      'describe("suite", () => { it("needs a thing", function () { skipBecause(this, "the thing is missing"); }); });\n';
    const dev = mocha("helper", source, local);
    assert.equal(dev.status, 0, dev.stderr);
    assert.match(dev.stdout, /!!! SKIPPING "suite needs a thing": the thing is missing/);
    for (const env of [{ CI: "true" }, { FRONTDOOR_REQUIRE_PEERS: "1" }]) {
      const ci = mocha("helper", source, { ...local, ...env });
      assert.notEqual(ci.status, 0, `${JSON.stringify(env)}: ${ci.stdout}`);
      assert.match(ci.stdout, /cannot run: the thing is missing; skipping is forbidden/);
    }
    assert.equal(skippingForbidden({ CI: "false" }), false);
    assert.equal(skippingForbidden({}), false);
  });

  it("no test skips other than through test/support/skip.ts", () => {
    const offenders: string[] = [];
    const walk = (d: string) => {
      for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
        const file = path.join(d, entry.name);
        if (entry.isDirectory()) {
          if (!["programs", "contracts", "node_modules"].includes(entry.name)) walk(file);
        } else if (/\.ts$/.test(entry.name) && file !== path.join(ROOT, "test", "support", "skip.ts")) {
          const lines = fs.readFileSync(file, "utf8").split("\n");
          lines.forEach((line, i) => {
            // `.skip(` of mocha (it.skip, describe.skip, this.skip(), ctx.skip()), not in a comment.
            if (
              /\b(it|describe|context|this|ctx)\.skip\(|\bx(it|describe)\(/.test(line.replace(/\/\/.*$/, ""))
            )
              offenders.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
          });
        }
      }
    };
    walk(path.join(ROOT, "test"));
    // This file names the patterns in its fixtures, as strings handed to mocha.
    const own = path.relative(ROOT, __filename);
    assert.deepEqual(
      offenders.filter((o) => !o.startsWith(own)),
      [],
    );
  });
});
