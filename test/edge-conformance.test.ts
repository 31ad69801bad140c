// Contract conformance: every request the provider sends to the Edge management API during the
// full lifecycle of each Edge resource must match the real controller's swagger, and every answer
// it relied on must validate too (the mock records violations of both).
import assert from "node:assert/strict";
import { createChecked, engine, expectNoDrift, importById, testCa, updateChecked } from "./edge-support";
import { type MockServer, startMockServer } from "./mock/server";
import { configureFor, mockConfig } from "./support/engine";

describe("Edge conformance with the controller's swagger", () => {
  let mock: MockServer;
  before(async () => {
    mock = await startMockServer({ edge: { validateRequests: true, validateResponses: true } });
    await configureFor(mockConfig(mock));
  });
  after(() => mock.close());

  /** create, refresh, import, update, refresh, delete: the calls `up`/`refresh`/`destroy` make. */
  async function lifecycle(kind: string, inputs: Record<string, unknown>, changed: Record<string, unknown>) {
    const { id, outs } = await createChecked(kind, inputs);
    await expectNoDrift(kind, id, outs, inputs);
    await importById(kind, id, inputs);
    const news = { ...inputs, ...changed };
    const { result } = await updateChecked(kind, id, outs, news);
    assert.ok(result, `${kind}: the change was not seen`);
    await expectNoDrift(kind, id, result.outs, news);
    return { id, outs: result.outs };
  }

  it("sends only requests the swagger allows and gets only answers it describes", async () => {
    const pki = testCa("Conformance CA");
    const ca = await lifecycle(
      "Ca",
      {
        name: "conf-ca",
        certPem: pki.certPem,
        privateKeyPem: pki.keyPem,
        isOttCaEnrollmentEnabled: true,
        identityRoles: ["robots"],
        externalIdClaim: { location: "SAN_URI", matcher: "SCHEME", matcherCriteria: "spiffe" },
        tags: { owner: "conformance" },
      },
      { isAuthEnabled: true },
    );
    const policy = await lifecycle(
      "AuthPolicy",
      { name: "conf-policy", primary: { extJwt: { allowed: false } }, secondary: { requireTotp: true } },
      { tags: { changed: true } },
    );
    const identities = [];
    for (const [name, enrollment] of [
      ["conf-ott", { ott: true }],
      ["conf-updb", { updb: "conf-updb-user" }],
      ["conf-ottca", { ottca: ca.id }],
    ] as const) {
      identities.push(
        await lifecycle(
          "Identity",
          {
            name,
            type: "User",
            authPolicyId: policy.id,
            roleAttributes: ["conf"],
            serviceHostingCosts: { "svc-1": 5 },
            serviceHostingPrecedences: { "svc-1": "failed" },
            appData: { a: "b", c: null },
            permissions: ["ca.read"],
            enrollment,
          },
          { externalId: `${name}@example`, isAdmin: true },
        ),
      );
    }
    const erp = await lifecycle(
      "EdgeRouterPolicy",
      { name: "conf-erp", identityRoles: ["#conf", `@${identities[0].id}`], edgeRouterRoles: ["#all"] },
      { semantic: "AnyOf" },
    );
    await engine.remove("EdgeRouterPolicy", erp.id, erp.outs);
    for (const i of identities) await engine.remove("Identity", i.id, i.outs);
    await engine.remove("AuthPolicy", policy.id, policy.outs);
    await engine.remove("Ca", ca.id, ca.outs);

    const kinds = [
      "/identities",
      "/auth-policies",
      "/edge-router-policies",
      "/cas",
      "/verify",
      "/authenticate",
    ];
    for (const part of kinds)
      assert.ok(
        mock.log.some((e) => e.path.includes(part)),
        `no request to ${part}`,
      );
    for (const method of ["POST", "GET", "PUT", "DELETE"])
      assert.ok(mock.log.some((e) => e.method === method));
    assert.deepEqual(mock.edge.conformanceViolations, []);
  });

  it("the check itself catches a request outside the contract", async () => {
    const before = mock.edge.conformanceViolations.length;
    const { EdgeClient } = await import("../provider/http/edge");
    const client = new EdgeClient({
      edgeUrl: mock.url,
      edgeUsername: "admin",
      edgePassword: mock.credentials.edgePassword,
    });
    await client
      .put("/auth-policies/default", { name: "Default", primary: {}, secondary: { requireTotp: "yes" } }, "p")
      .catch(() => {});
    await client.close();
    assert.ok(mock.edge.conformanceViolations.length > before, "a malformed PUT was not recorded");
  });
});
