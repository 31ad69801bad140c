// How the harness scales: up, refresh and destroy of N = 200, 1000 and 5000 resources, each repeated,
// the sizes interleaved within every round (so a busy spell on the machine hits all of them), with
// wall time, CPU time and the peak RSS of the harness, of the dynamic-provider host and (up) of the
// program process.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Report, runHarness } from "../harness";
import { startMockServer } from "../mock/server";
import { mockConfig } from "../test/support/engine";
import { median, type Row } from "./lib";

const program = path.join(__dirname, "programs", "many");
const commands = ["up", "refresh", "destroy"] as const;
type Command = (typeof commands)[number];

export interface ScalingOptions {
  sizes: number[];
  repeats: number;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
  hostRssMiB: number;
  /** The program process (up only: refresh and destroy run no program). */
  programRssMiB?: number;
  programCpuMs?: number;
}

const MiB = 2 ** 20;
/** The targets of the issue: growth exponent and the harness's own peak RSS. */
const MAX_EXPONENT = 1.1;
const MAX_RSS_MIB = 300;

export async function scalingBenchmark(opts: ScalingOptions): Promise<{ rows: Row[]; notes: string[] }> {
  const samples = new Map<string, Sample[]>();
  const key = (c: Command, n: number) => `${c} ${n}`;
  for (let round = 0; round < opts.repeats; round++) {
    for (const n of opts.sizes) {
      const mock = await startMockServer();
      const config = mockConfig(mock);
      const token = config["frontdoor:token"];
      delete config["frontdoor:token"];
      const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fd-scale-")), "state.json");
      for (const command of commands) {
        const result = await runHarness(command, {
          programDir: program,
          stateFile,
          config: { ...config, count: String(n) },
          secretConfig: { "frontdoor:token": token, clientSecret: "bench-client-secret" },
        });
        if (result.exitCode !== 0) {
          throw new Error(
            `harness ${command} of ${n} failed: ${result.stderr}\n${result.stdout.slice(-2000)}`,
          );
        }
        const r: Report = result.report;
        const list = samples.get(key(command, n)) ?? [];
        list.push({
          wallMs: r.durationMs,
          cpuMs: r.harnessCpuMs ?? Number.NaN,
          rssMiB: (r.harnessPeakRssBytes ?? 0) / MiB,
          hostRssMiB: (r.hostPeakRssBytes ?? 0) / MiB,
          programRssMiB: r.programPeakRssBytes === undefined ? undefined : r.programPeakRssBytes / MiB,
          programCpuMs: r.programCpuMs,
        });
        samples.set(key(command, n), list);
        process.stdout.write(
          `  round ${round + 1} ${command} ${n}: ${r.durationMs} ms, cpu ${Math.round(r.harnessCpuMs ?? 0)} ms, ` +
            `rss ${Math.round((r.harnessPeakRssBytes ?? 0) / MiB)} MiB, host ${Math.round((r.hostPeakRssBytes ?? 0) / MiB)} MiB` +
            (r.programPeakRssBytes === undefined
              ? "\n"
              : `, program ${Math.round(r.programPeakRssBytes / MiB)} MiB, program cpu ${Math.round(r.programCpuMs ?? 0)} ms\n`),
        );
      }
      await mock.close();
      fs.rmSync(path.dirname(stateFile), { recursive: true, force: true });
    }
  }

  const rows: Row[] = [];
  const sizes = opts.sizes;
  const largest = sizes[sizes.length - 1];
  for (const command of commands) {
    const of = (n: number) => samples.get(key(command, n)) ?? [];
    for (const n of sizes) {
      const s = of(n);
      rows.push(
        spreadRow(
          `Harness ${command} of ${n}: wall time`,
          s.map((x) => x.wallMs),
          "ms",
        ),
      );
      rows.push(
        spreadRow(
          `Harness ${command} of ${n}: harness CPU time`,
          s.map((x) => x.cpuMs),
          "ms",
        ),
      );
      const rss = spreadRow(
        `Harness ${command} of ${n}: harness peak RSS`,
        s.map((x) => x.rssMiB),
        "MiB",
      );
      if (n === largest)
        withTarget(rss, Math.max(...s.map((x) => x.rssMiB)), MAX_RSS_MIB, `<= ${MAX_RSS_MIB} MiB`);
      rows.push(rss);
      rows.push(
        spreadRow(
          `Harness ${command} of ${n}: host peak RSS`,
          s.map((x) => x.hostRssMiB),
          "MiB",
        ),
      );
      if (s.every((x) => x.programRssMiB !== undefined)) {
        rows.push(
          spreadRow(
            `Harness ${command} of ${n}: program process peak RSS`,
            s.map((x) => x.programRssMiB ?? Number.NaN),
            "MiB",
          ),
          spreadRow(
            `Harness ${command} of ${n}: program process CPU time`,
            s.map((x) => x.programCpuMs ?? Number.NaN),
            "ms",
          ),
        );
      }
    }
    for (let i = 1; i < sizes.length; i++) {
      const [a, b] = [sizes[i - 1], sizes[i]];
      const picks: [string, (x: Sample) => number][] = [
        ["wall time", (x) => x.wallMs],
        ["harness CPU time", (x) => x.cpuMs],
      ];
      // up: the program's work moved to its own process; the two together are what the harness did before.
      if (samples.get(key(command, a))?.every((x) => x.programCpuMs !== undefined))
        picks.push(["harness + program process CPU time", (x) => x.cpuMs + (x.programCpuMs ?? Number.NaN)]);
      for (const [what, pick] of picks) {
        const e = exponent(median(of(a).map(pick)), median(of(b).map(pick)), a, b);
        const row: Row = {
          name: `Harness ${command}: growth exponent of the median ${what}, N ${a} -> ${b}`,
          measured: e.toFixed(2),
          baseline: "-",
          ratio: "-",
          target: "-",
          verdict: "-",
        };
        withTarget(row, e, MAX_EXPONENT, `<= ${MAX_EXPONENT}`);
        rows.push(row);
      }
    }
  }
  const notes = [
    `harness scaling: ${opts.repeats} rounds, sizes ${sizes.join(", ")} interleaved in every round; each cell is min / median / max.`,
    "growth exponent: log(t(N2) / t(N1)) / log(N2 / N1) of the medians; 1.0 is linear. Times include the fixed start-up of the harness and the host (about 1.5 s with an idle machine).",
    "up runs the program in a process of its own, as the Pulumi CLI's language host does: the memory the Pulumi runtime keeps per pending resource is in the program process rows, not the harness's.",
  ];
  return { rows, notes };
}

function exponent(t1: number, t2: number, n1: number, n2: number): number {
  return Math.log(t2 / t1) / Math.log(n2 / n1);
}

function spreadRow(name: string, values: number[], unit: string): Row {
  const f = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  return {
    name,
    measured: `${f(Math.min(...values))} / ${f(median(values))} / ${f(Math.max(...values))} ${unit}`,
    baseline: "-",
    ratio: "-",
    target: "-",
    verdict: "-",
  };
}

function withTarget(row: Row, value: number, max: number, target: string): void {
  row.target = target;
  row.verdict = value <= max ? "met" : "MISSED";
}
