// Contract conformance: every request the provider sends to the Edge management API during the
// full lifecycle of each Edge resource must match the real controller's swagger, and every answer
// it relied on must validate too (the mock records violations of both).
import assert from "node:assert/strict";
import { createChecked, engine, expectNoDrift, importById, testCa, updateChecked } from "./edge-support";
import { useMockProvider } from "./support/fixtures";

describe("Edge conformance with the controller's swagger", () => {
  const mock = useMockProvider({ edge: { validateRequests: true, validateResponses: true } });

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

  it("edge routers (with re-enrollment), external JWT signers and every posture check type conform", async () => {
    const router = await lifecycle(
      "EdgeRouter",
      { name: "conf-er", roleAttributes: ["conf"], isTunnelerEnabled: true, cost: 5, appData: { a: "b" } },
      { noTraversal: true, reEnrollmentTrigger: "1" },
    );
    const signer = await lifecycle(
      "ExternalJwtSigner",
      {
        name: "conf-signer",
        issuer: "https://conf.example",
        audience: "ziti",
        jwksEndpoint: "https://conf.example/jwks",
        clientId: "c",
        scopes: ["openid"],
      },
      { enabled: false, targetToken: "ID" },
    );
    const certSigner = await lifecycle(
      "ExternalJwtSigner",
      {
        name: "conf-cert-signer",
        issuer: "conf-cert",
        audience: "ziti",
        certPem: testCa("Conf JWT").certPem,
      },
      { kid: "k1" },
    );
    const checks = [];
    for (const [typeId, fields, changed] of [
      ["OS", { operatingSystems: [{ type: "Linux", versions: [">=5.0.0"] }] }, { tags: { a: "b" } }],
      ["DOMAIN", { domains: ["corp.example"] }, { domains: ["corp.example", "ad.example"] }],
      ["MAC", { macAddresses: ["00:11:22:33:44:55"] }, { roleAttributes: ["x"] }],
      [
        "PROCESS",
        { process: { osType: "Windows", path: "C:\\a.exe", signerFingerprint: "ab" } },
        { tags: { b: true } },
      ],
      [
        "PROCESS_MULTI",
        { processes: [{ osType: "macOS", path: "/a", hashes: ["h"] }] },
        { semantic: "AnyOf" },
      ],
      ["MFA", {}, { timeoutSeconds: 60, promptOnWake: true }],
    ] as const) {
      checks.push(await lifecycle("PostureCheck", { name: `conf-pc-${typeId}`, typeId, ...fields }, changed));
    }
    await engine.remove("EdgeRouter", router.id, router.outs);
    await engine.remove("ExternalJwtSigner", signer.id, signer.outs);
    await engine.remove("ExternalJwtSigner", certSigner.id, certSigner.outs);
    for (const c of checks) await engine.remove("PostureCheck", c.id, c.outs);
    for (const part of ["/edge-routers", "/re-enroll", "/external-jwt-signers", "/posture-checks"])
      assert.ok(
        mock.log.some((e) => e.path.includes(part)),
        `no request to ${part}`,
      );
    assert.deepEqual(mock.edge.conformanceViolations, []);
  });

  it("services, service policies, configs and config types conform too", async () => {
    const type = await lifecycle(
      "ConfigType",
      { name: "conf-type.v1", schema: { type: "object", properties: { n: { type: "integer" } } } },
      { tags: { changed: true } },
    );
    const custom = await lifecycle(
      "Config",
      { name: "conf-custom", configTypeId: type.id, data: { n: 1 } },
      {
        data: { n: 2 },
      },
    );
    const intercept = await lifecycle(
      "Config",
      {
        name: "conf-intercept",
        configTypeName: "intercept.v1",
        data: { protocols: ["tcp"], addresses: ["conf.ziti"], portRanges: [{ low: 80, high: 80 }] },
      },
      { tags: { v: "2" } },
    );
    const host = await lifecycle(
      "Config",
      {
        name: "conf-host",
        configTypeName: "host.v2",
        data: { terminators: [{ protocol: "tcp", address: "a", port: 1 }] },
      },
      {
        data: { terminators: [{ forwardProtocol: true, allowedProtocols: ["tcp"], address: "a", port: 2 }] },
      },
    );
    const service = await lifecycle(
      "Service",
      { name: "conf-svc", configs: [intercept.id, host.id, custom.id], roleAttributes: ["conf"] },
      { configs: [intercept.id], terminatorStrategy: "weighted", maxIdleTimeMillis: 1000 },
    );
    const dial = await lifecycle(
      "ServicePolicy",
      { name: "conf-dial", type: "Dial", identityRoles: ["#conf"], serviceRoles: [`@${service.id}`] },
      { postureCheckRoles: ["#mfa"], semantic: "AnyOf" },
    );
    const serp = await lifecycle(
      "ServiceEdgeRouterPolicy",
      { name: "conf-serp", serviceRoles: ["#conf"], edgeRouterRoles: ["#all"] },
      { tags: { a: "b" } },
    );
    await engine.remove("ServiceEdgeRouterPolicy", serp.id, serp.outs);
    await engine.remove("ServicePolicy", dial.id, dial.outs);
    await engine.remove("Service", service.id, service.outs);
    for (const config of [intercept, host, custom]) await engine.remove("Config", config.id, config.outs);
    await engine.remove("ConfigType", type.id, type.outs);
    for (const part of [
      "/config-types",
      "/configs",
      "/services",
      "/service-policies",
      "/service-edge-router-policies",
    ])
      assert.ok(
        mock.log.some((e) => e.path.includes(part) && e.method === "PUT"),
        `no PUT to ${part}`,
      );
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
    // A posture check is checked against its type's subtype (the swagger's discriminator).
    await client.create("/posture-checks", { name: "no-domains", typeId: "DOMAIN" }, "pc").catch(() => {});
    await client.close();
    assert.ok(mock.edge.conformanceViolations.length > before, "a malformed PUT was not recorded");
    assert.ok(
      mock.edge.conformanceViolations.some(
        (v) => v.includes("createPostureCheck") && v.includes("$.domains"),
      ),
      "a posture check without its type's fields was not recorded",
    );
  });
});
