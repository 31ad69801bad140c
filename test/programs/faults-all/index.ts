// Test program for test/faults.test.ts and test/kill.test.ts: `counts` (JSON, per kind) resources of every kind, named
// `<prefix>-<kind>-<i>`, so the test can compare what the mock holds with what was declared.
// CAs: config `caCerts` (JSON array of PEM CA certificates) and secret config `caKey<i>` (their keys).
// Client certificates beyond the number of key pairs upload config `uploadCertPem`.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const prefix = config.get("prefix") ?? "flt";
const counts = config.requireObject<Record<string, number>>("counts");
const caCerts = config.getObject<string[]>("caCerts") ?? [];
const n = (kind: string) => counts[kind] ?? 0;
const range = (kind: string) => [...Array(n(kind)).keys()];

const policies = range("AuthPolicy").map(
  (i) =>
    new frontdoor.AuthPolicy(`policy-${i}`, {
      name: `${prefix}-policy-${i}`,
      primary: { updb: { minPasswordLength: 8 + (i % 5) } },
      secondary: { requireTotp: i % 2 === 0 },
    }),
);

range("Identity").map(
  (i) =>
    new frontdoor.Identity(`identity-${i}`, {
      name: `${prefix}-identity-${i}`,
      type: i % 3 === 0 ? "Device" : "User",
      roleAttributes: [`group-${i % 4}`],
      ...(policies.length ? { authPolicyId: policies[i % policies.length].id } : {}),
      ...(i % 2 === 0 ? { enrollment: { ott: true as const } } : {}),
    }),
);

range("EdgeRouterPolicy").map(
  (i) =>
    new frontdoor.EdgeRouterPolicy(`erp-${i}`, {
      name: `${prefix}-erp-${i}`,
      identityRoles: [`#group-${i % 4}`],
      edgeRouterRoles: ["#all"],
    }),
);

range("Ca").map(
  (i) =>
    new frontdoor.Ca(`ca-${i}`, {
      name: `${prefix}-ca-${i}`,
      certPem: caCerts[i],
      privateKeyPem: config.requireSecret(`caKey${i}`),
      isAuthEnabled: true,
    }),
);

const providers = range("AuthProvider").map(
  (i) =>
    new frontdoor.AuthProvider(
      `auth-${i}`,
      i % 2 === 0
        ? {
            name: `${prefix}-auth-${i}`,
            type: "OIDC",
            data: {
              issuer: `https://login.example.com/realms/r${i}`,
              client_id: `client-${i}`,
              client_secret: pulumi.secret(`client-secret-${i}`),
            },
          }
        : {
            name: `${prefix}-auth-${i}`,
            type: "API_KEY",
            data: { header_name: "x-api-key", api_key: pulumi.secret(`api-key-0123456789-${i}`) },
          },
    ),
);

range("CustomFrontend").map(
  (i) =>
    new frontdoor.CustomFrontend(`frontend-${i}`, {
      hostname: `${prefix}-${i}.apps.example.com`,
      authProviderIds: providers.length ? [providers[i % providers.length].id] : [],
    }),
);

const keys = range("KeyPair").map(
  (i) => new frontdoor.KeyPair(`key-${i}`, { commonName: `${prefix}-device-${i}.example.com` }),
);

range("ClientCertificate").map(
  (i) =>
    new frontdoor.ClientCertificate(`cert-${i}`, {
      name: `${prefix}-cert-${i}`,
      // The first ones are issued from the key pairs' CSRs, the others upload `uploadCertPem`.
      value: i < keys.length ? keys[i].csrPem : config.require("uploadCertPem"),
    }),
);

range("CertificateRequestToken").map(
  (i) =>
    new frontdoor.CertificateRequestToken(`crt-${i}`, {
      name: `${prefix}-crt-${i}`,
      commonName: `${prefix}-field-${i}.example.com`,
    }),
);

// The service-side Edge kinds (test/kill.test.ts declares them; counts absent mean none).
range("EdgeRouter").map(
  (i) =>
    new frontdoor.EdgeRouter(`router-${i}`, {
      name: `${prefix}-router-${i}`,
      roleAttributes: [`zone-${i % 3}`],
    }),
);

range("ExternalJwtSigner").map(
  (i) =>
    new frontdoor.ExternalJwtSigner(`signer-${i}`, {
      name: `${prefix}-signer-${i}`,
      issuer: `https://login.example.com/realms/${prefix}-${i}`,
      audience: "openziti",
      jwksEndpoint: `https://login.example.com/realms/${prefix}-${i}/certs`,
    }),
);

range("PostureCheck").map(
  (i) =>
    new frontdoor.PostureCheck(`posture-${i}`, {
      name: `${prefix}-posture-${i}`,
      typeId: "MFA",
      roleAttributes: [`group-${i % 4}`],
    }),
);

range("ConfigType").map(
  (i) => new frontdoor.ConfigType(`type-${i}`, { name: `${prefix}-type-${i}.v1`, target: "service" }),
);

const configs = range("Config").map(
  (i) =>
    new frontdoor.Config(`config-${i}`, {
      name: `${prefix}-config-${i}`,
      configTypeName: "intercept.v1",
      data: { protocols: ["tcp"], addresses: [`app-${i}.ziti`], portRanges: [{ low: 443, high: 443 }] },
    }),
);

range("Service").map(
  (i) =>
    new frontdoor.Service(`service-${i}`, {
      name: `${prefix}-service-${i}`,
      roleAttributes: [`app-${i % 3}`],
      ...(configs.length ? { configs: [configs[i % configs.length].id] } : {}),
    }),
);

range("ServicePolicy").map(
  (i) =>
    new frontdoor.ServicePolicy(`service-policy-${i}`, {
      name: `${prefix}-service-policy-${i}`,
      type: i % 2 === 0 ? "Dial" : "Bind",
      identityRoles: [`#group-${i % 4}`],
      serviceRoles: [`#app-${i % 3}`],
    }),
);

range("ServiceEdgeRouterPolicy").map(
  (i) =>
    new frontdoor.ServiceEdgeRouterPolicy(`serp-${i}`, {
      name: `${prefix}-serp-${i}`,
      serviceRoles: [`#app-${i % 3}`],
      edgeRouterRoles: [`#zone-${i % 3}`],
    }),
);

export const declared = Object.fromEntries(Object.keys(counts).map((k) => [k, n(k)]));
