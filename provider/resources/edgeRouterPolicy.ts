// EdgeRouterPolicy: which identities may use which edge routers. Roles are sets (the controller
// sorts them); `semantic` is always sent (AllOf by default), so the server never picks it.
import { z } from "zod";
import type { ResourceDefinition } from "../resource";
import { rolePolicy } from "./rolePolicy";

const policy = rolePolicy({
  kind: "EdgeRouterPolicy",
  path: "edge-router-policies",
  description:
    "An OpenZiti edge router policy: the identities selected by `identityRoles` may connect to the edge routers " +
    "selected by `edgeRouterRoles`.",
  roles: {
    edgeRouterRoles: "Edge routers the policy grants",
    identityRoles: "Identities the policy applies to",
  },
  readExtra: (server) => ({ isSystem: server.isSystem ?? false }),
});
export const EdgeRouterPolicyInputs = policy.inputs;
export type EdgeRouterPolicyInputs = z.output<typeof EdgeRouterPolicyInputs>;

export const edgeRouterPolicy = {
  // PUT (name and semantic required).
  ...policy.definition,
  outputs: z.object({
    ...policy.displays,
    isSystem: z.boolean().describe("Whether the controller manages this policy itself."),
  }),
} satisfies ResourceDefinition<EdgeRouterPolicyInputs>;
