// EdgeRouterPolicy: which identities may use which edge routers. Roles are sets (the controller
// sorts them); `semantic` is always sent (AllOf by default), so the server never picks it.
import { z } from "zod";
import type { ResourceDefinition } from "../resource";
import { rolePolicy } from "./rolePolicy";

const policy = rolePolicy({
  kind: "EdgeRouterPolicy",
  path: "edge-router-policies",
  roles: {
    edgeRouterRoles: {
      selects: "Edge routers the policy grants",
      display: "Edge router roles with the names they resolve to.",
    },
    identityRoles: {
      selects: "Identities the policy applies to",
      display: "Identity roles with the names they resolve to.",
    },
  },
  readExtra: (server) => ({ isSystem: server.isSystem ?? false }),
});
export const EdgeRouterPolicyInputs = policy.inputs;
export type EdgeRouterPolicyInputs = z.output<typeof EdgeRouterPolicyInputs>;

export const edgeRouterPolicy = {
  // PUT (name and semantic required).
  ...policy.definition,
  description:
    "An OpenZiti edge router policy: the identities selected by `identityRoles` may connect to the edge routers " +
    "selected by `edgeRouterRoles`. Roles are `#attribute`, `@id` or `#all` alone; their order does not matter.",
  outputs: z.object({
    ...policy.displays,
    isSystem: z.boolean().describe("Whether the controller manages this policy itself."),
  }),
} satisfies ResourceDefinition<EdgeRouterPolicyInputs>;
