// Test program for test/edge-harness.test.ts. Config:
//   stage 1: create; stage 2: update every kind and replace the CA (new certPem, same name).
//   importIds (JSON {identity, authPolicy, edgeRouterPolicy, ca}): declare existing objects with the
//   `import` resource option instead (their inputs must match what exists).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const stage = config.getNumber("stage") ?? 1;
const importIds = config.getObject<Record<string, string>>("importIds");
const prefix = config.get("prefix") ?? "lc";
const opts = (key: string): pulumi.CustomResourceOptions => (importIds ? { import: importIds[key] } : {});

const ca = new frontdoor.Ca(
  "ca",
  {
    name: `${prefix}-ca`,
    certPem: stage === 1 ? config.require("caCertPem") : config.require("caCertPem2"),
    privateKeyPem: stage === 1 ? config.requireSecret("caKeyPem") : config.requireSecret("caKeyPem2"),
    isOttCaEnrollmentEnabled: true,
    isAuthEnabled: stage === 2,
    identityRoles: ["devices"],
  },
  opts("ca"),
);

const policy = new frontdoor.AuthPolicy(
  "policy",
  {
    name: `${prefix}-policy`,
    primary: { updb: { minPasswordLength: stage === 1 ? 10 : 14 } },
    secondary: { requireTotp: stage === 2 },
  },
  opts("authPolicy"),
);

const user = new frontdoor.Identity(
  "user",
  {
    name: `${prefix}-user`,
    type: "User",
    authPolicyId: policy.id,
    roleAttributes: stage === 1 ? ["employees"] : ["employees", "admins"],
    ...(importIds ? {} : { enrollment: { updb: `${prefix}-user` } }),
  },
  opts("identity"),
);

const erp = new frontdoor.EdgeRouterPolicy(
  "erp",
  {
    name: `${prefix}-erp`,
    identityRoles: stage === 1 ? ["#employees", "#devices"] : ["#employees"],
    edgeRouterRoles: ["#all"],
  },
  opts("edgeRouterPolicy"),
);

export const caId = ca.id;
export const caVerified = ca.isVerified;
export const userId = user.id;
export const userType = user.type;
export const userJwt = user.enrollmentJwt;
export const policyId = policy.id;
export const erpId = erp.id;
