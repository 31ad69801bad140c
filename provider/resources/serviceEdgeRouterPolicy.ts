// ServiceEdgeRouterPolicy: which edge routers may carry which services. Roles are sets (the
// controller sorts them); `semantic` is always sent (AllOf by default).
import { z } from "zod";
import type { ResourceDefinition } from "../resource";
import { rolePolicy } from "./rolePolicy";

const policy = rolePolicy({
  kind: "ServiceEdgeRouterPolicy",
  path: "service-edge-router-policies",
  description:
    "An OpenZiti service edge router policy: the services selected by `serviceRoles` may be carried by the " +
    "edge routers selected by `edgeRouterRoles`.",
  roles: {
    edgeRouterRoles: "Edge routers that may carry the services",
    serviceRoles: "Services the policy applies to",
  },
});
export const ServiceEdgeRouterPolicyInputs = policy.inputs;
export type ServiceEdgeRouterPolicyInputs = z.output<typeof ServiceEdgeRouterPolicyInputs>;

export const serviceEdgeRouterPolicy = {
  // PUT (name and semantic required).
  ...policy.definition,
  outputs: z.object(policy.displays),
} satisfies ResourceDefinition<ServiceEdgeRouterPolicyInputs>;
