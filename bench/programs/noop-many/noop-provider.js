// The do-nothing dynamic provider of the floor benchmark: every call answers at once. bench/floor.ts
// installs this file as the package `bench-noop-provider` in the program copy's node_modules, with
// outputs.json beside it (a service's outputs as our provider stored them). A provider object
// exported by an installed package is serialized by Pulumi as a `require` of that package, as
// pulumi-frontdoor's is: both __provider inputs are then a line, not a function's text.
const outputs = require("./outputs.json");

module.exports = {
  outputs,
  check: async (_olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (inputs) => ({ id: inputs.name, outs: { ...outputs, ...inputs } }),
  read: async (id, props) => ({ id, props }),
  delete: async () => {},
};
