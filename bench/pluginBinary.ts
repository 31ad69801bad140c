// The self-contained plugin binary (scripts/release/plugin-binaries.js, linux-amd64: a Node.js
// single-executable application) beside today's launcher (bin/plugin/pulumi-resource-frontdoor, a
// shell script that runs the compiled provider on the `node` of PATH), in one run:
// - size: the binary and its release archive, against the plugin tarball the launcher ships in
//   (`npm run plugin:package`), which also needs a Node.js on the machine (its size given too);
// - start-up: process start to a served GetSchema over gRPC (the engine asks for the schema and the
//   plugin info first), rounds interleaved;
// - per-resource cost: the real CLI running a YAML program of N Edge services against the mock's Edge
//   API (up, preview --refresh, destroy), with N and with 0 resources, each launcher first on PATH,
//   rounds interleaved; the cost per service is (N - 0) / N inside a round.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { startMockServer } from "../mock/server";
import { PEERS_BIN, peerPath, REPO_ROOT } from "../test/peers/index";
import { PLUGIN, PLUGIN_BIN, startPlugin } from "../test/support/plugin";
import { archiveName, extractBinary, releaseArchives, VERSION } from "../test/support/pluginBinaries";
import { COMMANDS, type Command, cliTime, loadavg, Stacks } from "./floor";
import { formatSpread, type Spread, spreadOf } from "./floorSplit";
import { timed } from "./lib";
import { yamlProgram } from "./plugin";

const EDGE_MANY = path.join(__dirname, "programs", "edge-many");
const MiB = 1024 * 1024;

/** Process start to the answer of GetSchema, in ms. */
async function startToSchema(launcher: string): Promise<number> {
  const { ms, value: plugin } = await timed(async () => {
    const plugin = await startPlugin({ launcher });
    await plugin.call("getSchema", new provproto.GetSchemaRequest());
    return plugin;
  });
  await plugin.stop();
  return ms;
}

/** A spread of milliseconds per service, to the hundredth. */
function perServiceSpread(s: Spread): string {
  return `${s.median.toFixed(2)} (${s.min.toFixed(2)} to ${s.max.toFixed(2)}) ms`;
}

/** The unpacked size of a gzip'd tarball, in bytes. */
function unpackedSize(tarball: string): number {
  return execFileSync("sh", ["-c", `gzip -dc '${tarball}' | wc -c`], { encoding: "utf8" })
    .trim()
    .split(/\s+/)
    .map(Number)[0];
}

export async function pluginBinaryBenchmark(options: {
  size: number;
  rounds: number;
  startRounds: number;
}): Promise<string> {
  if (!fs.existsSync(PLUGIN)) return "binary rows SKIPPED: bin/plugin not built (npm run build)";
  const started = loadavg();
  const archive = path.join(releaseArchives(["linux-amd64"]), archiveName(VERSION, "linux-amd64"));
  const binary = extractBinary(archive, "linux-amd64");
  execFileSync(process.execPath, [path.join(REPO_ROOT, "scripts", "plugin.js"), "package"], {
    cwd: REPO_ROOT,
    stdio: "pipe",
  });
  const tarball = path.join(REPO_ROOT, "dist", `pulumi-resource-frontdoor-v${VERSION}.tgz`);
  const node = fs.realpathSync(process.execPath);
  const launchers = { launcher: PLUGIN, binary } as const;
  type Launcher = keyof typeof launchers;

  // Start-up: interleaved, launcher first in even rounds, the binary first in odd ones.
  const startTimes: Record<Launcher, number[]> = { launcher: [], binary: [] };
  for (let round = 0; round < options.startRounds; round++) {
    const order: Launcher[] = round % 2 ? ["binary", "launcher"] : ["launcher", "binary"];
    for (const which of order) startTimes[which].push(await startToSchema(launchers[which]));
  }
  const startSpread = (which: Launcher) => spreadOf(startTimes[which]);
  const ratios = startTimes.binary.map((ms, i) => ms / startTimes.launcher[i]);

  const lines = [
    `Load average at start ${started}.`,
    "",
    "| what | today's launcher (bin/plugin + Node.js on PATH) | self-contained binary (linux-amd64) |",
    "|---|---|---|",
    `| what the user downloads | plugin tarball ${(fs.statSync(tarball).size / MiB).toFixed(1)} MiB (npm run plugin:package) | archive ${(fs.statSync(archive).size / MiB).toFixed(1)} MiB |`,
    `| on disk | ${(unpackedSize(tarball) / MiB).toFixed(1)} MiB unpacked, plus Node.js ${process.version} on PATH (${(fs.statSync(node).size / MiB).toFixed(1)} MiB) | ${(fs.statSync(binary).size / MiB).toFixed(1)} MiB (Node.js inside) |`,
    `| start to a served GetSchema, median (min to max) of ${options.startRounds} interleaved | ${formatSpread(startSpread("launcher"), "ms")} | ${formatSpread(startSpread("binary"), "ms")} |`,
    `| binary / launcher, per round | - | ${formatSpread(spreadOf(ratios), "x")} |`,
  ];

  const peersMissing = ["pulumi", "pulumi-language-yaml"].filter((p) => !peerPath(p as "pulumi"));
  if (peersMissing.length)
    return [...lines, "", `per-resource rows SKIPPED: ${peersMissing.join(", ")} not built`].join("\n");

  // Per-resource cost on the mock's Edge API: the same YAML program on each launcher.
  const mock = await startMockServer();
  const stacks = new Stacks();
  const times = new Map<string, number[]>();
  try {
    const settings = {
      config: { "frontdoor:edgeUrl": mock.url, "frontdoor:edgeUsername": mock.credentials.edgeUsername },
      secretConfig: { "frontdoor:edgePassword": mock.credentials.edgePassword },
    };
    const yaml = (count: number, prefix: string) => (dir: string) => {
      for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true });
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(count, prefix));
    };
    const variants: [string, (command: Command) => Promise<number>][] = [];
    for (const which of Object.keys(launchers) as Launcher[])
      for (const count of [0, options.size]) {
        const dir = which === "launcher" ? PLUGIN_BIN : path.dirname(binary);
        const name = `bin${which}${count}`;
        const stack = await stacks.make(
          EDGE_MANY,
          name,
          { ...settings, env: { PATH: [dir, PEERS_BIN, process.env.PATH].join(path.delimiter) } },
          yaml(count, `binary-bench-${name}`),
        );
        variants.push([`${which} ${count ? "N" : 0}`, (command) => cliTime(stack, command)]);
      }
    for (let round = 0; round < options.rounds; round++)
      for (const command of Object.keys(COMMANDS) as Command[])
        for (let v = 0; v < variants.length; v++) {
          const [key, work] = variants[(v + round) % variants.length];
          times.set(`${key} ${command}`, [...(times.get(`${key} ${command}`) ?? []), await work(command)]);
        }
  } finally {
    await stacks.dispose();
    await mock.close();
  }
  const commands = Object.keys(COMMANDS) as Command[];
  const perService = (which: Launcher, command: Command) => {
    const zero = times.get(`${which} 0 ${command}`) ?? [];
    return (times.get(`${which} N ${command}`) ?? []).map((ms, i) => (ms - zero[i]) / options.size);
  };
  lines.push(
    "",
    `Per-resource cost: a YAML program of ${options.size} Edge services on the mock, real CLI, (N - 0) / N per round, median (min to max) of ${options.rounds} interleaved rounds; load average at end ${loadavg()}.`,
    "",
    `| launcher | ${commands.join(" | ")} |`,
    `|---|${commands.map(() => "---").join("|")}|`,
  );
  for (const which of Object.keys(launchers) as Launcher[])
    lines.push(
      `| ${which === "launcher" ? "today's launcher" : "self-contained binary"}: ms per service | ${commands.map((c) => perServiceSpread(spreadOf(perService(which, c)))).join(" | ")} |`,
    );
  lines.push(
    `| binary / launcher, per round | ${commands
      .map((c) => {
        const b = perService("binary", c);
        const l = perService("launcher", c);
        return formatSpread(spreadOf(b.map((ms, i) => ms / l[i])), "x");
      })
      .join(" | ")} |`,
  );
  return lines.join("\n");
}
