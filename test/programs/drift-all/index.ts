// Test program for test/drift.test.ts: one of every resource kind. Config:
//   mode: "full" sets every optional input (unsorted sets, maps, nested objects, secrets);
//         "minimal" sets only the required ones (server defaults, null versus empty).
//   prefix: names and hostnames (so several stacks can share one mock server).
//   caCertPem, caKeyPem (secret), ssoClientSecret (secret), partnerApiKey (secret);
//   signerA, signerB: external JWT signer ids for the full auth policy;
//   service1, service2: service ids for the full identity's hosting costs and precedences.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const full = config.require("mode") === "full";
const prefix = config.require("prefix");
// Ids of two external JWT signers (a real controller refuses ids of signers it does not have).
const signerA = config.get("signerA") ?? "signer-a";
const signerB = config.get("signerB") ?? "signer-b";
// Ids of two services for the identity's hosting costs (a real controller refuses unknown ones).
const service1 = config.get("service1") ?? "svc-1";
const service2 = config.get("service2") ?? "svc-2";

const sso = new frontdoor.AuthProvider("sso", {
  name: `${prefix}-sso`,
  type: "OIDC",
  ...(full ? { enabled: false } : {}),
  data: {
    issuer: "https://login.example.com/realms/corp",
    client_id: "frontdoor",
    client_secret: config.requireSecret("ssoClientSecret"),
    ...(full ? { scopes: ["openid", "profile", "email"], supports_pkce: true } : {}),
  },
});

const partner = new frontdoor.AuthProvider("partner", {
  name: `${prefix}-partner`,
  type: "API_KEY",
  ...(full ? { enabled: true } : {}),
  data: { header_name: "x-api-key", api_key: config.requireSecret("partnerApiKey") },
});

const key = new frontdoor.KeyPair(
  "key",
  full
    ? { commonName: `${prefix}-device`, organization: "Acme", organizationalUnit: "Devices", keySize: 2048 }
    : { commonName: `${prefix}-device` },
);

const cert = new frontdoor.ClientCertificate("cert", { name: `${prefix}-cert`, value: key.csrPem });

const token = new frontdoor.CertificateRequestToken(
  "token",
  full
    ? {
        name: `${prefix}-token`,
        commonName: "field-device",
        organization: "Acme",
        organizationalUnit: "Field",
      }
    : { name: `${prefix}-token` },
);

const frontend = new frontdoor.CustomFrontend(
  "frontend",
  full
    ? {
        hostname: `${prefix}.apps.example.com`,
        authProviderIds: [partner.id, sso.id],
        frontendId: `fe-${prefix}`,
        waitForActive: false,
        readyTimeoutSeconds: 30,
      }
    : { hostname: `${prefix}.apps.example.com` },
);

const policy = new frontdoor.AuthPolicy(
  "policy",
  full
    ? {
        name: `${prefix}-policy`,
        primary: {
          cert: { allowed: false, allowExpiredCerts: false },
          extJwt: { allowed: true, allowedSigners: [signerB, signerA] },
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
        secondary: { requireTotp: true, requireExtJwtSigner: signerA },
        tags: { team: "security", audited: true },
      }
    : { name: `${prefix}-policy` },
);

const user = new frontdoor.Identity(
  "user",
  full
    ? {
        name: `${prefix}-user`,
        type: "Device",
        isAdmin: true,
        authPolicyId: policy.id,
        externalId: `${prefix}-external`,
        roleAttributes: ["sales", "employees"],
        defaultHostingCost: 5,
        defaultHostingPrecedence: "required",
        serviceHostingCosts: { [service1]: 3, [service2]: 7 },
        serviceHostingPrecedences: { [service1]: "failed" },
        appData: { owner: "it", managed: true },
        tags: { site: "berlin" },
        permissions: ["identity.read", "ca.read"],
        enrollment: { ott: true },
      }
    : { name: `${prefix}-user` },
);

const erp = new frontdoor.EdgeRouterPolicy(
  "erp",
  full
    ? {
        name: `${prefix}-erp`,
        semantic: "AnyOf",
        identityRoles: ["#sales", "#employees", pulumi.interpolate`@${user.id}`],
        edgeRouterRoles: ["#west", "#east"],
        tags: { tier: "1" },
      }
    : { name: `${prefix}-erp` },
);

const ca = new frontdoor.Ca(
  "ca",
  full
    ? {
        name: `${prefix}-ca`,
        certPem: config.require("caCertPem"),
        privateKeyPem: config.requireSecret("caKeyPem"),
        isAuthEnabled: true,
        isAutoCaEnrollmentEnabled: true,
        isOttCaEnrollmentEnabled: true,
        identityRoles: ["devices", "branch"],
        identityNameFormat: "[caName]-[commonName]",
        externalIdClaim: {
          location: "SAN_URI",
          matcher: "SCHEME",
          matcherCriteria: "spiffe",
          parser: "SPLIT",
          parserCriteria: "/",
          index: 1,
        },
        tags: { issuer: "acme" },
      }
    : { name: `${prefix}-ca`, certPem: config.require("caCertPem") },
);

export const ids = pulumi
  .all([sso.id, partner.id, key.id, cert.id, token.id, frontend.id, policy.id, user.id, erp.id, ca.id])
  .apply(([sso, partner, key, cert, token, frontend, policy, user, erp, ca]) => ({
    sso,
    partner,
    key,
    cert,
    token,
    frontend,
    policy,
    user,
    erp,
    ca,
  }));
export const frontendStatus = frontend.status;
export const caVerified = ca.isVerified;
export const userJwt = user.enrollmentJwt;
