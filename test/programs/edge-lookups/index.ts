// Test program for test/lookups-harness.test.ts: objects that exist outside this program (the
// controller's `default` auth policy, a service made with raw API calls) looked up and used as inputs.
// Config: consoleService (name of the outside service), prefix.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const prefix = config.get("prefix") ?? "lkp";

const byDefault = frontdoor.getAuthPolicyOutput({ id: "default" });
const outside = frontdoor.getServiceOutput({ name: config.require("consoleService") });

const user = new frontdoor.Identity("user", {
  name: `${prefix}-user`,
  authPolicyId: byDefault.id,
  roleAttributes: [`${prefix}-users`],
  enrollment: { ott: true },
});

new frontdoor.ServicePolicy("dial", {
  name: `${prefix}-dial`,
  type: "Dial",
  identityRoles: [pulumi.interpolate`@${user.id}`],
  serviceRoles: [pulumi.interpolate`@${outside.id}`],
});

// A filter list (every page), one that matches nothing, and the plain promise form.
const fromConsole = frontdoor.getServicesOutput({ filter: 'anyOf(roleAttributes) = "from-console"' });
const nobody = frontdoor.getIdentitiesOutput({ filter: 'name = "lkp-nobody-has-this-name"' });
export const interceptTypeId = frontdoor.getConfigType({ name: "intercept.v1" }).then((t) => t.id);

// Looked up by id once it exists: it has a pending enrollment, so the whole result is secret.
const again = frontdoor.getIdentityOutput({ id: user.id });

export const defaultPolicyName = byDefault.name;
export const outsideServiceId = outside.id;
export const fromConsoleNames = fromConsole.items.apply((items) => items.map((s) => s.name).sort());
export const nobodyCount = nobody.items.apply((items) => items.length);
export const userId = user.id;
export const lookedUpJwt = again.enrollmentJwt;
export const lookedUpPolicy = again.authPolicyName;
