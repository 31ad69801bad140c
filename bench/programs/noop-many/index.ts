// `count` resources of a do-nothing dynamic provider named `<prefix>-<i>` (stack config): the same
// CLI, language host and dynamic-provider host as bench/programs/edge-many, with every provider call
// answered at once, so its times are the engine's own cost per step (the floor under ours).
// The provider is the package `bench-noop-provider` (noop-provider.js, installed into the program
// copy's node_modules by bench/floor.ts): serialized as a `require`, as pulumi-frontdoor's provider
// is, and reporting the outputs our provider stored for a service, which its class declares as output
// properties: the engine carries a state of the same shape as ours.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const prefix = config.require("prefix");

const noop: pulumi.dynamic.ResourceProvider & { outputs: Record<string, unknown> } =
  require("bench-noop-provider");

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string }) {
    // Output properties are registered for every key present in the props (as the project's classes do).
    const declared = Object.fromEntries(Object.keys(noop.outputs).map((k) => [k, undefined]));
    super(noop, name, { ...declared, ...args }, undefined, "noop", "Service");
  }
}

for (let i = 0; i < count; i++) {
  new Noop(`svc-${i}`, { name: `${prefix}-${i}` });
}

export const declared = count;
