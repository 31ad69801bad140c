// EdgeRouterPolicy: which identities may use which edge routers. Roles are sets (the controller
// sorts them); `semantic` is always sent (AllOf by default), so the server never picks it.
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { Props, ResourceDefinition } from "../resource";
import { edgeName } from "./common";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { displayOf, RoleDisplay, roles, semantic, tags } from "./roles";

export const EdgeRouterPolicyInputs = z.strictObject({
  name: edgeName("Name of the policy (unique)."),
  semantic,
  edgeRouterRoles: roles("Edge routers the policy grants"),
  identityRoles: roles("Identities the policy applies to"),
  tags,
});
export type EdgeRouterPolicyInputs = z.output<typeof EdgeRouterPolicyInputs>;

const collection = new EdgeCollection("EdgeRouterPolicy", "edge-router-policies");

function body(inputs: EdgeRouterPolicyInputs): Props {
  const { name, semantic, edgeRouterRoles, identityRoles, tags } = inputs;
  return { name, semantic, edgeRouterRoles, identityRoles, tags };
}

function outputs(server: EdgeObject): Props {
  return {
    name: server.name,
    semantic: server.semantic ?? "AllOf",
    edgeRouterRoles: listOf(server.edgeRouterRoles),
    identityRoles: listOf(server.identityRoles),
    tags: tagsOf(server.tags),
    edgeRouterRolesDisplay: displayOf(server.edgeRouterRolesDisplay),
    identityRolesDisplay: displayOf(server.identityRolesDisplay),
    isSystem: server.isSystem ?? false,
  };
}

export const edgeRouterPolicy = {
  kind: "EdgeRouterPolicy",
  api: "edge" as const,
  description:
    "An OpenZiti edge router policy: the identities selected by `identityRoles` may connect to the edge routers " +
    "selected by `edgeRouterRoles`. Roles are `#attribute`, `@id` or `#all` alone; their order does not matter.",
  inputs: EdgeRouterPolicyInputs,
  outputs: z.object({
    edgeRouterRolesDisplay: RoleDisplay.describe("Edge router roles with the names they resolve to."),
    identityRolesDisplay: RoleDisplay.describe("Identity roles with the names they resolve to."),
    isSystem: z.boolean().describe("Whether the controller manages this policy itself."),
  }),
  setProperties: ["edgeRouterRoles", "identityRoles"],
  // PUT (name and semantic required): the whole declared state, so roles removed are removed.
  ...putOperations(collection, body, outputs),
  ...collectionOperations(collection, (server) => outputs(server)),
} satisfies ResourceDefinition<EdgeRouterPolicyInputs>;
