// `count` OpenZiti services named `<prefix>-<i>` (stack config), for the real-controller benchmark.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const prefix = config.require("prefix");

for (let i = 0; i < count; i++) {
  new frontdoor.Service(`svc-${i}`, { name: `${prefix}-${i}` });
}

export const declared = count;
