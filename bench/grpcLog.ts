// Where a CLI run's time goes, from the CLI's own log of its gRPC calls (PULUMI_DEBUG_GRPC=<file>:
// one JSON object per line, a `request_started` and a `response_completed` entry per call, with
// timestamps). Only the CLI's client-side calls are used (to the language host and the provider
// hosts): the resource monitor's server-side entries carry no usable start time.
import * as fs from "node:fs";

export interface CallEntry {
  method: string;
  progress?: string;
  timestamp: string;
  /** Nanoseconds, on response_completed entries. */
  duration?: number;
}

/** One method's calls: how many, their mean duration, and the span from the first start to the last end. */
export interface MethodSummary {
  method: string;
  calls: number;
  meanMs: number;
  fromMs: number;
  toMs: number;
}

export function readLog(file: string): CallEntry[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as CallEntry);
}

const CLIENT_SIDE = /^\/pulumirpc\.(LanguageRuntime|ResourceProvider)\//;

/** Each client-side method's calls, times in ms from the log's first entry, in order of first call. */
export function summarise(entries: CallEntry[]): MethodSummary[] {
  const t0 = Date.parse(entries[0]?.timestamp ?? "");
  const byMethod = new Map<string, MethodSummary & { totalMs: number }>();
  for (const e of entries) {
    if (!CLIENT_SIDE.test(e.method) || e.progress !== "response_completed" || e.duration === undefined)
      continue;
    const method = e.method.split("/").pop() as string;
    const ms = e.duration / 1e6;
    const end = Date.parse(e.timestamp) - t0;
    const s = byMethod.get(method) ?? {
      method,
      calls: 0,
      meanMs: 0,
      fromMs: end - ms,
      toMs: end,
      totalMs: 0,
    };
    s.calls++;
    s.totalMs += ms;
    s.fromMs = Math.min(s.fromMs, end - ms);
    s.toMs = Math.max(s.toMs, end);
    byMethod.set(method, s);
  }
  return [...byMethod.values()].map(({ totalMs, ...s }) => ({ ...s, meanMs: totalMs / s.calls }));
}

/**
 * The phases of a `preview --refresh` of N resources, in ms: the CLI refreshes every resource first
 * (Read, then a Diff of old and new state), then runs the program, whose registrations it checks and
 * diffs one at a time (the step generator handles one registration after another).
 */
export function previewRefreshPhases(methods: MethodSummary[]): { name: string; ms: number }[] {
  const m = (name: string) => methods.find((s) => s.method === name);
  const read = m("Read");
  const run = m("Run");
  const check = m("Check");
  const diff = m("Diff");
  const hostStart = m("Handshake");
  if (!read || !run || !check || !diff || !hostStart)
    throw new Error("not the log of a preview --refresh of existing resources");
  return [
    ["CLI start to the provider host's start", hostStart.fromMs],
    ["refresh: first Read to last Read", read.toMs - read.fromMs],
    ["program: Run to its first resource's Check", check.fromMs - run.fromMs],
    ["checks and diffs: first Check to last Diff", diff.toMs - check.fromMs],
  ].map(([name, ms]) => ({ name: name as string, ms: ms as number }));
}
