// ServiceEdgeRouterPolicy: which edge routers may carry which services. Roles are sets (the
// controller sorts them); `semantic` is always sent (AllOf by default).
import { z } from "zod";
import type { ResourceDefinition } from "../resource";
import { edgeName } from "./common";
import { rolePolicy } from "./rolePolicy";
import { roles, semantic, tags } from "./roles";

export const ServiceEdgeRouterPolicyInputs = z.strictObject({
  name: edgeName("Name of the policy (unique)."),
  semantic,
  edgeRouterRoles: roles("Edge routers that may carry the services"),
  serviceRoles: roles("Services the policy applies to"),
  tags,
});
export type ServiceEdgeRouterPolicyInputs = z.output<typeof ServiceEdgeRouterPolicyInputs>;

const policy = rolePolicy({
  kind: "ServiceEdgeRouterPolicy",
  path: "service-edge-router-policies",
  roles: {
    edgeRouterRoles: "Edge router roles with the names they resolve to.",
    serviceRoles: "Service roles with the names they resolve to.",
  },
});

export const serviceEdgeRouterPolicy = {
  kind: "ServiceEdgeRouterPolicy",
  api: "edge" as const,
  description:
    "An OpenZiti service edge router policy: the services selected by `serviceRoles` may be carried by the " +
    "edge routers selected by `edgeRouterRoles`. Roles are `#attribute`, `@id` or `#all` alone; their order " +
    "does not matter.",
  inputs: ServiceEdgeRouterPolicyInputs,
  outputs: z.object(policy.displays),
  // PUT (name and semantic required).
  ...policy.definition,
} satisfies ResourceDefinition<ServiceEdgeRouterPolicyInputs>;
