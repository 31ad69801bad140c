// A resource definition for tests of the resource mechanism (check, diff): the given input schema, an
// API of none and CRUD functions that do nothing. A new object at every call: the diff caches its rules
// per definition object, and a mutation run repeats the tests in one process.
import { z } from "zod";
import type { ResourceDefinition } from "../../provider/resource";

export function testDefinition(
  kind: string,
  inputs: z.ZodType,
  extra: Partial<ResourceDefinition> = {},
): ResourceDefinition {
  return {
    kind,
    description: "a test resource",
    api: "none",
    inputs,
    outputs: z.object({}),
    create: async () => ({ id: "", outs: {} }),
    read: async () => undefined,
    update: async () => ({}),
    delete: async () => {},
    ...extra,
  } as ResourceDefinition;
}
