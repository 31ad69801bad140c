// Enrollment on a real OpenZiti controller (`ziti edge quickstart`, built by `npm run peers`): the
// enrollment endpoints answer the mock's way (same raw requests to both, test/enrollment-facts.ts),
// and the provider re-issues an enrollment without replacing the identity: opt-in once expired (the
// refresh before that is clean), and with reEnrollmentTrigger after the identity enrolled.
import assert from "node:assert/strict";
import { enrollIdentity } from "../provider/functions/enrollment";
import { enrollmentFacts } from "./enrollment-facts";
import { realEdgeConfig } from "./peers/controller";
import { certificateLogin } from "./support/clientAccess";
import { EdgeClient } from "./support/edgeClient";
import { configureFor, createChecked, engine, updateChecked } from "./support/engine";
import { useController, useMock } from "./support/fixtures";
import { reEnrollByTrigger } from "./support/reEnrollment";

const KIND = "Identity";

describe("Real OpenZiti controller: enrollment re-issue and enrollIdentity", function () {
  this.timeout(300_000);
  const ctrl = useController();
  const mock = useMock({ tls: true });
  beforeEach(() => configureFor(realEdgeConfig(ctrl)));

  it("the enrollment endpoints answer alike on the controller and the mock", async () => {
    const real = await enrollmentFacts(ctrl, "facts");
    const mockAdmin = new EdgeClient(mock.url, mock.caPem);
    await mockAdmin.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
    const mocked = await enrollmentFacts({ url: mock.url, caPem: mock.caPem!, admin: mockAdmin }, "facts");
    assert.deepEqual(mocked, real);
    // Every answer conforms to the swagger, up to the controller's known deviations (conformance/deviations.ts).
    assert.deepEqual(ctrl.admin.violations, []);
    assert.deepEqual(mockAdmin.violations, []);
    // What the comparison established (so a change of either side is visible here).
    assert.deepEqual(real.refresh, {
      status: 200,
      data: {},
      expiryMoved: true,
      tokenChanged: true,
      jwtCarriesStoredToken: false,
      newJwtEnrolls: "INVALID_ENROLLMENT_TOKEN",
      oldJwtEnrolls: "INVALID_ENROLLMENT_TOKEN",
    });
    assert.deepEqual(real.pemEnroll, { status: 200, cert: true });
    assert.deepEqual(real.lapsed, {
      status: 400,
      code: "ENROLLMENT_EXPIRED",
      field: undefined,
      reason: undefined,
    });
  });

  it("reissueExpiredEnrollment: a lapsed enrollment is no drift, the next up re-issues it in place", async () => {
    const declared = {
      name: "re-kiosk",
      enrollment: { ott: true },
      reissueExpiredEnrollment: true,
      enrollmentMinutes: 30,
    };
    const { id, outs } = await createChecked(KIND, declared);
    const lastUp = (await engine.check(KIND, {}, declared)).inputs as Record<string, unknown>;
    // Behind Pulumi's back the enrollment is replaced by one that lapses at once (as after 180 minutes).
    await ctrl.admin.call("DELETE", `/enrollments/${outs.enrollmentId}`);
    await ctrl.admin.call("POST", "/enrollments", {
      body: { method: "ott", identityId: id, expiresAt: new Date(Date.now() + 1500).toISOString() },
    });
    const refreshedBefore = (await engine.read(KIND, id, outs)).props!;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const refreshed = (await engine.read(KIND, id, refreshedBefore)).props!;
    assert.ok(Date.parse(refreshed.enrollmentExpiresAt as string) < Date.now());
    assert.equal((await engine.diff(KIND, id, refreshed, lastUp)).changes, false, "expiry is no drift");
    await assert.rejects(enrollIdentity({ jwt: refreshed.enrollmentJwt as string }), /jwt expired at/);

    const up = await updateChecked(KIND, id, refreshed, declared);
    assert.deepEqual(up.diff.replaces, []);
    const outs2 = up.result!.outs;
    const minutes = (Date.parse(outs2.enrollmentExpiresAt as string) - Date.now()) / 60_000;
    assert.ok(minutes > 29 && minutes <= 30, `expires in ${minutes} min`);
    const enrolled = await enrollIdentity({ jwt: outs2.enrollmentJwt as string });
    assert.equal(enrolled.identityId, id);
    await certificateLogin(ctrl.url, enrolled);
    const final = (await engine.read(KIND, id, outs2)).props!;
    assert.equal(final.enrollmentJwt, null);
    assert.equal(
      (await updateChecked(KIND, id, final, declared)).diff.changes,
      false,
      "enrolled: nothing due",
    );
    await engine.remove(KIND, id, final);
  });

  it("reEnrollmentTrigger resets an enrolled identity: the old certificate stops working, the new JWT enrolls", async () => {
    const { id, updated, second } = await reEnrollByTrigger(ctrl.url, "re-phone");
    await certificateLogin(ctrl.url, second);
    await engine.remove(KIND, id, (await engine.read(KIND, id, updated)).props!);
  });
});
