// The mock against the truth: the same raw management API requests go to the real controller
// (`ziti edge quickstart`) and to the mock, and the mock must answer what the controller answers:
// statuses, error codes and the field they blame, defaults, null versus [] and {}, role order.
// The controller is the oracle: nothing here is hard-coded but the requests.
import assert from "node:assert/strict";
import { issueCertificate } from "../mock/edge/pki";
import { type MockServer, startMockServer } from "../mock/server";
import { authPolicyBody } from "./peers/bodies";
import { type RealController, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { EdgeClient, type EdgeReply } from "./support/edgeClient";

type Probe = (api: EdgeClient, tag: string) => Promise<unknown>;

/** What of an answer must agree: the status and, for errors, the code and the blamed field. */
function answer(reply: EdgeReply) {
  const error = reply.body?.error;
  return error
    ? { status: reply.status, code: error.code, field: error.cause?.field ?? null }
    : { status: reply.status };
}

async function create(api: EdgeClient, collection: string, body: unknown): Promise<string> {
  const reply = await api.call("POST", `/${collection}`, { body });
  assert.equal(reply.status, 201, `${collection}: ${JSON.stringify(reply.body)}`);
  return String(reply.body.data.id);
}

async function detail(api: EdgeClient, collection: string, id: string): Promise<any> {
  return (await api.call("GET", `/${collection}/${id}`)).body.data;
}

/** The fields, with "<absent>" for a field not in the answer at all (null stays null: it is a difference). */
const pick = (object: any, keys: string[]) =>
  Object.fromEntries(keys.map((k) => [k, object && k in object ? object[k] : "<absent>"]));

const probes: Record<string, Probe> = {
  "GET of an unknown identity": async (api) => answer(await api.call("GET", "/identities/no-such-identity")),
  "DELETE of an unknown auth policy": async (api) =>
    answer(await api.call("DELETE", "/auth-policies/no-such-policy")),
  "login with a wrong password": async (api) =>
    answer(
      await api.call("POST", "/authenticate?method=password", {
        body: { username: "admin", password: "wrong-password" },
        token: null,
      }),
    ),
  "a request without a session": async (api) => answer(await api.call("GET", "/identities", { token: null })),
  "an identity without a name": async (api) =>
    answer(await api.call("POST", "/identities", { body: { type: "User", isAdmin: false } })),
  "an identity of an unknown type": async (api, tag) =>
    answer(
      await api.call("POST", "/identities", {
        body: { name: `${tag}-bad-type`, type: "Robot", isAdmin: false },
      }),
    ),
  "a second identity of the same name": async (api, tag) => {
    const id = await create(api, "identities", { name: `${tag}-twin`, type: "User", isAdmin: false });
    const second = answer(
      await api.call("POST", "/identities", { body: { name: `${tag}-twin`, type: "User", isAdmin: false } }),
    );
    await api.call("DELETE", `/identities/${id}`);
    return second;
  },
  "a minimal identity's defaults": async (api, tag) => {
    const id = await create(api, "identities", { name: `${tag}-minimal`, type: "User", isAdmin: false });
    const data = await detail(api, "identities", id);
    await api.call("DELETE", `/identities/${id}`);
    return {
      ...pick(data, [
        "roleAttributes",
        "tags",
        "appData",
        "externalId",
        "defaultHostingCost",
        "defaultHostingPrecedence",
        "serviceHostingCosts",
        "serviceHostingPrecedences",
        "authPolicyId",
        "isAdmin",
        "isDefaultAdmin",
      ]),
      typeId: data.typeId,
      typeName: data.type?.name,
    };
  },
  "a Device identity is stored as": async (api, tag) => {
    const id = await create(api, "identities", { name: `${tag}-device`, type: "Device", isAdmin: false });
    const data = await detail(api, "identities", id);
    await api.call("DELETE", `/identities/${id}`);
    return { typeId: data.typeId, typeName: data.type?.name };
  },
  "role order of an edge router policy": async (api, tag) => {
    const id = await create(api, "edge-router-policies", {
      name: `${tag}-erp`,
      semantic: "AnyOf",
      identityRoles: ["#zeta", "#alpha", "#mid"],
      edgeRouterRoles: ["#west", "#east"],
    });
    const data = await detail(api, "edge-router-policies", id);
    await api.call("DELETE", `/edge-router-policies/${id}`);
    return pick(data, ["identityRoles", "edgeRouterRoles", "semantic", "tags", "isSystem"]);
  },
  "a minimal edge router policy": async (api, tag) => {
    const id = await create(api, "edge-router-policies", { name: `${tag}-erp-min`, semantic: "AllOf" });
    const data = await detail(api, "edge-router-policies", id);
    await api.call("DELETE", `/edge-router-policies/${id}`);
    return pick(data, ["identityRoles", "edgeRouterRoles", "tags"]);
  },
  "an edge router policy role that is not a role": async (api, tag) =>
    answer(
      await api.call("POST", "/edge-router-policies", {
        body: { name: `${tag}-erp-bad`, semantic: "AllOf", identityRoles: ["#all", "#more"] },
      }),
    ),
  "an edge router policy naming an identity by @name": async (api, tag) => {
    const id = await create(api, "identities", { name: `${tag}-named`, type: "User", isAdmin: false });
    const reply = await api.call("POST", "/edge-router-policies", {
      body: { name: `${tag}-erp-named`, semantic: "AllOf", identityRoles: [`@${tag}-named`] },
    });
    if (reply.status === 201) await api.call("DELETE", `/edge-router-policies/${reply.body.data.id}`);
    await api.call("DELETE", `/identities/${id}`);
    return answer(reply);
  },
  "a minimal auth policy's defaults": async (api, tag) => {
    const id = await create(
      api,
      "auth-policies",
      authPolicyBody(`${tag}-policy`, { cert: { allowed: false } }),
    );
    const data = await detail(api, "auth-policies", id);
    await api.call("DELETE", `/auth-policies/${id}`);
    return pick(data, ["primary", "secondary", "tags"]);
  },
  "a PATCH of one nested auth policy field": async (api, tag) => {
    const id = await create(
      api,
      "auth-policies",
      authPolicyBody(`${tag}-patched-policy`, {
        cert: { allowExpiredCerts: true },
        updb: { lockoutDurationMinutes: 10, maxAttempts: 4, minPasswordLength: 8, requireMixedCase: true },
        secondary: { requireTotp: true },
        tags: { keep: "me" },
      }),
    );
    const patched = answer(
      await api.call("PATCH", `/auth-policies/${id}`, {
        body: { primary: { updb: { minPasswordLength: 20 } } },
      }),
    );
    const data = await detail(api, "auth-policies", id);
    await api.call("DELETE", `/auth-policies/${id}`);
    return { patched, after: pick(data, ["primary", "secondary", "tags"]) };
  },
  "an auth policy naming an unknown JWT signer": async (api, tag) => {
    const reply = await api.call("POST", "/auth-policies", {
      body: authPolicyBody(`${tag}-policy-signer`, {
        cert: { allowed: false },
        extJwt: { allowed: true, allowedSigners: ["no-such-signer"] },
      }),
    });
    if (reply.status === 201) await api.call("DELETE", `/auth-policies/${reply.body.data.id}`);
    return answer(reply);
  },
  "an auth policy requiring an unknown JWT signer": async (api, tag) => {
    const reply = await api.call("POST", "/auth-policies", {
      body: authPolicyBody(`${tag}-policy-required-signer`, {
        secondary: { requireExtJwtSigner: "no-such-signer" },
      }),
    });
    if (reply.status === 201) await api.call("DELETE", `/auth-policies/${reply.body.data.id}`);
    return answer(reply);
  },
  "deleting an auth policy that an identity uses": async (api, tag) => {
    const policy = await create(api, "auth-policies", authPolicyBody(`${tag}-used-policy`));
    const identity = await create(api, "identities", {
      name: `${tag}-policy-user`,
      type: "User",
      isAdmin: false,
      authPolicyId: policy,
    });
    const refused = answer(await api.call("DELETE", `/auth-policies/${policy}`));
    await api.call("DELETE", `/identities/${identity}`);
    await api.call("DELETE", `/auth-policies/${policy}`);
    return refused;
  },
  "verifying a CA, twice": async (api, tag) => {
    const ca = issueCertificate({ commonName: `${tag} probe CA`, isCa: true });
    const id = await create(api, "cas", {
      name: `${tag}-ca`,
      certPem: ca.certPem,
      isAuthEnabled: false,
      isAutoCaEnrollmentEnabled: false,
      isOttCaEnrollmentEnabled: false,
      identityRoles: [],
    });
    const created = await detail(api, "cas", id);
    const proof = issueCertificate({ commonName: String(created.verificationToken), issuer: ca }).certPem;
    const wrong = issueCertificate({ commonName: "not-the-token", issuer: ca }).certPem;
    const results = {
      created: pick(created, [
        "isVerified",
        "identityRoles",
        "tags",
        "identityNameFormat",
        "externalIdClaim",
      ]),
      wrongCn: answer(await api.call("POST", `/cas/${id}/verify`, { text: wrong })),
      first: answer(await api.call("POST", `/cas/${id}/verify`, { text: proof })),
      again: answer(await api.call("POST", `/cas/${id}/verify`, { text: proof })),
      verified: (await detail(api, "cas", id)).isVerified,
    };
    await api.call("DELETE", `/cas/${id}`);
    return results;
  },
  "a CA PATCH of one flag, and its externalIdClaim": async (api, tag) => {
    const ca = issueCertificate({ commonName: `${tag} claim CA`, isCa: true });
    const id = await create(api, "cas", {
      name: `${tag}-claim-ca`,
      certPem: ca.certPem,
      isAuthEnabled: true,
      isAutoCaEnrollmentEnabled: false,
      isOttCaEnrollmentEnabled: false,
      identityRoles: ["devices"],
      externalIdClaim: {
        location: "SAN_URI",
        matcher: "SCHEME",
        matcherCriteria: "spiffe",
        parser: "NONE",
        parserCriteria: "",
        index: 0,
      },
    });
    const patched = answer(await api.call("PATCH", `/cas/${id}`, { body: { isAuthEnabled: false } }));
    const data = await detail(api, "cas", id);
    await api.call("DELETE", `/cas/${id}`);
    return { patched, after: pick(data, ["isAuthEnabled", "externalIdClaim", "identityRoles"]) };
  },
  "a minimal service's defaults": async (api, tag) => {
    const id = await create(api, "services", { name: `${tag}-svc`, encryptionRequired: true });
    const data = await detail(api, "services", id);
    await api.call("DELETE", `/services/${id}`);
    return pick(data, [
      "encryptionRequired",
      "terminatorStrategy",
      "roleAttributes",
      "configs",
      "config",
      "maxIdleTimeMillis",
      "tags",
    ]);
  },
  "a minimal service policy and service edge router policy": async (api, tag) => {
    const sp = await create(api, "service-policies", { name: `${tag}-sp`, type: "Dial", semantic: "AllOf" });
    const serp = await create(api, "service-edge-router-policies", {
      name: `${tag}-serp`,
      semantic: "AllOf",
    });
    const policy = await detail(api, "service-policies", sp);
    const routers = await detail(api, "service-edge-router-policies", serp);
    await api.call("DELETE", `/service-policies/${sp}`);
    await api.call("DELETE", `/service-edge-router-policies/${serp}`);
    return {
      policy: pick(policy, [
        "type",
        "semantic",
        "identityRoles",
        "serviceRoles",
        "postureCheckRoles",
        "tags",
      ]),
      routers: pick(routers, ["semantic", "serviceRoles", "edgeRouterRoles", "tags"]),
    };
  },
  "the built-in config types": async (api) => {
    const reply = await api.call("GET", "/config-types?limit=100");
    return (reply.body.data as any[]).map((t) => `${t.id} ${t.name}`).sort();
  },
  "an intercept.v1 config without its required data": async (api, tag) => {
    const reply = await api.call("POST", "/configs", {
      body: { name: `${tag}-bad-config`, configTypeId: "g7cIWbcGg", data: {} },
    });
    if (reply.status === 201) await api.call("DELETE", `/configs/${reply.body.data.id}`);
    return { status: reply.status, code: reply.body?.error?.code ?? null };
  },
  "a minimal edge router's defaults": async (api, tag) => {
    const id = await create(api, "edge-routers", { name: `${tag}-router` });
    const data = await detail(api, "edge-routers", id);
    await api.call("DELETE", `/edge-routers/${id}`);
    return {
      ...pick(data, [
        "isTunnelerEnabled",
        "cost",
        "noTraversal",
        "disabled",
        "roleAttributes",
        "appData",
        "tags",
        "isVerified",
      ]),
      hasJwt: typeof data.enrollmentJwt === "string",
    };
  },
  "a minimal MFA posture check": async (api, tag) => {
    const id = await create(api, "posture-checks", { name: `${tag}-mfa`, typeId: "MFA" });
    const data = await detail(api, "posture-checks", id);
    await api.call("DELETE", `/posture-checks/${id}`);
    return pick(data, [
      "typeId",
      "roleAttributes",
      "timeoutSeconds",
      "promptOnWake",
      "promptOnUnlock",
      "ignoreLegacyEndpoints",
      "tags",
    ]);
  },
  "a tags-only PATCH of a config type, a config and a posture check": async (api, tag) => {
    const type = await create(api, "config-types", { name: `${tag}-type.v1`, schema: { type: "object" } });
    const config = await create(api, "configs", {
      name: `${tag}-config`,
      configTypeId: type,
      data: { a: 1 },
    });
    const check = await create(api, "posture-checks", { name: `${tag}-check`, typeId: "MFA" });
    const body = { tags: { x: "y" } };
    const result = {
      configType: answer(await api.call("PATCH", `/config-types/${type}`, { body })),
      config: answer(await api.call("PATCH", `/configs/${config}`, { body })),
      postureCheck: answer(await api.call("PATCH", `/posture-checks/${check}`, { body })),
    };
    await api.call("DELETE", `/posture-checks/${check}`);
    await api.call("DELETE", `/configs/${config}`);
    await api.call("DELETE", `/config-types/${type}`);
    return result;
  },
  "a minimal JWKS external JWT signer": async (api, tag) => {
    const id = await create(api, "external-jwt-signers", {
      name: `${tag}-signer`,
      issuer: `https://${tag}.example.com`,
      audience: "ziti",
      jwksEndpoint: `https://${tag}.example.com/jwks`,
      enabled: true,
    });
    const data = await detail(api, "external-jwt-signers", id);
    await api.call("DELETE", `/external-jwt-signers/${id}`);
    return pick(data, [
      "clientId",
      "externalAuthUrl",
      "fingerprint",
      "kid",
      "scopes",
      "certPem",
      "claimsProperty",
      "useExternalId",
      "targetToken",
      "tags",
    ]);
  },
  "field by field: posture lists, MAC addresses, signer tags on create, a service policy's type change":
    async (api, tag) => {
      const read = async (collection: string, body: unknown, keys: string[]) =>
        pick(await detail(api, collection, await create(api, collection, body)), keys);
      const mac = await read(
        "posture-checks",
        {
          name: `${tag}-mac`,
          typeId: "MAC",
          macAddresses: ["FF-EE-DD-CC-BB-AA", "00:11:22:33:44:55", "aabb.ccdd.eeff"],
        },
        ["macAddresses"],
      );
      const os = await read(
        "posture-checks",
        {
          name: `${tag}-os`,
          typeId: "OS",
          operatingSystems: [
            { type: "macOS", versions: ["13.0.0", "12.0.0"] },
            { type: "Linux", versions: [] },
          ],
        },
        ["operatingSystems"],
      );
      const multi = await read(
        "posture-checks",
        {
          name: `${tag}-multi`,
          typeId: "PROCESS_MULTI",
          semantic: "AllOf",
          processes: [
            {
              osType: "Windows",
              path: "/a",
              hashes: ["B".repeat(128), "a".repeat(128)],
              signerFingerprints: [],
            },
            { osType: "Linux", path: "/z" },
          ],
        },
        ["processes"],
      );
      const signer = await read(
        "external-jwt-signers",
        {
          name: `${tag}-tags`,
          issuer: `https://${tag}.tags`,
          audience: "a",
          jwksEndpoint: `https://${tag}.tags/k`,
          enabled: true,
          tags: { a: "b" },
        },
        ["tags"],
      );
      const policy = await create(api, "service-policies", {
        name: `${tag}-sp`,
        type: "Dial",
        semantic: "AllOf",
        postureCheckRoles: ["#mfa"],
      });
      await api.call("PATCH", `/service-policies/${policy}`, {
        body: { type: "Bind", postureCheckRoles: ["#mfa"] },
      });
      return {
        mac,
        os,
        multi,
        signer,
        policy: pick(await detail(api, "service-policies", policy), ["postureCheckRoles"]),
      };
    },
  "a list page's meta": async (api) => {
    const reply = await api.call("GET", "/auth-policies?limit=1&offset=0");
    const pagination = reply.body.meta?.pagination;
    return { status: reply.status, keys: Object.keys(pagination ?? {}).sort(), limit: pagination?.limit };
  },
  "the default auth policy": async (api) =>
    pick(await detail(api, "auth-policies", "default"), ["name", "id"]),
};

describe("The mock answers what the real controller answers", function () {
  this.timeout(300_000);
  let ctrl: RealController;
  let mock: MockServer;
  let mockApi: EdgeClient;

  before(async function () {
    requirePeers(this, "ziti");
    ctrl = await startController();
    mock = await startMockServer();
    mockApi = new EdgeClient(mock.url, mock.caPem);
    const login = await mockApi.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
    assert.equal(login.status, 200);
  });
  after(async () => {
    mock?.close();
    await ctrl?.stop();
  });

  for (const [name, probe] of Object.entries(probes)) {
    it(name, async () => {
      const real = await probe(ctrl.admin, "probe");
      const mocked = await probe(mockApi, "probe");
      assert.deepEqual(
        mocked,
        real,
        `the mock differs from the controller (expected: the controller's answer)`,
      );
    });
  }

  it("both answer outside the swagger only where the controller is known to (conformance/deviations.ts)", () => {
    assert.deepEqual(ctrl.admin.violations, [], "the controller deviates from its swagger in a new way");
    assert.deepEqual(
      mockApi.violations,
      [],
      "the mock deviates from the swagger where the controller does not",
    );
  });
});
