// A TypeScript program over the frontdoor plugin (pulumi-resource-frontdoor), through the Node.js SDK
// generated from schema.json (sdk/native/nodejs, npm package pulumi-frontdoor-native): the same
// program as examples/go-edge. Single sign-on on the frontdoor; on the OpenZiti network a user
// identity enrolled by one-time token, the app's service and the policy that lets staff dial it.
// Connection settings: frontdoor:apiUrl, frontdoor:frontdoorId, frontdoor:token (--secret),
// frontdoor:edgeUrl, frontdoor:edgeUsername, frontdoor:edgePassword (--secret), frontdoor:caBundle;
// the SSO client secret from `pulumi config set --secret ssoClientSecret ...`.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor-native";

const config = new pulumi.Config();
const prefix = config.get("namePrefix") ?? "ts-native";

// The OIDC settings typed by the SDK generated from schema.json (a misspelt field does not compile),
// as go-edge's frontdoor.OidcDataArgs.
const oidc: frontdoor.types.input.OidcDataArgs = {
  issuer: "https://login.example.com/realms/corp",
  client_id: "frontdoor",
  client_secret: config.requireSecret("ssoClientSecret"),
  scopes: ["openid", "email"],
};
const sso = new frontdoor.AuthProvider("corp-sso", { name: `${prefix}-sso`, type: "OIDC", data: oidc });

// A user identity (the default type).
const alice = new frontdoor.Identity("alice", {
  name: `${prefix}-alice`,
  roleAttributes: ["staff"],
  enrollment: { ott: true },
});

const app = new frontdoor.Service("app", {
  name: `${prefix}-app`,
  roleAttributes: ["apps"],
  encryptionRequired: true,
});

// Staff may dial the app: the service by id, the identities by attribute.
const dial = new frontdoor.ServicePolicy("app-dial", {
  name: `${prefix}-app-dial`,
  type: "Dial",
  identityRoles: ["#staff"],
  serviceRoles: [pulumi.interpolate`@${app.id}`],
});

// A function through the plugin's Invoke: the service looked up by its name.
const found = frontdoor.getServiceOutput({ name: app.name });

export const ssoId = sso.id;
export const aliceId = alice.id;
export const aliceEnrollmentJwt = alice.enrollmentJwt; // secret: the SDK marks it so
export const appId = app.id;
export const appFoundId = found.id;
export const dialId = dial.id;
