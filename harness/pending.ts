// Operations an interrupted run left pending (see PendingOperation in state.ts), handled as the Pulumi
// CLI (3.259) handles its `pending_operations`: `up` and `destroy` warn about them first, and
// keep pending creates (only the user can tell whether the object exists) and drop the others, whose
// resource is still in the state; `refresh` drops pending updates and deletes (it reads the objects
// anyway) and resolves pending creates as told: `--import-pending-creates URN ID` reads the object
// by id into the state, `--clear-pending-creates` drops them; without either they stay.

import { shortType } from "./format";
import { annotateSecrets } from "./secrets";
import type { Session } from "./session";
import type { PendingOperation } from "./state";

/** The warning every command starts with when the state holds pending operations. */
export function warnPending(s: Session): void {
  const pending = s.state.pendingOperations;
  if (pending.length === 0) return;
  const lines = [
    `Attempting to deploy or update resources with ${pending.length} pending operations from previous deployment.`,
    ...pending.map((op) => `  * ${op.resource.urn}, interrupted while ${op.type}`),
    "These resources are in an unknown state because the harness was interrupted while waiting for changes to",
    "these resources to complete. Check on the service whether the operations listed completed.",
  ];
  const creates = pending.filter((op) => op.type === "creating");
  if (creates.length > 0) {
    lines.push(
      "",
      "A pending create may have made an object the state does not know. `up` declares it again and adopts an",
      "object of its name that matches the declaration (the provider says so); then drop the pending creates:",
      "  harness refresh <program-dir> --clear-pending-creates",
      "Or, before that, read an object that exists into the state by its id from the service:",
      ...creates.map(
        (op) =>
          `  harness refresh <program-dir> --import-pending-creates ${op.resource.urn} --import-pending-creates <id>` +
          `   # ${shortType(op.resource.type)} ${op.resource.name}`,
      ),
    );
  }
  s.report.warnings.push(lines.join("\n"));
}

/** After `up` or `destroy`: pending creates stay for the user to resolve; the others are dropped. */
export function keepPendingCreates(s: Session, found: PendingOperation[]): void {
  const dropped = new Set(found.filter((op) => op.type !== "creating"));
  if (dropped.size === 0) return;
  s.state.pendingOperations = s.state.pendingOperations.filter((op) => !dropped.has(op));
  s.save();
}

/**
 * Before `refresh` reads the state: imports the pending creates given with `--import-pending-creates`
 * (read by id with the inputs the create was sent with, `__provider` included), clears the others if
 * `--clear-pending-creates`, and drops pending updates, deletes and imports.
 */
export async function resolvePending(s: Session): Promise<void> {
  const pairs = s.opts.importPendingCreates ?? [];
  const ids = new Map<string, string>();
  for (let i = 0; i + 1 < pairs.length; i += 2) ids.set(pairs[i], pairs[i + 1]);
  const kept: PendingOperation[] = [];
  for (const op of s.state.pendingOperations) {
    if (op.type !== "creating") continue; // refresh reads these objects anyway
    const id = ids.get(op.resource.urn);
    ids.delete(op.resource.urn);
    if (id !== undefined) {
      await importPending(s, op, id).catch((e: any) => {
        kept.push(op);
        s.fail({
          urn: op.resource.urn,
          name: op.resource.name,
          type: op.resource.type,
          message: `importing pending create ${op.resource.name} (${id}): ${e.message}`,
        });
      });
    } else if (!s.opts.clearPendingCreates) {
      kept.push(op);
    }
  }
  for (const urn of ids.keys()) s.report.warnings.push(`"${urn}" did not correspond to a pending create`);
  s.state.pendingOperations = kept;
  s.save();
}

async function importPending(s: Session, op: PendingOperation, id: string): Promise<void> {
  const host = await s.host();
  const r = op.resource;
  const read = await host.read(r.urn, id, r.inputs, r.inputs);
  if (!read.id) throw new Error("no such object");
  const resource = { ...r, id: read.id, outputs: annotateSecrets(read.outputs, r.inputs) };
  // The refresh that follows reads it again, with everything else, and reports any drift.
  s.state.resources = [...s.state.resources.filter((x) => x.urn !== r.urn || x.pendingDelete), resource];
  s.record(resource, "import");
}
