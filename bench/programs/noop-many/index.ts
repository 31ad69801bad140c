// `count` resources of a do-nothing dynamic provider named `<prefix>-<i>` (stack config): the same
// CLI, language host and dynamic-provider host as bench/programs/edge-many, with every provider call
// answered at once, so its times are the engine's own cost per step (the floor under ours).
// Config `outputs` (JSON, optional): outputs every resource reports beside its name, and declares as
// output properties, so its state has the shape of the project's (the floor benchmark passes a
// Service's outputs as our provider stored them): the engine then carries the same state per step.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const prefix = config.require("prefix");
const outputs: Record<string, unknown> = config.getObject("outputs") ?? {};

// Captures only `outputs`: the serialized provider is these functions' text and that object.
const noop: pulumi.dynamic.ResourceProvider = {
  check: async (_olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (inputs) => ({ id: inputs.name, outs: { ...outputs, ...inputs } }),
  read: async (id, props) => ({ id, props }),
  delete: async () => {},
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string }) {
    // Output properties are registered for every key present in the props (as the project's classes do).
    const declared = Object.fromEntries(Object.keys(outputs).map((k) => [k, undefined]));
    super(noop, name, { ...declared, ...args }, undefined, "noop", "Service");
  }
}

for (let i = 0; i < count; i++) {
  new Noop(`svc-${i}`, { name: `${prefix}-${i}` });
}

export const declared = count;
