// Test program for test/real-cli-get.test.ts: an identity and an auth provider made outside this program,
// read into it with the static `get` of their resource classes (Pulumi's Resource.get: read, never
// created, updated or deleted), and `isInstance` on them. Config: identityId, authProviderId.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const existing = frontdoor.Identity.get("existing", config.require("identityId"));
// A Frontdoor kind: a plain id is within the frontdoor of `frontdoor:frontdoorId`.
const sso = frontdoor.AuthProvider.get("existing-sso", config.require("authProviderId"));

// Used as an input like any resource's output.
const dial = new frontdoor.ServicePolicy("dial", {
  name: "get-dial",
  type: "Dial",
  identityRoles: [pulumi.interpolate`@${existing.id}`],
  serviceRoles: ["#apps"],
});

export const identityName = existing.name;
export const identityRoles = existing.roleAttributes;
export const ssoName = sso.name;
export const ssoIssuer = sso.data.apply((data) => (data as { issuer?: string }).issuer);
export const existingIsIdentity = frontdoor.Identity.isInstance(existing);
export const existingIsCa = frontdoor.Ca.isInstance(existing);
export const dialIsIdentity = frontdoor.Identity.isInstance(dial);
export const dialRoles = dial.identityRoles;
