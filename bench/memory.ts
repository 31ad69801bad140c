// `npm run bench:memory`: peak memory of `up` of N auth providers, the engine harness beside the real
// Pulumi CLI on the same program against the mock. Both run the program in a process of its own (the
// CLI: node, started by the Node.js language host; the harness: its program process), so the program
// processes compare like for like, and the harness process (the engine's part: steps, state) compares
// with the CLI's engine process. The CLI's process tree is sampled from /proc every 100 ms (peak VmRSS
// per process); the harness reports its processes' peaks itself (VmHWM).
// Needs the real CLI (`npm run peers`); sizes from BENCH_SIZES (default 1000,2000).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";
import { startMockServer } from "../mock/server";
import { cliStack } from "../test/peers/cli";
import { PEERS_BIN, peerPath } from "../test/peers/index";
import { mockConfig } from "../test/support/engine";
import { machine, type Row, row, table } from "./lib";

const MANY = path.join(__dirname, "programs", "many");
const MiB = 1024 * 1024;

/** Peak RSS (bytes) of each process below `root` (itself included), keyed by a short label. */
function sampleTree(root: number): { stop(): Record<string, number> } {
  const peaks: Record<string, number> = {};
  const labelOf = (pid: number): string => {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const joined = args.join(" ");
    if (joined.includes("dynamic-provider")) return "dynamic-provider host";
    if (joined.includes("pulumi-language-nodejs")) return "language host";
    if (path.basename(args[0] ?? "") === "pulumi") return "pulumi CLI (engine)";
    if (path.basename(args[0] ?? "") === "node") return "program (node)";
    return path.basename(args[0] ?? String(pid));
  };
  const tick = () => {
    const parents = new Map<number, number>();
    for (const entry of fs.readdirSync("/proc")) {
      const pid = Number(entry);
      if (!pid) continue;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      } catch {
        // The process ended between the listing and the read.
      }
    }
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 20; p = parents.get(p) ?? 0, hops++)
        if (p === root) return true;
      return false;
    };
    for (const pid of parents.keys()) {
      if (!inTree(pid)) continue;
      try {
        const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (!rss) continue;
        const label = labelOf(pid);
        peaks[label] = Math.max(peaks[label] ?? 0, Number(rss[1]) * 1024);
      } catch {
        // Gone meanwhile.
      }
    }
  };
  const timer = setInterval(tick, 100);
  return {
    stop() {
      clearInterval(timer);
      return peaks;
    },
  };
}

async function main(): Promise<void> {
  if (!peerPath("pulumi")) {
    console.log(`bench:memory needs the real Pulumi CLI in ${PEERS_BIN} (npm run peers): skipped`);
    return;
  }
  const sizes = (process.env.BENCH_SIZES ?? "1000,2000").split(",").map(Number);
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const n of sizes) {
    const mock = await startMockServer();
    const { "frontdoor:token": token, ...plain } = mockConfig(mock);
    const config = {
      "frontdoor:apiUrl": plain["frontdoor:apiUrl"],
      "frontdoor:frontdoorId": plain["frontdoor:frontdoorId"],
      count: String(n),
    };
    const secretConfig = { "frontdoor:token": token, clientSecret: "bench-client-secret" };
    const stack = await cliStack(MANY, { config, secretConfig });
    try {
      const started = stack.start(["up", "--yes", "--skip-preview", "--parallel", "16"], {
        timeoutMs: 1_800_000,
      });
      const sampler = sampleTree(started.child.pid ?? 0);
      const result = await started.result;
      const cli = sampler.stop();
      if (result.code !== 0) throw new Error(`pulumi up failed: ${result.output.slice(-2000)}`);
      await stack.ok(["destroy", "--yes", "--skip-preview", "--parallel", "16"]);

      const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fd-mem-")), "bench.json");
      const opts = { programDir: MANY, stateFile, config, secretConfig, parallel: 16 };
      const up = await runHarness("up", opts);
      if (up.exitCode !== 0) throw new Error(`harness up failed: ${up.stderr.slice(-2000)}`);
      await runHarness("destroy", opts);

      // Each harness process beside the real CLI's process that does the same job.
      const peers: [string, number | undefined, string][] = [
        [
          "harness's program process vs the real CLI's program process",
          up.report.programPeakRssBytes,
          "program (node)",
        ],
        [
          "harness process vs the real CLI's engine process",
          up.report.harnessPeakRssBytes,
          "pulumi CLI (engine)",
        ],
        [
          "harness's provider host vs the real CLI's provider host",
          up.report.hostPeakRssBytes,
          "dynamic-provider host",
        ],
      ];
      for (const [what, harnessBytes, cliLabel] of peers)
        rows.push(
          row(
            `Peak RSS, up of ${n}: ${what}`,
            (harnessBytes ?? 0) / MiB,
            (cli[cliLabel] ?? 0) / MiB,
            undefined,
            "MiB",
          ),
        );
      notes.push(
        `up of ${n}, the real CLI's processes (peak RSS): ` +
          Object.entries(cli)
            .map(([label, bytes]) => `${label} ${Math.round(bytes / MiB)} MiB`)
            .join(", "),
      );
    } finally {
      await stack.dispose();
      await mock.close();
    }
  }
  const text = [
    "# Memory of `up`: the harness beside the real Pulumi CLI",
    "",
    `Command: \`npm run bench:memory\` · ${new Date().toISOString()}`,
    `Machine: ${machine()}`,
    "",
    table(rows),
    "",
    ...notes.map((n) => `- ${n}`),
    "",
    READING,
  ].join("\n");
  fs.writeFileSync(path.join(__dirname, "results-memory.md"), text);
  console.log(`\n${text}`);
}

const READING = `## Reading the figures

- Both run the same program (N auth providers declared in a loop) with the same parallelism (16)
  against the mock. A Pulumi Node.js program holds every resource it declared (Outputs, promises,
  the prepared registration) until the engine answers it, and a program that declares N resources in a
  loop declares them all before the first step ends: that memory grows with N wherever the program
  runs. Both engines run it in a node process of its own; the harness's program process keeps no
  per-promise stack traces unless asked (see results.md, Harness scaling). The harness process
  itself holds the state and the steps under way, as the CLI's engine process does.
- The provider host is the same code under both engines and peaks at about the same (within 10%).
`;

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
