// `up` of 200 through the harness under a storm of refusals, at the provider's default settings (no
// retry count limit: the 120 s time budget ends retries), against the same `up` without faults:
// - a 30% 429 storm whose answers carry Retry-After: 1 (what rate limiters send), and
// - a 30% 503 storm without Retry-After (the provider's own exponential backoff with jitter),
// each run REPEATS times, the variants interleaved (calm, 429, 503, calm, ...) so load on a shared
// machine falls on all of them alike. Every run gets a fresh mock and state, so no destroy sits between.
//
// Beside the figures, the lower bound that honouring Retry-After imposes, from the mock's log: the
// longest chain of refusals one resource met (its create cannot finish sooner) and the refusals'
// waiting spread over the engine's parallel slots (a step waiting to retry holds its slot).
//
// STORM_SEEDS=20 runs that many seeds of the 429 storm (failures are counted, not thrown).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { mockConfig } from "../test/support/engine";
import { median, type Row, row } from "./lib";

const program = path.join(__dirname, "programs", "many");
const COUNT = 200;
const RATE = 0.3;
const RETRY_AFTER_SECONDS = 1;
const DEFAULT_PARALLEL = 16; // the harness's default, as the engine's --parallel

type Storm = "none" | "429" | "503";

interface StormRun {
  ms: number;
  ok: boolean;
  refusals: number;
  /** Most refusals met by one resource's create in a row. */
  longestChain: number;
  /** Time from each refusal to the same request sent again, as the server saw it. */
  waitsMs: number[];
  error?: string;
}

/** Stack config at the provider's defaults: mockConfig's test-speed maxRetries is dropped. */
function options(mock: MockServer, parallel: number) {
  const config = mockConfig(mock);
  const token = config["frontdoor:token"];
  delete config["frontdoor:token"];
  delete config["frontdoor:maxRetries"];
  return {
    programDir: program,
    stateFile: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fd-storm-")), "state.json"),
    config: { ...config, count: String(COUNT) },
    secretConfig: { "frontdoor:token": token, clientSecret: "bench-client-secret" },
    parallel,
  };
}

export async function stormRun(storm: Storm, seed: number, parallel = DEFAULT_PARALLEL): Promise<StormRun> {
  const mock = await startMockServer();
  try {
    if (storm === "429")
      mock.faults.random({ seed, rate: RATE, kinds: ["429"], retryAfterSeconds: RETRY_AFTER_SECONDS });
    if (storm === "503") mock.faults.random({ seed, rate: RATE, kinds: ["503"] });
    const opts = options(mock, parallel);
    const result = await runHarness("up", opts);
    fs.rmSync(path.dirname(opts.stateFile), { recursive: true, force: true });
    const created = mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers").length;
    const ok = result.exitCode === 0 && created === COUNT;
    return {
      ms: result.report.durationMs,
      ok,
      ...refusalChains(mock),
      error: ok ? undefined : `exit ${result.exitCode}, ${created} created: ${result.stderr.slice(-500)}`,
    };
  } finally {
    await mock.close();
  }
}

/**
 * Refusals in the log, the longest run of them on one resource's create (by the name it sends), and
 * how long after a refusal the same request came again (the provider's wait, seen by the server).
 */
function refusalChains(mock: MockServer): { refusals: number; longestChain: number; waitsMs: number[] } {
  const chains = new Map<string, number>();
  const refusedAt = new Map<string, number>();
  const waitsMs: number[] = [];
  let refusals = 0;
  for (const entry of mock.log) {
    const name = entry.body ? (JSON.parse(entry.body) as { name?: string }).name : undefined;
    const key = `${entry.method} ${entry.path} ${name ?? ""}`;
    const at = Date.parse(entry.at);
    const refused = refusedAt.get(key);
    if (refused !== undefined) {
      waitsMs.push(at - refused);
      refusedAt.delete(key);
    }
    if (entry.status !== 429 && entry.status !== 503) continue;
    refusals++;
    chains.set(key, (chains.get(key) ?? 0) + 1);
    refusedAt.set(key, at);
  }
  return { refusals, longestChain: Math.max(0, ...chains.values()), waitsMs };
}

const spread = (values: number[]) =>
  `min ${Math.round(Math.min(...values))} / median ${Math.round(median(values))} / max ${Math.round(Math.max(...values))} ms`;

export async function stormBenchmarks(repeats = 5): Promise<{ rows: Row[]; notes: string[] }> {
  const runs: Record<Storm, StormRun[]> = { none: [], "429": [], "503": [] };
  // The same 429 storm with a slot for every step: what is left is the longest chain of refusals.
  const unbounded: StormRun[] = [];
  for (let i = 0; i < repeats; i++) {
    for (const storm of ["none", "429", "503"] as const) runs[storm].push(await stormRun(storm, 100 + i));
    unbounded.push(await stormRun("429", 100 + i, COUNT));
  }
  const calm = median(runs.none.map((r) => r.ms));
  const rows: Row[] = [];
  const notes: string[] = [];
  const describe: Record<Exclude<Storm, "none">, string> = {
    "429": `30% 429 storm, Retry-After: ${RETRY_AFTER_SECONDS}`,
    "503": "30% 503 storm, provider backoff",
  };
  for (const storm of ["429", "503"] as const) {
    const list = runs[storm];
    const failed = list.filter((r) => !r.ok);
    rows.push(
      row(
        `Harness up of ${COUNT} under a ${describe[storm]}, default settings, parallel ${DEFAULT_PARALLEL} vs no faults (median of ${repeats}, interleaved; ${failed.length} failed)`,
        median(list.map((r) => r.ms)),
        calm,
        1.5,
      ),
    );
    notes.push(
      `${describe[storm]}: ${spread(list.map((r) => r.ms))}; no faults ${spread(runs.none.map((r) => r.ms))}; ` +
        `refusals per run ${list.map((r) => r.refusals).join(", ")}; longest chain on one resource ` +
        `${list.map((r) => r.longestChain).join(", ")}; wait from a refusal to the retry (server's clock) ` +
        `${spread(list.flatMap((r) => r.waitsMs))}` +
        (storm === "429"
          ? `; waiting floor from Retry-After: max(longest chain x ${RETRY_AFTER_SECONDS} s, refusals x ${RETRY_AFTER_SECONDS} s / ${DEFAULT_PARALLEL} slots) = ` +
            list
              .map((r) => `${Math.max(r.longestChain, r.refusals / DEFAULT_PARALLEL) * RETRY_AFTER_SECONDS}`)
              .map((s) => `${Number(s).toFixed(1)} s`)
              .join(", ")
          : ""),
    );
    for (const r of failed) notes.push(`${describe[storm]} failure: ${r.error}`);
  }
  // No client that honours Retry-After can finish before the resource that met the longest chain of
  // refusals has waited them out: that bound, against the same no-fault time, beside the target.
  const chainFloorMs = median(runs["429"].map((r) => r.longestChain)) * RETRY_AFTER_SECONDS * 1000;
  rows.push(
    row(
      `Lower bound for any client honouring Retry-After under the 429 storm: no-fault up + median longest chain of refusals on one resource x ${RETRY_AFTER_SECONDS} s, vs no faults`,
      calm + chainFloorMs,
      calm,
      undefined,
    ),
  );
  rows.push(
    row(
      `Harness up of ${COUNT} under the same 429 storm, parallel ${COUNT} (a slot per step) vs no faults at parallel ${DEFAULT_PARALLEL}`,
      median(unbounded.map((r) => r.ms)),
      calm,
      1.5,
    ),
  );
  notes.push(
    `429 storm at parallel ${COUNT}: ${spread(unbounded.map((r) => r.ms))}; longest chain ${unbounded.map((r) => r.longestChain).join(", ")}`,
  );
  return { rows, notes };
}

/** The 20-seed run of the 429 storm: failures and the spread of its cost (STORM_SEEDS=20). */
export async function stormSeeds(seeds: number): Promise<{ rows: Row[]; notes: string[] }> {
  const list: StormRun[] = [];
  for (let seed = 1; seed <= seeds; seed++) list.push(await stormRun("429", seed));
  const failed = list.filter((r) => !r.ok);
  return {
    rows: [
      {
        name: `Harness up of ${COUNT} under a 30% 429 storm (Retry-After: ${RETRY_AFTER_SECONDS}), default settings: failed runs over ${seeds} seeds`,
        measured: `${failed.length} failed`,
        baseline: "-",
        ratio: "-",
        target: "= 0 failed",
        verdict: failed.length === 0 ? "met" : "MISSED",
      },
    ],
    notes: [
      `429 storm over ${seeds} seeds: ${spread(list.map((r) => r.ms))}; longest chain per seed ${list.map((r) => r.longestChain).join(", ")}`,
      ...failed.map((r) => `seed failure: ${r.error}`),
    ],
  };
}

/** The "Reading the figures" entry of these rows (bench/results.md). */
export const stormReading = `- **Storms at default settings (429 with Retry-After: 1 s, 503 with the provider's backoff): the
  1.5x target is MISSED, and no client that honours Retry-After can meet it here.** Run of
  2026-11-25 01:47 UTC on the quiet machine. The mock refuses 30% of requests at random, each
  attempt independently, so a resource's create meets a chain of k refusals with probability 0.3^k,
  and must wait k x 1 s before it can succeed. With 200 resources the longest chain is 4.4 in
  expectation (sum over m of 1 - (1 - 0.3^m)^200); the mock's log measured 5-7 in these runs (3-8 over
  all runs and seeds). No scheduling hides that wait: the \`up\` cannot end before that resource is
  created. The no-fault \`up\` of 200 now takes 1.7 s (program out of the harness process, quiet
  machine), so the bound alone is 4.6x (the "lower bound" row: no-fault time + median longest chain x
  1 s). Measured: 5.6x at parallel 16 (a step waiting to retry holds its engine slot, as in the
  engine, so about 95 refusals x 1 s / 16 slots = 6 s of waiting queue up as well: the floor in the
  notes), 3.9x at parallel 200 (a slot per step: at the bound). The provider waits what the server
  asks and no more: from a refusal to the retry the mock's clock saw min 999 / median 1001 / max
  1012 ms. The target would need a no-fault \`up\` of at least 2 x 4.4 s = 8.8 s (it was met, 1.39x,
  when the loaded machine made the no-fault up take 6.4 s), or retries sooner than Retry-After, which
  a rate-limited server forbids. The 503 storm (no Retry-After; the provider's backoff with jitter)
  cost 3.7x: a 503 on a POST is ambiguous, so the provider looks the object up by name before
  sending again, and those lookups are refused 30% of the time too (its "longest chain" in the notes
  counts the lookups of all resources together: they share one request line). Failures: none at
  default settings (the 120 s retry budget): 0 of 20 seeds (STORM_SEEDS=20, earlier run), 0 of 5 +
  5 + 5 repeats here.`;
