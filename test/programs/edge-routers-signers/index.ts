// Test program for test/edge-routers-harness.test.ts. Config:
//   mode: "full" sets every optional input (unsorted sets, maps, nested objects); "minimal" only the
//         required ones (server defaults, null versus empty).
//   prefix: names (several stacks share one mock server).
//   stage 2: an update of every resource, and the router re-enrolled (reEnrollmentTrigger bumped).
//   importIds (JSON {router, signer, policy, <typeId>...}): declare existing objects with the `import` option.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const full = config.require("mode") === "full";
const prefix = config.require("prefix");
const stage = config.getNumber("stage") ?? 1;
const importIds = config.getObject<Record<string, string>>("importIds");
const opts = (key: string): pulumi.CustomResourceOptions => (importIds ? { import: importIds[key] } : {});

const router = new frontdoor.EdgeRouter(
  "router",
  full
    ? {
        name: `${prefix}-router`,
        roleAttributes: ["west", "public"],
        isTunnelerEnabled: true,
        cost: stage === 1 ? 10 : 20,
        noTraversal: true,
        disabled: false,
        appData: { rack: "r1", managed: true },
        tags: { site: "berlin" },
        reEnrollmentTrigger: `rev-${stage}`,
      }
    : { name: `${prefix}-router`, ...(stage === 2 ? { cost: 1 } : {}) },
  opts("router"),
);

const signer = new frontdoor.ExternalJwtSigner(
  "signer",
  full
    ? {
        name: `${prefix}-signer`,
        issuer: `https://login.example.com/realms/${prefix}`,
        audience: "openziti",
        jwksEndpoint: `https://login.example.com/realms/${prefix}/certs`,
        claimsProperty: "email",
        useExternalId: true,
        enabled: stage === 1,
        externalAuthUrl: `https://login.example.com/realms/${prefix}`,
        clientId: "ziti-clients",
        scopes: ["openid", "email"],
        targetToken: "ID",
        tags: { owner: "iam" },
      }
    : {
        name: `${prefix}-signer`,
        issuer: `https://login.example.com/realms/${prefix}`,
        audience: stage === 1 ? "openziti" : "ziti",
        jwksEndpoint: `https://login.example.com/realms/${prefix}/certs`,
      },
  opts("signer"),
);

// Only JWTs of this signer may log in; the signer is referred to by its id.
const policy = new frontdoor.AuthPolicy(
  "policy",
  {
    name: `${prefix}-sso-only`,
    primary: { updb: { allowed: false }, extJwt: { allowed: true, allowedSigners: [signer.id] } },
    secondary: { requireTotp: stage === 2 },
  },
  opts("policy"),
);

// The type's own fields (name, roles and tags are added below).
const checks: Record<string, Record<string, unknown>> = {
  OS: {
    typeId: "OS",
    operatingSystems: full
      ? [
          { type: "Windows", versions: [">=10.0.19041"] },
          { type: "macOS", versions: [stage === 1 ? ">=13.0.0" : ">=14.0.0"] },
        ]
      : [{ type: "Linux" }],
  },
  DOMAIN: {
    typeId: "DOMAIN",
    domains: stage === 1 ? ["corp.example.com", "ad.example.com"] : ["corp.example.com"],
  },
  MAC: { typeId: "MAC", macAddresses: ["66:77:88:99:aa:bb", "00:11:22:33:44:55"] },
  PROCESS: {
    typeId: "PROCESS",
    process: full
      ? {
          osType: "Windows",
          path: "C:\\edr\\agent.exe",
          hashes: ["ab".repeat(64)],
          signerFingerprint: "cd".repeat(20),
        }
      : { osType: "Linux", path: stage === 1 ? "/opt/edr/agent" : "/opt/edr/agent2" },
  },
  PROCESS_MULTI: {
    typeId: "PROCESS_MULTI",
    ...(full ? { semantic: stage === 1 ? "AnyOf" : "AllOf" } : {}),
    processes: [
      {
        osType: "Linux",
        path: "/opt/edr/agent",
        ...(full ? { hashes: ["ef".repeat(64)], signerFingerprints: ["01".repeat(20)] } : {}),
      },
      { osType: "macOS", path: "/Applications/EDR.app/agent" },
    ],
  },
  MFA: full
    ? {
        typeId: "MFA",
        timeoutSeconds: stage === 1 ? 3600 : 600,
        promptOnWake: true,
        promptOnUnlock: true,
        ignoreLegacyEndpoints: true,
      }
    : { typeId: "MFA", ...(stage === 2 ? { promptOnWake: true } : {}) },
};
const postureChecks = Object.fromEntries(
  Object.entries(checks).map(([type, args]) => [
    type,
    new frontdoor.PostureCheck(
      `posture-${type.toLowerCase()}`,
      {
        name: `${prefix}-${type.toLowerCase()}`,
        ...(full ? { roleAttributes: ["workstations", "laptops"], tags: { t: type } } : {}),
        ...args,
      } as frontdoor.PostureCheckArgs,
      opts(type),
    ),
  ]),
);

export const ids = pulumi
  .all([router.id, signer.id, policy.id, ...Object.values(postureChecks).map((c) => c.id)])
  .apply(([router, signer, policy, ...checkIds]) => ({
    router,
    signer,
    policy,
    ...Object.fromEntries(Object.keys(postureChecks).map((type, i) => [type, checkIds[i]])),
  }));
export const routerJwt = router.enrollmentJwt;
export const routerVerified = router.isVerified;
