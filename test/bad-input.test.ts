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

type Inputs = Record<string, unknown>;
interface Case {
  kind: string;
  what: string;
  inputs: Inputs;
  /** The property path the failure must name. */
  property: string;
}

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
    {
      kind: "AuthProvider",
      what: "name of the wrong type",
      inputs: oidc({}, { name: 42 }),
      property: "name",
    },
    { kind: "AuthProvider", what: "empty name", inputs: oidc({}, { name: "" }), property: "name" },
    {
      kind: "AuthProvider",
      what: "name too long",
      inputs: oidc({}, { name: "n".repeat(256) }),
      property: "name",
    },
    { kind: "AuthProvider", what: "unknown type", inputs: oidc({}, { type: "SAML" }), property: "type" },
    { kind: "AuthProvider", what: "missing type", inputs: oidc({}, { type: undefined }), property: "type" },
    { kind: "AuthProvider", what: "missing data", inputs: oidc({}, { data: undefined }), property: "data" },
    {
      kind: "AuthProvider",
      what: "issuer not a URL",
      inputs: oidc({ issuer: "login" }),
      property: "data.issuer",
    },
    {
      kind: "AuthProvider",
      what: "issuer not http(s)",
      inputs: oidc({ issuer: "ftp://login.example.com" }),
      property: "data.issuer",
    },
    {
      kind: "AuthProvider",
      what: "empty client secret",
      inputs: oidc({ client_secret: "" }),
      property: "data.client_secret",
    },
    {
      kind: "AuthProvider",
      what: "missing client id",
      inputs: oidc({ client_id: undefined }),
      property: "data.client_id",
    },
    {
      kind: "AuthProvider",
      what: "scopes not a list",
      inputs: oidc({ scopes: "openid" }),
      property: "data.scopes",
    },
    {
      kind: "AuthProvider",
      what: "unknown data field",
      inputs: oidc({ audience: "x" }),
      property: "data.audience",
    },
    { kind: "AuthProvider", what: "unknown field", inputs: oidc({}, { colour: "blue" }), property: "colour" },
    {
      kind: "AuthProvider",
      what: "enabled as a string",
      inputs: oidc({}, { enabled: "yes" }),
      property: "enabled",
    },
    {
      kind: "AuthProvider",
      what: "frontdoorId a number",
      inputs: oidc({}, { frontdoorId: 7 }),
      property: "frontdoorId",
    },
    {
      kind: "AuthProvider",
      what: "API key too short",
      inputs: apiKey({ api_key: "short-key" }),
      property: "data.api_key",
    },
    {
      kind: "AuthProvider",
      what: "bad header name",
      inputs: apiKey({ header_name: "x api key" }),
      property: "data.header_name",
    },
    {
      kind: "AuthProvider",
      what: "OIDC data under API_KEY",
      inputs: { ...apiKey(), data: oidc().data },
      property: "data.header_name",
    },
    // Ids end up in URL paths: refused, never encoded away
    ...[".", "..", "fd/other", "fd?x=1", "fd#x", "fd%2e%2e", "fd\u0000", "fd\n", "fd\u007f"].map((id) => ({
      kind: "AuthProvider",
      what: `frontdoorId ${JSON.stringify(id)}`,
      inputs: oidc({}, { frontdoorId: id }),
      property: "frontdoorId",
    })),
    {
      kind: "CustomFrontend",
      what: "auth provider id ..",
      inputs: { hostname: "apps.example.com", authProviderIds: ["ap-1", ".."] },
      property: "authProviderIds.1",
    },
    {
      kind: "CustomFrontend",
      what: "frontendId with a slash",
      inputs: { hostname: "apps.example.com", frontendId: "fe/../x" },
      property: "frontendId",
    },
    {
      kind: "Identity",
      what: "authPolicyId .",
      inputs: identity({ authPolicyId: "." }),
      property: "authPolicyId",
    },
    {
      kind: "Identity",
      what: "ottca CA id with a query",
      inputs: identity({ enrollment: { ottca: "ca-1?x" } }),
      property: "enrollment.ottca",
    },
    {
      kind: "Identity",
      what: "service id with a slash",
      inputs: identity({ serviceHostingCosts: { "svc/1": 1 } }),
      property: "serviceHostingCosts.svc/1",
    },
    // Map keys that reach the prototype: refused, not dropped
    {
      kind: "Identity",
      what: "__proto__ tag (object)",
      inputs: identity({ tags: protoMap('{"admin": true}') }),
      property: "tags.__proto__",
    },
    {
      kind: "Identity",
      what: "__proto__ appData (string)",
      inputs: identity({ appData: protoMap('"x"') }),
      property: "appData.__proto__",
    },
    {
      kind: "Identity",
      what: "constructor service id",
      inputs: identity({ serviceHostingCosts: { constructor: 1 } }),
      property: "serviceHostingCosts.constructor",
    },
    {
      kind: "Ca",
      what: "constructor tag",
      inputs: caInputs({ tags: { constructor: "x" } }),
      property: "tags.constructor",
    },
    {
      kind: "AuthProvider",
      what: "__proto__ in data",
      inputs: { ...oidc(), data: { ...(oidc().data as Inputs), ...protoMap("{}") } },
      property: "data.__proto__",
    },
    // Certificate fields: exactly one certificate
    {
      kind: "ClientCertificate",
      what: "certificate with its private key appended",
      inputs: { name: "c", value: `${leaf.certPem}${leaf.keyPem}` },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "CSR with its private key appended",
      inputs: { name: "c", value: `${generated.csrPem}\n${generated.privateKeyPem}` },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "two certificates",
      inputs: { name: "c", value: `${leaf.certPem}${ca.certPem}` },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "trailing text",
      inputs: { name: "c", value: `${leaf.certPem}\nissued by ops` },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "leading text",
      inputs: { name: "c", value: `subject=leaf\n${leaf.certPem}` },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "an expired certificate",
      inputs: { name: "c", value: expiredLeaf.certPem },
      property: "value",
    },
    {
      kind: "Ca",
      what: "CA certificate with its key appended",
      inputs: caInputs({ certPem: `${ca.certPem}${ca.keyPem}` }),
      property: "certPem",
    },
    {
      kind: "Ca",
      what: "two CA certificates",
      inputs: caInputs({ certPem: `${ca.certPem}${otherCa.certPem}` }),
      property: "certPem",
    },
    {
      kind: "Ca",
      what: "an expired CA",
      inputs: caInputs({ certPem: expiredCa.certPem }),
      property: "certPem",
    },
    // ClientCertificate
    {
      kind: "ClientCertificate",
      what: "value not PEM",
      inputs: { name: "c", value: "hello" },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "CSR with a bad signature",
      inputs: { name: "c", value: tamperedCsr(generated.csrPem) },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "certificate block with garbage",
      inputs: { name: "c", value: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" },
      property: "value",
    },
    {
      kind: "ClientCertificate",
      what: "a private key instead",
      inputs: { name: "c", value: generated.privateKeyPem },
      property: "value",
    },
    { kind: "ClientCertificate", what: "missing value", inputs: { name: "c" }, property: "value" },
    {
      kind: "ClientCertificate",
      what: "name too long",
      inputs: { name: "c".repeat(256), value: generated.csrPem },
      property: "name",
    },
    // CertificateRequestToken
    { kind: "CertificateRequestToken", what: "missing name", inputs: { commonName: "x" }, property: "name" },
    {
      kind: "CertificateRequestToken",
      what: "empty commonName",
      inputs: { name: "t", commonName: "" },
      property: "commonName",
    },
    {
      kind: "CertificateRequestToken",
      what: "token is an output",
      inputs: { name: "t", token: "abc" },
      property: "token",
    },
    // CustomFrontend
    {
      kind: "CustomFrontend",
      what: "invalid hostname",
      inputs: { hostname: "not a host!" },
      property: "hostname",
    },
    {
      kind: "CustomFrontend",
      what: "single-label hostname",
      inputs: { hostname: "localhost" },
      property: "hostname",
    },
    { kind: "CustomFrontend", what: "missing hostname", inputs: {}, property: "hostname" },
    {
      kind: "CustomFrontend",
      what: "negative timeout",
      inputs: { hostname: "apps.example.com", readyTimeoutSeconds: -5 },
      property: "readyTimeoutSeconds",
    },
    {
      kind: "CustomFrontend",
      what: "authProviderIds not a list",
      inputs: { hostname: "apps.example.com", authProviderIds: "ap-1" },
      property: "authProviderIds",
    },
    // KeyPair
    {
      kind: "KeyPair",
      what: "unsupported key size",
      inputs: { commonName: "k", keySize: 1024 },
      property: "keySize",
    },
    { kind: "KeyPair", what: "missing commonName", inputs: { keySize: 2048 }, property: "commonName" },
    {
      kind: "KeyPair",
      what: "commonName over the X.509 limit of 64",
      inputs: { commonName: "k".repeat(65) },
      property: "commonName",
    },
    {
      kind: "KeyPair",
      what: "empty organization",
      inputs: { commonName: "k", organization: "" },
      property: "organization",
    },
    // Identity
    {
      kind: "Identity",
      what: "hosting cost above 65535",
      inputs: identity({ defaultHostingCost: 70000 }),
      property: "defaultHostingCost",
    },
    {
      kind: "Identity",
      what: "negative hosting cost",
      inputs: identity({ defaultHostingCost: -1 }),
      property: "defaultHostingCost",
    },
    {
      kind: "Identity",
      what: "fractional service hosting cost",
      inputs: identity({ serviceHostingCosts: { "svc-1": 1.5 } }),
      property: "serviceHostingCosts.svc-1",
    },
    { kind: "Identity", what: "unknown type", inputs: identity({ type: "Robot" }), property: "type" },
    {
      kind: "Identity",
      what: "updb username too short",
      inputs: identity({ enrollment: { updb: "abc" } }),
      property: "enrollment.updb",
    },
    {
      kind: "Identity",
      what: "updb username too long",
      inputs: identity({ enrollment: { updb: "u".repeat(101) } }),
      property: "enrollment.updb",
    },
    {
      kind: "Identity",
      what: "unknown permission",
      inputs: identity({ permissions: ["superuser"] }),
      property: "permissions.0",
    },
    {
      kind: "Identity",
      what: "unknown hosting precedence",
      inputs: identity({ defaultHostingPrecedence: "maybe" }),
      property: "defaultHostingPrecedence",
    },
    {
      kind: "Identity",
      what: "tag of the wrong type",
      inputs: identity({ tags: { team: 1 } }),
      property: "tags.team",
    },
    {
      kind: "Identity",
      what: "empty role attribute",
      inputs: identity({ roleAttributes: [""] }),
      property: "roleAttributes.0",
    },
    { kind: "Identity", what: "missing name", inputs: { type: "User" }, property: "name" },
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
    {
      kind: "AuthPolicy",
      what: "requireTotp as a string",
      inputs: policy({ secondary: { requireTotp: "yes" } }),
      property: "secondary.requireTotp",
    },
    {
      kind: "AuthPolicy",
      what: "unknown primary method",
      inputs: policy({ primary: { oauth: { allowed: true } } }),
      property: "primary.oauth",
    },
    // EdgeRouterPolicy
    {
      kind: "EdgeRouterPolicy",
      what: "role without # or @",
      inputs: erp({ identityRoles: ["employees"] }),
      property: "identityRoles.0",
    },
    {
      kind: "EdgeRouterPolicy",
      what: "#all with other roles",
      inputs: erp({ edgeRouterRoles: ["#all", "#eu"] }),
      property: "edgeRouterRoles",
    },
    {
      kind: "EdgeRouterPolicy",
      what: "repeated role",
      inputs: erp({ identityRoles: ["#a", "#a"] }),
      property: "identityRoles",
    },
    {
      kind: "EdgeRouterPolicy",
      what: "unknown semantic",
      inputs: erp({ semantic: "OneOf" }),
      property: "semantic",
    },
    // Ca
    {
      kind: "Ca",
      what: "a non-CA certificate",
      inputs: caInputs({ certPem: leaf.certPem }),
      property: "certPem",
    },
    { kind: "Ca", what: "certPem not PEM", inputs: caInputs({ certPem: "garbage" }), property: "certPem" },
    {
      kind: "Ca",
      what: "key of another CA",
      inputs: caInputs({ privateKeyPem: otherCa.keyPem }),
      property: "privateKeyPem",
    },
    {
      kind: "Ca",
      what: "key not PEM",
      inputs: caInputs({ privateKeyPem: "not a key" }),
      property: "privateKeyPem",
    },
    {
      kind: "Ca",
      what: "unknown externalId location",
      inputs: caInputs({ externalIdClaim: { location: "HEADER" } }),
      property: "externalIdClaim.location",
    },
    {
      kind: "Ca",
      what: "negative externalId index",
      inputs: caInputs({ externalIdClaim: { location: "COMMON_NAME", index: -1 } }),
      property: "externalIdClaim.index",
    },
    // Service, ServicePolicy, ServiceEdgeRouterPolicy, Config, ConfigType
    {
      kind: "Service",
      what: "negative idle time",
      inputs: { name: "s", maxIdleTimeMillis: -5 },
      property: "maxIdleTimeMillis",
    },
    {
      kind: "Service",
      what: "repeated config id",
      inputs: { name: "s", configs: ["c1", "c1"] },
      property: "configs",
    },
    {
      kind: "ServicePolicy",
      what: "type missing",
      inputs: { name: "p", serviceRoles: ["#app"] },
      property: "type",
    },
    {
      kind: "ServicePolicy",
      what: "posture check role without #",
      inputs: { name: "p", type: "Dial", postureCheckRoles: ["mfa"] },
      property: "postureCheckRoles.0",
    },
    {
      kind: "ServiceEdgeRouterPolicy",
      what: "#all with other roles",
      inputs: { name: "p", serviceRoles: ["#all", "#app"] },
      property: "serviceRoles",
    },
    {
      kind: "ConfigType",
      what: "unknown target",
      inputs: { name: "t", target: "client" },
      property: "target",
    },
    { kind: "Config", what: "no config type", inputs: { name: "c", data: {} }, property: "configTypeName" },
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
    {
      kind: "Config",
      what: "host.v1 without port",
      inputs: { name: "c", configTypeName: "host.v1", data: { protocol: "tcp", address: "10.0.0.1" } },
      property: "data.port",
    },
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
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    let failures: unknown[];
    try {
      ({ failures } = await engine.check("ClientCertificate", inputs, inputs));
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(failures, []);
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
