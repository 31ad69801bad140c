// `npm run bench`: every benchmark, each compared with a baseline measured in the same run where one
// applies; prints the table and writes bench/results.md with the command and the machine.
import * as fs from "node:fs";
import * as path from "node:path";
import { crudBenchmark, crudReading } from "./crud";
import { harnessBenchmarks } from "./harness";
import { machine, type Row, table } from "./lib";
import { readinessBenchmark } from "./readiness";
import { realPeerBenchmarks, realPeersReading } from "./realPeers";
import { scalingBenchmark } from "./scaling";
import { stormBenchmarks, stormReading, stormSeeds } from "./storm";

// `npm run bench -- scaling` (or crud, readiness, harness, storm, peers) runs only those sections.
// results.md has two parts: crud + readiness + harness + storm + peers, rewritten when all of them ran,
// and the harness scaling section after MARK, rewritten when it ran. BENCH_REPEATS and BENCH_SIZES
// (comma-separated) change the scaling section (default 5 rounds of 200, 1000, 5000); STORM_SEEDS=20
// adds the 429 storm's failure count over that many seeds.
const only = process.argv.slice(2);
const MARK = "<!-- harness scaling: `npm run bench -- scaling` rewrites from here -->";

type Section = { rows: Row[]; notes: string[] };

async function main(): Promise<void> {
  const runs = (section: string) => only.length === 0 || only.includes(section);
  const section = async (names: [string, string, () => Promise<Row[] | Section>][]) => {
    const started = Date.now();
    const out: Section = { rows: [], notes: [] };
    for (const [, name, work] of names) {
      process.stdout.write(`${name}...\n`);
      const result = await work();
      if (Array.isArray(result)) out.rows.push(...result);
      else {
        out.rows.push(...result.rows);
        out.notes.push(...result.notes);
      }
    }
    return { ...out, seconds: (Date.now() - started) / 1000 };
  };
  const header = (command: string, seconds: number) => [
    `Command: \`${command}\` · ${new Date().toISOString()} · ${seconds.toFixed(0)} s`,
    `Machine: ${machine()}`,
    "",
  ];
  const file = path.join(__dirname, "results.md");
  const previous = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  let [mainText, scalingText] = previous.includes(MARK) ? previous.split(MARK) : [previous, ""];
  let wrote = false;

  if (["crud", "readiness", "harness", "storm", "peers"].every(runs)) {
    const seeds = Number(process.env.STORM_SEEDS ?? 0);
    const r = await section([
      [
        "crud",
        "provider CRUD vs raw undici",
        async () => {
          const [loopback, latency] = [await crudBenchmark(200), await crudBenchmark(200, 2)];
          return { rows: [...loopback.rows, ...latency.rows], notes: [...loopback.notes, ...latency.notes] };
        },
      ],
      ["readiness", "custom frontend readiness", readinessBenchmark],
      ["harness", "harness: up, refresh, memory", harnessBenchmarks],
      ["storm", "storms at default settings: 429 with Retry-After 1 s, 503", () => stormBenchmarks()],
      ...(seeds
        ? [
            ["storm", `429 storm over ${seeds} seeds`, () => stormSeeds(seeds)] as [
              string,
              string,
              () => Promise<Section>,
            ],
          ]
        : []),
      ["peers", "real peers: CLI vs harness, real controller vs raw HTTP", () => realPeerBenchmarks()],
    ]);
    mainText = [
      "# Benchmark results",
      "",
      ...header("npm run bench", r.seconds),
      table(r.rows),
      "",
      ...r.notes.map((n) => `- ${n}`),
      "",
      ANALYSIS,
    ].join("\n");
    wrote = true;
  }
  if (runs("scaling")) {
    const r = await section([
      [
        "scaling",
        "harness scaling: up, refresh, destroy of N resources",
        () =>
          scalingBenchmark({
            sizes: (process.env.BENCH_SIZES ?? "200,1000,5000").split(",").map(Number),
            repeats: Number(process.env.BENCH_REPEATS ?? 5),
          }),
      ],
    ]);
    scalingText = [
      "",
      "## Harness scaling",
      "",
      ...header("npm run bench -- scaling", r.seconds),
      table(r.rows),
      "",
      ...r.notes.map((n) => `- ${n}`),
      "",
      SCALING_ANALYSIS,
    ].join("\n");
    wrote = true;
  }
  const text = `${mainText.trimEnd()}\n\n${MARK}\n${scalingText.trim() ? `${scalingText.trim()}\n` : ""}`;
  if (wrote) fs.writeFileSync(file, text);
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
${stormReading}
${realPeersReading}
`;

// The scaling section's misses, with the profiles that explain them.
const SCALING_ANALYSIS = `### Reading the figures

- **Read the CPU-time rows for growth.** The development machine's 2 cores were shared with other
  jobs during these runs (load average up to 18), so wall times include waiting for a core and vary
  up to 5x between rounds; CPU time of the harness process (\`harnessCpuMs\` in the report) varies
  far less. Times include the fixed start-up of the harness and the host, which flattens the
  exponents; the cost per added resource does not grow either: \`up\` took 2.2 ms of harness CPU per
  resource from 200 to 1000 and 1.8 ms from 1000 to 5000 (medians of 5 rounds), refresh 1.2 and 0.6,
  destroy 0.6 and 0.4.
- **What made the harness superlinear, from a CPU profile of \`up\` of 2000** (inspector profile of
  the harness process): every finished step copied the state's resource list and found its old
  resource by scanning it (\`done\`, \`runStep\`), and every batch of finished steps sorted the whole
  state into dependency order with one \`Set\` per resource and built an 8-element array per resource to
  see what changed (\`flush\`, \`dependencyOrder\`, \`save\`): together 0.5 s of self time at 2000 and
  growing with N squared, plus the garbage collection of what they allocated (GC: 2.7 s of 15 s).
  \`destroy\` compared every pair of targets in each wave and copied the remaining list per delete.
  Now steps edit the state in place, old resources come from an index by URN made when the program
  starts, the dependency order is computed only when a snapshot is written (iteratively: a 20000-long
  chain overflowed the recursive walk), and a delete wave is found in one pass.
- **Before and after these changes** (variants interleaved on the same loaded machine, N = 2000, the
  harness of commit 8caa52e against this one): \`up\` 7.2-7.6 s of harness CPU before, 5.5 s after, peak
  RSS 623-628 MiB before, 556 MiB after; \`destroy\` 2.2-2.3 s before, 2.0 s after; \`refresh\` 2.9-3.0 s
  before, 2.7-2.8 s after. Loading Pulumi's runtime only for \`up\` and \`preview\` (refresh and destroy
  need only its protobuf and gRPC modules): \`refresh\` and \`destroy\` of 10 resources peak at 76 MiB
  instead of 137 MiB, with 0.2 s of CPU instead of 0.53 s.
- **Peak RSS of \`up\`: the 300 MiB target is missed, and why (heap snapshots, memory trace).** The
  program runs inside the harness process, and Pulumi's runtime keeps every resource the program
  constructed (its Outputs, their promises and resolvers, the prepared RegisterResource request) until
  that resource's step is answered. A program that declares N resources in a loop constructs all of
  them before the first step ends, so at the peak nearly all N are pending. A heap snapshot with 1000
  resources pending (harness monitor, steps that only wait 1 ms: no host, no state) held 165 MB: 28 MB
  of it stack-trace strings that Pulumi's \`debuggablePromise\` formats for every promise (about 30 per
  resource, for a leak report printed only under PULUMI_DEBUG_PROMISE_LEAKS), 19 MB closures (357 per
  resource), 25 MB promises, promise reactions and contexts, 19 MB arrays. The harness now keeps no
  stack frames while the program runs (unless \`--debug\` or PULUMI_DEBUG_PROMISE_LEAKS): 132 MB at 1000
  pending, and formatting those stacks had been 12% of the CPU profile. What remains, about 90 KB per
  pending resource, is Pulumi's runtime itself: the same no-host experiment peaks at 273 MiB RSS for
  1000 resources and 687 MiB for 5000. On top of the live heap, V8 lets garbage grow to about the
  size of the live set before a full collection: a memory trace of \`up\` of 5000 shows the heap rising
  from 472 to 831 MB across the steps with no major GC. \`--heap-growing-percent=20\` lowered the peak
  RSS of \`up\` of 2000 from 556 to 389 MiB (refresh: 224 to 178 MiB) for 19-32% more harness CPU
  (variants interleaved): not adopted. Meeting 300 MiB at 5000 needs the program out of the harness
  process, as the Pulumi CLI runs it (a language host process beside the engine); the harness would then
  hold about what it holds for refresh and destroy, with the program's process reported beside it.
  Not done here.
`;

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
