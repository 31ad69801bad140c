// "Group X may reach app Y" as code: the app is a service that clients reach at app.ziti:443
// (intercept.v1) and that a hosting identity forwards to 127.0.0.1:8443 (host.v1). The hosting
// identity may bind it; every identity with the role attribute `app-users` may dial it; the router
// policies let both sides use the edge routers.
// Connection settings: frontdoor:edgeUrl, frontdoor:edgeUsername, frontdoor:edgePassword (--secret)
// and, for a controller with its own CA, frontdoor:caBundle (or the ZITI_* environment variables).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const prefix = config.get("namePrefix") ?? "zt";
const appAddress = config.get("appAddress") ?? "app.ziti";
const appPort = config.getNumber("appPort") ?? 443;

// Clients intercept app.ziti:443 (tcp); the host forwards to the app on its own loopback.
const intercept = new frontdoor.Config("app-intercept", {
  name: `${prefix}-app-intercept`,
  configTypeName: "intercept.v1",
  data: {
    protocols: ["tcp"],
    addresses: [appAddress],
    portRanges: [{ low: appPort, high: appPort }],
  } satisfies frontdoor.InterceptV1Data,
});

const host = new frontdoor.Config("app-host", {
  name: `${prefix}-app-host`,
  configTypeName: "host.v1",
  data: { protocol: "tcp", address: "127.0.0.1", port: 8443 } satisfies frontdoor.HostV1Data,
});

const app = new frontdoor.Service("app", {
  name: `${prefix}-app`,
  configs: [intercept.id, host.id],
  roleAttributes: ["app"],
});

// The server side: a service identity next to the app, enrolled with a one-time token.
const appHost = new frontdoor.Identity("app-server", {
  name: `${prefix}-app-server`,
  type: "Service",
  roleAttributes: ["app-hosts"],
  enrollment: { ott: true },
});

// The group: everyone with the attribute app-users (here one member, enrolled with a one-time token).
const alice = new frontdoor.Identity("alice", {
  name: `${prefix}-alice`,
  type: "User",
  roleAttributes: ["app-users"],
  enrollment: { ott: true },
});

const bind = new frontdoor.ServicePolicy("app-bind", {
  name: `${prefix}-app-bind`,
  type: "Bind",
  identityRoles: [pulumi.interpolate`@${appHost.id}`],
  serviceRoles: ["#app"],
});

const dial = new frontdoor.ServicePolicy("app-dial", {
  name: `${prefix}-app-dial`,
  type: "Dial",
  identityRoles: ["#app-users"],
  serviceRoles: ["#app"],
});

// Both sides may use every edge router, and every edge router may carry the app.
const routers = new frontdoor.EdgeRouterPolicy("app-routers", {
  name: `${prefix}-app-routers`,
  semantic: "AnyOf",
  identityRoles: ["#app-users", "#app-hosts"],
  edgeRouterRoles: ["#all"],
});

const serviceRouters = new frontdoor.ServiceEdgeRouterPolicy("app-service-routers", {
  name: `${prefix}-app-service-routers`,
  serviceRoles: ["#app"],
  edgeRouterRoles: ["#all"],
});

export const serviceId = app.id;
export const configIds = { intercept: intercept.id, host: host.id };
export const policyIds = {
  bind: bind.id,
  dial: dial.id,
  edgeRouter: routers.id,
  serviceEdgeRouter: serviceRouters.id,
};
export const identityIds = { appHost: appHost.id, alice: alice.id };
// Secrets: hand them to the enrolling tunnelers (`pulumi stack output --show-secrets aliceJwt`).
export const appHostJwt = appHost.enrollmentJwt;
export const aliceJwt = alice.enrollmentJwt;
