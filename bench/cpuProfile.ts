// Reads a V8 CPU profile (node --cpu-prof) and sums the self time of its samples by where the code
// comes from: ours (pulumi-frontdoor's provider), Pulumi's Node runtime and host, gRPC and protobuf,
// undici, Node's own modules, the garbage collector, and idle time (waiting on the event loop).
// Sample times, unlike wall time, barely move with the machine's load: a descheduled process takes
// no samples, so the non-idle sum is close to the process's CPU time.
import * as fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const GROUPS: [string, RegExp][] = [
  ["ours (provider/)", /\/bin\/(provider|sdk)\//],
  ["zod", /node_modules\/zod\//],
  ["undici", /node_modules\/undici\//],
  ["gRPC + protobuf", /node_modules\/(@grpc|google-protobuf|protobufjs)\//],
  ["Pulumi (runtime, host)", /node_modules\/@pulumi\//],
  ["other packages", /node_modules\//],
  ["Node's own modules", /^node:|^internal\//],
];

function groupOf(frame: ProfileNode["callFrame"]): string {
  if (frame.url === "") {
    if (frame.functionName === "(garbage collector)") return "garbage collector";
    if (frame.functionName === "(idle)") return "idle";
    return frame.functionName.startsWith("(") ? "V8 (program, compile)" : "native";
  }
  return GROUPS.find(([, re]) => re.test(frame.url))?.[0] ?? "other";
}

export interface ProfileSummary {
  /** Sampled time not idle, ms: close to the process's CPU time. */
  busyMs: number;
  byGroup: Record<string, number>;
  /** The functions with the most self time outside idle, "name (file:line)". */
  top: [string, number][];
}

export function summarise(file: string, topN = 15): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byGroup: Record<string, number> = {};
  const byFunction = new Map<string, number>();
  let busyMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const group = groupOf(frame);
    byGroup[group] = (byGroup[group] ?? 0) + ms;
    if (group === "idle") return;
    busyMs += ms;
    const where = frame.url
      ? ` (${frame.url.replace(/^.*node_modules\//, "").replace(/^.*\/bin\//, "bin/")}:${frame.lineNumber + 1})`
      : "";
    const name = `${frame.functionName || "(anonymous)"}${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  });
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, topN);
  return { busyMs, byGroup, top };
}

/** True when the profile is of Pulumi's dynamic-provider host (not of the program). */
export function isProviderHost(file: string): boolean {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  return profile.nodes.some((n) => n.callFrame.url.includes("cmd/dynamic-provider"));
}

export function formatSummary(title: string, s: ProfileSummary): string {
  const groups = Object.entries(s.byGroup)
    .sort((a, b) => b[1] - a[1])
    .map(([g, ms]) => `${g} ${Math.round(ms)}`)
    .join(", ");
  return [
    `${title}: busy ${Math.round(s.busyMs)} ms; by origin (ms): ${groups}`,
    ...s.top.map(([name, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${name}`),
  ].join("\n");
}
