// `npm run bench -- profile`: where the provider's share above the floor goes, in figures that a
// loaded machine does not blur. The Edge program of PROFILE_SIZE services (default 200) runs up,
// preview --refresh and destroy through the real CLI on the real controller, with the
// dynamic-provider host (only it) started under a profiler by a wrapper first on PATH:
//   PROFILE_TOOL=cpu (default)  node --cpu-prof: self time by origin and the top functions
//   PROFILE_TOOL=callgrind      valgrind --tool=callgrind: the host's instruction count (slow)
// Profiles stay in PROFILE_DIR (default: a temp dir, printed) for a closer look in DevTools or
// callgrind_annotate. The CLI's own Go profile: `pulumi up --profiling <prefix>` (see results.md).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { realEdgeConfig, startController } from "../test/peers/controller";
import { PEERS_BIN } from "../test/peers/index";
import { formatSummary, isProviderHost, summarise } from "./cpuProfile";
import { COMMANDS, type Command, cliTime, edgeSettings, loadavg, missingPeers, Stacks } from "./floor";

const EDGE_MANY = path.join(__dirname, "programs", "edge-many");

/**
 * A bin folder whose pulumi-resource-pulumi-nodejs runs the host under the profiler into `out`. The
 * CLI stops a plugin with SIGINT (then SIGKILL after 5 s); node writes a --cpu-prof profile only on a
 * normal exit, so a preloaded handler turns that SIGINT into process.exit.
 */
function profilingPlugin(tool: "cpu" | "callgrind", out: string): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "fd-profile-bin-"));
  const host = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");
  const onSignal = path.join(bin, "exit-on-signal.js");
  fs.writeFileSync(
    onSignal,
    'for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => process.exit(0));\n',
  );
  const node = `node -r "${onSignal}" "${host}" "$@"`;
  const run =
    tool === "cpu"
      ? `exec node --cpu-prof --cpu-prof-dir="${out}" -r "${onSignal}" "${host}" "$@"`
      : `exec valgrind --tool=callgrind --callgrind-out-file="${out}/callgrind.out.%p" ${node}`;
  fs.writeFileSync(path.join(bin, "pulumi-resource-pulumi-nodejs"), `#!/bin/sh\n${run}\n`, { mode: 0o755 });
  return bin;
}

/** The instruction count callgrind wrote (its `summary:` or `totals:` line). */
export function callgrindTotal(file: string): number {
  const m = fs.readFileSync(file, "utf8").match(/^(?:summary|totals): (\d+)/m);
  if (!m) throw new Error(`no instruction total in ${file}`);
  return Number(m[1]);
}

export async function profileHost(options: {
  size: number;
  tool: "cpu" | "callgrind";
  dir?: string;
}): Promise<string> {
  const missing = missingPeers();
  if (missing.length) return `profile SKIPPED: ${missing.join(", ")} not built (run \`npm run peers\`)`;
  const root = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "fd-profile-"));
  const lines = [
    `provider host profiles (${options.tool}), ${options.size} Edge services, real controller; in ${root}; load average at start ${loadavg()}`,
  ];
  const stacks = new Stacks();
  const ctrl = await startController();
  const bins: string[] = [];
  try {
    const real = edgeSettings(realEdgeConfig(ctrl));
    const stack = await stacks.make(EDGE_MANY, `profile${options.size}`, {
      ...real,
      config: { ...real.config, count: String(options.size), prefix: "floor-profile" },
    });
    for (const command of Object.keys(COMMANDS) as Command[]) {
      const out = path.join(root, command.replace(/\W+/g, "-"));
      fs.mkdirSync(out, { recursive: true });
      const bin = profilingPlugin(options.tool, out);
      bins.push(bin);
      const env = { PATH: `${bin}${path.delimiter}${PEERS_BIN}${path.delimiter}${process.env.PATH}` };
      const ms = await cliTime(stack, command, { env });
      const files = fs.readdirSync(out).map((f) => path.join(out, f));
      if (options.tool === "cpu") {
        for (const file of files.filter(isProviderHost))
          lines.push(
            formatSummary(
              `${command} (CLI wall ${Math.round(ms)} ms) ${path.basename(file)}`,
              summarise(file),
            ),
          );
      } else {
        const totals = files.map(callgrindTotal);
        lines.push(
          `${command}: host instructions ${totals.map((n) => `${(n / 1e6).toFixed(0)} M`).join(" + ")} (CLI wall ${Math.round(ms)} ms, under valgrind)`,
        );
      }
    }
  } finally {
    await stacks.dispose();
    await ctrl.stop();
    for (const bin of bins) fs.rmSync(bin, { recursive: true, force: true });
  }
  return lines.join("\n");
}
