// The field matrix: for every Edge kind (each posture check type, each typed config type, each
// enrollment method) declarations that set every settable input to a realistic, non-default value,
// and for every top-level input how another admin changes it behind Pulumi's back (or why nobody
// can). test/real-field-matrix-coverage.test.ts checks, against the fields generated from the zod
// schemas (field-paths.ts), that nothing is left out; test/real-field-matrix.test.ts runs it.
import type { Props } from "../../provider/resource";
import { testCa } from "../edge-support";

/** Objects the declarations refer to, made on the controller before the matrix runs. */
export interface Fixtures {
  services: [string, string];
  signers: [string, string];
  configs: [string, string];
  authPolicyId: string;
  /** A verified CA with OTT CA enrollment on (for an ottca enrollment). */
  ottCaId: string;
  routerId: string;
}

/** Stand-in ids of the fixtures, for checking declarations where no controller holds them. */
export const DUMMY_FIXTURES: Fixtures = {
  services: ["svc-a", "svc-b"],
  signers: ["signer-a", "signer-b"],
  configs: ["config-a", "config-b"],
  authPolicyId: "policy-a",
  ottCaId: "ca-a",
  routerId: "router-a",
};

export interface MatrixCase {
  /** Pulumi name (the object's name is `<prefix>-<name>`). */
  name: string;
  kind: string;
  /** Variant as field-paths.ts names it (`PostureCheck:MFA`, `Config:host.v2`). */
  variant: string;
  inputs: (fx: Fixtures) => Props;
  /** Inputs given as Pulumi secrets. */
  secrets?: Props;
}

const ca = testCa("Field matrix CA");
const signerCert = testCa("matrix-signer.example.com");
const otherSignerCert = testCa("matrix-signer-rotated.example.com");
const tags = { owner: "platform-team", managed: true, costCenter: null };
const check = { interval: "10s", timeout: "2s" };
const actions = [
  { trigger: "fail", action: "mark unhealthy", consecutiveEvents: 3, duration: "1m" },
  { trigger: "pass", action: "increase cost 10" },
];
const httpCheck = {
  ...check,
  url: "http://localhost:8080/health",
  method: "POST",
  body: '{"probe":true}',
  expectStatus: 204,
  expectInBody: "ok",
  actions,
};
const portCheck = { ...check, address: "localhost:8080", actions };
const listenOptions = {
  bindUsingEdgeIdentity: true,
  connectTimeoutSeconds: 7,
  connectTimeout: "7s",
  cost: 12,
  identity: "$tunneler_id.name",
  maxConnections: 200,
  precedence: "required",
};
const hostFixed = {
  protocol: "tcp",
  address: "app.internal",
  port: 8443,
  allowedSourceAddresses: ["10.1.0.0/16"],
  listenOptions,
  httpChecks: [httpCheck],
  portChecks: [portCheck],
  proxy: { type: "http", address: "proxy.internal:3128" },
};
const hostForwarded = {
  forwardProtocol: true,
  allowedProtocols: ["tcp", "udp"],
  forwardAddress: true,
  allowedAddresses: ["10.2.0.0/16", "*.apps.internal"],
  forwardPort: true,
  allowedPortRanges: [
    { low: 80, high: 80 },
    { low: 8000, high: 8999 },
  ],
};
const process = (osType: string) => ({
  osType,
  path: osType === "Windows" ? "C:\\Program Files\\Acme\\agent.exe" : "/opt/acme/agent",
  hashes: ["a".repeat(128), "b".repeat(128)],
});

export const MATRIX: MatrixCase[] = [
  {
    name: "policy",
    kind: "AuthPolicy",
    variant: "AuthPolicy",
    inputs: (fx) => ({
      primary: {
        cert: { allowed: false, allowExpiredCerts: false },
        extJwt: { allowed: true, allowedSigners: [fx.signers[1], fx.signers[0]] },
        updb: {
          allowed: true,
          minPasswordLength: 12,
          requireMixedCase: true,
          requireNumberChar: true,
          requireSpecialChar: true,
          maxAttempts: 5,
          lockoutDurationMinutes: 15,
        },
      },
      secondary: { requireTotp: true, requireExtJwtSigner: fx.signers[0] },
      tags,
    }),
  },
  ...(
    [
      ["ott", "Device", { ott: true }],
      ["updb", "User", { updb: "matrix-updb-user" }],
      ["ottca", "Service", undefined],
    ] as const
  ).map(
    ([method, type, enrollment]): MatrixCase => ({
      name: `identity-${method}`,
      kind: "Identity",
      variant: "Identity",
      inputs: (fx) => ({
        type,
        isAdmin: method === "ott",
        authPolicyId: fx.authPolicyId,
        externalId: `ext-${method}@corp.example`,
        roleAttributes: ["ops", `method-${method}`],
        defaultHostingCost: 20,
        defaultHostingPrecedence: "required",
        serviceHostingCosts: { [fx.services[0]]: 5, [fx.services[1]]: 7 },
        serviceHostingPrecedences: { [fx.services[0]]: "failed", [fx.services[1]]: "required" },
        appData: { team: "payments", onCall: true },
        tags,
        permissions: method === "ott" ? [] : ["service.read", "identity.update"],
        enrollment: enrollment ?? { ottca: fx.ottCaId },
        enrollmentMinutes: 90,
        reEnrollmentTrigger: "2024-rotation",
        reissueExpiredEnrollment: true,
      }),
    }),
  ),
  {
    name: "erp",
    kind: "EdgeRouterPolicy",
    variant: "EdgeRouterPolicy",
    inputs: (fx) => ({
      semantic: "AnyOf",
      edgeRouterRoles: ["#edge-eu", `@${fx.routerId}`],
      identityRoles: ["#ops", "#method-ott"],
      tags,
    }),
  },
  {
    name: "ca",
    kind: "Ca",
    variant: "Ca",
    inputs: () => ({
      certPem: ca.certPem,
      isAuthEnabled: true,
      isAutoCaEnrollmentEnabled: true,
      isOttCaEnrollmentEnabled: true,
      identityRoles: ["from-ca", "devices"],
      identityNameFormat: "[caName]-[commonName]",
      externalIdClaim: {
        location: "SAN_URI",
        matcher: "PREFIX",
        matcherCriteria: "spiffe://corp.example/",
        parser: "SPLIT",
        parserCriteria: "/",
        index: 1,
      },
      tags,
    }),
    secrets: { privateKeyPem: ca.keyPem },
  },
  {
    name: "router",
    kind: "EdgeRouter",
    variant: "EdgeRouter",
    inputs: () => ({
      roleAttributes: ["edge-eu", "public"],
      isTunnelerEnabled: true,
      cost: 30,
      noTraversal: true,
      disabled: true,
      appData: { region: "eu-west-1", spot: false },
      tags,
      reEnrollmentTrigger: "2024-rotation",
    }),
  },
  {
    name: "signer-jwks",
    kind: "ExternalJwtSigner",
    variant: "ExternalJwtSigner",
    inputs: () => ({
      issuer: "https://login.matrix.example.com/realms/corp",
      audience: "ziti-matrix",
      jwksEndpoint: "https://login.matrix.example.com/realms/corp/certs",
      claimsProperty: "email",
      useExternalId: true,
      enabled: false,
      externalAuthUrl: "https://login.matrix.example.com/realms/corp/auth",
      clientId: "ziti-cli",
      scopes: ["openid", "email"],
      targetToken: "ID",
      tags,
    }),
  },
  {
    name: "signer-cert",
    kind: "ExternalJwtSigner",
    variant: "ExternalJwtSigner",
    inputs: () => ({
      issuer: "https://sts.matrix.example.com",
      audience: "ziti-matrix-cert",
      certPem: signerCert.certPem,
      kid: "key-2024-01",
    }),
  },
  {
    name: "pc-os",
    kind: "PostureCheck",
    variant: "PostureCheck:OS",
    inputs: () => ({
      typeId: "OS",
      roleAttributes: ["os"],
      tags,
      operatingSystems: [
        { type: "Windows", versions: [">=10.0.19041", "<11.0.0"] },
        { type: "macOS", versions: [">=13.0.0"] },
      ],
    }),
  },
  {
    name: "pc-domain",
    kind: "PostureCheck",
    variant: "PostureCheck:DOMAIN",
    inputs: () => ({ typeId: "DOMAIN", roleAttributes: ["domain"], tags, domains: ["corp", "lab"] }),
  },
  {
    name: "pc-mac",
    kind: "PostureCheck",
    variant: "PostureCheck:MAC",
    inputs: () => ({
      typeId: "MAC",
      roleAttributes: ["mac"],
      tags,
      macAddresses: ["0123456789ab", "a1b2c3d4e5f6"],
    }),
  },
  {
    name: "pc-process",
    kind: "PostureCheck",
    variant: "PostureCheck:PROCESS",
    inputs: () => ({
      typeId: "PROCESS",
      roleAttributes: ["process"],
      tags,
      process: { ...process("Windows"), signerFingerprint: "c".repeat(40) },
    }),
  },
  {
    name: "pc-multi",
    kind: "PostureCheck",
    variant: "PostureCheck:PROCESS_MULTI",
    inputs: () => ({
      typeId: "PROCESS_MULTI",
      roleAttributes: ["multi"],
      tags,
      semantic: "AnyOf",
      processes: [
        { ...process("Linux"), signerFingerprints: ["d".repeat(40), "e".repeat(40)] },
        { ...process("Windows"), signerFingerprints: ["f".repeat(40)] },
      ],
    }),
  },
  {
    name: "pc-mfa",
    kind: "PostureCheck",
    variant: "PostureCheck:MFA",
    inputs: () => ({
      typeId: "MFA",
      roleAttributes: ["mfa"],
      tags,
      timeoutSeconds: 3600,
      promptOnWake: true,
      promptOnUnlock: true,
      ignoreLegacyEndpoints: true,
    }),
  },
  {
    name: "config-type",
    kind: "ConfigType",
    variant: "ConfigType",
    inputs: () => ({
      schema: {
        type: "object",
        properties: { url: { type: "string" }, retries: { type: "integer", minimum: 0 } },
        required: ["url"],
      },
      target: "router",
      tags,
    }),
  },
  {
    name: "intercept",
    kind: "Config",
    variant: "Config:intercept.v1",
    inputs: () => ({
      configTypeName: "intercept.v1",
      configTypeId: "g7cIWbcGg",
      data: {
        protocols: ["tcp", "udp"],
        addresses: ["app.ziti.internal", "100.64.1.0/24"],
        portRanges: [
          { low: 443, high: 443 },
          { low: 8000, high: 8100 },
        ],
        dialOptions: { identity: "$dst_ip", connectTimeoutSeconds: 20 },
        sourceIp: "$tunneler_id.name",
        allowedSourceAddresses: ["192.168.10.0/24"],
      },
      tags,
    }),
  },
  {
    name: "host-fixed",
    kind: "Config",
    variant: "Config:host.v1",
    inputs: () => ({ configTypeName: "host.v1", data: hostFixed, tags }),
  },
  {
    name: "host-forwarded",
    kind: "Config",
    variant: "Config:host.v1",
    // By id, not by name: both forms are settable.
    inputs: () => ({ configTypeId: "NH5p4FpGR", data: hostForwarded, tags }),
  },
  {
    name: "host-v2",
    kind: "Config",
    variant: "Config:host.v2",
    inputs: () => ({
      configTypeName: "host.v2",
      configTypeId: "host.v2",
      data: { terminators: [hostFixed, hostForwarded] },
      tags,
    }),
  },
  {
    name: "tunneler-client",
    kind: "Config",
    variant: "Config:ziti-tunneler-client.v1",
    inputs: () => ({
      configTypeName: "ziti-tunneler-client.v1",
      configTypeId: "f2dd2df0-9c04-4b84-a91e-71437ac229f1",
      data: { hostname: "legacy.ziti", port: 9443 },
      tags,
    }),
  },
  {
    name: "tunneler-server",
    kind: "Config",
    variant: "Config:ziti-tunneler-server.v1",
    inputs: () => ({
      configTypeName: "ziti-tunneler-server.v1",
      configTypeId: "cea49285-6c07-42cf-9f52-09a9b115c783",
      data: {
        hostname: "legacy.internal",
        port: 9443,
        protocol: "udp",
        httpChecks: [httpCheck],
        portChecks: [portCheck],
      },
      tags,
    }),
  },
  {
    name: "service",
    kind: "Service",
    variant: "Service",
    inputs: (fx) => ({
      configs: [fx.configs[1], fx.configs[0]],
      roleAttributes: ["payments", "eu"],
      encryptionRequired: false,
      terminatorStrategy: "weighted",
      maxIdleTimeMillis: 30000,
      tags,
    }),
  },
  {
    name: "sp",
    kind: "ServicePolicy",
    variant: "ServicePolicy",
    inputs: () => ({
      type: "Bind",
      semantic: "AnyOf",
      identityRoles: ["#ops", "#method-updb"],
      serviceRoles: ["#payments", "#eu"],
      postureCheckRoles: ["#mfa", "#os"],
      tags,
    }),
  },
  {
    name: "serp",
    kind: "ServiceEdgeRouterPolicy",
    variant: "ServiceEdgeRouterPolicy",
    inputs: () => ({
      semantic: "AnyOf",
      edgeRouterRoles: ["#edge-eu", "#public"],
      serviceRoles: ["#payments"],
      tags,
    }),
  },
];

/**
 * Inputs a release does not have, left out of the matrix on it (`case: [dotted path]`): v1.5.0's
 * intercept.v1 schema has no allowedSourceAddresses (v1.6.0 added it; v1.5.0 refuses it at up, 400).
 */
export const NOT_IN_RELEASE: Record<string, Record<string, string[]>> = {
  "v1.5.0": { intercept: ["data.allowedSourceAddresses"] },
};

/** A case's inputs for a release: without what the release does not have. */
export function inputsFor(c: MatrixCase, fx: Fixtures, release: string): Props {
  const inputs = structuredClone(c.inputs(fx));
  for (const path of NOT_IN_RELEASE[release]?.[c.name] ?? []) {
    const keys = path.split(".");
    const last = keys.pop() as string;
    delete (keys.reduce((o: any, k) => o[k], inputs) as Props)[last];
  }
  return inputs;
}

/** How another admin changes a top-level input: the new server value from the current one. */
export type Behind = { change: (current: any, fx: Fixtures) => unknown } | { never: string };

const renamed: Behind = { change: (name: string) => `${name}-renamed` };
const retagged: Behind = { change: () => ({ owner: "someone-else" }) };
const attributes: Behind = { change: () => ["intruder"] };
const roles: Behind = { change: () => ["#intruder"] };
const flip: Behind = { change: (value: boolean) => !value };
const plusOne: Behind = { change: (value: number) => value + 1 };
const anyOf: Behind = { change: (value: string) => (value === "AnyOf" ? "AllOf" : "AnyOf") };
const providerOnly = (what: string): Behind => ({
  never: `a setting of the provider (${what}): not on the controller`,
});
const immutable = (why: string): Behind => ({
  never: `cannot change in place (${why}); a change replaces the object`,
});

/** A config's data as another admin edits it (still valid for its type). */
function changedData(data: any): unknown {
  if (data.terminators) return { terminators: data.terminators.slice(0, 1) };
  if (typeof data.port === "number") return { ...data, port: data.port + 1 };
  if (data.allowedProtocols) return { ...data, allowedProtocols: ["tcp"] };
  return { ...data, sourceIp: "$src_ip" };
}

const COMMON: Record<string, Behind> = { name: renamed, tags: retagged };

/** Per kind: every top-level input, with how it is changed behind Pulumi's back. */
export const BEHIND: Record<string, Record<string, Behind>> = {
  AuthPolicy: {
    ...COMMON,
    primary: {
      change: (primary) => ({ ...primary, updb: { ...primary.updb, minPasswordLength: 6 } }),
    },
    secondary: { change: (secondary) => ({ ...secondary, requireTotp: !secondary.requireTotp }) },
  },
  Identity: {
    ...COMMON,
    roleAttributes: attributes,
    type: { never: "User, Device and Service are all stored as Default: a change among them cannot show" },
    isAdmin: flip,
    authPolicyId: { change: () => "default" },
    externalId: { change: (value: string) => `other-${value}` },
    defaultHostingCost: plusOne,
    defaultHostingPrecedence: { change: () => "failed" },
    serviceHostingCosts: { change: (_v, fx) => ({ [fx.services[0]]: 99 }) },
    serviceHostingPrecedences: { change: (_v, fx) => ({ [fx.services[1]]: "default" }) },
    appData: { change: () => ({ team: "intruders" }) },
    permissions: {
      never: "v1.5.0 and v1.6.0 keep no permissions (a PATCH of them changes nothing); up says so",
    },
    enrollment: {
      never:
        "what the program asked for at creation: the API never returns it in that form, consuming it is not drift",
    },
    enrollmentMinutes: providerOnly("the lifetime of enrollments it re-issues"),
    reEnrollmentTrigger: providerOnly("a trigger"),
    reissueExpiredEnrollment: providerOnly("an opt-in"),
  },
  EdgeRouterPolicy: {
    ...COMMON,
    semantic: anyOf,
    edgeRouterRoles: roles,
    identityRoles: roles,
  },
  Ca: {
    ...COMMON,
    certPem: immutable("the controller keeps a CA's certificate"),
    privateKeyPem: providerOnly("the key it verifies the CA with"),
    isAuthEnabled: flip,
    isAutoCaEnrollmentEnabled: flip,
    isOttCaEnrollmentEnabled: flip,
    identityRoles: { change: () => ["intruder"] },
    identityNameFormat: { change: () => "[commonName]" },
    externalIdClaim: { change: (claim) => ({ ...claim, index: claim.index + 1 }) },
  },
  EdgeRouter: {
    ...COMMON,
    roleAttributes: attributes,
    isTunnelerEnabled: flip,
    cost: plusOne,
    noTraversal: flip,
    disabled: flip,
    appData: { change: () => ({ region: "elsewhere" }) },
    reEnrollmentTrigger: providerOnly("a trigger"),
  },
  ExternalJwtSigner: {
    ...COMMON,
    issuer: { change: (value: string) => `${value}/other` },
    audience: { change: (value: string) => `${value}-other` },
    jwksEndpoint: { change: (value: string) => `${value}/other` },
    certPem: { change: () => otherSignerCert.certPem },
    kid: { change: (value: string) => `${value}-other` },
    claimsProperty: { change: () => "preferred_username" },
    useExternalId: flip,
    enabled: flip,
    externalAuthUrl: { change: (value: string) => `${value}/other` },
    clientId: { change: (value: string) => `${value}-other` },
    scopes: { change: () => ["profile"] },
    targetToken: { change: (value: string) => (value === "ID" ? "ACCESS" : "ID") },
  },
  PostureCheck: {
    ...COMMON,
    roleAttributes: attributes,
    typeId: immutable("a new type is a new check"),
    operatingSystems: { change: () => [{ type: "Linux", versions: [] }] },
    domains: { change: () => ["intruders"] },
    macAddresses: { change: () => ["ffffffffffff"] },
    process: { change: (p) => ({ ...p, path: `${p.path}.old` }) },
    semantic: anyOf,
    processes: { change: (list: any[]) => list.slice(0, 1) },
    timeoutSeconds: plusOne,
    promptOnWake: flip,
    promptOnUnlock: flip,
    ignoreLegacyEndpoints: flip,
  },
  ConfigType: {
    ...COMMON,
    schema: { change: (schema) => ({ ...schema, required: [] }) },
    target: immutable("the update shapes do not carry it"),
  },
  Config: {
    ...COMMON,
    configTypeName: immutable("the update shapes do not carry the type"),
    configTypeId: immutable("the update shapes do not carry the type"),
    data: { change: changedData },
  },
  Service: {
    ...COMMON,
    roleAttributes: attributes,
    configs: { change: (configs: string[]) => configs.slice(0, 1) },
    encryptionRequired: immutable("v1.5.0 and v1.6.0 ignore it in a PATCH or PUT"),
    terminatorStrategy: { change: () => "random" },
    maxIdleTimeMillis: plusOne,
  },
  ServicePolicy: {
    ...COMMON,
    type: { change: (value: string) => (value === "Bind" ? "Dial" : "Bind") },
    semantic: anyOf,
    identityRoles: roles,
    serviceRoles: roles,
    postureCheckRoles: roles,
  },
  ServiceEdgeRouterPolicy: {
    ...COMMON,
    semantic: anyOf,
    edgeRouterRoles: roles,
    serviceRoles: roles,
  },
};
