// The provider plugin beside the dynamic provider (docs/guides/benchmarks.md): the same up / preview --refresh /
// destroy of N Edge services on the real controller through the real CLI, in one run, rounds
// interleaved: the dynamic provider from TypeScript (bench/programs/edge-many), and the plugin
// (bin/plugin/pulumi-resource-frontdoor, first on PATH) from TypeScript (the same program over the
// generated Node.js SDK, pulumi-frontdoor-native) and from YAML (a program of N resources written
// here: YAML has no loops). Each also with 0 resources: the CLI's fixed start-up for that language and
// provider, measured separately; the per-service cost is N minus 0 inside a round.
// The plugin's floor: the same YAML program over a do-nothing plugin of the same
// kind (bench/noop-plugin, first on PATH too), and the plugin's requests sent as raw HTTP (the plan
// read from the mock's log of the same YAML program), so the plugin's share above that floor is
// set against the API's time of the same requests.
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { realEdgeConfig, startController } from "../test/peers/controller";
import { PEERS_BIN, peerPath } from "../test/peers/index";
import { PLUGIN_BIN } from "../test/support/plugin";
import {
  CLI_PARALLEL,
  COMMANDS,
  type Command,
  cliTime,
  describePlan,
  edgeSettings,
  loadavg,
  missingPeers,
  plansFromMock,
  RawEdge,
  Stacks,
} from "./floor";
import {
  API,
  formatSpread,
  PROVIDER_ABOVE,
  type RoundTimes,
  type Spread,
  split,
  spreadOf,
} from "./floorSplit";
import { type Row, row, table } from "./lib";
import { NOOP_VERSION } from "./noop-plugin/server";

const EDGE_MANY = path.join(__dirname, "programs", "edge-many");
const PLUGIN_VERSION: string = require("../package.json").version;
export const NOOP_PLUGIN_DIR = path.join(__dirname, "noop-plugin");

/**
 * Compiles the do-nothing plugin (bench/noop-plugin/server.ts) to bin/server.js beside its launcher,
 * as `npm run build` compiles ours (plain JavaScript, no ts-node in the plugin process); returns the
 * launcher's folder, to put first on PATH.
 */
export function buildNoopPlugin(): string {
  const source = fs.readFileSync(path.join(NOOP_PLUGIN_DIR, "server.ts"), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  fs.mkdirSync(path.join(NOOP_PLUGIN_DIR, "bin"), { recursive: true });
  fs.writeFileSync(path.join(NOOP_PLUGIN_DIR, "bin", "server.js"), outputText);
  return NOOP_PLUGIN_DIR;
}

/** A YAML program of `count` services on the plugin, or of Things on the do-nothing plugin (the version pinned, so state records it). */
export function yamlProgram(count: number, prefix: string, noop = false): string {
  const resources = Array.from({ length: count }, (_, i) =>
    [
      `  svc-${i}:`,
      `    type: ${noop ? "noop:index:Thing" : "frontdoor:index:Service"}`,
      `    options:\n      version: ${noop ? NOOP_VERSION : PLUGIN_VERSION}`,
      "    properties:",
      `      name: ${prefix}-${i}`,
    ].join("\n"),
  );
  return [
    "name: bench-yaml-many",
    "runtime: yaml",
    "description: N OpenZiti services on the frontdoor provider plugin, for the plugin benchmark",
    count ? `resources:\n${resources.join("\n")}` : "resources: {}",
    "",
  ].join("\n");
}

const VARIANTS = ["dynamic", "plugin (TypeScript)", "plugin (YAML)", "do-nothing plugin (YAML)"] as const;
type Variant = (typeof VARIANTS)[number];
const PREFIXES: Record<Variant, string> = {
  dynamic: "dyn",
  "plugin (TypeScript)": "ts",
  "plugin (YAML)": "yaml",
  "do-nothing plugin (YAML)": "noop",
};

/**
 * One command's rows over the rounds: the plugin's share above its floor, raw HTTP, their ratio per
 * round. Each round is split as the floor benchmark splits the dynamic provider's (floorSplit.ts),
 * with the plugin's YAML program as the project's row and the do-nothing plugin as the floor.
 */
export function pluginFloorRows(
  command: string,
  size: number,
  rounds: RoundTimes[],
): { line: string; row: Row } {
  const s = split(rounds);
  const part = (name: string) => s.parts.find((p) => p.name === name)?.ms as Spread;
  const above = part(PROVIDER_ABOVE);
  const raw = part(API);
  return {
    line: `| ${command} | ${formatSpread(above, "ms")} | ${formatSpread(raw, "ms")} | ${formatSpread(s.providerOverApi, "x")} |`,
    row: row(
      `Plugin (YAML) above the do-nothing plugin floor vs raw HTTP of the same requests: ${command} ${size} Edge services, real controller (medians of ${rounds.length} interleaved rounds)`,
      above.median,
      raw.median,
      1.2,
    ),
  };
}

/** edge-many over the plugin: the same program, importing the generated SDK instead of the dynamic one. */
export function nativeProgram(dir: string): void {
  const file = path.join(dir, "index.ts");
  const text = fs.readFileSync(file, "utf8");
  const native = text.replace('from "pulumi-frontdoor";', 'from "pulumi-frontdoor-native";');
  if (native === text) throw new Error(`${file} does not import pulumi-frontdoor`);
  fs.writeFileSync(file, native);
}

export async function pluginBenchmark(options: { size: number; repeats: number }): Promise<string> {
  const missing = [...missingPeers(), ...(peerPath("pulumi-language-yaml") ? [] : ["pulumi-language-yaml"])];
  if (!fs.existsSync(path.join(PLUGIN_BIN, "pulumi-resource-frontdoor")))
    missing.push("bin/plugin (npm run build)");
  if (!fs.existsSync(path.join(__dirname, "..", "node_modules", "pulumi-frontdoor-native", "package.json")))
    missing.push("pulumi-frontdoor-native (npm run build)");
  if (missing.length) return `plugin rows SKIPPED: ${missing.join(", ")} not built`;
  const started = loadavg();
  const stacks = new Stacks();
  const ctrl = await startController();
  const raw = new RawEdge(ctrl, options.size, CLI_PARALLEL, "floor-mock", "plugin-bench-raw");
  // `${variant} ${command} ${0|N}` -> wall times per round
  const times = new Map<string, number[]>();
  const notes: string[] = [];
  try {
    const real = edgeSettings(realEdgeConfig(ctrl));
    const env = {
      PATH: [PLUGIN_BIN, buildNoopPlugin(), PEERS_BIN, process.env.PATH].join(path.delimiter),
    };
    const yaml =
      (count: number, prefix: string, noop = false) =>
      (dir: string) => {
        for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true });
        fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(count, prefix, noop));
      };
    // The plugin's own requests and a service's outputs as it stored them: its YAML program on the mock.
    const { plans, outputs } = await plansFromMock(stacks, options.size, (settings) =>
      stacks.make(EDGE_MANY, "mockyaml", { ...settings, env }, yaml(options.size, "floor-mock")),
    );
    for (const command of Object.keys(COMMANDS) as Command[])
      notes.push(
        `${command}: the plugin's requests (raw HTTP replays them): ${describePlan(plans[command])}`,
      );
    notes.push(`the do-nothing plugin reports, beside the inputs: ${Object.keys(outputs).join(", ")}`);
    const noopConfig = { config: { "noop:outputs": JSON.stringify(outputs) }, secretConfig: {}, env };
    const stackOf = async (variant: Variant, count: number) => {
      const name = `${PREFIXES[variant]}${count}`;
      const prefix = `plugin-bench-${name}`;
      const config = { ...real.config, count: String(count), prefix };
      if (variant === "dynamic") return stacks.make(EDGE_MANY, name, { ...real, config });
      if (variant === "plugin (TypeScript)")
        return stacks.make(EDGE_MANY, name, { ...real, config, env }, nativeProgram);
      if (variant === "plugin (YAML)")
        return stacks.make(EDGE_MANY, name, { ...real, env }, yaml(count, prefix));
      return stacks.make(EDGE_MANY, name, noopConfig, yaml(count, prefix, true));
    };
    // [variant, 0 | "N", one command's run]: the CLI rows, then raw HTTP (N only).
    const variants: [string, 0 | "N", (command: Command) => Promise<number>][] = [];
    for (const variant of VARIANTS)
      for (const count of [0, options.size]) {
        const stack = await stackOf(variant, count);
        variants.push([variant, count ? "N" : 0, (command) => cliTime(stack, command)]);
      }
    variants.push(["raw", "N", (command) => raw.run(plans[command])]);
    for (let round = 0; round < options.repeats; round++) {
      for (const command of Object.keys(COMMANDS) as Command[]) {
        for (let v = 0; v < variants.length; v++) {
          const [variant, count, work] = variants[(v + round) % variants.length];
          const key = `${variant} ${command} ${count}`;
          times.set(key, [...(times.get(key) ?? []), await work(command)]);
        }
      }
      process.stdout.write(`  plugin round ${round + 1} of ${options.repeats} done\n`);
    }
  } finally {
    await raw.close().catch(() => undefined);
    await stacks.dispose();
    await ctrl.stop();
  }
  const commands = Object.keys(COMMANDS) as Command[];
  const cell = (variant: Variant, command: Command, part: "start" | "perN" | "whole") => {
    const zero = times.get(`${variant} ${command} 0`) ?? [];
    const n = times.get(`${variant} ${command} N`) ?? [];
    const values = part === "start" ? zero : part === "whole" ? n : n.map((ms, i) => ms - zero[i]);
    return formatSpread(spreadOf(values), "ms");
  };
  const lines = [
    `${options.size} Edge services, real controller, real CLI, --parallel default; wall time, median (min to max) of ${options.repeats} interleaved rounds; load average at start ${started}, at end ${loadavg()}.`,
    "",
    `| provider, part | ${commands.join(" | ")} |`,
    `|---|${commands.map(() => "---").join("|")}|`,
  ];
  for (const variant of VARIANTS) {
    lines.push(
      `| ${variant}: CLI start-up (0 resources) | ${commands.map((c) => cell(variant, c, "start")).join(" | ")} |`,
    );
    lines.push(
      `| ${variant}: ${options.size} services minus start-up | ${commands.map((c) => cell(variant, c, "perN")).join(" | ")} |`,
    );
    lines.push(
      `| ${variant}: whole command | ${commands.map((c) => cell(variant, c, "whole")).join(" | ")} |`,
    );
  }
  const at = (key: string, round: number) => (times.get(key) ?? [])[round];
  const floorLines: string[] = [];
  const rows: Row[] = [];
  for (const command of commands) {
    const rounds = Array.from({ length: options.repeats }, (_, r) => ({
      edge0: at(`plugin (YAML) ${command} 0`, r),
      edgeN: at(`plugin (YAML) ${command} N`, r),
      noop0: at(`do-nothing plugin (YAML) ${command} 0`, r),
      noopN: at(`do-nothing plugin (YAML) ${command} N`, r),
      raw: at(`raw ${command} N`, r),
    }));
    const { line, row: r } = pluginFloorRows(command, options.size, rounds);
    floorLines.push(line);
    rows.push(r);
  }
  return [
    ...lines,
    "",
    "The plugin's split: plugin (YAML) above the do-nothing plugin floor = (plugin YAML N - its 0) - (do-nothing plugin N - its 0), per round; raw HTTP = the plugin's requests (from the mock's log of the same YAML program) sent at the same concurrency.",
    "",
    "| command | plugin (YAML) above the do-nothing plugin floor | raw HTTP, same requests | ratio (per round) |",
    "|---|---|---|---|",
    ...floorLines,
    "",
    table(rows),
    "",
    ...notes.map((n) => `- ${n}`),
  ].join("\n");
}
