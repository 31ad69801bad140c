// Test program for test/readable-drift.test.ts: an OIDC auth provider (a secret leaf inside `data`)
// and an auth policy (nested settings), whose out-of-band changes must show leaf by leaf.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();

const sso = new frontdoor.AuthProvider("sso", {
  name: "readable-sso",
  type: "OIDC",
  data: {
    issuer: "https://login.example.com/realms/corp",
    client_id: "frontdoor",
    client_secret: config.requireSecret("ssoClientSecret"),
  },
});

const policy = new frontdoor.AuthPolicy("policy", {
  name: "readable-policy",
  primary: { updb: { allowed: true, maxAttempts: 3 } },
});

export const ssoId = sso.id;
export const policyId = policy.id;
