// `npm run bench`: every benchmark, each compared with a baseline measured in the same run where one
// applies; prints the table and writes bench/results.md with the command and the machine.
import * as fs from "node:fs";
import * as path from "node:path";
import { crudBenchmark, crudReading } from "./crud";
import { harnessBenchmarks } from "./harness";
import { machine, type Row, table } from "./lib";
import { readinessBenchmark } from "./readiness";
import { realPeerBenchmarks, realPeersReading } from "./realPeers";
import { stormBenchmarks, stormReading, stormSeeds } from "./storm";

async function main(): Promise<void> {
  const started = Date.now();
  const rows: Row[] = [];
  const notes: string[] = [];
  const step = async (name: string, work: () => Promise<Row[] | { rows: Row[]; notes: string[] }>) => {
    process.stdout.write(`${name}...\n`);
    const result = await work();
    if (Array.isArray(result)) rows.push(...result);
    else {
      rows.push(...result.rows);
      notes.push(...result.notes);
    }
  };
  await step("provider CRUD vs raw undici", async () => {
    const [loopback, latency] = [await crudBenchmark(200), await crudBenchmark(200, 2)];
    return { rows: [...loopback.rows, ...latency.rows], notes: [...loopback.notes, ...latency.notes] };
  });
  await step("custom frontend readiness", readinessBenchmark);
  await step("harness: up, refresh, storm, memory", harnessBenchmarks);
  await step("storms at default settings: 429 with Retry-After 1 s, 503", () => stormBenchmarks());
  const seeds = Number(process.env.STORM_SEEDS ?? 0); // STORM_SEEDS=20: the 20-seed failure count
  if (seeds) await step(`429 storm over ${seeds} seeds`, () => stormSeeds(seeds));
  await step("real peers: CLI vs harness, real controller vs raw HTTP", () => realPeerBenchmarks());
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
  fs.writeFileSync(path.join(__dirname, "results.md"), text);
  console.log(`\n${text}`);
}

// Why the targets that are missed are missed, and what would reach them. Kept with the figures, so
// the reasoning is reviewed whenever the numbers change.
const ANALYSIS = `## Reading the figures

${crudReading}
- **Harness up vs raw sequential HTTP, loopback.** The harness starts a process, loads the program
  and @pulumi/pulumi, starts the dynamic-provider host and configures it (about 1.5 s of the total)
  before its first request; 200 sequential loopback POSTs take about 60 ms. No per-resource cost can
  make up for that fixed start-up at this size. With 10 ms of API latency, which any real API has,
  the harness (16 steps in parallel, as the engine) is faster than sequential raw HTTP: the target is
  met. The per-resource cost after start-up is a few milliseconds (1000 resources in under 5 s).
- **Refresh of 500**: exactly one GET per resource and never more sockets than the pool (16).
- **429 storm**: every 429 carries Retry-After: 0, so retries cost no waiting; the storm adds its
  refused requests and nothing else.
${stormReading}
${realPeersReading}
`;

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
