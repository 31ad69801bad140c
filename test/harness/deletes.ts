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
  s.state.resources = s.state.resources.filter((x) => x !== r);
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
    const ready = remaining.filter(
      (r) => !failed.has(r) && !remaining.some((other) => other !== r && dependsOn(other, r)),
    );
    if (ready.length === 0) break;
    await Promise.all(
      ready.map((r) =>
        s.limit.run(async () => {
          try {
            await deleteResource(s, r);
            // The old half of a replace was already reported as the "replace".
            if (!r.pendingDelete) s.record(r, "delete", r.retainOnDelete ? { retained: true } : {});
            remaining = remaining.filter((x) => x !== r);
          } catch (e: any) {
            failed.add(r);
            s.record(r, "delete", { error: e.message });
            s.fail({ urn: r.urn, name: r.name, type: r.type, message: `deleting ${r.name}: ${e.message}` });
          }
        }),
      ),
    );
  }
}

/** A pending-delete old object shares its URN with its successor; the successor never depends on it. */
function dependsOn(a: StateResource, b: StateResource): boolean {
  return a.urn !== b.urn && a.dependencies.includes(b.urn);
}
