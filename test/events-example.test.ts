// The event-report example against the mock: the Pulumi program through the engine harness (it imports
// the installed package, so `npm run build` first, as `npm test` does) and the plain script as users run
// it (ts-node, FRONTDOOR_SEARCH_* env). Both must show totals computed here from the mock's records.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";

const ROOT = path.resolve(__dirname, "..");
const NOW = Date.parse("2024-05-10T12:00:00Z");
const HOUR = 3_600_000;

/**
 * Runs examples/event-report/report.ts with `pulumi-frontdoor` resolved to this checkout's sdk/ (the
 * installed copy in node_modules is only as fresh as the last `npm run build`).
 */
function runReport(env: Record<string, string>, args: string[]) {
  const sdk = path.join(ROOT, "sdk", "index.ts");
  const script = path.join(ROOT, "examples", "event-report", "report.ts");
  const bootstrap = [
    "const Module = require('node:module');",
    "const resolve = Module._resolveFilename;",
    `Module._resolveFilename = function (r, ...rest) { return resolve.call(this, r === 'pulumi-frontdoor' ? ${JSON.stringify(sdk)} : r, ...rest); };`,
    `process.argv.splice(1, 0, ${JSON.stringify(script)});`,
    `require(${JSON.stringify(script)});`,
  ].join("\n");
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["-r", "ts-node/register", "-e", bootstrap, ...args],
      { cwd: ROOT, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true", ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("examples/event-report", () => {
  let mock: MockServer;
  let env: Record<string, string>;

  before(async () => {
    mock = await startMockServer({ search: { now: NOW } });
    env = {
      FRONTDOOR_SEARCH_URL: mock.url,
      FRONTDOOR_SEARCH_USERNAME: mock.credentials.searchUsername,
      FRONTDOOR_SEARCH_PASSWORD: mock.credentials.searchPassword,
    };
  });
  after(() => mock.close());

  const inLastDay = <T extends { source: { "@timestamp": string } }>(docs: T[]) =>
    docs.filter((d) => Date.parse(d.source["@timestamp"]) >= NOW - 24 * HOUR);

  it("the Pulumi program exports the top talkers and alerts (harness up)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "event-report-"));
    try {
      const { exitCode, stderr, report } = await runHarness("up", {
        programDir: path.join(ROOT, "examples", "event-report"),
        stateFile: path.join(dir, "state.json"),
        config: {
          "frontdoor:searchUrl": mock.url,
          "frontdoor:searchUsername": mock.credentials.searchUsername,
        },
        secretConfig: { "frontdoor:searchPassword": mock.credentials.searchPassword },
      });
      assert.equal(exitCode, 0, stderr);
      const tx = new Map<string, number>();
      for (const { source } of inLastDay(mock.search.firewallRecords)) {
        tx.set(source.fw.source_id, (tx.get(source.fw.source_id) ?? 0) + source.fw.usage.circuit.tx);
      }
      const top5 = [...tx].sort((a, b) => b[1] - a[1]).slice(0, 5);
      assert.deepEqual(
        report.outputs.topTalkers.map((s: { sourceId: string; totalTx: number }) => [s.sourceId, s.totalTx]),
        top5,
      );
      assert.equal(report.outputs.alertCount, inLastDay(mock.search.alerts).length);
      assert.equal(report.outputs.recentAlerts.length, 10);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("report.ts prints the top talkers and alerts of the last 24 h", async () => {
    const { code, stdout, stderr } = await runReport(env, ["now-24h", "4"]);
    assert.equal(code, 0, stderr);
    const tx = new Map<string, number>();
    for (const { source } of inLastDay(mock.search.firewallRecords)) {
      tx.set(source.fw.source_id, (tx.get(source.fw.source_id) ?? 0) + source.fw.usage.circuit.tx);
    }
    const [topSource, topTx] = [...tx].sort((a, b) => b[1] - a[1])[0];
    const lines = stdout.split("\n");
    const header = lines.findIndex((l) => l.startsWith("SOURCE"));
    assert.ok(header >= 0, stdout);
    assert.deepEqual(lines[header + 1].split(/\s+/).slice(0, 2), [topSource, String(topTx)]);
    assert.match(
      stdout,
      new RegExp(`Alerts since now-24h: ${inLastDay(mock.search.alerts).length} \\(newest 4\\)`),
    );
  });

  it("report.ts fails with a clear message, without the password, on wrong credentials", async () => {
    const { code, stdout, stderr } = await runReport(
      { ...env, FRONTDOOR_SEARCH_PASSWORD: "wrong-password-42" },
      [],
    );
    assert.notEqual(code, 0);
    assert.match(stderr, /HTTP 401/);
    assert.ok(!`${stdout}${stderr}`.includes("wrong-password-42"));
  });
});
