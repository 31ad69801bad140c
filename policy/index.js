// The pulumi-frontdoor policy pack: `pulumi preview --policy-pack <this folder>` (after `npm ci` here).
// The rules are the package's own (bin/provider/policy, one folder up in the package and in a checkout
// after `npm run build`); this folder only adds @pulumi/policy, which runs them.
const { PolicyPack } = require("@pulumi/policy");
const { frontdoorPolicies } = require("../bin/provider/policy");

new PolicyPack("frontdoor", { policies: frontdoorPolicies() });
