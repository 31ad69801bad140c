// Benchmarks through the engine harness (the real dynamic-provider host): `up` against raw sequential
// HTTP, refresh request and socket counts, serialized provider and state size (storms: storm.ts).
// Scaling in N and peak memory: scaling.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { type HarnessResult, runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { mockConfig } from "../test/support/engine";
import { exact, type Row, row, timed } from "./lib";

const program = path.join(__dirname, "programs", "many");

function harnessOptions(mock: MockServer, stateFile: string, count: number) {
  const config = mockConfig(mock);
  const token = config["frontdoor:token"];
  delete config["frontdoor:token"];
  return {
    programDir: program,
    stateFile,
    config: { ...config, count: String(count) },
    secretConfig: { "frontdoor:token": token, clientSecret: "bench-client-secret" },
  };
}

async function run(
  command: "up" | "refresh" | "destroy",
  opts: ReturnType<typeof harnessOptions>,
): Promise<HarnessResult> {
  const result = await runHarness(command, opts);
  if (result.exitCode !== 0)
    throw new Error(`harness ${command} failed: ${result.stderr}\n${result.stdout.slice(-2000)}`);
  return result;
}

const tempState = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fd-bench-")), "bench.json");

/** The same creates as raw HTTP, one after another on one connection: the baseline for `up`. */
async function rawSequentialCreates(mock: MockServer, count: number): Promise<number> {
  const url = `${mock.url}/frontdoor/${mock.credentials.frontdoorId}/auth-providers`;
  const headers = {
    authorization: `Bearer ${mock.credentials.frontdoorToken}`,
    "content-type": "application/json",
  };
  const { ms } = await timed(async () => {
    for (let i = 0; i < count; i++) {
      const body = {
        name: `raw-${i}`,
        type: "OIDC",
        data: {
          issuer: "https://login.example.com",
          client_id: `c${i}`,
          client_secret: "s",
          scopes: ["openid"],
          supports_pkce: false,
        },
      };
      const res = await request(url, { method: "POST", headers, body: JSON.stringify(body) });
      await res.body.text();
    }
  });
  for (const item of mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers")) {
    mock.frontdoor.remove(mock.credentials.frontdoorId, "auth-providers", String(item.id));
  }
  return ms;
}

export async function harnessBenchmarks(): Promise<{ rows: Row[]; notes: string[] }> {
  const rows: Row[] = [];
  const notes: string[] = [];

  // up of 200 against raw sequential HTTP, at loopback speed and with 10 ms of API latency per request.
  for (const latencyMs of [0, 10]) {
    const mock = await startMockServer();
    if (latencyMs) mock.faults.random({ seed: 1, rate: 1, kinds: ["delay"], delayMs: latencyMs });
    const raw = await rawSequentialCreates(mock, 200);
    const opts = harnessOptions(mock, tempState(), 200);
    const up = await run("up", opts);
    const where = latencyMs ? `${latencyMs} ms API latency` : "loopback, no added latency";
    rows.push(
      row(`Harness up of 200 resources vs raw sequential HTTP (${where})`, up.report.durationMs, raw, 3),
    );
    if (!latencyMs) {
      const bytes = up.report.resources.map((r) => r.providerBytes);
      rows.push(row("__provider bytes per resource", Math.max(...bytes), undefined, 2048, "bytes"));
      rows.push(
        row(
          "State file bytes per resource",
          fs.statSync(opts.stateFile).size / 200,
          undefined,
          undefined,
          "bytes",
        ),
      );
      notes.push(
        `harness up of 200 includes starting the harness process and the host (a trivial up takes ~1.5 s).`,
      );
    }
    await run("destroy", opts);
    await mock.close();
  }

  // refresh of 500: exactly 500 GETs, sockets bounded by the pool.
  {
    const mock = await startMockServer();
    const opts = harnessOptions(mock, tempState(), 500);
    await run("up", opts);
    mock.clearLog();
    mock.stats.connectionsOpened = 0;
    mock.stats.peakOpenConnections = mock.stats.openConnections;
    const refresh = await run("refresh", opts);
    const gets = mock.log.filter((e) => e.method === "GET").length;
    const others = mock.log.length - gets;
    rows.push(exact("Refresh of 500 resources: GET requests", gets, 500, "requests"));
    rows.push(
      row(
        "Refresh of 500 resources: peak open sockets (pool size 16)",
        mock.stats.peakOpenConnections,
        undefined,
        16,
        "sockets",
      ),
    );
    rows.push(row("Refresh of 500 resources: wall time", refresh.report.durationMs, undefined, undefined));
    if (others) notes.push(`refresh sent ${others} requests besides GETs`);
    await run("destroy", opts);
    await mock.close();
  }

  return { rows, notes };
}
