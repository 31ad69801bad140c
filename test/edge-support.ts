// Shared by the Edge tests: the provider's host entry points driven like the engine drives them
// (up, refresh, import, destroy), against the mock controller, and test CAs made with node-forge.
import assert from "node:assert/strict";
import { issueCertificate } from "../mock/edge/pki";
import type { Props } from "../provider/resource";
import { createChecked, engine, updateChecked } from "./support/engine";

export { createChecked, engine, updateChecked };

/** A refresh: read with the previous outputs, then diff against the program's inputs. */
export async function refresh(kind: string, id: string, outs: Props, inputs: Props) {
  const read = await engine.read(kind, id, outs);
  if (!("props" in read) || !read.props) return { gone: true as const };
  const checked = await engine.check(kind, {}, inputs);
  const diff = await engine.diff(kind, id, read.props as Props, checked.inputs);
  return { gone: false as const, props: read.props as Props, diff };
}

/** A refresh that must find the object unchanged. */
export async function expectNoDrift(kind: string, id: string, outs: Props, inputs: Props): Promise<Props> {
  const result = await refresh(kind, id, outs, inputs);
  assert.ok(!result.gone, `${kind} ${id} is gone`);
  assert.equal(result.diff.changes, false, `${kind} drifted: ${JSON.stringify(result.props)}`);
  return result.props;
}

/** The input properties a refresh finds changed, sorted: what a drift report names. */
export async function driftedProperties(kind: string, id: string, outs: Props, inputs: Props) {
  const result = await refresh(kind, id, outs, inputs);
  assert.ok(!result.gone, `${kind} ${id} is gone`);
  return [...result.diff.changed].sort();
}

/** An `import` resource option: read with the program's (checked) inputs as state. */
export async function importById(kind: string, id: string, inputs: Props): Promise<Props> {
  const checked = await engine.check(kind, {}, inputs);
  const read = await engine.read(kind, id, checked.inputs);
  assert.ok("props" in read && read.props, `${kind} ${id} not found for import`);
  const diff = await engine.diff(kind, id, read.props as Props, checked.inputs);
  assert.equal(diff.changes, false, `import of ${kind} would change ${diff.changed.join(", ")}`);
  return read.props as Props;
}

/** A CA certificate and its RSA key (PEM), made with node-forge. */
export function testCa(commonName: string): { certPem: string; keyPem: string } {
  const issued = issueCertificate({ commonName, isCa: true });
  return { certPem: issued.certPem, keyPem: issued.keyPem };
}
