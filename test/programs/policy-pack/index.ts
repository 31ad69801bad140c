// Test program for test/policy-pack.test.ts (the dynamic provider): one violation of every rule of
// the policy pack (policy/), and with config `fixed: true` the same stack fixed. Config: prefix,
// caCertPem (a CA), longCertPem and shortCertPem (client certificates valid 800 and 90 days),
// apiKey (secret).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const fixed = config.getBoolean("fixed") ?? false;
const prefix = config.get("prefix") ?? "pp";
const n = (name: string) => `${prefix}-${name}`;

// ---- Frontdoor ----
const sso = new frontdoor.AuthProvider("partner-key", {
  name: n("partner-key"),
  type: "API_KEY",
  data: { header_name: "x-api-key", api_key: config.requireSecret("apiKey") },
});
// frontdoor-custom-frontend-auth
new frontdoor.CustomFrontend("portal", {
  hostname: `${prefix}.apps.example.com`,
  authProviderIds: fixed ? [sso.id] : [],
});
// frontdoor-client-certificate-validity
new frontdoor.ClientCertificate("device-cert", {
  name: n("device-cert"),
  value: config.require(fixed ? "shortCertPem" : "longCertPem"),
});
// frontdoor-request-token-validity (the stack's state: the token's expiry is known once it exists)
if (!fixed) new frontdoor.CertificateRequestToken("enroll-token", { name: n("enroll-token") });

// ---- OpenZiti ----
new frontdoor.PostureCheck("mfa", { name: n("mfa"), typeId: "MFA", roleAttributes: ["mfa"] });
// frontdoor-jwt-signer-https
new frontdoor.ExternalJwtSigner("idp", {
  name: n("idp"),
  issuer: `https://idp.example.com/${prefix}`,
  audience: "openziti",
  jwksEndpoint: `${fixed ? "https" : "http"}://idp.example.com/jwks`,
});
// frontdoor-admin-second-factor, frontdoor-admin-no-password (the stack declares JWT and CA login)
const adminLogin = new frontdoor.AuthPolicy("admin-login", {
  name: n("admin-login"),
  primary: { updb: { allowed: !fixed } },
  secondary: { requireTotp: fixed },
});
new frontdoor.Identity("root-admin", {
  name: n("root-admin"),
  isAdmin: true,
  authPolicyId: adminLogin.id,
  enrollment: fixed ? { ott: true } : { updb: n("root-admin") },
});
// frontdoor-enrollment-expiry
new frontdoor.Identity("alice", {
  name: n("alice"),
  roleAttributes: ["eng"],
  enrollment: { ott: true },
  reissueExpiredEnrollment: !fixed,
});
// frontdoor-ca-auto-enrollment
new frontdoor.Ca("branch-ca", {
  name: n("branch-ca"),
  certPem: config.require("caCertPem"),
  isAuthEnabled: true,
  isAutoCaEnrollmentEnabled: true,
  identityRoles: fixed ? ["branch"] : ["branch", "admin"],
});
const payroll = new frontdoor.Service("payroll", { name: n("payroll"), roleAttributes: ["sensitive"] });
new frontdoor.Service("wiki", { name: n("wiki"), roleAttributes: ["wiki"] });
// frontdoor-sensitive-service-posture: by the service's id (known once it exists)
new frontdoor.ServicePolicy("payroll-dial", {
  name: n("payroll-dial"),
  type: "Dial",
  identityRoles: ["#eng"],
  serviceRoles: [pulumi.interpolate`@${payroll.id}`],
  postureCheckRoles: fixed ? ["#mfa"] : [],
});
// frontdoor-policy-roles-match
new frontdoor.ServicePolicy("wiki-dial", {
  name: n("wiki-dial"),
  type: "Dial",
  identityRoles: [fixed ? "#eng" : "#contractors"],
  serviceRoles: ["#wiki"],
});
// frontdoor-no-all-to-all-service-policy
new frontdoor.ServicePolicy("everyone", {
  name: n("everyone"),
  type: "Bind",
  identityRoles: fixed ? ["#branch"] : ["#all"],
  serviceRoles: fixed ? ["#wiki"] : ["#all"],
});
