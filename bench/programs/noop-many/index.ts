// `count` resources of a do-nothing dynamic provider named `<prefix>-<i>` (stack config): the same
// CLI, language host and dynamic-provider host as bench/programs/edge-many, with every provider call
// answered at once, so its times are the engine's own cost per step (the floor under ours).
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const prefix = config.require("prefix");

// Captures nothing: the serialized provider is these functions' text alone.
const noop: pulumi.dynamic.ResourceProvider = {
  check: async (_olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (inputs) => ({ id: inputs.name, outs: inputs }),
  read: async (id, props) => ({ id, props }),
  delete: async () => {},
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string }) {
    super(noop, name, args, undefined, "noop", "Service");
  }
}

for (let i = 0; i < count; i++) {
  new Noop(`svc-${i}`, { name: `${prefix}-${i}` });
}

export const declared = count;
