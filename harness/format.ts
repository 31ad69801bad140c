// Human-readable output in the spirit of `pulumi up`.
import type { Op, Report, ResourceReport } from "./types";

const SYMBOL: Record<Op, string> = {
  create: "+ create",
  update: "~ update",
  replace: "+- replace",
  delete: "- delete",
  same: "= same",
  import: "= import",
  refresh: "  refresh",
};
const DONE: Record<Op, string> = {
  create: "created",
  update: "updated",
  replace: "replaced",
  delete: "deleted",
  same: "unchanged",
  import: "imported",
  refresh: "refreshed",
};

/** `pulumi-nodejs:dynamic/frontdoor:AuthProvider` -> `frontdoor:AuthProvider`. */
export function shortType(type: string): string {
  return type.replace(/^pulumi-nodejs:dynamic\//, "").replace(/^pulumi-nodejs:/, "");
}

function value(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

const VERB = { up: "Updating", preview: "Previewing update", refresh: "Refreshing", destroy: "Destroying" };

export function formatHeader(r: Pick<Report, "command" | "project" | "stack">): string {
  return `${VERB[r.command]} (${r.project}/${r.stack})\n\n`;
}

/** The line printed as a step finishes, with the running count of finished steps. */
export function formatStep(res: ResourceReport, done: number): string {
  const suffix = res.error ? "  **failed**" : res.retained ? "  (retained)" : "";
  return `    ${SYMBOL[res.op].padEnd(10)} ${shortType(res.type)}  ${res.name}${suffix}  [${done}]\n`;
}

/**
 * The report: a line per resource (left out when `streamed`, i.e. already printed step by step), the
 * drift of each changed resource leaf by leaf, the outputs and the counts.
 */
export function formatReport(r: Report, streamed = false): string {
  const lines: string[] = [];
  if (!streamed) lines.push(`${VERB[r.command]} (${r.project}/${r.stack})`, "");
  const width = Math.max(0, ...r.resources.map((x) => shortType(x.type).length));
  for (const res of r.resources) {
    const change = r.changes.find((c) => c.urn === res.urn && c.kind === "update");
    if (streamed && !change) continue;
    const suffix = res.error ? "  **failed**" : res.retained ? "  (retained)" : "";
    lines.push(`    ${SYMBOL[res.op].padEnd(10)} ${shortType(res.type).padEnd(width)}  ${res.name}${suffix}`);
    for (const p of change?.properties ?? []) {
      // Leaf by leaf where the property is an object; the whole value otherwise.
      const leaves = p.leaves?.length ? p.leaves : [{ path: p.name, old: p.old, new: p.new }];
      for (const leaf of leaves)
        lines.push(`        ~ ${leaf.path}: ${value(leaf.old)} => ${value(leaf.new)}`);
    }
  }
  if (r.warnings?.length) {
    // Like the CLI's "Diagnostics:" section.
    lines.push("", "Warnings:");
    for (const w of r.warnings)
      lines.push(w.replace(/^/gm, "    warning: ").replace(/\n {4}warning: /g, "\n      "));
  }
  const outputs = Object.entries(r.outputs);
  if (outputs.length > 0) {
    lines.push("", "Outputs:");
    for (const [k, v] of outputs) lines.push(`    ${k}: ${value(v)}`);
  }
  const counts = Object.entries(r.summary).map(([op, n]) =>
    r.preview ? `${n} to ${op === "same" ? "leave unchanged" : op}` : `${n} ${DONE[op as Op]}`,
  );
  lines.push("", `Resources: ${counts.length ? counts.join(", ") : "none"}`);
  if (r.command === "refresh") {
    const drifted = r.changes.filter((c) => c.kind === "update").length;
    const deleted = r.changes.length - drifted;
    lines.push(`Drift: ${drifted} changed outside Pulumi, ${deleted} deleted outside Pulumi`);
  }
  lines.push(`Duration: ${(r.durationMs / 1000).toFixed(1)}s`);
  return `${lines.join("\n")}\n`;
}

export function formatFailures(r: Report): string {
  return r.failures
    .map((f) =>
      f.name ? `error: ${f.name} (${shortType(f.type ?? "")}): ${f.message}` : `error: ${f.message}`,
    )
    .map((l) => `${l}\n`)
    .join("");
}
