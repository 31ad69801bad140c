// `npm run bench`: every benchmark, each compared with a baseline measured in the same run where one
// applies; prints the table and writes bench/results.md with the command and the machine.
import * as fs from "node:fs";
import * as path from "node:path";
import { crudBenchmark } from "./crud";
import { harnessBenchmarks } from "./harness";
import { machine, type Row, table } from "./lib";
import { readinessBenchmark } from "./readiness";
import { scalingBenchmark } from "./scaling";

// `npm run bench -- scaling` (or crud, readiness, harness) runs only those sections and prints them;
// results.md is written only by a complete run. BENCH_REPEATS and BENCH_SIZES (comma-separated)
// change the harness scaling section (default 5 rounds of 200, 1000, 5000).
const only = process.argv.slice(2);

async function main(): Promise<void> {
  const started = Date.now();
  const rows: Row[] = [];
  const notes: string[] = [];
  const step = async (
    section: string,
    name: string,
    work: () => Promise<Row[] | { rows: Row[]; notes: string[] }>,
  ) => {
    if (only.length > 0 && !only.includes(section)) return;
    process.stdout.write(`${name}...\n`);
    const result = await work();
    if (Array.isArray(result)) rows.push(...result);
    else {
      rows.push(...result.rows);
      notes.push(...result.notes);
    }
  };
  await step("crud", "provider CRUD vs raw undici", async () => [
    ...(await crudBenchmark(200)),
    ...(await crudBenchmark(200, 2)),
  ]);
  await step("readiness", "custom frontend readiness", readinessBenchmark);
  await step("harness", "harness: up, refresh, storm", harnessBenchmarks);
  await step("scaling", "harness scaling: up, refresh, destroy of N resources", () =>
    scalingBenchmark({
      sizes: (process.env.BENCH_SIZES ?? "200,1000,5000").split(",").map(Number),
      repeats: Number(process.env.BENCH_REPEATS ?? 5),
    }),
  );
  const text = [
    "# Benchmark results",
    "",
    `Command: \`npm run bench\` · ${new Date().toISOString()} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
    `Machine: ${machine()}`,
    "",
    table(rows),
    "",
    ...notes.map((n) => `- ${n}`),
    "",
    ANALYSIS,
  ].join("\n");
  if (only.length === 0) fs.writeFileSync(path.join(__dirname, "results.md"), text);
  console.log(`\n${text}`);
}

// Why the targets that are missed are missed, and what would reach them. Kept with the figures, so
// the reasoning is reviewed whenever the numbers change.
const ANALYSIS = `## Reading the figures

- **Provider CRUD vs raw undici.** Both sides send the same 800 requests, 16 at a time, to the mock in
  its own process. The provider adds a fixed CPU cost per operation (zod check about 5 µs, diff about
  1 µs, plus error mapping, output normalisation and its async layers): some tens of microseconds.
  At loopback speed a request costs the raw client about 50 µs, so that fixed cost shows as 1.1-1.5x
  (the figure varies between runs on a 2-core machine that also runs the server). With 2 ms of API
  latency it is at or near the 1.10x target, and against a real API (tens of milliseconds per call)
  it is lost in the noise. Reaching 1.10x at loopback would take removing per-request work (e.g.
  skipping the zod parse when check already ran), which is not worth the loss of clarity.
- **Harness up vs raw sequential HTTP, loopback.** The harness starts a process, loads the program
  and @pulumi/pulumi, starts the dynamic-provider host and configures it (about 1.5 s of the total)
  before its first request; 200 sequential loopback POSTs take about 60 ms. No per-resource cost can
  make up for that fixed start-up at this size. With 10 ms of API latency, which any real API has,
  the harness (16 steps in parallel, as the engine) is faster than sequential raw HTTP: the target is
  met. The per-resource cost after start-up is a few milliseconds (1000 resources in under 5 s).
- **Refresh of 500**: exactly one GET per resource and never more sockets than the pool (16).
- **429 storm**: every 429 carries Retry-After: 0, so retries cost no waiting; the storm adds its
  refused requests and nothing else.
`;

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
