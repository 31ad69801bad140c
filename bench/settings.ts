// What users can set, measured (docs/guides/performance.md): the same Edge program of N services on the real
// controller through the real CLI, with the CLI's default settings and with each setting a user can
// change on their side, rounds interleaved. Each variant does up, preview --refresh, destroy.
//   --parallel P                      the CLI's steps in flight (default GOMAXPROCS x 4)
//   PULUMI_SKIP_CHECKPOINTS=true      the CLI writes the state once at the end instead of per step
//   PULUMI_NODEJS_TRANSPILE_ONLY=true ts-node transpiles the program without type-checking it
//   a JavaScript program              compiled first; Pulumi.yaml typescript: false (see VARIANTS)
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { realEdgeConfig, startController } from "../test/peers/controller";
import {
  CLI_PARALLEL,
  COMMANDS,
  type Command,
  cliTime,
  edgeSettings,
  loadavg,
  missingPeers,
  Stacks,
} from "./floor";
import { formatSpread, spreadOf } from "./floorSplit";

const EDGE_MANY = path.join(__dirname, "programs", "edge-many");

interface Variant {
  name: string;
  /** What it gives up, for the table. */
  safety: string;
  parallel?: number;
  env?: NodeJS.ProcessEnv;
  /** Runs on the JavaScript copy of the program (Pulumi.yaml typescript: false). */
  javascript?: boolean;
}

export const VARIANTS: Variant[] = [
  { name: `default (--parallel ${CLI_PARALLEL}, checkpoints, type-checked)`, safety: "-" },
  {
    name: `--parallel ${2 * CLI_PARALLEL}`,
    safety: "none for the state; more requests in flight at the API (its rate limits)",
    parallel: 2 * CLI_PARALLEL,
  },
  {
    name: `--parallel ${4 * CLI_PARALLEL}`,
    safety: "none for the state; more requests in flight at the API (its rate limits)",
    parallel: 4 * CLI_PARALLEL,
  },
  {
    name: "PULUMI_SKIP_CHECKPOINTS=true",
    safety:
      "the state is written only at the end: if the CLI is killed mid-run, objects made so far are not in the state (orphans to import or delete by hand)",
    env: { PULUMI_SKIP_CHECKPOINTS: "true" },
  },
  {
    name: "PULUMI_NODEJS_TRANSPILE_ONLY=true",
    safety:
      "type errors in the program are no longer reported by `pulumi up` (run `tsc --noEmit` in CI instead)",
    env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
  },
  {
    // Checked here: CLI 3.259 passes runtime options in its Run request, and language host v3.68 reads
    // them only as command-line flags, so PULUMI_NODEJS_TYPESCRIPT stays true and ts-node still loads
    // (the program sees it registered); only the program's own compilation is saved.
    name: "JavaScript program (tsc first; Pulumi.yaml typescript: false, not honoured by language host v3.68)",
    safety: "none at run time; the build step must run before every `pulumi` command",
    javascript: true,
  },
];

/** A copy of the program as JavaScript (what `tsc` would emit), run without ts-node. */
function asJavaScript(dir: string): void {
  const source = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
  }).outputText;
  fs.writeFileSync(path.join(dir, "index.js"), js);
  fs.rmSync(path.join(dir, "index.ts"));
  const yaml = fs
    .readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")
    .replace(/^runtime: nodejs$/m, "runtime:\n  name: nodejs\n  options:\n    typescript: false");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...pkg, main: "index.js" }, null, 2));
}

export async function settingsBenchmark(options: { size: number; repeats: number }): Promise<string> {
  const missing = missingPeers();
  if (missing.length) return `settings rows SKIPPED: ${missing.join(", ")} not built (run \`npm run peers\`)`;
  const started = `load average at start: ${loadavg()}`;
  const stacks = new Stacks();
  const ctrl = await startController();
  const times = new Map<string, number[]>(); // `${variant} ${command}`
  try {
    const real = edgeSettings(realEdgeConfig(ctrl));
    const settings = (prefix: string) => ({
      ...real,
      config: { ...real.config, count: String(options.size), prefix },
    });
    const ts = await stacks.make(EDGE_MANY, "settings-ts", settings("settings-ts"));
    const js = await stacks.make(EDGE_MANY, "settings-js", settings("settings-js"), asJavaScript);
    for (let round = 0; round < options.repeats; round++) {
      for (let v = 0; v < VARIANTS.length; v++) {
        const variant = VARIANTS[(v + round) % VARIANTS.length];
        for (const command of Object.keys(COMMANDS) as Command[]) {
          const ms = await cliTime(variant.javascript ? js : ts, command, variant);
          const key = `${variant.name} ${command}`;
          times.set(key, [...(times.get(key) ?? []), ms]);
        }
      }
      process.stdout.write(`  settings round ${round + 1} of ${options.repeats} done\n`);
    }
  } finally {
    await stacks.dispose();
    await ctrl.stop();
  }
  const commands = Object.keys(COMMANDS) as Command[];
  return [
    `${options.size} Edge services on the real controller, real CLI; wall time, median (min to max) of ${options.repeats} interleaved rounds. ${started}; at end: ${loadavg()}.`,
    "",
    `| setting | ${commands.join(" | ")} | what it costs in safety |`,
    `|---|${commands.map(() => "---").join("|")}|---|`,
    ...VARIANTS.map(
      (v) =>
        `| ${v.name} | ${commands.map((c) => formatSpread(spreadOf(times.get(`${v.name} ${c}`) ?? []), "ms")).join(" | ")} | ${v.safety} |`,
    ),
  ].join("\n");
}
