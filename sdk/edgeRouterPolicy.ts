import { type Args, resourceClass } from "./resource";
import type { EdgeRouterPolicyInputs } from "./types.generated";

export type EdgeRouterPolicyArgs = Args<EdgeRouterPolicyInputs>;

/**
 * An OpenZiti edge router policy (`frontdoor:index:EdgeRouterPolicy`): identities matching
 * `identityRoles` may use edge routers matching `edgeRouterRoles`. Roles are `#attribute`, `@id` or
 * `#all` alone; order does not matter (the controller sorts them).
 *
 * ```ts
 * new frontdoor.EdgeRouterPolicy("employees-all-routers", {
 *   name: "employees-all-routers",
 *   identityRoles: ["#employees"],
 *   edgeRouterRoles: ["#all"],
 * });
 * ```
 */
export class EdgeRouterPolicy extends resourceClass("EdgeRouterPolicy") {}
