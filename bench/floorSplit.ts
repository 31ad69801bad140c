// The arithmetic of the floor benchmark: one round's wall times of the same command on five
// stacks, split into the parts of the project's time. Each part is a difference taken inside one
// round (the variants ran back to back), then summarised over rounds as min / median / max, so a
// slow round moves one sample instead of being mixed with another round's baseline.
import { median } from "./lib";

/** Wall times (ms) of one command in one round. */
export interface RoundTimes {
  /** Do-nothing program, 0 resources: the CLI, the language host, Node, ts-node and Pulumi's runtime. */
  noop0: number;
  /** Do-nothing provider, N resources: the same plus the engine's steps and the program's registrations. */
  noopN: number;
  /** The project's program (imports pulumi-frontdoor), 0 resources. */
  edge0: number;
  /** The project's program, N resources: the row being split. */
  edgeN: number;
  /** The provider's requests for the same N resources sent as raw HTTP at the same concurrency. */
  raw: number;
}

/** What the project's provider adds over the do-nothing provider, start-ups taken out. */
export const providerAbove = (t: RoundTimes) => t.edgeN - t.edge0 - (t.noopN - t.noop0);

export const PROVIDER_ABOVE = "provider above the floor";
export const API = "API: raw HTTP, same requests";

export const PARTS = [
  ["CLI + language host start-up", (t: RoundTimes) => t.noop0],
  ["program's own start (package import, type-checking)", (t: RoundTimes) => t.edge0 - t.noop0],
  ["engine per-step cost (do-nothing N minus its start-up)", (t: RoundTimes) => t.noopN - t.noop0],
  [PROVIDER_ABOVE, providerAbove],
  [API, (t: RoundTimes) => t.raw],
  ["whole command (project, N)", (t: RoundTimes) => t.edgeN],
] as const;

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spreadOf(values: number[]): Spread {
  if (values.length === 0) throw new Error("no rounds to summarise");
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

export interface Split {
  parts: { name: string; ms: Spread }[];
  /** Provider above the floor divided by the raw HTTP time, per round (target <= 1.2). */
  providerOverApi: Spread;
}

export function split(rounds: RoundTimes[]): Split {
  return {
    parts: PARTS.map(([name, part]) => ({ name, ms: spreadOf(rounds.map(part)) })),
    providerOverApi: spreadOf(rounds.map((t) => providerAbove(t) / t.raw)),
  };
}

/** "median (min-max)" in ms, or as a ratio. */
export function formatSpread(s: Spread, unit: "ms" | "x"): string {
  const f = unit === "ms" ? (n: number) => `${Math.round(n)}` : (n: number) => n.toFixed(2);
  return `${f(s.median)} (${f(s.min)} to ${f(s.max)})${unit === "x" ? "x" : " ms"}`;
}
