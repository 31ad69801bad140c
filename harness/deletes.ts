// Deleting resources in reverse dependency order (dependents first), as many at once as allowed.
import type { Session } from "./session";
import type { StateResource } from "./state";

export async function deleteResource(s: Session, r: StateResource): Promise<void> {
  if (r.protect) throw new Error(`resource ${r.name} is protected; remove the protect option first`);
  if (s.preview) return;
  if (!r.retainOnDelete) {
    const host = await s.host();
    await s.operation("deleting", r, () => host.delete(r.urn, r.id, r.outputs, r.inputs));
  }
  s.removeResource(r);
  s.save();
}

/**
 * Deletes `targets` (a subset of the state) in waves: a resource is deleted once no other remaining
 * target depends on it. A failed delete keeps the resource, and so everything it depends on.
 */
export async function deleteAll(s: Session, targets: StateResource[]): Promise<void> {
  let remaining = [...targets];
  const failed = new Set<StateResource>();
  for (;;) {
    // The URNs some remaining target depends on (a pending-delete old object shares its URN with its
    // successor, which never depends on it): one pass per wave, not one per pair of targets.
    const needed = new Set<string>();
    for (const other of remaining) for (const d of other.dependencies) if (d !== other.urn) needed.add(d);
    const ready = remaining.filter((r) => !failed.has(r) && !needed.has(r.urn));
    if (ready.length === 0) break;
    const deleted = new Set<StateResource>();
    await Promise.all(
      ready.map((r) =>
        s.limit.run(async () => {
          try {
            await deleteResource(s, r);
            // The old half of a replace was already reported as the "replace".
            if (!r.pendingDelete) s.record(r, "delete", r.retainOnDelete ? { retained: true } : {});
            deleted.add(r);
          } catch (e: any) {
            failed.add(r);
            s.record(r, "delete", { error: e.message });
            s.fail({ urn: r.urn, name: r.name, type: r.type, message: `deleting ${r.name}: ${e.message}` });
          }
        }),
      ),
    );
    remaining = remaining.filter((r) => !deleted.has(r));
  }
}
