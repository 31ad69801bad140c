// Unmanaged objects: what exists on the Frontdoor and Edge APIs that none of the given stack states
// declares, e.g. an admin identity or an `#all` dial policy made in the console. `pulumi refresh`
// only looks at declared objects; this looks at everything else. Built-ins of the controller (the
// default admin, the `default` auth policy, system policies, built-in config types) are never listed.
import { readFileSync } from "node:fs";
import type { ResourceContext } from "../resource";
import { globPattern, idsInState, listExisting } from "../tools/inventory";
import { type AuditCommand, parseFlags, UsageError } from "./command";

export interface UnmanagedObject {
  kind: string;
  id: string;
  name: string;
}

export interface UnmanagedReport {
  /** How many state files were read. */
  states: number;
  unmanaged: UnmanagedObject[];
  /** Unmanaged, but matched by an allow rule (owned elsewhere, or built-in by your own rules). */
  allowed: (UnmanagedObject & { rule: string })[];
  /** Kinds that could not be listed, so their objects were not checked. */
  unlisted: { kind: string; reason: string }[];
}

export interface UnmanagedOptions {
  /** Parsed state documents: `pulumi stack export` output or harness state files. */
  states: unknown[];
  /**
   * Allow rules: `id:<id>`, `tag:<key>` or `tag:<key>=<value>` (Edge tags), `<Kind>:<name pattern>`,
   * or a bare `<name pattern>`; patterns take `*` and `?`.
   */
  allow?: string[];
  kinds?: string[];
  frontdoorId?: string;
}

export async function findUnmanaged(
  ctx: ResourceContext,
  options: UnmanagedOptions,
): Promise<UnmanagedReport> {
  const managed = new Set<string>();
  for (const state of options.states) for (const id of idsInState(state)) managed.add(id);
  const rules = (options.allow ?? []).map(allowRule);
  const inventory = await listExisting(ctx, {
    kinds: options.kinds,
    frontdoorId: options.frontdoorId,
    skipIds: managed,
  });
  const report: UnmanagedReport = {
    states: options.states.length,
    unmanaged: [],
    allowed: [],
    unlisted: inventory.unlisted,
  };
  for (const { def, id, state } of inventory.objects) {
    const object = { kind: def.kind, id, name: String(state.name ?? state.hostname ?? "") };
    const rule = rules.find((r) => r.matches(object, state.tags));
    if (rule) report.allowed.push({ ...object, rule: rule.text });
    else report.unmanaged.push(object);
  }
  return report;
}

interface AllowRule {
  text: string;
  matches(object: UnmanagedObject, tags: unknown): boolean;
}

function allowRule(text: string): AllowRule {
  if (text.startsWith("id:")) {
    const id = text.slice(3);
    return { text, matches: (o) => o.id === id };
  }
  if (text.startsWith("tag:")) {
    const [key, value] = text.slice(4).split(/=(.*)/s);
    return {
      text,
      matches: (_o, tags) => {
        if (!tags || typeof tags !== "object" || !(key in tags)) return false;
        return value === undefined || String((tags as Record<string, unknown>)[key]) === value;
      },
    };
  }
  const colon = text.indexOf(":");
  const kind = colon > 0 ? text.slice(0, colon) : undefined;
  const name = globPattern(colon > 0 ? text.slice(colon + 1) : text);
  return { text, matches: (o) => (kind === undefined || o.kind === kind) && name.test(o.name) };
}

export function formatUnmanaged(report: UnmanagedReport): string {
  const lines = [
    `Unmanaged objects: ${report.unmanaged.length} (checked against ${report.states} state(s); ${report.allowed.length} allowed)`,
  ];
  const width = Math.max(0, ...report.unmanaged.map((o) => o.kind.length));
  for (const o of report.unmanaged)
    lines.push(`  ${o.kind.padEnd(width)}  ${o.name || "(no name)"}  (id ${o.id})`);
  for (const u of report.unlisted) lines.push(`  warning: ${u.kind} not checked: ${u.reason}`);
  if (report.unmanaged.length > 0)
    lines.push(
      "",
      "Declare them in a stack (npx pulumi-frontdoor-import --exclude-state <state> prints the declarations),",
      "delete them, or allow them with --allow.",
    );
  return `${lines.join("\n")}\n`;
}

export const unmanagedCommand: AuditCommand = {
  name: "unmanaged",
  usage: "--state FILE [--state FILE ...] [--allow RULE ...] [--kind KIND ...] [--frontdoor-id ID] [--json]",
  async run(ctx, argv) {
    const { values } = parseFlags(argv, { values: ["--state", "--allow", "--kind", "--frontdoor-id"] });
    const files = values.get("--state") ?? [];
    if (files.length === 0)
      throw new UsageError("unmanaged needs at least one --state (a `pulumi stack export` file)");
    const states = files.map((file) => {
      try {
        return JSON.parse(readFileSync(file, "utf8"));
      } catch (err) {
        throw new UsageError(`--state ${file}: ${(err as Error).message}`);
      }
    });
    const report = await findUnmanaged(ctx, {
      states,
      allow: values.get("--allow"),
      kinds: values.get("--kind"),
      frontdoorId: values.get("--frontdoor-id")?.[0],
    });
    return { exitCode: report.unmanaged.length > 0 ? 1 : 0, text: formatUnmanaged(report), json: report };
  },
};
