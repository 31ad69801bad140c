// Test program for test/access-preview.test.ts and test/real-access-preview.test.ts. Config:
//   stage 1: three identities, two services, an edge router, a posture check and the policies;
//   stage 2: a Dial policy for the #ops group, bob leaves #eng (roleAttributes), a new service
//            dialled by a new identity through `@<id>` roles (ids not known during the preview), and
//            db replaced (encryptionRequired), so the `@<id>` role that names it is unknown too;
//   stage 3: also a policy whose whole identity role list is computed from a new identity's id
//            (not known during the preview, and not tied to one role: unknown until applied).
// `ownerTag` (secret) goes into a policy's tags: it must never reach a report.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const stage = config.getNumber("stage") ?? 1;
const prefix = config.get("prefix") ?? "ap";
const n = (name: string) => `${prefix}-${name}`;

const identity = (name: string, roleAttributes: string[]) =>
  new frontdoor.Identity(name, { name: n(name), type: "Device", isAdmin: false, roleAttributes });

const alice = identity("alice", ["eng"]);
identity("bob", stage === 1 ? ["eng"] : []);
identity("carol", ["ops"]);
new frontdoor.Service("web", { name: n("web"), roleAttributes: ["web"] });
const db = new frontdoor.Service("db", {
  name: n("db"),
  roleAttributes: ["db"],
  encryptionRequired: stage === 1, // a change replaces the service: a new id
});
new frontdoor.EdgeRouter("router", { name: n("router"), roleAttributes: ["public"] });
new frontdoor.PostureCheck("mfa", { name: n("mfa"), typeId: "MFA", roleAttributes: ["mfa"] });

new frontdoor.ServicePolicy("eng-web", {
  name: n("eng-web"),
  type: "Dial",
  identityRoles: ["#eng"],
  serviceRoles: ["#web"],
  postureCheckRoles: ["#mfa"],
  tags: { owner: config.requireSecret("ownerTag") },
});
new frontdoor.ServicePolicy("alice-db", {
  name: n("alice-db"),
  type: "Bind",
  identityRoles: [pulumi.interpolate`@${alice.id}`],
  serviceRoles: [pulumi.interpolate`@${db.id}`],
});
new frontdoor.EdgeRouterPolicy("all-routers", {
  name: n("all-routers"),
  identityRoles: ["#all"],
  edgeRouterRoles: ["#public"],
});
new frontdoor.ServiceEdgeRouterPolicy("all-services", {
  name: n("all-services"),
  serviceRoles: ["#all"],
  edgeRouterRoles: ["#all"],
});

if (stage >= 2) {
  new frontdoor.ServicePolicy("ops-db", {
    name: n("ops-db"),
    type: "Dial",
    semantic: "AnyOf",
    identityRoles: ["#ops"],
    serviceRoles: ["#db"],
  });
  const reporter = identity("reporter", []);
  const reports = new frontdoor.Service("reports", { name: n("reports"), roleAttributes: [] });
  new frontdoor.ServicePolicy("reports-dial", {
    name: n("reports-dial"),
    type: "Dial",
    identityRoles: [pulumi.interpolate`@${reporter.id}`],
    serviceRoles: [pulumi.interpolate`@${reports.id}`],
  });
}

if (stage >= 3) {
  const auditor = identity("auditor", []);
  new frontdoor.ServicePolicy("audit-web", {
    name: n("audit-web"),
    type: "Dial",
    identityRoles: auditor.id.apply((id) => [`@${id}`]),
    serviceRoles: ["#web"],
  });
}
