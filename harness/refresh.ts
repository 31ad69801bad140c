// `refresh`: Read every resource in state, then Diff (refreshed outputs against the stored inputs),
// as the engine does; the provider's diff decides what counts as drift.
import { changedLeaves, shown } from "./leaves";
import { annotateSecrets, markSecretKeys, stripSecrets } from "./secrets";
import type { Session } from "./session";
import type { StateResource } from "./state";
import { deepEqual, differingKeys } from "./steps";
import type { PropertyChange } from "./types";

export async function refresh(s: Session): Promise<void> {
  await Promise.all(
    s.state.resources.map((r) =>
      s.limit.run(() =>
        refreshOne(s, r).catch((e: any) => {
          s.record(r, "refresh", { error: e.message });
          s.fail({ urn: r.urn, name: r.name, type: r.type, message: `refreshing ${r.name}: ${e.message}` });
        }),
      ),
    ),
  );
  s.save();
}

async function refreshOne(s: Session, r: StateResource): Promise<void> {
  const host = await s.host();
  const read = await host.read(r.urn, r.id, r.outputs, r.inputs);
  const change = { urn: r.urn, name: r.name, type: r.type };
  if (!read.id) {
    s.removeResource(r);
    s.report.changes.push({ ...change, kind: "delete", properties: [] });
    s.record(r, "delete");
    return;
  }
  // Secretness survives a refresh: whatever was secret before (or is a secret input) stays secret,
  // leaf by leaf inside objects, as the engine annotates a read.
  const outputs = markSecretKeys(
    annotateSecrets(annotateSecrets(read.outputs, r.outputs), r.inputs),
    r.additionalSecretOutputs ?? [],
  );
  const diff = await host.diff(r.urn, read.id, read.outputs, r.inputs, r.inputs);
  if (diff.changes) {
    const properties = await driftedProperties(s, r, read.id, outputs);
    s.report.changes.push({ ...change, kind: "update", properties });
  }
  const oldInputs = r.inputs;
  r.id = read.id;
  r.outputs = outputs;
  if (read.inputs) r.inputs = annotateSecrets(read.inputs, oldInputs);
  s.record(r, diff.changes ? "update" : "same");
}

/**
 * The properties that make up the drift. The dynamic provider's Diff answers only "changes or not",
 * so each property that changed since the last state is tried on its own: it is drift when putting
 * just that new value into the old state makes the provider's Diff report a change. Outputs the
 * service moves by itself (a status) or derives (a display list) are so left out, as the provider
 * decides. If the old state already differed from the inputs, every changed property is listed.
 */
async function driftedProperties(
  s: Session,
  r: StateResource,
  id: string,
  refreshed: Record<string, any>,
): Promise<PropertyChange[]> {
  const host = await s.host();
  const keys = new Set([...Object.keys(r.outputs), ...Object.keys(refreshed)]);
  keys.delete("__provider");
  const changed = [...keys].filter((k) => !deepEqual(stripSecrets(r.outputs[k]), stripSecrets(refreshed[k])));
  const baseline = await host.diff(r.urn, id, r.outputs, r.inputs, r.inputs);
  const drifted: string[] = [];
  for (const k of changed) {
    const probe = baseline.changes
      ? baseline
      : await host.diff(r.urn, id, { ...r.outputs, [k]: refreshed[k] }, r.inputs, r.inputs);
    if (probe.changes) drifted.push(k);
  }
  if (drifted.length > 0) return drifted.map((k) => propertyChange(k, r.outputs[k], refreshed[k]));
  return differingKeys(stripSecrets(r.inputs), stripSecrets(refreshed)).map((k) =>
    propertyChange(k, r.inputs[k], refreshed[k]),
  );
}

function propertyChange(name: string, before: unknown, after: unknown): PropertyChange {
  return { name, old: shown(before), new: shown(after), leaves: changedLeaves(name, before, after) };
}
