// Test program for test/real-cluster.test.ts: `groups` (stack config) groups of four OpenZiti objects
// (an identity, a service, a Dial policy between them, a service edge router policy), named
// `<prefix>-<kind>-<i>`, so 50 groups are the suite's 200 objects. `tagged` (optional) tags every
// object with it (an update of all of them).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const groups = config.requireNumber("groups");
const prefix = config.require("prefix");
const tagged = config.get("tagged");
const tags = tagged ? { tags: { stage: tagged } } : {};

for (let i = 0; i < groups; i++) {
  const role = `${prefix}-g${i}`;
  new frontdoor.Identity(`id-${i}`, {
    name: `${prefix}-id-${i}`,
    type: "Device",
    roleAttributes: [role],
    ...tags,
  });
  new frontdoor.Service(`svc-${i}`, { name: `${prefix}-svc-${i}`, roleAttributes: [role], ...tags });
  new frontdoor.ServicePolicy(`dial-${i}`, {
    name: `${prefix}-dial-${i}`,
    type: "Dial",
    identityRoles: [`#${role}`],
    serviceRoles: [`#${role}`],
    ...tags,
  });
  new frontdoor.ServiceEdgeRouterPolicy(`serp-${i}`, {
    name: `${prefix}-serp-${i}`,
    serviceRoles: [`#${role}`],
    edgeRouterRoles: ["#all"],
    ...tags,
  });
}

export const declared = groups * 4;
