// The provider plugin beside the dynamic provider (issue 20, item 7): the same up / preview --refresh /
// destroy of N Edge services on the real controller through the real CLI, in one run, rounds
// interleaved: the dynamic provider from TypeScript (bench/programs/edge-many), and the plugin
// (bin/plugin/pulumi-resource-frontdoor, first on PATH) from TypeScript (the same program over the
// generated Node.js SDK, pulumi-frontdoor-native) and from YAML (a program of N resources written
// here: YAML has no loops). Each also with 0 resources: the CLI's fixed start-up for that language and
// provider, measured separately; the per-service cost is N minus 0 inside a round.
import * as fs from "node:fs";
import * as path from "node:path";
import { realEdgeConfig, startController } from "../test/peers/controller";
import { PEERS_BIN, peerPath } from "../test/peers/index";
import { PLUGIN_BIN } from "../test/support/plugin";
import { COMMANDS, type Command, cliTime, edgeSettings, loadavg, missingPeers, Stacks } from "./floor";
import { formatSpread, spreadOf } from "./floorSplit";

const EDGE_MANY = path.join(__dirname, "programs", "edge-many");
const PLUGIN_VERSION: string = require("../package.json").version;

/** A YAML program of `count` services on the plugin (the version pinned, so state records it). */
export function yamlProgram(count: number, prefix: string): string {
  const resources = Array.from({ length: count }, (_, i) =>
    [
      `  svc-${i}:`,
      "    type: frontdoor:index:Service",
      `    options:\n      version: ${PLUGIN_VERSION}`,
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

const VARIANTS = ["dynamic", "plugin (TypeScript)", "plugin (YAML)"] as const;
type Variant = (typeof VARIANTS)[number];
const PREFIXES: Record<Variant, string> = {
  dynamic: "dyn",
  "plugin (TypeScript)": "ts",
  "plugin (YAML)": "yaml",
};

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
  // `${variant} ${command} ${0|N}` -> wall times per round
  const times = new Map<string, number[]>();
  try {
    const real = edgeSettings(realEdgeConfig(ctrl));
    const env = { PATH: `${PLUGIN_BIN}${path.delimiter}${PEERS_BIN}${path.delimiter}${process.env.PATH}` };
    const yaml = (count: number, prefix: string) => (dir: string) => {
      for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true });
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(count, prefix));
    };
    const stackOf = async (variant: Variant, count: number) => {
      const name = `${PREFIXES[variant]}${count}`;
      const prefix = `plugin-bench-${name}`;
      const config = { ...real.config, count: String(count), prefix };
      if (variant === "dynamic") return stacks.make(EDGE_MANY, name, { ...real, config });
      if (variant === "plugin (TypeScript)")
        return stacks.make(EDGE_MANY, name, { ...real, config, env }, nativeProgram);
      return stacks.make(EDGE_MANY, name, { ...real, env }, yaml(count, prefix));
    };
    const variants: [Variant, 0 | "N", Awaited<ReturnType<typeof stackOf>>][] = [];
    for (const variant of VARIANTS)
      for (const count of [0, options.size])
        variants.push([variant, count ? "N" : 0, await stackOf(variant, count)]);
    for (let round = 0; round < options.repeats; round++) {
      for (const command of Object.keys(COMMANDS) as Command[]) {
        for (let v = 0; v < variants.length; v++) {
          const [variant, count, stack] = variants[(v + round) % variants.length];
          const key = `${variant} ${command} ${count}`;
          times.set(key, [...(times.get(key) ?? []), await cliTime(stack, command)]);
        }
      }
      process.stdout.write(`  plugin round ${round + 1} of ${options.repeats} done\n`);
    }
  } finally {
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
  return lines.join("\n");
}
