// Test program for the access proofs (test/access-proof.test.ts on the mock, test/real-access-proof.test.ts
// on a real controller): "the group proof-users may dial proof-app". Config: prefix (names).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const prefix = new pulumi.Config().require("prefix");

const app = new frontdoor.Service("app", { name: `${prefix}-app`, roleAttributes: ["proof-app"] });

// One identity in the group, one outside it; both enroll with a one-time token. The member's
// enrollment is re-issued by `up` should it lapse before the device enrolled.
const member = new frontdoor.Identity("member", {
  name: `${prefix}-member`,
  roleAttributes: ["proof-users"],
  enrollment: { ott: true },
  reissueExpiredEnrollment: true,
});
const outsider = new frontdoor.Identity("outsider", {
  name: `${prefix}-outsider`,
  roleAttributes: ["proof-guests"],
  enrollment: { ott: true },
});

const dial = new frontdoor.ServicePolicy("dial", {
  name: `${prefix}-dial`,
  type: "Dial",
  identityRoles: ["#proof-users"],
  serviceRoles: ["#proof-app"],
});

const routers = new frontdoor.EdgeRouterPolicy("routers", {
  name: `${prefix}-routers`,
  identityRoles: ["#proof-users", "#proof-guests"],
  edgeRouterRoles: ["#all"],
});

const serviceRouters = new frontdoor.ServiceEdgeRouterPolicy("service-routers", {
  name: `${prefix}-service-routers`,
  serviceRoles: ["#proof-app"],
  edgeRouterRoles: ["#all"],
});

export const ids = {
  service: app.id,
  member: member.id,
  outsider: outsider.id,
  dial: dial.id,
  routers: routers.id,
  serviceRouters: serviceRouters.id,
};
export const memberJwt = member.enrollmentJwt;
export const outsiderJwt = outsider.enrollmentJwt;
