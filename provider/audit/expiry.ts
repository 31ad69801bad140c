// The expiry view: every certificate, certificate request token, enrollment (identities, edge routers)
// and CA certificate on the APIs with its expiry date, soonest first, and a threshold that fails the
// scheduled job. What expires is each kind's `expiry` (the same field the preview warnings use); a CA's
// date comes from its certificate. Consumed enrollments have no date and are not listed.
import { X509Certificate } from "node:crypto";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { daysUntil } from "../resources/common";
import { listExisting } from "../tools/inventory";
import { type AuditCommand, parseFlags, UsageError } from "./command";

export interface ExpiringObject {
  kind: string;
  id: string;
  name: string;
  /** What expires: certificate, token, enrollment, CA certificate. */
  what: string;
  expiresAt: string;
  daysLeft: number;
}

export interface ExpiryReport {
  thresholdDays: number;
  /** Everything with an expiry date, soonest first. */
  objects: ExpiringObject[];
  /** Those that expire within the threshold (or already did). */
  due: ExpiringObject[];
}

/** The expiry of one object, if it has one: the kind's expiry field, or a CA's certificate. */
function expiryOf(def: ResourceDefinition, state: Props): { what: string; at: string } | undefined {
  if (def.expiry) {
    const at = state[def.expiry.at];
    return typeof at === "string" && at ? { what: def.expiry.what, at } : undefined;
  }
  if (def.kind === "Ca" && typeof state.certPem === "string") {
    try {
      return {
        what: "CA certificate",
        at: new Date(new X509Certificate(state.certPem).validTo).toISOString(),
      };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export async function expiryView(
  ctx: ResourceContext,
  options: { thresholdDays: number; frontdoorId?: string; now?: number },
): Promise<ExpiryReport> {
  const now = options.now ?? Date.now();
  const inventory = await listExisting(ctx, { frontdoorId: options.frontdoorId });
  const objects: ExpiringObject[] = [];
  for (const { def, id, state } of inventory.objects) {
    const expiry = expiryOf(def, state);
    if (!expiry) continue;
    const daysLeft = daysUntil(expiry.at, now);
    if (daysLeft === null) continue;
    const name = String(state.name ?? state.commonName ?? "");
    objects.push({ kind: def.kind, id, name, what: expiry.what, expiresAt: expiry.at, daysLeft });
  }
  objects.sort((a, b) => Date.parse(a.expiresAt) - Date.parse(b.expiresAt));
  return {
    thresholdDays: options.thresholdDays,
    objects,
    due: objects.filter((o) => o.daysLeft < options.thresholdDays),
  };
}

export function formatExpiry(report: ExpiryReport): string {
  const lines = [
    `Expiry: ${report.due.length} due within ${report.thresholdDays} day(s), ${report.objects.length} dated in all`,
  ];
  const width = Math.max(0, ...report.objects.map((o) => o.kind.length));
  for (const o of report.objects) {
    const mark = o.daysLeft < 0 ? "EXPIRED" : o.daysLeft < report.thresholdDays ? "due" : "";
    lines.push(
      `  ${o.expiresAt}  ${String(o.daysLeft).padStart(5)} d  ${o.kind.padEnd(width)}  ${o.name || "(no name)"} (${o.what}, id ${o.id})  ${mark}`.trimEnd(),
    );
  }
  return `${lines.join("\n")}\n`;
}

export const expiryCommand: AuditCommand = {
  name: "expiry",
  usage: "[--days N (default 30)] [--frontdoor-id ID] [--json]",
  async run(ctx, argv) {
    const { values } = parseFlags(argv, { values: ["--days", "--frontdoor-id"] });
    const days = Number(values.get("--days")?.[0] ?? 30);
    if (!Number.isFinite(days) || days < 0) throw new UsageError("--days takes a non-negative number");
    const report = await expiryView(ctx, {
      thresholdDays: days,
      frontdoorId: values.get("--frontdoor-id")?.[0],
    });
    return { exitCode: report.due.length > 0 ? 1 : 0, text: formatExpiry(report), json: report };
  },
};
