// EdgeRouter through the provider's host entry points against the mock controller: create with its
// enrollment (a secret), refresh and import without drift, the enrollment consumed or expired (not
// drift), update with PUT, re-enrollment without replacement, drift reported on exactly the changed
// properties, delete and 404-as-gone.
import assert from "node:assert/strict";
import { createPublicKey, verify } from "node:crypto";
import type { Props } from "../provider/resource";
import { resourceDefinition } from "../provider/resources";
import * as edge from "./edge-support";
import { requestsTo, useMockProvider } from "./support/fixtures";

function jwtClaims(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));
}

describe("EdgeRouter", () => {
  const mock = useMockProvider();

  const requests = requestsTo(mock);

  it("is created with an enrollment JWT, refreshes and imports clean; consumed or expired is not drift", async () => {
    const inputs = { name: "er-west", roleAttributes: ["west", "public"], isTunnelerEnabled: true };
    const { id, outs } = await edge.createChecked("EdgeRouter", inputs);
    assert.equal(mock.edge.get("edge-routers", id)?.isTunnelerEnabled, true);
    assert.deepEqual(outs.roleAttributes, ["west", "public"]);
    assert.equal(outs.cost, 0);
    assert.equal(outs.isVerified, false);
    const jwt = String(outs.enrollmentJwt);
    const [header, payload, signature] = jwt.split(".");
    const key = createPublicKey(mock.edge.enrollmentJwtPublicKeyPem);
    assert.ok(
      verify("sha256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url")),
    );
    assert.equal(jwtClaims(jwt).sub, id);
    assert.equal(jwtClaims(jwt).em, "erott");
    assert.ok(Date.parse(String(outs.enrollmentExpiresAt)) > Date.now() + 170 * 60_000);
    // The secret is marked secret in the schema the SDK uses for additionalSecretOutputs.
    assert.deepEqual(resourceDefinition("EdgeRouter").secretOutputs, ["enrollmentJwt", "enrollmentToken"]);
    await edge.expectNoDrift("EdgeRouter", id, outs, inputs);
    const imported = await edge.importById("EdgeRouter", id, inputs);
    assert.equal(imported.enrollmentJwt, jwt);

    // Expired before use: still not drift (the nightly refresh stays green).
    mock.edge.patch("edge-routers", id, { enrollmentExpiresAt: new Date(Date.now() - 60_000).toISOString() });
    await edge.expectNoDrift("EdgeRouter", id, outs, inputs);
    // The router enrolled: the enrollment is gone, the router verified. Not drift either.
    mock.edge.patch("edge-routers", id, {
      enrollmentJwt: null,
      enrollmentToken: null,
      enrollmentCreatedAt: null,
      enrollmentExpiresAt: null,
      isVerified: true,
      fingerprint: "0123456789abcdef0123456789abcdef01234567",
    });
    const enrolled = await edge.expectNoDrift("EdgeRouter", id, outs, inputs);
    assert.equal(enrolled.enrollmentJwt, null);
    assert.equal(enrolled.isVerified, true);
    assert.equal(enrolled.fingerprint, "0123456789abcdef0123456789abcdef01234567");

    await edge.engine.remove("EdgeRouter", id, enrolled);
    assert.equal(mock.edge.get("edge-routers", id), undefined);
    assert.equal((await edge.refresh("EdgeRouter", id, enrolled, inputs)).gone, true);
    await edge.engine.remove("EdgeRouter", id, enrolled); // 404 on delete: already gone, fine
  });

  it("updates with PUT, re-enrolls without replacement when reEnrollmentTrigger changes", async () => {
    const inputs: Props = {
      name: "er-east",
      roleAttributes: ["east"],
      cost: 10,
      noTraversal: true,
      appData: { rack: "r1" },
      tags: { env: "test" },
      reEnrollmentTrigger: "1",
    };
    const { id, outs } = await edge.createChecked("EdgeRouter", inputs);
    assert.equal(requests("POST", `/edge-routers/${id}/re-enroll`).length, 0);
    mock.edge.patch("edge-routers", id, { enrollmentJwt: null, enrollmentToken: null, isVerified: true });

    // A plain update: PUT with every field, no re-enrollment.
    const news = { ...inputs, cost: 20, noTraversal: undefined, tags: {} };
    const { diff, result } = await edge.updateChecked("EdgeRouter", id, outs, news);
    assert.deepEqual(diff.replaces, []);
    assert.equal(requests("PUT", `/edge-routers/${id}`).length, 1);
    assert.equal(requests("POST", `/edge-routers/${id}/re-enroll`).length, 0);
    const stored = mock.edge.get("edge-routers", id)!;
    assert.equal(stored.cost, 20);
    assert.equal(stored.noTraversal, false);
    assert.deepEqual(stored.tags, {});
    assert.equal(result!.outs.enrollmentJwt, null);
    await edge.expectNoDrift("EdgeRouter", id, result!.outs, news);

    // Bump the trigger: same id, a fresh enrollment, the router must enroll again.
    const bumped = { ...news, reEnrollmentTrigger: "2" };
    const again = await edge.updateChecked("EdgeRouter", id, result!.outs, bumped);
    assert.equal(again.diff.changes, true);
    assert.deepEqual(again.diff.replaces, []);
    assert.equal(requests("POST", `/edge-routers/${id}/re-enroll`).length, 1);
    const outsAfter = again.result!.outs as Props;
    assert.match(String(outsAfter.enrollmentJwt), /^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal(outsAfter.isVerified, false);
    assert.equal(outsAfter.reEnrollmentTrigger, "2");
    await edge.expectNoDrift("EdgeRouter", id, outsAfter, bumped);

    // Changes behind its back are reported on exactly the changed properties.
    mock.edge.patch("edge-routers", id, { cost: 99, roleAttributes: ["east", "intruder"], disabled: true });
    assert.deepEqual(await edge.driftedProperties("EdgeRouter", id, outsAfter, bumped), [
      "cost",
      "disabled",
      "roleAttributes",
    ]);
    // Reordered role attributes and null for empty are not drift.
    mock.edge.patch("edge-routers", id, {
      cost: 20,
      roleAttributes: ["east"],
      disabled: false,
      appData: null,
    });
    assert.deepEqual(
      await edge.driftedProperties("EdgeRouter", id, outsAfter, { ...bumped, appData: {} }),
      [],
    );
    await edge.engine.remove("EdgeRouter", id, outsAfter);
  });

  it("unset fields read back null from the controller are not drift", async () => {
    const inputs = { name: "er-minimal" };
    const { id, outs } = await edge.createChecked("EdgeRouter", inputs);
    assert.deepEqual(outs.roleAttributes, []);
    // What a controller may answer for "none": null lists and maps.
    mock.edge.patch("edge-routers", id, { roleAttributes: null, appData: null, tags: null });
    assert.equal(outs.reEnrollmentTrigger, null);
    await edge.expectNoDrift("EdgeRouter", id, outs, inputs);
    await edge.importById("EdgeRouter", id, inputs);
    await edge.engine.remove("EdgeRouter", id, outs);
  });

  it("a create or re-enroll whose answer was lost is adopted or sent again, never duplicated", async () => {
    mock.faults.inject({ method: "POST", path: "/edge-routers", kind: "commit-then-drop", count: 1 });
    const inputs = { name: "er-lost", reEnrollmentTrigger: "a" };
    const { id, outs } = await edge.createChecked("EdgeRouter", inputs);
    assert.deepEqual(
      mock.edge
        .list("edge-routers")
        .filter((r) => r.name === "er-lost")
        .map((r) => r.id),
      [id],
    );
    assert.ok(outs.enrollmentJwt);
    mock.faults.inject({
      method: "POST",
      path: `/edge-routers/${id}/re-enroll`,
      kind: "commit-then-drop",
      count: 1,
    });
    const { result } = await edge.updateChecked("EdgeRouter", id, outs, {
      ...inputs,
      reEnrollmentTrigger: "b",
    });
    assert.equal(requests("POST", `/edge-routers/${id}/re-enroll`).length, 2);
    assert.notEqual(result!.outs.enrollmentJwt, outs.enrollmentJwt);
    assert.equal(mock.edge.get("edge-routers", id)?.enrollmentJwt, result!.outs.enrollmentJwt);
    await edge.engine.remove("EdgeRouter", id, result!.outs);
  });

  it("rejects bad inputs at check time, naming the property", async () => {
    const { failures } = await edge.engine.check(
      "EdgeRouter",
      {},
      { name: "", cost: 70000, roleAttributes: "west", isTunnelerEnabled: "yes", enrollment: {} },
    );
    assert.deepEqual(failures.map((f) => f.property).sort(), [
      "cost",
      "enrollment",
      "isTunnelerEnabled",
      "name",
      "roleAttributes",
    ]);
  });
});
