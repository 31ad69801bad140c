// Invalid inputs are rejected at check time, before any request: each is a check failure that names
// the property (its path), and the mock's request log stays empty. Most cases call the provider's
// check directly (as the host does); a few go through `up` in the real dynamic-provider host.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";
import { issueCertificate } from "../mock/edge/pki";
import { type MockServer, startMockServer } from "../mock/server";
import { generateKeyPairAndCsr } from "../provider/resources/pem";
import { testCa } from "./edge-support";
import { configureFor, engine, mockConfig } from "./support/engine";
import { captureStderr } from "./support/stderr";

type Inputs = Record<string, unknown>;
interface Case {
  kind: string;
  what: string;
  inputs: Inputs;
  /** The property path the failure must name. */
  property: string;
}

/** One row of the table: `inputs` of `kind` must fail at check, naming `property`. */
const bad = (kind: string, what: string, inputs: Inputs, property: string): Case => ({
  kind,
  what,
  inputs,
  property,
});

/** A CSR whose signature no longer matches its content (last byte of the signature flipped). */
function tamperedCsr(csrPem: string): string {
  const body = csrPem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  const der = Buffer.from(body, "base64");
  der[der.length - 1] ^= 0x01;
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join("\n")}\n-----END CERTIFICATE REQUEST-----\n`;
}

describe("bad input: check failures naming the property, no request made", function () {
  this.timeout(60_000);
  let mock: MockServer;
  let config: Record<string, string>;
  const generated = generateKeyPairAndCsr({ commonName: "device.example.com" }, 2048);
  const ca = testCa("Bad Input CA");
  const otherCa = testCa("Other CA");
  const leaf = issueCertificate({ commonName: "leaf.example.com" });
  const expiredLeaf = issueCertificate({ commonName: "expired.example.com", days: -1 });
  const expiredCa = issueCertificate({ commonName: "Expired CA", isCa: true, days: -1 });
  /** Maps with keys that reach the prototype, as JSON.parse (and a program's config) makes them. */
  const protoMap = (value: string) => JSON.parse(`{"__proto__": ${value}, "team": "a"}`);

  const oidc = (data: Inputs = {}, rest: Inputs = {}): Inputs => ({
    name: "bad-sso",
    type: "OIDC",
    data: { issuer: "https://login.example.com", client_id: "fd", client_secret: "s3cret-value", ...data },
    ...rest,
  });
  const apiKey = (data: Inputs = {}): Inputs => ({
    name: "bad-key",
    type: "API_KEY",
    data: { header_name: "x-api-key", api_key: "0123456789abcdef", ...data },
  });
  const identity = (rest: Inputs): Inputs => ({ name: "bad-identity", ...rest });
  const policy = (rest: Inputs): Inputs => ({ name: "bad-policy", ...rest });
  const erp = (rest: Inputs): Inputs => ({ name: "bad-erp", edgeRouterRoles: ["#all"], ...rest });
  const caInputs = (rest: Inputs): Inputs => ({ name: "bad-ca", certPem: ca.certPem, ...rest });

  const cases: Case[] = [
    // AuthProvider
    bad("AuthProvider", "name of the wrong type", oidc({}, { name: 42 }), "name"),
    bad("AuthProvider", "empty name", oidc({}, { name: "" }), "name"),
    bad("AuthProvider", "name too long", oidc({}, { name: "n".repeat(256) }), "name"),
    bad("AuthProvider", "unknown type", oidc({}, { type: "SAML" }), "type"),
    bad("AuthProvider", "missing type", oidc({}, { type: undefined }), "type"),
    bad("AuthProvider", "missing data", oidc({}, { data: undefined }), "data"),
    bad("AuthProvider", "issuer not a URL", oidc({ issuer: "login" }), "data.issuer"),
    bad("AuthProvider", "issuer not http(s)", oidc({ issuer: "ftp://login.example.com" }), "data.issuer"),
    bad("AuthProvider", "empty client secret", oidc({ client_secret: "" }), "data.client_secret"),
    bad("AuthProvider", "missing client id", oidc({ client_id: undefined }), "data.client_id"),
    bad("AuthProvider", "scopes not a list", oidc({ scopes: "openid" }), "data.scopes"),
    bad("AuthProvider", "unknown data field", oidc({ audience: "x" }), "data.audience"),
    bad("AuthProvider", "unknown field", oidc({}, { colour: "blue" }), "colour"),
    bad("AuthProvider", "enabled as a string", oidc({}, { enabled: "yes" }), "enabled"),
    bad("AuthProvider", "frontdoorId a number", oidc({}, { frontdoorId: 7 }), "frontdoorId"),
    bad("AuthProvider", "API key too short", apiKey({ api_key: "short-key" }), "data.api_key"),
    bad("AuthProvider", "bad header name", apiKey({ header_name: "x api key" }), "data.header_name"),
    bad("AuthProvider", "OIDC data under API_KEY", { ...apiKey(), data: oidc().data }, "data.header_name"),
    // Ids end up in URL paths: refused, never encoded away
    ...[".", "..", "fd/other", "fd?x=1", "fd#x", "fd%2e%2e", "fd\u0000", "fd\n", "fd\u007f"].map((id) =>
      bad("AuthProvider", `frontdoorId ${JSON.stringify(id)}`, oidc({}, { frontdoorId: id }), "frontdoorId"),
    ),
    bad(
      "CustomFrontend",
      "auth provider id ..",
      { hostname: "apps.example.com", authProviderIds: ["ap-1", ".."] },
      "authProviderIds.1",
    ),
    bad(
      "CustomFrontend",
      "frontendId with a slash",
      { hostname: "apps.example.com", frontendId: "fe/../x" },
      "frontendId",
    ),
    bad("Identity", "authPolicyId .", identity({ authPolicyId: "." }), "authPolicyId"),
    bad(
      "Identity",
      "ottca CA id with a query",
      identity({ enrollment: { ottca: "ca-1?x" } }),
      "enrollment.ottca",
    ),
    bad(
      "Identity",
      "service id with a slash",
      identity({ serviceHostingCosts: { "svc/1": 1 } }),
      "serviceHostingCosts.svc/1",
    ),
    // Map keys that reach the prototype: refused, not dropped
    bad(
      "Identity",
      "__proto__ tag (object)",
      identity({ tags: protoMap('{"admin": true}') }),
      "tags.__proto__",
    ),
    bad(
      "Identity",
      "__proto__ appData (string)",
      identity({ appData: protoMap('"x"') }),
      "appData.__proto__",
    ),
    bad(
      "Identity",
      "constructor service id",
      identity({ serviceHostingCosts: { constructor: 1 } }),
      "serviceHostingCosts.constructor",
    ),
    bad("Ca", "constructor tag", caInputs({ tags: { constructor: "x" } }), "tags.constructor"),
    {
      kind: "AuthProvider",
      what: "__proto__ in data",
      inputs: { ...oidc(), data: { ...(oidc().data as Inputs), ...protoMap("{}") } },
      property: "data.__proto__",
    },
    // Certificate fields: exactly one certificate
    bad(
      "ClientCertificate",
      "certificate with its private key appended",
      { name: "c", value: `${leaf.certPem}${leaf.keyPem}` },
      "value",
    ),
    bad(
      "ClientCertificate",
      "CSR with its private key appended",
      { name: "c", value: `${generated.csrPem}\n${generated.privateKeyPem}` },
      "value",
    ),
    bad(
      "ClientCertificate",
      "two certificates",
      { name: "c", value: `${leaf.certPem}${ca.certPem}` },
      "value",
    ),
    bad(
      "ClientCertificate",
      "trailing text",
      { name: "c", value: `${leaf.certPem}\nissued by ops` },
      "value",
    ),
    bad("ClientCertificate", "leading text", { name: "c", value: `subject=leaf\n${leaf.certPem}` }, "value"),
    bad("ClientCertificate", "an expired certificate", { name: "c", value: expiredLeaf.certPem }, "value"),
    bad(
      "Ca",
      "CA certificate with its key appended",
      caInputs({ certPem: `${ca.certPem}${ca.keyPem}` }),
      "certPem",
    ),
    bad("Ca", "two CA certificates", caInputs({ certPem: `${ca.certPem}${otherCa.certPem}` }), "certPem"),
    bad("Ca", "an expired CA", caInputs({ certPem: expiredCa.certPem }), "certPem"),
    // ClientCertificate
    bad("ClientCertificate", "value not PEM", { name: "c", value: "hello" }, "value"),
    bad(
      "ClientCertificate",
      "CSR with a bad signature",
      { name: "c", value: tamperedCsr(generated.csrPem) },
      "value",
    ),
    bad(
      "ClientCertificate",
      "certificate block with garbage",
      { name: "c", value: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" },
      "value",
    ),
    bad("ClientCertificate", "a private key instead", { name: "c", value: generated.privateKeyPem }, "value"),
    bad("ClientCertificate", "missing value", { name: "c" }, "value"),
    bad("ClientCertificate", "name too long", { name: "c".repeat(256), value: generated.csrPem }, "name"),
    // CertificateRequestToken
    bad("CertificateRequestToken", "missing name", { commonName: "x" }, "name"),
    bad("CertificateRequestToken", "empty commonName", { name: "t", commonName: "" }, "commonName"),
    bad("CertificateRequestToken", "token is an output", { name: "t", token: "abc" }, "token"),
    // CustomFrontend
    bad("CustomFrontend", "invalid hostname", { hostname: "not a host!" }, "hostname"),
    bad("CustomFrontend", "single-label hostname", { hostname: "localhost" }, "hostname"),
    bad("CustomFrontend", "missing hostname", {}, "hostname"),
    bad(
      "CustomFrontend",
      "negative timeout",
      { hostname: "apps.example.com", readyTimeoutSeconds: -5 },
      "readyTimeoutSeconds",
    ),
    bad(
      "CustomFrontend",
      "authProviderIds not a list",
      { hostname: "apps.example.com", authProviderIds: "ap-1" },
      "authProviderIds",
    ),
    // KeyPair
    bad("KeyPair", "unsupported key size", { commonName: "k", keySize: 1024 }, "keySize"),
    bad("KeyPair", "missing commonName", { keySize: 2048 }, "commonName"),
    bad("KeyPair", "commonName over the X.509 limit of 64", { commonName: "k".repeat(65) }, "commonName"),
    bad("KeyPair", "empty organization", { commonName: "k", organization: "" }, "organization"),
    // Identity
    bad(
      "Identity",
      "hosting cost above 65535",
      identity({ defaultHostingCost: 70000 }),
      "defaultHostingCost",
    ),
    bad("Identity", "negative hosting cost", identity({ defaultHostingCost: -1 }), "defaultHostingCost"),
    bad(
      "Identity",
      "fractional service hosting cost",
      identity({ serviceHostingCosts: { "svc-1": 1.5 } }),
      "serviceHostingCosts.svc-1",
    ),
    bad("Identity", "unknown type", identity({ type: "Robot" }), "type"),
    bad("Identity", "updb username too short", identity({ enrollment: { updb: "abc" } }), "enrollment.updb"),
    bad(
      "Identity",
      "updb username too long",
      identity({ enrollment: { updb: "u".repeat(101) } }),
      "enrollment.updb",
    ),
    bad("Identity", "unknown permission", identity({ permissions: ["superuser"] }), "permissions.0"),
    bad(
      "Identity",
      "unknown hosting precedence",
      identity({ defaultHostingPrecedence: "maybe" }),
      "defaultHostingPrecedence",
    ),
    bad("Identity", "tag of the wrong type", identity({ tags: { team: 1 } }), "tags.team"),
    bad("Identity", "empty role attribute", identity({ roleAttributes: [""] }), "roleAttributes.0"),
    bad("Identity", "missing name", { type: "User" }, "name"),
    // AuthPolicy
    {
      kind: "AuthPolicy",
      what: "negative minimum password length",
      inputs: policy({ primary: { updb: { minPasswordLength: -1 } } }),
      property: "primary.updb.minPasswordLength",
    },
    {
      kind: "AuthPolicy",
      what: "fractional max attempts",
      inputs: policy({ primary: { updb: { maxAttempts: 1.5 } } }),
      property: "primary.updb.maxAttempts",
    },
    bad(
      "AuthPolicy",
      "requireTotp as a string",
      policy({ secondary: { requireTotp: "yes" } }),
      "secondary.requireTotp",
    ),
    {
      kind: "AuthPolicy",
      what: "unknown primary method",
      inputs: policy({ primary: { oauth: { allowed: true } } }),
      property: "primary.oauth",
    },
    // EdgeRouterPolicy
    bad("EdgeRouterPolicy", "role without # or @", erp({ identityRoles: ["employees"] }), "identityRoles.0"),
    bad(
      "EdgeRouterPolicy",
      "#all with other roles",
      erp({ edgeRouterRoles: ["#all", "#eu"] }),
      "edgeRouterRoles",
    ),
    bad("EdgeRouterPolicy", "repeated role", erp({ identityRoles: ["#a", "#a"] }), "identityRoles"),
    bad("EdgeRouterPolicy", "unknown semantic", erp({ semantic: "OneOf" }), "semantic"),
    // Ca
    bad("Ca", "a non-CA certificate", caInputs({ certPem: leaf.certPem }), "certPem"),
    bad("Ca", "certPem not PEM", caInputs({ certPem: "garbage" }), "certPem"),
    bad("Ca", "key of another CA", caInputs({ privateKeyPem: otherCa.keyPem }), "privateKeyPem"),
    bad("Ca", "key not PEM", caInputs({ privateKeyPem: "not a key" }), "privateKeyPem"),
    bad(
      "Ca",
      "unknown externalId location",
      caInputs({ externalIdClaim: { location: "HEADER" } }),
      "externalIdClaim.location",
    ),
    bad(
      "Ca",
      "negative externalId index",
      caInputs({ externalIdClaim: { location: "COMMON_NAME", index: -1 } }),
      "externalIdClaim.index",
    ),
    // Service, ServicePolicy, ServiceEdgeRouterPolicy, Config, ConfigType
    bad("Service", "negative idle time", { name: "s", maxIdleTimeMillis: -5 }, "maxIdleTimeMillis"),
    bad("Service", "repeated config id", { name: "s", configs: ["c1", "c1"] }, "configs"),
    bad("ServicePolicy", "type missing", { name: "p", serviceRoles: ["#app"] }, "type"),
    bad(
      "ServicePolicy",
      "posture check role without #",
      { name: "p", type: "Dial", postureCheckRoles: ["mfa"] },
      "postureCheckRoles.0",
    ),
    bad(
      "ServiceEdgeRouterPolicy",
      "#all with other roles",
      { name: "p", serviceRoles: ["#all", "#app"] },
      "serviceRoles",
    ),
    bad("ConfigType", "unknown target", { name: "t", target: "client" }, "target"),
    bad("Config", "no config type", { name: "c", data: {} }, "configTypeName"),
    {
      kind: "Config",
      what: "intercept.v1 port above 65535",
      inputs: {
        name: "c",
        configTypeName: "intercept.v1",
        data: { protocols: ["tcp"], addresses: ["a"], portRanges: [{ low: 1, high: 65536 }] },
      },
      property: "data.portRanges.0.high",
    },
    bad(
      "Config",
      "host.v1 without port",
      { name: "c", configTypeName: "host.v1", data: { protocol: "tcp", address: "10.0.0.1" } },
      "data.port",
    ),
    {
      kind: "Config",
      what: "host.v2 terminator with an unknown property",
      inputs: {
        name: "c",
        configTypeId: "host.v2",
        data: { terminators: [{ protocol: "tcp", address: "a", port: 1, hostname: "x" }] },
      },
      property: "data.terminators.0.hostname",
    },
  ];

  before(async () => {
    mock = await startMockServer();
    config = mockConfig(mock);
    await configureFor(config);
  });
  after(() => mock?.close());

  it(`has at least 40 cases over every kind (${cases.length})`, () => {
    assert.ok(cases.length >= 40);
    assert.deepEqual([...new Set(cases.map((c) => c.kind))].sort(), [
      "AuthPolicy",
      "AuthProvider",
      "Ca",
      "CertificateRequestToken",
      "ClientCertificate",
      "Config",
      "ConfigType",
      "CustomFrontend",
      "EdgeRouterPolicy",
      "Identity",
      "KeyPair",
      "Service",
      "ServiceEdgeRouterPolicy",
      "ServicePolicy",
    ]);
  });

  for (const c of cases) {
    it(`${c.kind}: ${c.what} -> ${c.property}`, async () => {
      mock.clearLog();
      const inputs = JSON.parse(JSON.stringify(c.inputs)); // drops undefined members: "missing"
      const { failures } = await engine.check(c.kind, {}, inputs);
      assert.ok(failures.length > 0, "no check failure");
      assert.ok(
        failures.some((f) => f.property === c.property),
        `no failure names ${c.property}: ${JSON.stringify(failures)}`,
      );
      // The engine prints "property: reason", so the reason says what is wrong without repeating it.
      for (const f of failures) assert.ok(f.reason && !f.reason.startsWith(`${f.property}: `), f.reason);
      // A rejected secret (or a private key pasted by mistake) is not quoted back.
      for (const secret of ["short-key", "s3cret-value", "PRIVATE KEY"]) {
        for (const f of failures) assert.ok(!f.reason.includes(secret), f.reason);
      }
      assert.deepEqual(mock.log, [], "a request was made");
    });
  }

  it("valid versions of the same inputs pass check (the cases fail for the stated reason)", async () => {
    const valid: Array<[string, Inputs]> = [
      ["AuthProvider", oidc()],
      ["AuthProvider", apiKey()],
      ["ClientCertificate", { name: "c", value: generated.csrPem }],
      ["CertificateRequestToken", { name: "t", commonName: "x" }],
      ["CustomFrontend", { hostname: "apps.example.com" }],
      ["KeyPair", { commonName: "k" }],
      ["Identity", identity({ defaultHostingCost: 65535, enrollment: { updb: "abcd" } })],
      ["AuthPolicy", policy({ primary: { updb: { minPasswordLength: 0 } } })],
      ["EdgeRouterPolicy", erp({ identityRoles: ["#employees", "@id-1"] })],
      ["Ca", caInputs({ privateKeyPem: ca.keyPem })],
      ["Service", { name: "s", maxIdleTimeMillis: 0, configs: ["c1", "c2"] }],
      ["ServicePolicy", { name: "p", type: "Bind", postureCheckRoles: ["#mfa"] }],
      ["ServiceEdgeRouterPolicy", { name: "p", serviceRoles: ["#all"] }],
      ["ConfigType", { name: "t", target: "router" }],
      [
        "Config",
        {
          name: "c",
          configTypeName: "intercept.v1",
          data: { protocols: ["tcp"], addresses: ["a"], portRanges: [{ low: 1, high: 65535 }] },
        },
      ],
      [
        "Config",
        { name: "c", configTypeName: "host.v1", data: { protocol: "tcp", address: "10.0.0.1", port: 1 } },
      ],
      [
        "Config",
        {
          name: "c",
          configTypeId: "host.v2",
          data: { terminators: [{ protocol: "tcp", address: "a", port: 1 }] },
        },
      ],
    ];
    for (const [kind, inputs] of valid) {
      const { failures } = await engine.check(kind, {}, inputs);
      assert.deepEqual(failures, [], `${kind}: ${JSON.stringify(failures)}`);
    }
  });

  describe("settings of the wrong type, range or form: every check fails naming the key", () => {
    const settingCases: Array<[string, string, string]> = [
      ["frontdoor:maxRetries", "abc", "whole number"],
      ["frontdoor:maxRetries", "-1", "whole number"],
      ["frontdoor:maxRetries", "1.5", "whole number"],
      ["frontdoor:requestTimeoutSeconds", "0", "greater than 0"],
      ["frontdoor:requestTimeoutSeconds", "soon", "greater than 0"],
      ["frontdoor:retryTimeoutSeconds", "-5", "greater than 0"],
      ["frontdoor:debug", "banana", "true or false"],
      ["frontdoor:allowPlainHttp", "maybe", "true or false"],
      ["frontdoor:apiUrl", "MOCK?tenant=1", "query"],
      ["frontdoor:apiUrl", "MOCK#top", "fragment"],
      ["frontdoor:apiUrl", "ftp://127.0.0.1/", "http(s)"],
      ["frontdoor:apiUrl", "127.0.0.1:8080", "http(s)"],
      ["frontdoor:edgeUrl", "file:///etc/passwd", "http(s)"],
      ["frontdoor:edgeUrl", "MOCK/?", "query"],
      ["frontdoor:searchUrl", "javascript:alert(1)", "http(s)"],
      ["frontdoor:tokenUrl", "http://user:pw@127.0.0.1/oauth2/token", "credentials"],
      // Plain http to another machine: the token would travel in clear.
      ["frontdoor:apiUrl", "http://gateway.example.com", "in clear"],
      ["frontdoor:edgeUrl", "http://10.0.0.5:1280", "in clear"],
      ["frontdoor:searchUrl", "http://127.0.0.1.nip.io", "in clear"],
    ];
    afterEach(() => configureFor(config));

    for (const [key, value, reason] of settingCases) {
      it(`${key}=${value}`, async () => {
        await configureFor({ ...config, [key]: value.replace("MOCK", mock.url) });
        mock.clearLog();
        for (const [kind, inputs] of [
          ["AuthProvider", oidc()],
          ["Identity", identity({})],
        ] as const) {
          const { failures } = await engine.check(kind, {}, inputs);
          const failure = failures.find((f) => f.property === key);
          assert.ok(failure, `${kind}: no failure names ${key}: ${JSON.stringify(failures)}`);
          assert.ok(failure.reason.includes(reason), failure.reason);
        }
        // Operations that do not go through check (refresh, delete) refuse too, before any request.
        await assert.rejects(
          engine.read("Identity", "some-id", identity({})),
          new RegExp(key.replace(/[.?]/g, "\\$&")),
        );
        assert.deepEqual(mock.log, [], "a request was made");
      });
    }

    it("plain http to another host is accepted with frontdoor:allowPlainHttp, https and loopback without", async () => {
      const accepted: Record<string, string>[] = [
        { "frontdoor:apiUrl": "http://gateway.example.com", "frontdoor:allowPlainHttp": "true" },
        { "frontdoor:apiUrl": "https://gateway.example.com/frontdoor-api/" },
        { "frontdoor:edgeUrl": "http://localhost:1280" },
        { "frontdoor:edgeUrl": "http://[::1]:1280" },
        { "frontdoor:maxRetries": "0", "frontdoor:requestTimeoutSeconds": "0.5", "frontdoor:debug": "no" },
      ];
      for (const settings of accepted) {
        await configureFor({ ...config, ...settings });
        const { failures } = await engine.check("AuthProvider", {}, oidc());
        assert.deepEqual(failures, [], JSON.stringify(settings));
      }
    });
  });

  describe("ids given to import, refresh, update and delete", () => {
    const badIds: Array<[string, string]> = [
      ["AuthProvider", "fd-demo/.."],
      ["AuthProvider", "../ap-1"],
      ["AuthProvider", "fd-demo/ap-1/x"],
      ["ClientCertificate", "fd-demo/c?x"],
      ["Identity", "."],
      ["Identity", "id#1"],
      ["Ca", "ca%2F1"],
      ["EdgeRouterPolicy", "erp\r\n1"],
    ];
    for (const [kind, id] of badIds) {
      it(`${kind} id ${JSON.stringify(id)} is refused without a request`, async () => {
        mock.clearLog();
        const props = kind === "AuthProvider" ? oidc() : { name: "x" };
        await assert.rejects(engine.read(kind, id, props), /must be an id|must not be empty/);
        await assert.rejects(engine.update(kind, id, props, props), /must be an id/);
        await assert.rejects(engine.remove(kind, id, props), /must be an id/);
        assert.deepEqual(mock.log, []);
      });
    }
  });

  it("a certificate that expired after it was accepted draws a warning, not a failure", async () => {
    const inputs = { name: "c", value: expiredLeaf.certPem };
    const { written, result, error } = await captureStderr(() =>
      engine.check("ClientCertificate", inputs, inputs),
    );
    assert.equal(error, undefined);
    assert.deepEqual(result?.failures, []);
    assert.match(
      written.join(""),
      /warning: ClientCertificate "c": value: the certificate expired on .*renew it/,
    );
  });

  describe("through the dynamic-provider host (harness up)", () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "bad-input-"));
    });

    const viaHarness: Array<{
      kind: string;
      inputs: Inputs;
      property: string;
      config?: Record<string, string>;
    }> = [
      { kind: "Identity", inputs: identity({ defaultHostingCost: 70000 }), property: "defaultHostingCost" },
      { kind: "AuthProvider", inputs: apiKey({ api_key: "short-key" }), property: "data.api_key" },
      { kind: "Ca", inputs: caInputs({ certPem: leaf.certPem }), property: "certPem" },
      {
        kind: "Config",
        inputs: { name: "c", configTypeName: "host.v1", data: { protocol: "tcp", address: "10.0.0.1" } },
        property: "data.port",
      },
      // Through the host's protobuf Struct, a __proto__ key would become the prototype or vanish:
      // the program refuses it first.
      { kind: "Identity", inputs: identity({ tags: protoMap('"x"') }), property: "tags.__proto__" },
      { kind: "Identity", inputs: identity({ tags: protoMap('{"a": "b"}') }), property: "tags.__proto__" },
      { kind: "AuthProvider", inputs: oidc({}, { frontdoorId: "../fd-demo" }), property: "frontdoorId" },
      {
        kind: "ClientCertificate",
        inputs: { name: "c", value: `${leaf.certPem}${leaf.keyPem}` },
        property: "value",
      },
      // Settings: refused at preview, naming the key.
      {
        kind: "Identity",
        inputs: identity({}),
        property: "frontdoor:maxRetries",
        config: { "frontdoor:maxRetries": "abc" },
      },
      {
        kind: "AuthProvider",
        inputs: oidc(),
        property: "frontdoor:requestTimeoutSeconds",
        config: { "frontdoor:requestTimeoutSeconds": "0" },
      },
    ];
    for (const [i, c] of viaHarness.entries()) {
      it(`up fails for ${c.kind} naming ${c.property}, and makes no request (case ${i + 1})`, async () => {
        mock.clearLog();
        const { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword, ...plain } = config;
        const result = await runHarness("up", {
          programDir: path.join(__dirname, "programs", "faults-bad-input"),
          stateFile: path.join(dir, `state-${i}.json`),
          config: { ...plain, ...c.config, kind: c.kind, inputs: JSON.stringify(c.inputs) },
          secretConfig: { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword },
        });
        assert.equal(result.exitCode, 1, result.stderr);
        const text = `${result.stdout}\n${result.stderr}`;
        assert.match(text, new RegExp(`\\b${c.property.replace(/\./g, "\\.")}: `), text);
        assert.ok(!text.includes("short-key"), "the rejected secret is printed");
        assert.ok(!text.includes("PRIVATE KEY"), "the rejected private key is printed");
        assert.deepEqual(mock.log, [], "a request was made");
        assert.ok(result.report, "the harness writes its JSON report");
        assert.deepEqual(
          result.report.resources.filter((r) => r.op === "create" && r.id),
          [],
        );
        assert.ok(
          !fs.existsSync(path.join(dir, `state-${i}.json`)) ||
            !/"id"/.test(fs.readFileSync(path.join(dir, `state-${i}.json`), "utf8")),
        );
      });
    }
  });
});
