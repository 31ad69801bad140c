// OpenZiti access as code: a company CA that the provider verifies itself, an auth policy, three
// identities enrolled three ways (one-time token, CA certificate, username/password), an edge
// router policy that lets them use every edge router, an edge router to enroll, a company SSO as
// external JWT signer (the only way contractors log in) and posture checks for devices.
// Connection settings: frontdoor:edgeUrl, frontdoor:edgeUsername, frontdoor:edgePassword (--secret)
// and, for a controller with its own CA, frontdoor:caBundle (or the ZITI_* environment variables).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";
import { selfSignedCaPem } from "./ca";

const config = new pulumi.Config();
const prefix = config.get("namePrefix") ?? "edge-access";

// The CA's key is generated once by the provider and kept (secret) in the state; the certificate is
// computed from it the same way on every run.
const caKey = new frontdoor.KeyPair("corp-ca-key", { commonName: `${prefix} CA` });
const caCertPem = pulumi.unsecret(caKey.privateKeyPem.apply((key) => selfSignedCaPem(key, `${prefix} CA`)));

// With privateKeyPem the provider verifies the CA right after creating it (CN = verificationToken).
const corpCa = new frontdoor.Ca("corp-ca", {
  name: `${prefix}-corp-ca`,
  certPem: caCertPem,
  privateKeyPem: caKey.privateKeyPem,
  isAuthEnabled: true,
  isOttCaEnrollmentEnabled: true,
  identityRoles: ["devices"],
});

// Passwords must be long and mixed; TOTP is required as second factor.
const employees = new frontdoor.AuthPolicy("employees", {
  name: `${prefix}-employees`,
  primary: {
    updb: {
      minPasswordLength: 12,
      requireMixedCase: true,
      requireNumberChar: true,
      maxAttempts: 5,
      lockoutDurationMinutes: 15,
    },
    extJwt: { allowed: false },
  },
  secondary: { requireTotp: true },
});

const laptop = new frontdoor.Identity("alice-laptop", {
  name: `${prefix}-alice-laptop`,
  type: "Device",
  roleAttributes: ["devices", "employees"],
  enrollment: { ott: true },
});

const alice = new frontdoor.Identity("alice", {
  name: `${prefix}-alice`,
  type: "User",
  authPolicyId: employees.id,
  roleAttributes: ["employees"],
  enrollment: { updb: `${prefix}-alice` },
});

// Enrolls with a certificate that the (verified) company CA signed.
const sensor = new frontdoor.Identity("sensor-1", {
  name: `${prefix}-sensor-1`,
  type: "Device",
  roleAttributes: ["devices"],
  enrollment: { ottca: corpCa.id },
});

const routers = new frontdoor.EdgeRouterPolicy("employees-and-devices", {
  name: `${prefix}-employees-and-devices`,
  semantic: "AnyOf",
  identityRoles: ["#employees", "#devices"],
  edgeRouterRoles: ["#all"],
});

// A branch-office edge router; hand its enrollment JWT to `ziti router enroll`. Bump
// reEnrollmentTrigger to issue a new one (e.g. it expired before the router was installed).
const branchRouter = new frontdoor.EdgeRouter("branch-router", {
  name: `${prefix}-branch-router`,
  roleAttributes: ["branch", "public"],
  isTunnelerEnabled: true,
  reEnrollmentTrigger: "1",
});

// Contractors log in only with a JWT of the company SSO, matched against their externalId.
const sso = new frontdoor.ExternalJwtSigner("corp-sso", {
  name: `${prefix}-corp-sso`,
  issuer: `https://login.example.com/realms/${prefix}`,
  audience: "openziti",
  jwksEndpoint: `https://login.example.com/realms/${prefix}/protocol/openid-connect/certs`,
  claimsProperty: "email",
  useExternalId: true,
  externalAuthUrl: `https://login.example.com/realms/${prefix}`,
  clientId: "openziti",
  scopes: ["openid", "email"],
});
const contractors = new frontdoor.AuthPolicy("contractors", {
  name: `${prefix}-contractors`,
  primary: {
    cert: { allowed: false },
    updb: { allowed: false },
    extJwt: { allowed: true, allowedSigners: [sso.id] },
  },
});
new frontdoor.Identity("bob", {
  name: `${prefix}-bob`,
  type: "User",
  authPolicyId: contractors.id,
  externalId: "bob@contractor.example",
  roleAttributes: ["contractors"],
});

// Posture checks for service policies to require (postureCheckRoles: ["#devices"]).
new frontdoor.PostureCheck("devices-os", {
  name: `${prefix}-devices-os`,
  typeId: "OS",
  roleAttributes: ["devices"],
  operatingSystems: [
    { type: "Windows", versions: [">=10.0.19041"] },
    { type: "macOS", versions: [">=13.0.0"] },
    { type: "Linux" },
  ],
});
new frontdoor.PostureCheck("devices-mfa", {
  name: `${prefix}-devices-mfa`,
  typeId: "MFA",
  roleAttributes: ["devices"],
  timeoutSeconds: 3600,
  promptOnWake: true,
});

export const caId = corpCa.id;
export const caVerified = corpCa.isVerified;
export const caFingerprint = corpCa.fingerprint;
export const authPolicyId = employees.id;
export const identityIds = { laptop: laptop.id, alice: alice.id, sensor: sensor.id };
// Secrets: hand them to the enrolling clients (`pulumi stack output --show-secrets laptopJwt`).
export const laptopJwt = laptop.enrollmentJwt;
export const aliceJwt = alice.enrollmentJwt;
export const sensorJwt = sensor.enrollmentJwt;
export const edgeRouterPolicyId = routers.id;
export const ssoSignerId = sso.id;
export const branchRouterJwt = branchRouter.enrollmentJwt; // secret
