// ConfigType: the schema that configs of this type must satisfy (a JSON schema the controller
// enforces). `target` is set at creation only (the update shapes do not carry it): a change replaces
// the type. The built-in types (intercept.v1, host.v1, ...) are never listed for import: they exist
// on every controller and cannot be deleted.
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { edgeName } from "./common";
import { BUILT_IN_CONFIG_TYPES } from "./configData";
import { EdgeCollection, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { tags } from "./roles";

export const ConfigTypeInputs = z.strictObject({
  name: edgeName('Name of the config type (unique), e.g. "acme-proxy.v1".'),
  schema: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("JSON schema that the data of configs of this type must satisfy (default {}: anything)."),
  target: z
    .enum(["service", "router"])
    .default("service")
    .describe(
      'What configs of this type configure: "service" (default) or "router". A change replaces the type.',
    ),
  tags,
});
export type ConfigTypeInputs = z.output<typeof ConfigTypeInputs>;

const collection = new EdgeCollection("ConfigType", "config-types");

function body(inputs: ConfigTypeInputs): Props {
  return { name: inputs.name, schema: inputs.schema, tags: inputs.tags };
}

function outputs(server: EdgeObject, state: Props): Props {
  return {
    name: server.name,
    schema: tagsOf(server.schema),
    // Real controllers (v1.5.0, v1.6.0) take `target` at creation but never return it: what was
    // declared stands (a change of it replaces the type anyway).
    target: server.target ?? state.target ?? "service",
    tags: tagsOf(server.tags),
  };
}

const builtInIds = new Set(Object.values(BUILT_IN_CONFIG_TYPES));
const put = putOperations(collection, body, outputs);

export const configType = {
  kind: "ConfigType",
  api: "edge" as const,
  description:
    "An OpenZiti config type: a named JSON schema for service (or router) configs. The controller's built-in " +
    "types (intercept.v1, host.v1, host.v2, ...) need no declaration: refer to them by name from `Config`.",
  inputs: ConfigTypeInputs,
  outputs: z.object({}),
  replaceOnChanges: ["target"],
  deleteBeforeReplace: true,
  async create(ctx: ResourceContext, inputs: ConfigTypeInputs) {
    return collection.createAndRead(ctx, inputs, { ...body(inputs), target: inputs.target }, outputs);
  },
  // PUT (name required): name, schema and tags; the target cannot change.
  update: put.update,
  ...collectionOperations(collection, outputs),
  async list(ctx: ResourceContext, scope: Props) {
    return (await collection.listIds(ctx, scope)).filter((id) => !builtInIds.has(id));
  },
} satisfies ResourceDefinition<ConfigTypeInputs>;
