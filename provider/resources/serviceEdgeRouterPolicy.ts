// ServiceEdgeRouterPolicy: which edge routers may carry which services. Roles are sets (the
// controller sorts them); `semantic` is always sent (AllOf by default).
import { z } from "zod";
import type { ResourceDefinition } from "../resource";
import { rolePolicy } from "./rolePolicy";

const policy = rolePolicy({
  kind: "ServiceEdgeRouterPolicy",
  path: "service-edge-router-policies",
  roles: {
    edgeRouterRoles: {
      selects: "Edge routers that may carry the services",
      display: "Edge router roles with the names they resolve to.",
    },
    serviceRoles: {
      selects: "Services the policy applies to",
      display: "Service roles with the names they resolve to.",
    },
  },
});
export const ServiceEdgeRouterPolicyInputs = policy.inputs;
export type ServiceEdgeRouterPolicyInputs = z.output<typeof ServiceEdgeRouterPolicyInputs>;

export const serviceEdgeRouterPolicy = {
  // PUT (name and semantic required).
  ...policy.definition,
  description:
    "An OpenZiti service edge router policy: the services selected by `serviceRoles` may be carried by the " +
    "edge routers selected by `edgeRouterRoles`. Roles are `#attribute`, `@id` or `#all` alone; their order " +
    "does not matter.",
  outputs: z.object(policy.displays),
} satisfies ResourceDefinition<ServiceEdgeRouterPolicyInputs>;
