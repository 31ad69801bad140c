// Re-enrollment through `reEnrollmentTrigger`, against the controller the provider's host entry points are
// configured for (the mock or a real one): the same steps and checks on both.
import assert from "node:assert/strict";
import { enrollIdentity } from "../../provider/functions/enrollment";
import { certificateLogin } from "./clientAccess";
import { createChecked, engine, updateChecked } from "./engine";

/**
 * An identity named `name`, enrolled by one-time token, then its trigger changed: updated in place to a
 * new enrollment, its old certificate refused at `url`, the new JWT enrolling the same identity. The ids,
 * the state after the update and both enrollments, for the caller's further checks and clean-up.
 */
export async function reEnrollByTrigger(url: string, name: string) {
  const declared = { name, enrollment: { ott: true }, reEnrollmentTrigger: "v1" };
  const { id, outs } = await createChecked("Identity", declared);
  const first = await enrollIdentity({ jwt: outs.enrollmentJwt as string });
  await certificateLogin(url, first);
  const state = (await engine.read("Identity", id, outs)).props!;
  const up = await updateChecked("Identity", id, state, { ...declared, reEnrollmentTrigger: "v2" });
  assert.deepEqual(up.diff.replaces, []);
  const updated = up.result!.outs;
  assert.equal(typeof updated.enrollmentJwt, "string");
  assert.deepEqual(updated.authenticators, {});
  await assert.rejects(certificateLogin(url, first), /cert login: 401/);
  const second = await enrollIdentity({ jwt: updated.enrollmentJwt as string });
  assert.equal(second.identityId, id);
  return { id, updated, first, second };
}
