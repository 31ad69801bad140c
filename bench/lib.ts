// Small helpers for the benchmarks: wall-clock timing, bounded concurrency, and the results table.
import * as os from "node:os";

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Runs `work` for every item with at most `limit` in flight (like the engine's parallel steps). */
export async function inParallel<T, R>(
  items: T[],
  limit: number,
  work: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Row {
  name: string;
  measured: string;
  baseline: string;
  ratio: string;
  target: string;
  verdict: string;
}

export function row(
  name: string,
  value: number,
  baseline: number | undefined,
  target: number | undefined,
  unit = "ms",
  lowerIsBetter = true,
): Row {
  const ratio = baseline ? value / baseline : undefined;
  const compared = ratio ?? value;
  const met = target === undefined ? undefined : lowerIsBetter ? compared <= target : compared >= target;
  return {
    name,
    measured: `${fmt(value)} ${unit}`,
    baseline: baseline === undefined ? "-" : `${fmt(baseline)} ${unit}`,
    ratio: ratio === undefined ? "-" : `${ratio.toFixed(2)}x`,
    target: target === undefined ? "-" : baseline ? `<= ${target}x` : `<= ${fmt(target)} ${unit}`,
    verdict: met === undefined ? "-" : met ? "met" : "MISSED",
  };
}

/** A count that must equal `expected` exactly. */
export function exact(name: string, value: number, expected: number, unit: string): Row {
  return {
    name,
    measured: `${value} ${unit}`,
    baseline: "-",
    ratio: "-",
    target: `= ${expected} ${unit}`,
    verdict: value === expected ? "met" : "MISSED",
  };
}

export function table(rows: Row[]): string {
  const head = "| Benchmark | Measured | Baseline (same run) | Ratio | Target | |";
  const lines = rows.map(
    (r) => `| ${r.name} | ${r.measured} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.verdict} |`,
  );
  return [head, "|---|---|---|---|---|---|", ...lines].join("\n");
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  return `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}
