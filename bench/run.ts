// `npm run bench`: every benchmark, each compared with a baseline measured in the same run where one
// applies; prints the table and writes bench/results.md with the command and the machine.
import * as fs from "node:fs";
import * as path from "node:path";
import { clusterBenchmark } from "./cluster";
import { crudBenchmark, crudReading } from "./crud";
import { floorBenchmark, floorReading } from "./floor";
import { harnessBenchmarks } from "./harness";
import { machine, type Row, table } from "./lib";
import { pluginBenchmark } from "./plugin";
import { pluginBinaryBenchmark } from "./pluginBinary";
import { profileHost } from "./profileHost";
import { readinessBenchmark } from "./readiness";
import { realPeerBenchmarks, realPeersReading } from "./realPeers";
import { scalingBenchmark } from "./scaling";
import { settingsBenchmark } from "./settings";
import { stormBenchmarks, stormReading, stormSeeds } from "./storm";

// `npm run bench -- scaling` (or crud, readiness, harness, storm, peers) runs only those sections.
// results.md has two parts: crud + readiness + harness + storm + peers, rewritten when all of them ran,
// and the harness scaling section after MARK, rewritten when it ran. BENCH_REPEATS and BENCH_SIZES
// (comma-separated) change the scaling section (default 5 rounds of 200, 1000, 5000); STORM_SEEDS=20
// adds the 429 storm's failure count over that many seeds.
// `npm run bench -- floor` (only when named: it takes long at full size) splits the real CLI's
// up / preview --refresh / destroy of Edge services on the real controller into start-up, program
// start, the engine's floor, the provider's share and the API's time, and writes results-floor.md
// when run at full size (FLOOR_SIZES, default 200,1000; FLOOR_REPEATS, default 3: a round at 1000 services takes about 4 minutes).
// `npm run bench -- settings` (also only when named) measures what users can set (--parallel,
// checkpoints, TypeScript handling) on SETTINGS_SIZE services (default 200, FLOOR_REPEATS rounds)
// and writes results-settings.md at full size. `npm run bench -- plugin` (only when named): the same
// commands of PLUGIN_SIZE services (default 200) with the dynamic provider from TypeScript and the
// provider plugin from YAML, each with its 0-resource start-up, and the plugin's share above a
// do-nothing plugin (bench/noop-plugin) against raw HTTP (results-plugin.md at full size).
// `npm run bench -- binary` (only when named): the self-contained plugin binary beside today's
// launcher: sizes, start-up to a served GetSchema (BINARY_START_ROUNDS, default 10), and the cost per
// service of BINARY_SIZE (default 50) Edge services on the mock (BINARY_ROUNDS, default 3): results-binary.md.
// `npm run bench -- profile` profiles the dynamic-provider host under the real CLI (PROFILE_SIZE,
// PROFILE_DIR) and prints where its time goes; it writes nothing. `npm run bench -- cluster` (only when
// named): leader loss during up of CLUSTER_SIZE objects (default 200) on a real 3-node HA cluster,
// CLUSTER_RUNS times (default 2), each beside a baseline up (results-cluster.md at full size).
const only = process.argv.slice(2);
const MARK = "<!-- harness scaling: `npm run bench -- scaling` rewrites from here -->";

type Section = { rows: Row[]; notes: string[] };

/** A section's figures in results.md: its table, its notes as a list, then the reading kept with them. */
const figures = (r: Section, reading: string) => [
  table(r.rows),
  "",
  ...r.notes.map((n) => `- ${n}`),
  "",
  reading,
];

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
  /** A part of results.md: its heading, the command and machine, then its figures. */
  const report = (heading: string[], command: string, r: Section & { seconds: number }, reading: string) =>
    [...heading, ...header(command, r.seconds), ...figures(r, reading)].join("\n");
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
    mainText = report(["# Benchmark results", ""], "npm run bench", r, ANALYSIS);
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
    scalingText = report(["", "## Harness scaling", ""], "npm run bench -- scaling", r, SCALING_ANALYSIS);
    wrote = true;
  }
  for (const name of Object.keys(NAMED)) if (only.includes(name)) await namedSection(name);
  if (only.includes("profile"))
    console.log(
      await profileHost({
        size: Number(process.env.PROFILE_SIZE ?? 200),
        dir: process.env.PROFILE_DIR,
      }),
    );
  if (!wrote) return;
  const text = `${mainText.trimEnd()}\n\n${MARK}\n${scalingText.trim() ? `${scalingText.trim()}\n` : ""}`;
  fs.writeFileSync(file, text);
  console.log(`\n${text}`);
}

/**
 * The sections run only when named (floor, settings, plugin, binary, cluster): each prints its Markdown and writes it
 * to bench/results-<name>.md only when run at its full size and rounds, so a quick look at small
 * sizes never replaces a full run's figures.
 */
const NAMED: Record<
  string,
  { title: string; env: Record<string, string>; body: (env: Record<string, string>) => Promise<string> }
> = {
  floor: {
    title: "The engine's floor under the real CLI",
    env: { FLOOR_SIZES: "200,1000", FLOOR_REPEATS: "3" },
    body: async (env) => {
      const r = await floorBenchmark({
        sizes: env.FLOOR_SIZES.split(",").map(Number),
        repeats: Number(env.FLOOR_REPEATS),
      });
      return [r.splitTable, "", ...figures(r, floorReading)].join("\n");
    },
  },
  settings: {
    title: "What users can set, measured",
    env: { SETTINGS_SIZE: "200", FLOOR_REPEATS: "3" },
    body: (env) => settingsBenchmark({ size: Number(env.SETTINGS_SIZE), repeats: Number(env.FLOOR_REPEATS) }),
  },
  binary: {
    title: "The self-contained plugin binary beside today's launcher",
    env: { BINARY_SIZE: "50", BINARY_ROUNDS: "3", BINARY_START_ROUNDS: "10" },
    body: (env) =>
      pluginBinaryBenchmark({
        size: Number(env.BINARY_SIZE),
        rounds: Number(env.BINARY_ROUNDS),
        startRounds: Number(env.BINARY_START_ROUNDS),
      }),
  },
  cluster: {
    title: "Leader loss during up on a real 3-node OpenZiti HA cluster",
    env: { CLUSTER_SIZE: "200", CLUSTER_RUNS: "2" },
    body: (env) => clusterBenchmark({ size: Number(env.CLUSTER_SIZE), runs: Number(env.CLUSTER_RUNS) }),
  },
  plugin: {
    title: "The provider plugin beside the dynamic provider",
    env: { PLUGIN_SIZE: "200", FLOOR_REPEATS: "3" },
    body: (env) => pluginBenchmark({ size: Number(env.PLUGIN_SIZE), repeats: Number(env.FLOOR_REPEATS) }),
  },
};

async function namedSection(name: string): Promise<void> {
  const section = NAMED[name];
  const env = Object.fromEntries(Object.entries(section.env).map(([k, v]) => [k, process.env[k] ?? v]));
  const settings = Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const started = Date.now();
  process.stdout.write(`${name}: ${section.title} (${settings})\n`);
  const body = await section.body(env);
  const text = [
    `# ${section.title}`,
    "",
    `Command: \`npm run bench -- ${name}\` (${settings}) · ${new Date().toISOString()} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
    `Machine: ${machine()}`,
    "",
    body,
  ].join("\n");
  console.log(`\n${text}`);
  const full = Object.entries(section.env).every(([k, v]) => env[k] === v);
  const file = `results-${name}.md`;
  if (full) fs.writeFileSync(path.join(__dirname, file), `${text}\n`);
  else console.log(`\n(not written to bench/${file}: not the full size and rounds)`);
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

- **Growth: linear or better up to 5000 (every exponent <= 0.66).** This run (2026-11-25 02:02 UTC)
  was on a quiet machine; earlier runs shared the 2 cores with other jobs (load average up to 18),
  where wall times varied up to 5x between rounds and the CPU-time rows were the ones to read. Times
  include the fixed start-up of the harness and the host, which flattens the exponents; the cost per
  added resource does not grow either (harness CPU per resource, medians: \`up\` 1.1 ms from 200 to
  1000 and 0.7 ms from 1000 to 5000, program process 1.0 and 0.8 ms; refresh 1.0 and 0.5; destroy
  0.8 and 0.4). For \`up\` the rows also give the exponent of the harness and program processes' CPU
  together: the work the harness did in one process before the program moved out.
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
- **Peak RSS of \`up\`: met (246 MiB at 5000; was 1 GiB).** The program now runs in a process of its own,
  as the Pulumi CLI runs it (its Node.js language host starts the program beside the engine): the
  harness forwards each registration from the program process over an IPC channel and answers with
  the step's result (harness/programChild.ts). The harness process holds the state, the steps and
  the gRPC client of the host: 100 / 140 / 246 MiB at 200 / 1000 / 5000, about what it holds for
  refresh (115 / 154 / 256) and destroy (87 / 127 / 216). The program process is reported beside it
  (\`programPeakRssBytes\`): 189 / 279 / 661 MiB. That memory is Pulumi's Node runtime, which keeps
  every resource the program constructed (its Outputs, their promises and resolvers, the prepared
  RegisterResource request) until the resource's step is answered; a program that declares N
  resources in a loop constructs all of them before the first step ends. A heap snapshot with 1000
  resources pending held 165 MB: 28 MB of it stack-trace strings Pulumi's \`debuggablePromise\` formats
  for every promise (for a leak report printed only under PULUMI_DEBUG_PROMISE_LEAKS; the program
  process keeps no frames unless that or \`--debug\` asks), 19 MB closures (357 per resource), 25 MB
  promises and their reactions, 19 MB arrays: about 90 KB per pending resource. The real CLI's program
  process holds the same runtime (bench/results-memory.md: the same program under the real CLI, its
  program process and its engine beside ours). Moving the program out also took its CPU off the
  harness's event loop: \`up\` of 5000 went from 36 s (loaded) / 14.3 s (single quiet run) to 7.7 s.
`;

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
