// What `pulumi preview --refresh --json` says about a stack, sorted into the three answers a scheduled
// job needs (docs/guides/drift-job.md): 0 clean, 2 drift, 1 the check itself failed. Pure: the command
// (driftCli.ts) runs the CLI and the unmanaged-object audit, this module reads their answers and writes
// the reports.
//
// The preview's JSON document: `steps[]` (each `op`, `urn`, `oldState`/`newState` with `type`,
// `inputs`, `outputs`, and `diffReasons`/`detailedDiff` for the plan's updates), `diagnostics[]` (each
// `severity`, `message`, `urn`) and `changeSummary`. With `--refresh`, a step of op `refresh` carries
// the state before (`oldState`, what Pulumi recorded) and after (`newState`, what the API answers now)
// the refresh; the plan's steps that follow compare the refreshed state with the program. The CLI shows
// every secret value as "[secret]" in this document (it is never run with --show-secrets).
import type { UnmanagedReport } from "../audit/unmanaged";

/** The CLI's answer: its exit code and what it printed. */
export interface PreviewRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** One changed property of a resource, at the leaf that changed. */
export interface PropertyChange {
  /** Dotted path (`data.issuer`); array elements are not split (a list or set is one value). */
  path: string;
  /** `refresh`: what Pulumi recorded -> what the API answers now. `plan`: the live value -> what
   * `pulumi up` would set (a secret rotated outside Pulumi, or a program change not applied yet). */
  source: "refresh" | "plan";
  old: unknown;
  new: unknown;
}

export interface DriftedResource {
  urn: string;
  /** The type token (`pulumi-nodejs:dynamic/frontdoor:AuthProvider`, `frontdoor:index:Identity`). */
  type: string;
  /** The Pulumi name (the URN's last part). */
  name: string;
  /** What `pulumi up` would do about it: update, replace, create (deleted outside Pulumi), delete, or
   * refresh (only the state would change: an output moved but the declaration still holds). */
  op: string;
  /** The refresh found the object gone (deleted outside Pulumi): `up` would create it again. */
  deleted?: true;
  properties: PropertyChange[];
}

export interface DriftReport {
  status: "clean" | "drift" | "failed";
  exitCode: 0 | 1 | 2;
  stack?: string;
  drifted: DriftedResource[];
  /** The unmanaged-object audit (`--unmanaged`), when it ran. */
  unmanaged?: UnmanagedReport;
  /** Why the check failed: the CLI's error diagnostics, or what went wrong running it. */
  errors: string[];
}

/** The marker a secret value carries in a state document (masked here if one ever shows up). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET = "[secret]";
/** Ops that change nothing: the resource is as declared. `read`: a resource the program only reads. */
const UNCHANGED = new Set(["same", "read"]);

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const nameOf = (urn: string) => urn.split("::").slice(3).join("::");

/** The drifted resources and the errors in a preview's answer. */
export function readPreview(run: PreviewRun): { drifted: DriftedResource[]; errors: string[] } {
  let doc: Record<string, unknown>;
  try {
    doc = record(JSON.parse(run.stdout));
  } catch {
    return {
      drifted: [],
      errors: [`pulumi preview exited ${run.code} without a JSON document${tail(run.stderr)}`],
    };
  }
  if (!Array.isArray(doc.steps) && !Array.isArray(doc.diagnostics))
    return { drifted: [], errors: [`pulumi preview printed JSON that is not a preview${tail(run.stderr)}`] };
  const errors = (Array.isArray(doc.diagnostics) ? doc.diagnostics : [])
    .map(record)
    .filter((d) => d.severity === "error")
    .map((d) => {
      const where = typeof d.urn === "string" && d.urn ? `${nameOf(d.urn)}: ` : "";
      // The CLI prefixes the message with its severity ("error: ").
      return `${where}${String(d.message ?? "")
        .trim()
        .replace(/^error: /, "")}`;
    });
  if (run.code !== 0 && errors.length === 0)
    errors.push(`pulumi preview exited ${run.code}${tail(run.stderr)}`);
  return { drifted: driftedResources(Array.isArray(doc.steps) ? doc.steps : []), errors };
}

/** The last lines of the CLI's stderr (its own error message), for a failure without diagnostics. */
function tail(stderr: string): string {
  const lines = stderr.trim().split(/\r?\n/).filter(Boolean).slice(-5);
  return lines.length ? `: ${lines.join(" / ")}` : "";
}

/** The resources the steps change, each with its changed properties (the refresh's first). */
function driftedResources(steps: unknown[]): DriftedResource[] {
  const byUrn = new Map<string, DriftedResource>();
  // What Pulumi recorded before the refresh (a refresh step's old state), by URN.
  const recorded = new Map<string, unknown>();
  for (const raw of steps) {
    const step = record(raw);
    if (step.op === "refresh") recorded.set(String(step.urn ?? ""), record(step.oldState).outputs);
  }
  for (const raw of steps) {
    const step = record(raw);
    const op = String(step.op ?? "");
    const urn = String(step.urn ?? "");
    if (UNCHANGED.has(op) || !urn) continue;
    const old = record(step.oldState);
    const now = record(step.newState);
    // A refresh without a new state: the object is gone.
    const gone = op === "refresh" && (step.newState === undefined || step.newState === null);
    const properties =
      op !== "refresh"
        ? planChanges(step, recorded.get(urn))
        : gone
          ? []
          : changedLeaves("", old.outputs ?? {}, now.outputs ?? {}, "refresh");
    // A refresh that found every output as recorded is no drift.
    if (op === "refresh" && properties.length === 0 && !gone) continue;
    let resource = byUrn.get(urn);
    if (!resource) {
      resource = { urn, type: String(now.type ?? old.type ?? ""), name: nameOf(urn), op, properties: [] };
      byUrn.set(urn, resource);
    }
    if (gone) resource.deleted = true;
    if (op !== "refresh") resource.op = op; // what `up` would do wins over the refresh
    for (const change of properties)
      if (!resource.properties.some((p) => covers(p.path, change.path))) resource.properties.push(change);
  }
  return [...byUrn.values()];
}

/** A path already listed, or a leaf below it, or the property above it. */
const covers = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/**
 * The properties a plan step changes: the detailed diff's paths when the provider gave one (the
 * plugin), else the diff's top-level keys (a dynamic provider gives no detailed diff), each as the
 * changed leaves between what Pulumi recorded and the live outputs when they differ (drift, the same
 * form on both hosts), else between the live outputs and the declared inputs.
 */
function planChanges(step: Record<string, unknown>, recordedOutputs: unknown): PropertyChange[] {
  const old = record(step.oldState);
  const now = record(step.newState);
  const live = record(old.outputs ?? old.inputs);
  const declared = record(now.inputs);
  const detailed = Object.keys(record(step.detailedDiff));
  const reasons = Array.isArray(step.diffReasons) ? step.diffReasons.map(String) : [];
  const keys = [...new Set([...detailed, ...reasons])];
  if (keys.length === 0)
    return recordedOutputs === undefined
      ? declaredAgainstLive(declared, live)
      : changedLeaves("", withoutProvider(recordedOutputs), withoutProvider(live), "refresh");
  const recorded = recordedOutputs === undefined ? undefined : record(recordedOutputs);
  return keys.flatMap((key) => {
    const path = key.replace(/\[(\d+)\]/g, ".$1");
    const [top] = path.split(".");
    // A change made outside Pulumi reads as on the dynamic host, recorded => live; what differs only
    // from the program (or a masked secret) as live => what up would set.
    const outside = recorded ? changedLeaves(top, recorded[top], live[top], "refresh") : [];
    if (outside.length) return outside;
    const leaves = changedLeaves(top, live[top], declared[top], "plan");
    // A secret (or a value that only differs in a way the masked document hides): named, masked.
    return leaves.length
      ? leaves
      : [{ path: top, source: "plan" as const, old: shown(live[top]), new: shown(declared[top]) }];
  });
}

const withoutProvider = (v: unknown) => {
  const { __provider: _, ...rest } = record(v);
  return rest;
};

/**
 * A plan step without diff keys and no refresh step before it (a dynamic provider's update, as CLI 3.259's preview document shows
 * it: the refresh steps carry the recorded state twice, the update step the refreshed outputs and
 * the declared inputs; with a refresh step, the recorded outputs are compared with the refreshed
 * ones instead): each declared leaf against the live value at the same path, old being what
 * the program declares and new what the API answers now. Keys only the API has (server defaults)
 * are no drift, and a masked declared value the outputs do not carry cannot be compared.
 */
function declaredAgainstLive(
  declared: Record<string, unknown>,
  live: Record<string, unknown>,
): PropertyChange[] {
  const walk = (path: string, want: unknown, have: unknown): PropertyChange[] => {
    if (isSecret(want) && have === undefined) return [];
    if (isObject(want) && isObject(have) && !isSecret(want) && !isSecret(have))
      return Object.keys(want).flatMap((key) => walk(path ? `${path}.${key}` : key, want[key], have[key]));
    return changedLeaves(path, want, have, "refresh");
  };
  return Object.keys(declared)
    .filter((key) => key !== "__provider")
    .flatMap((key) => walk(key, declared[key], live[key]));
}

/** The leaves that differ between two values: objects by key, anything else (arrays too) whole. */
export function changedLeaves(
  path: string,
  before: unknown,
  after: unknown,
  source: PropertyChange["source"],
): PropertyChange[] {
  if (isSecret(before) || isSecret(after)) {
    // Both masked: the document cannot tell whether they differ (the plan's steps can).
    if (isSecret(before) && isSecret(after)) return [];
    return [{ path, source, old: shown(before), new: shown(after) }];
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) =>
      changedLeaves(path ? `${path}.${key}` : key, before[key], after[key], source),
    );
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path, source, old: shown(before), new: shown(after) }];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isSecret = (v: unknown) => v === SECRET || (isObject(v) && SECRET_SIG in v);

/** Secrets masked at any depth; an absent value is `null` so the JSON report keeps the key. */
export function shown(v: unknown): unknown {
  if (v === undefined) return null;
  if (isSecret(v)) return SECRET;
  if (Array.isArray(v)) return v.map(shown);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shown(x)]));
  return v;
}

/** The report and its exit code: a failure wins over drift, drift over clean. */
export function driftReport(parts: {
  stack?: string;
  drifted: DriftedResource[];
  unmanaged?: UnmanagedReport;
  errors: string[];
}): DriftReport {
  const found = parts.drifted.length > 0 || (parts.unmanaged?.unmanaged.length ?? 0) > 0;
  const [status, exitCode] =
    parts.errors.length > 0
      ? (["failed", 1] as const)
      : found
        ? (["drift", 2] as const)
        : (["clean", 0] as const);
  return { status, exitCode, ...parts };
}

// ---- Reports ----------------------------------------------------------------------------------

const HEADLINE: Record<DriftReport["status"], string> = {
  clean: "no drift",
  drift: "drift found",
  failed: "the check failed",
};

/** A value on one line: JSON (strings quoted), long ones cut. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined) return "(none)";
  if (v === SECRET) return SECRET;
  const text = JSON.stringify(v);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** The report for people (the job's log). */
export function formatDriftText(report: DriftReport): string {
  const lines = [
    `Drift check${report.stack ? ` of stack ${report.stack}` : ""}: ${HEADLINE[report.status]} (exit ${report.exitCode})`,
  ];
  for (const r of report.drifted) {
    lines.push(`  ~ ${r.urn} (${r.type}): ${r.op}`);
    for (const p of r.properties)
      lines.push(
        `      ${p.path}: ${valueText(p.old)} => ${valueText(p.new)}${p.source === "plan" ? " (up would set)" : ""}`,
      );
    if (r.deleted) lines.push("      deleted outside Pulumi");
    else if (r.properties.length === 0) lines.push("      (no property named by the preview)");
  }
  const unmanaged = report.unmanaged;
  if (unmanaged) {
    lines.push(
      `  Unmanaged objects: ${unmanaged.unmanaged.length} (checked against ${unmanaged.states} state(s); ${unmanaged.allowed.length} allowed)`,
    );
    for (const o of unmanaged.unmanaged)
      lines.push(`  + ${o.kind} ${o.name || "(no name)"} (id ${o.id}): no stack declares it`);
    for (const u of unmanaged.unlisted) lines.push(`  warning: ${u.kind} not checked: ${u.reason}`);
  }
  for (const e of report.errors) lines.push(`  error: ${e}`);
  return `${lines.join("\n")}\n`;
}

/** A table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/[\r\n\u2028\u2029]+/g, " ");
/** Inline code that its own backticks cannot end (CommonMark: a longer fence). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${longest ? " " : ""}${cell(text)}${longest ? " " : ""}${fence}`;
}

/** The report as Markdown: the job summary, and the body of the issue the workflow opens. */
export function formatDriftMarkdown(report: DriftReport): string {
  const out = [
    `## Frontdoor drift check${report.stack ? ` (stack ${code(report.stack)})` : ""}: ${HEADLINE[report.status]}`,
    "",
  ];
  const unmanaged = report.unmanaged?.unmanaged ?? [];
  out.push(
    `Exit code ${report.exitCode}: ${report.drifted.length} resource(s) changed outside Pulumi` +
      (report.unmanaged ? `, ${unmanaged.length} unmanaged object(s)` : "") +
      (report.errors.length ? `, ${report.errors.length} error(s)` : "") +
      ".",
    "",
  );
  if (report.drifted.length > 0) {
    out.push("### Changed outside Pulumi", "");
    out.push(
      "| Resource | Type | Up would | Property | Old | New |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const r of report.drifted) {
      const first = `| ${code(r.name)} | ${code(r.type)} | ${r.op} |`;
      if (r.properties.length === 0)
        out.push(`${first} ${r.deleted ? "(deleted outside Pulumi)" : "—"} | — | — |`);
      for (const p of r.properties)
        out.push(`${first} ${code(p.path)} | ${code(valueText(p.old))} | ${code(valueText(p.new))} |`);
    }
    out.push(
      "",
      "Old → new: for a refreshed property, what Pulumi recorded → what the API answers now; for a property " +
        "only the plan names (a secret, an unapplied change), the live value → what `pulumi up` would set.",
      "",
    );
  }
  if (unmanaged.length > 0) {
    out.push(
      "### Unmanaged objects (no stack declares them)",
      "",
      "| Kind | Name | Id |",
      "| --- | --- | --- |",
    );
    for (const o of unmanaged) out.push(`| ${o.kind} | ${code(o.name || "(no name)")} | ${code(o.id)} |`);
    out.push("");
  }
  for (const u of report.unmanaged?.unlisted ?? []) out.push(`- Not checked: ${u.kind} (${cell(u.reason)})`);
  if (report.errors.length > 0) {
    out.push("### The check failed", "", "This is not a drift report: the check could not finish.", "");
    for (const e of report.errors) out.push(`- ${code(e)}`);
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
