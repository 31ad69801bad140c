// ServiceEdgeRouterPolicy: which edge routers may carry which services. Roles are sets (the
// controller sorts them); `semantic` is always sent (AllOf by default).
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { Props, ResourceDefinition } from "../resource";
import { edgeName } from "./common";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { displayOf, RoleDisplay, roles, semantic, tags } from "./roles";

export const ServiceEdgeRouterPolicyInputs = z.strictObject({
  name: edgeName("Name of the policy (unique)."),
  semantic,
  edgeRouterRoles: roles("Edge routers that may carry the services"),
  serviceRoles: roles("Services the policy applies to"),
  tags,
});
export type ServiceEdgeRouterPolicyInputs = z.output<typeof ServiceEdgeRouterPolicyInputs>;

const collection = new EdgeCollection("ServiceEdgeRouterPolicy", "service-edge-router-policies");

function body(inputs: ServiceEdgeRouterPolicyInputs): Props {
  const { name, semantic, edgeRouterRoles, serviceRoles, tags } = inputs;
  return { name, semantic, edgeRouterRoles, serviceRoles, tags };
}

function outputs(server: EdgeObject): Props {
  return {
    name: server.name,
    semantic: server.semantic ?? "AllOf",
    edgeRouterRoles: listOf(server.edgeRouterRoles),
    serviceRoles: listOf(server.serviceRoles),
    tags: tagsOf(server.tags),
    edgeRouterRolesDisplay: displayOf(server.edgeRouterRolesDisplay),
    serviceRolesDisplay: displayOf(server.serviceRolesDisplay),
  };
}

export const serviceEdgeRouterPolicy = {
  kind: "ServiceEdgeRouterPolicy",
  api: "edge" as const,
  description:
    "An OpenZiti service edge router policy: the services selected by `serviceRoles` may be carried by the " +
    "edge routers selected by `edgeRouterRoles`. Roles are `#attribute`, `@id` or `#all` alone; their order " +
    "does not matter.",
  inputs: ServiceEdgeRouterPolicyInputs,
  outputs: z.object({
    edgeRouterRolesDisplay: RoleDisplay.describe("Edge router roles with the names they resolve to."),
    serviceRolesDisplay: RoleDisplay.describe("Service roles with the names they resolve to."),
  }),
  setProperties: ["edgeRouterRoles", "serviceRoles"],
  // PUT (name and semantic required): the whole declared state, so roles removed are removed.
  ...putOperations(collection, body, outputs),
  ...collectionOperations(collection, (server) => outputs(server)),
} satisfies ResourceDefinition<ServiceEdgeRouterPolicyInputs>;
