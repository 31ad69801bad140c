// OpenZiti access as code: a company CA that the provider verifies itself, an auth policy, three
// identities enrolled three ways (one-time token, CA certificate, username/password) and an edge
// router policy that lets them use every edge router.
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
