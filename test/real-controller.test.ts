// The provider against a real OpenZiti controller (`ziti edge quickstart`, built by `npm run peers`,
// listening on 127.0.0.1 only): every Edge kind's lifecycle with the swagger checked on the real
// traffic, out-of-band changes detected, import of objects made outside Pulumi, CA verification with
// a real certificate, password, certificate and MFA login. The drift matrix through the host and the
// mock-versus-controller probes are in real-controller-drift.test.ts and real-vs-mock.test.ts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type LookupKind, list, lookup } from "../provider/functions/lookups";
import { nameFilter } from "../provider/http/edge";
import type { Props } from "../provider/resource";
import {
  createChecked,
  engine,
  expectNoDrift,
  importById,
  refresh,
  testCa,
  updateChecked,
} from "./edge-support";
import { authPolicyBody } from "./peers/bodies";
import { ClientApi } from "./peers/clientApi";
import { listeningAddresses, type RealController, realEdgeConfig, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { type Recorder, startRecorder } from "./peers/recorder";
import { DECLARED_ONLY, edgeObjects } from "./support/edge-objects";
import { configureFor } from "./support/engine";

describe("Real OpenZiti controller: the provider's Edge kinds", function () {
  this.timeout(300_000);
  let ctrl: RealController;
  let recorder: Recorder;

  before(async function () {
    requirePeers(this, "ziti");
    ctrl = await startController();
    recorder = await startRecorder(ctrl.url, ctrl.caPem);
    await configureFor(realEdgeConfig(ctrl, recorder.url));
  });
  after(async () => {
    await recorder?.close();
    await ctrl?.stop();
  });

  const admin = () => ctrl.admin;
  /** The object as the controller has it now (admin API). */
  const live = async (collection: string, id: string) => {
    const answer = await admin().call("GET", `/${collection}/${id}`);
    return answer.status === 200 ? answer.body.data : undefined;
  };
  /** A change behind Pulumi's back, as another admin makes it. */
  const changeBehind =
    (collection: string, body: Props, method = "PATCH") =>
    async (id: string) => {
      const answer = await admin().call(method, `/${collection}/${id}`, { body });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    };

  it("listens on 127.0.0.1 only", () => {
    const addresses = listeningAddresses(ctrl.pid);
    assert.ok(addresses.length > 0, "the controller listens nowhere?");
    for (const address of addresses) assert.match(address, /^127\.0\.0\.1:\d+$/, `listens on ${address}`);
  });

  /**
   * create, refresh clean, import by id without a diff, update, refresh clean, a change behind its back
   * seen as drift, delete, gone: the calls up / refresh / destroy make.
   */
  async function lifecycle(
    kind: string,
    collection: string,
    inputs: Props,
    changed: Props,
    behind: { make: (id: string) => Promise<void>; check?: (props: Props) => void },
  ) {
    const { id, outs } = await createChecked(kind, inputs);
    assert.ok(await live(collection, id), `${kind} ${id} is not on the controller`);
    await expectNoDrift(kind, id, outs, inputs);
    await importById(kind, id, inputs);
    const news = { ...inputs, ...changed };
    const { result } = await updateChecked(kind, id, outs, news);
    assert.ok(result, `${kind}: the change was not seen`);
    const afterUpdate = await expectNoDrift(kind, id, result.outs, news);
    await behind.make(id);
    const drifted = await refresh(kind, id, afterUpdate, news);
    assert.ok(!drifted.gone);
    assert.equal(drifted.diff.changes, true, `${kind}: a change behind its back was not seen`);
    behind.check?.(drifted.props);
    // up puts it back
    const { result: restored } = await updateChecked(kind, id, drifted.props, news);
    assert.ok(restored);
    await expectNoDrift(kind, id, restored.outs, news);
    await engine.remove(kind, id, restored.outs);
    assert.equal(await live(collection, id), undefined, `${kind} ${id} is still there after delete`);
    assert.equal((await refresh(kind, id, restored.outs, news)).gone, true);
    return id;
  }

  it("AuthPolicy: lifecycle, drift of a nested field, put back", async () => {
    await lifecycle(
      "AuthPolicy",
      "auth-policies",
      {
        name: "real-policy",
        primary: {
          updb: { allowed: true, minPasswordLength: 10, maxAttempts: 3 },
          extJwt: { allowed: false },
        },
        secondary: { requireTotp: false },
        tags: { team: "security" },
      },
      { tags: { team: "platform" } },
      {
        // A PATCH of one nested field is silently ignored by the controller (it answers 200 and keeps
        // the policy as it was): another admin changes a policy with PUT, the whole document.
        make: async (id) => {
          const { name, primary, secondary, tags } = await live("auth-policies", id);
          await changeBehind(
            "auth-policies",
            {
              name,
              primary: { ...primary, updb: { ...primary.updb, minPasswordLength: 6 } },
              secondary,
              tags,
            },
            "PUT",
          )(id);
        },
        check: (props: any) => assert.equal(props.primary.updb.minPasswordLength, 6),
      },
    );
  });

  it("Identity: lifecycle for ott, updb and a type the controller stores as Default", async () => {
    for (const [name, type, enrollment] of [
      ["real-ott", "Device", { ott: true }],
      ["real-updb", "User", { updb: "real-updb-user" }],
    ] as const) {
      await lifecycle(
        "Identity",
        "identities",
        {
          name,
          type,
          roleAttributes: ["zeta", "alpha"],
          appData: { team: "payments" },
          defaultHostingCost: 3,
          tags: { env: "test" },
          enrollment,
        },
        { roleAttributes: ["alpha"], isAdmin: true },
        {
          make: changeBehind("identities", { defaultHostingCost: 9, tags: { env: "prod" } }),
          check: (props) => assert.equal(props.defaultHostingCost, 9),
        },
      );
    }
  });

  it("Identity: a hosting cost for a service that does not exist fails naming it, and nothing is left", async () => {
    await assert.rejects(
      createChecked("Identity", {
        name: "real-no-service",
        type: "Device",
        serviceHostingCosts: { "svc-1": 5 },
      }),
      (error: Error) => {
        assert.match(error.message, /Identity "real-no-service".*404.*services with id svc-1 not found/s);
        return true;
      },
    );
    assert.equal(
      (await admin().call("GET", '/identities?filter=name="real-no-service"')).body.data.length,
      0,
    );
  });

  it("EdgeRouterPolicy: roles are sets, drift of roles, put back", async () => {
    await lifecycle(
      "EdgeRouterPolicy",
      "edge-router-policies",
      { name: "real-erp", identityRoles: ["#zeta", "#alpha"], edgeRouterRoles: ["#all"] },
      { semantic: "AnyOf" },
      {
        make: changeBehind("edge-router-policies", { identityRoles: ["#intruders"] }),
        check: (props) => assert.deepEqual(props.identityRoles, ["#intruders"]),
      },
    );
  });

  it("Ca: created unverified, verified with a certificate whose CN is the verification token", async () => {
    const pki = testCa("Real CA 1");
    const id = await lifecycle(
      "Ca",
      "cas",
      {
        name: "real-ca",
        certPem: pki.certPem,
        privateKeyPem: pki.keyPem,
        isAuthEnabled: true,
        isOttCaEnrollmentEnabled: true,
        identityRoles: ["devices"],
        tags: { issuer: "acme" },
      },
      { isAutoCaEnrollmentEnabled: true },
      {
        make: changeBehind("cas", { isAuthEnabled: false }),
        check: (props) => assert.equal(props.isAuthEnabled, false),
      },
    );
    assert.ok(id);
    // Without its key the CA stays unverified: the controller says so and so does the state.
    const other = testCa("Real CA 2");
    const { id: unverified, outs } = await createChecked("Ca", {
      name: "real-ca-unverified",
      certPem: other.certPem,
    });
    assert.equal((await live("cas", unverified)).isVerified, false);
    assert.equal(outs.isVerified, false);
    await engine.remove("Ca", unverified, outs);
  });

  it("every other Edge kind: lifecycle, a change behind its back found and put back", async () => {
    // A real controller refuses a PATCH of a config type without its schema, of a config without its
    // data (400), or of a posture check without its typeId (602!): another admin sends them, unchanged.
    const tagged = (collection: string) => ({
      make: async (id: string) => {
        const { schema, data, typeId } = await live(collection, id);
        await changeBehind(collection, {
          tags: { changedBehind: "yes" },
          ...(collection === "config-types" ? { schema } : {}),
          ...(collection === "configs" ? { data } : {}),
          ...(collection === "posture-checks" ? { typeId } : {}),
        })(id);
      },
      check: (props: Props) => assert.deepEqual(props.tags, { changedBehind: "yes" }),
    });
    const cases: Array<[string, string, Props, Props]> = [
      [
        "ConfigType",
        "config-types",
        { name: "real-type.v1", schema: { type: "object" } },
        { tags: { v: "2" } },
      ],
      [
        "Config",
        "configs",
        {
          name: "real-intercept",
          configTypeName: "intercept.v1",
          data: { protocols: ["tcp"], addresses: ["real.ziti"], portRanges: [{ low: 443, high: 443 }] },
        },
        { data: { protocols: ["tcp"], addresses: ["real.ziti"], portRanges: [{ low: 8443, high: 8443 }] } },
      ],
      [
        "Service",
        "services",
        { name: "real-svc", roleAttributes: ["real"] },
        { terminatorStrategy: "weighted" },
      ],
      [
        "ServicePolicy",
        "service-policies",
        { name: "real-dial", type: "Dial", identityRoles: ["#zeta", "#alpha"], serviceRoles: ["#real"] },
        { semantic: "AnyOf" },
      ],
      [
        "ServiceEdgeRouterPolicy",
        "service-edge-router-policies",
        { name: "real-serp", serviceRoles: ["#real"], edgeRouterRoles: ["#all"] },
        { semantic: "AnyOf" },
      ],
      ["EdgeRouter", "edge-routers", { name: "real-router", roleAttributes: ["west"] }, { cost: 5 }],
      [
        "ExternalJwtSigner",
        "external-jwt-signers",
        {
          name: "real-signer",
          issuer: "https://real.example",
          audience: "ziti",
          jwksEndpoint: "https://real.example/jwks",
        },
        { enabled: false },
      ],
      ["PostureCheck", "posture-checks", { name: "real-mfa", typeId: "MFA" }, { timeoutSeconds: 60 }],
      [
        "PostureCheck",
        "posture-checks",
        { name: "real-os", typeId: "OS", operatingSystems: [{ type: "Linux", versions: [">=5.0.0"] }] },
        { roleAttributes: ["laptops"] },
      ],
    ];
    for (const [kind, collection, inputs, changed] of cases)
      await lifecycle(kind, collection, inputs, changed, tagged(collection));
  });

  it("imports objects made outside Pulumi without a diff", async () => {
    const made = async (collection: string, body: Props) => {
      const answer = await admin().call("POST", `/${collection}`, { body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return String(answer.body.data.id);
    };
    const policyId = await made(
      "auth-policies",
      authPolicyBody("console-policy", { updb: { maxAttempts: 5 } }),
    );
    const identityId = await made("identities", {
      name: "console-identity",
      type: "User",
      isAdmin: false,
      authPolicyId: policyId,
      roleAttributes: ["console"],
    });
    const erpId = await made("edge-router-policies", {
      name: "console-erp",
      semantic: "AnyOf",
      identityRoles: ["#console"],
      edgeRouterRoles: ["#all"],
    });
    await importById("AuthPolicy", policyId, {
      name: "console-policy",
      primary: {
        cert: { allowed: true, allowExpiredCerts: false },
        extJwt: { allowed: false },
        updb: { allowed: true, maxAttempts: 5, minPasswordLength: 5 },
      },
    });
    const identity = await importById("Identity", identityId, {
      name: "console-identity",
      type: "User",
      authPolicyId: policyId,
      roleAttributes: ["console"],
    });
    assert.equal(identity.type, "User");
    await importById("EdgeRouterPolicy", erpId, {
      name: "console-erp",
      semantic: "AnyOf",
      identityRoles: ["#console"],
      edgeRouterRoles: ["#all"],
    });
    for (const [collection, id] of [
      ["edge-router-policies", erpId],
      ["identities", identityId],
      ["auth-policies", policyId],
    ])
      assert.equal((await admin().call("DELETE", `/${collection}/${id}`)).status, 200);
  });

  it("lookups: the default auth policy, a filter query, objects made outside Pulumi and by the provider", async () => {
    const settings = Object.fromEntries(
      Object.entries(realEdgeConfig(ctrl, recorder.url)).map(([k, v]) => [k.replace(/^frontdoor:/, ""), v]),
    );
    const byId = await lookup("AuthPolicy", { id: "default" }, settings);
    assert.equal(byId.name, "Default");
    assert.deepEqual(await lookup("AuthPolicy", { name: "Default" }, settings), byId);
    // What an AuthPolicy resource of it would show (a refresh with no earlier state).
    const read = await engine.read("AuthPolicy", "default", {});
    assert.deepEqual(byId, { id: "default", ...(read as { props: Props }).props });

    const outside: string[] = [];
    for (const name of ["rl-console-a", "rl-console-b"]) {
      const answer = await admin().call("POST", "/services", {
        body: { name, encryptionRequired: true, roleAttributes: ["rl-console"] },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      outside.push(answer.body.data.id);
    }
    const { items } = await list("Service", { filter: 'anyOf(roleAttributes) = "rl-console"' }, settings);
    assert.deepEqual(items.map((s) => s.name).sort(), ["rl-console-a", "rl-console-b"]);
    assert.deepEqual(items.map((s) => s.id).sort(), [...outside].sort());

    // Made by the provider: the lookup answers its outputs.
    const made = await createChecked("ServicePolicy", {
      name: "rl-dial",
      type: "Dial",
      identityRoles: ["#rl"],
      serviceRoles: outside.map((id) => `@${id}`),
    });
    assert.deepEqual(await lookup("ServicePolicy", { name: "rl-dial" }, settings), {
      id: made.id,
      ...made.outs,
    });

    const types = await list("ConfigType", { filter: 'name = "intercept.v1"' }, settings);
    assert.deepEqual(
      types.items.map((t) => [t.id, t.name]),
      [["g7cIWbcGg", "intercept.v1"]],
    );
    const admins = await list("Identity", { filter: "isAdmin = true" }, settings);
    assert.ok(admins.items.some((i) => i.isDefaultAdmin === true));
    assert.deepEqual(await list("Service", { filter: 'name = "rl-nothing"' }, settings), { items: [] });
    await assert.rejects(
      lookup("Service", { name: "rl-nothing" }, settings),
      /getService: there is no Service named "rl-nothing"/,
    );
    await assert.rejects(
      lookup("Ca", { id: "rl-no-such-id" }, settings),
      /there is no Ca with id "rl-no-such-id"/,
    );
    // A list field outside a set function (anyOf/allOf) is refused: the mock refuses it the same way.
    await assert.rejects(
      list("Service", { filter: 'roleAttributes contains "rl-console"' }, settings),
      /Service: GET http:\/\/127\.0\.0\.1:\d+\/edge\/management\/v1\/services failed \(HTTP 400.*'roleAttributes' is a set symbol/,
    );

    await engine.remove("ServicePolicy", made.id, made.outs);

    // Every kind: a lookup by name (the list answer) equals one by id (the object's own answer) and the
    // resource's outputs, apart from what the API never returns.
    const objects: [string, { id: string; outs: Props }][] = [];
    for (const [kind, inputs] of edgeObjects("rlk")) objects.push([kind, await createChecked(kind, inputs)]);
    for (const [kind, { id, outs }] of objects) {
      const kindName = kind as LookupKind;
      const byId = await lookup(kindName, { id }, settings);
      assert.deepEqual(await lookup(kindName, { name: String(outs.name) }, settings), byId, kind);
      assert.deepEqual(Object.keys(byId).sort(), ["id", ...Object.keys(outs)].sort(), kind);
      for (const key of Object.keys(outs))
        if (!DECLARED_ONLY[kind]?.includes(key)) assert.deepEqual(byId[key], outs[key], `${kind}.${key}`);
      assert.deepEqual((await list(kindName, { filter: nameFilter(String(outs.name)) }, settings)).items, [
        byId,
      ]);
    }
    for (const [kind, { id, outs }] of objects.reverse()) await engine.remove(kind, id, outs);
    for (const id of outside) assert.equal((await admin().call("DELETE", `/services/${id}`)).status, 200);
  });

  it("sent only requests the swagger allows and got only answers it describes", () => {
    assert.ok(recorder.exchanges.length > 20, "the suite's traffic went through the recorder");
    for (const verb of ["POST", "GET", "PUT", "DELETE"])
      assert.ok(
        recorder.exchanges.some((e) => e.method === verb),
        `no ${verb} recorded`,
      );
    assert.deepEqual(
      recorder.violations.filter((v) => v.includes(" request ")),
      [],
      "the provider sent a request outside the swagger",
    );
    assert.deepEqual(
      [...new Set(recorder.violations)],
      [],
      "the controller answered outside its swagger in a way not yet documented (conformance/deviations.ts)",
    );
  });

  describe("logging in", () => {
    const client = () => new ClientApi(ctrl);
    /** A second admin identity made through the provider, with its enrollment token. */
    const adminIdentity = async (name: string, enrollment: Props) => {
      const { id, outs } = await createChecked("Identity", { name, type: "User", isAdmin: true, enrollment });
      const enrollments = await admin().call("GET", `/identities/${id}/enrollments`);
      assert.equal(enrollments.status, 200, JSON.stringify(enrollments.body));
      return { id, outs, token: String(enrollments.body.data[0].token) };
    };
    /** The provider configured with `settings` creates and deletes an auth policy. */
    const worksWith = async (settings: Record<string, string>, name: string, withConnection = true) => {
      const connection = { "frontdoor:edgeUrl": ctrl.url, "frontdoor:caBundle": ctrl.caPem };
      await configureFor({ ...(withConnection ? connection : {}), ...settings });
      try {
        const { id, outs } = await createChecked("AuthPolicy", { name });
        assert.ok(await live("auth-policies", id));
        await engine.remove("AuthPolicy", id, outs);
      } finally {
        await configureFor(realEdgeConfig(ctrl, recorder.url));
      }
    };

    it("with a client certificate from an ott enrollment (method=cert, mutual TLS)", async () => {
      const made = await adminIdentity("real-cert-admin", { ott: true });
      const device = client();
      const { certPem, keyPem } = await device.enrollOtt(made.token, "real-cert-admin");
      await device.close();
      assert.match(certPem, /BEGIN CERTIFICATE/);
      await worksWith(
        { "frontdoor:edgeCertPem": certPem, "frontdoor:edgeKeyPem": keyPem },
        "made-with-cert-login",
      );
      await engine.remove("Identity", made.id, made.outs);
    });

    it("with a Ziti identity file of the same certificate material: edgeUrl and CA from the file", async () => {
      const made = await adminIdentity("real-idfile-admin", { ott: true });
      const device = client();
      const { certPem, keyPem } = await device.enrollOtt(made.token, "real-idfile-admin");
      await device.close();
      const identity = {
        ztAPI: `${ctrl.url}/edge/client/v1`,
        id: { cert: `pem:${certPem}`, key: `pem:${keyPem}`, ca: `pem:${ctrl.caPem}` },
      };
      // Inline (no edgeUrl, no caBundle: both come from the identity).
      await worksWith(
        { "frontdoor:edgeIdentityJson": JSON.stringify(identity) },
        "made-with-identity-json",
        false,
      );
      // A file whose key is a file:// path.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "real-identity-"));
      try {
        fs.writeFileSync(path.join(dir, "admin.key"), keyPem);
        const file = path.join(dir, "admin.json");
        fs.writeFileSync(
          file,
          JSON.stringify({
            ...identity,
            id: { ...identity.id, key: `file://${path.join(dir, "admin.key")}` },
          }),
        );
        await worksWith({ "frontdoor:edgeIdentityFile": file }, "made-with-identity-file", false);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      await engine.remove("Identity", made.id, made.outs);
    });

    it("with a password and TOTP MFA; without the TOTP secret the error names the setting", async () => {
      const password = "Real-MFA-password-1";
      const made = await adminIdentity("real-mfa-admin", { updb: "real-mfa-admin" });
      const device = client();
      await device.enrollUpdb(made.token, password);
      assert.equal((await device.login("real-mfa-admin", password)).status, 200);
      const secret = await device.enrollTotp();
      await device.close();
      const settings = { "frontdoor:edgeUsername": "real-mfa-admin", "frontdoor:edgePassword": password };
      await worksWith({ ...settings, "frontdoor:edgeTotpSecret": secret }, "made-with-mfa-login");
      await assert.rejects(worksWith(settings, "never-made"), (error: Error) => {
        assert.match(error.message, /edgeTotpSecret/);
        assert.ok(!error.message.includes(password), "the password shows in the error");
        return true;
      });
      assert.equal(
        (await admin().call("GET", '/auth-policies?filter=name="never-made"')).body.data.length,
        0,
      );
      await engine.remove("Identity", made.id, made.outs);
    });
  });
});
