// Service: something identities may reach (dial) or host (bind) over the OpenZiti network, with the
// configs that tell tunnelers how (e.g. an intercept.v1 and a host.v1 config). `encryptionRequired`
// is set at creation only (the swagger calls it read-only), so a change replaces the service.
// Server defaults (terminatorStrategy "smartrouting", maxIdleTimeMillis 0) are declared defaults and
// always sent, so leaving them out is not drift and a PUT resets what was removed from the program.
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { Props, ResourceDefinition } from "../resource";
import { edgeName } from "./common";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { roleAttributes, tags } from "./roles";

export const ServiceInputs = z.strictObject({
  name: edgeName("Name of the service (unique)."),
  configs: z
    .array(z.string().min(1))
    .default([])
    .refine((list) => new Set(list).size === list.length, { message: "config ids must not repeat" })
    .describe("Ids of the service's configs, at most one per config type (a set)."),
  roleAttributes,
  encryptionRequired: z
    .boolean()
    .default(true)
    .describe(
      "Whether connections must be end-to-end encrypted (default true). Set at creation: a change replaces the service.",
    ),
  terminatorStrategy: z
    .string()
    .min(1)
    .default("smartrouting")
    .describe('How a terminator is picked: "smartrouting" (default), "weighted", "random" or "ha".'),
  maxIdleTimeMillis: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("Idle time after which circuits are closed, in milliseconds (default 0: never)."),
  tags,
});
export type ServiceInputs = z.output<typeof ServiceInputs>;

const collection = new EdgeCollection("Service", "services");

function body(inputs: ServiceInputs): Props {
  const { name, configs, roleAttributes, encryptionRequired, terminatorStrategy, maxIdleTimeMillis, tags } =
    inputs;
  return { name, configs, roleAttributes, encryptionRequired, terminatorStrategy, maxIdleTimeMillis, tags };
}

function outputs(server: EdgeObject): Props {
  return {
    name: server.name,
    configs: listOf(server.configs),
    roleAttributes: listOf(server.roleAttributes),
    encryptionRequired: server.encryptionRequired ?? true,
    terminatorStrategy: server.terminatorStrategy || "smartrouting",
    maxIdleTimeMillis: server.maxIdleTimeMillis ?? 0,
    tags: tagsOf(server.tags),
  };
}

export const service = {
  kind: "Service",
  api: "edge" as const,
  description:
    "An OpenZiti service: what identities dial (use) or bind (host), selected by policies through its " +
    "`roleAttributes`. `configs` lists its config ids (e.g. an intercept.v1 and a host.v1 `Config`). " +
    "`encryptionRequired` is fixed at creation: changing it replaces the service.",
  inputs: ServiceInputs,
  outputs: z.object({}),
  replaceOnChanges: ["encryptionRequired"],
  // Names are unique: the new service can only be created once the old one is gone.
  deleteBeforeReplace: true,
  setProperties: ["configs", "roleAttributes"],
  // PUT (name required): the whole declared state, so configs and attributes removed are removed.
  ...putOperations(collection, body, outputs),
  ...collectionOperations(collection, (server) => outputs(server)),
} satisfies ResourceDefinition<ServiceInputs>;
