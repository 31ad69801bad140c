// `npm run bench -- profile`: where the provider's share above the floor goes, in figures that a
// loaded machine blurs less than wall time. The Edge program of PROFILE_SIZE services (default 200)
// runs up, preview --refresh and destroy through the real CLI on the real controller, with the
// dynamic-provider host (only it) started with node --cpu-prof by a wrapper first on PATH; printed:
// its busy (non-idle) sample time, self time by origin, and the top functions. Profiles stay in
// PROFILE_DIR (default: a temp dir, printed) for DevTools. (Callgrind on the whole host under the
// CLI took over the CLI's 300 s limit for 20 services on the loaded machine: instruction counts are
// taken of the parts instead, see docs/guides/performance.md.) The CLI's own Go profile:
// `pulumi up --profiling <prefix>` (see results.md).
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
function profilingPlugin(out: string): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "fd-profile-bin-"));
  const host = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");
  const onSignal = path.join(bin, "exit-on-signal.js");
  fs.writeFileSync(
    onSignal,
    'for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => process.exit(0));\n',
  );
  const run = `exec node --cpu-prof --cpu-prof-dir="${out}" -r "${onSignal}" "${host}" "$@"`;
  fs.writeFileSync(path.join(bin, "pulumi-resource-pulumi-nodejs"), `#!/bin/sh\n${run}\n`, { mode: 0o755 });
  return bin;
}

export async function profileHost(options: { size: number; dir?: string }): Promise<string> {
  const missing = missingPeers();
  if (missing.length) return `profile SKIPPED: ${missing.join(", ")} not built (run \`npm run peers\`)`;
  const root = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "fd-profile-"));
  const lines = [
    `provider host CPU profiles, ${options.size} Edge services, real controller; in ${root}; load average at start ${loadavg()}`,
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
      const bin = profilingPlugin(out);
      bins.push(bin);
      const env = { PATH: `${bin}${path.delimiter}${PEERS_BIN}${path.delimiter}${process.env.PATH}` };
      const ms = await cliTime(stack, command, { env });
      const files = fs.readdirSync(out).map((f) => path.join(out, f));
      for (const file of files.filter(isProviderHost))
        lines.push(
          formatSummary(`${command} (CLI wall ${Math.round(ms)} ms) ${path.basename(file)}`, summarise(file)),
        );
    }
  } finally {
    await stacks.dispose();
    await ctrl.stop();
    for (const bin of bins) fs.rmSync(bin, { recursive: true, force: true });
  }
  return lines.join("\n");
}
