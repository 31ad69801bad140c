import { type Args, resourceClass } from "./resource";
import type { ServiceEdgeRouterPolicyInputs } from "./types.generated";

export type ServiceEdgeRouterPolicyArgs = Args<ServiceEdgeRouterPolicyInputs>;

/**
 * An OpenZiti service edge router policy (`frontdoor:index:ServiceEdgeRouterPolicy`): services matching
 * `serviceRoles` may be carried by edge routers matching `edgeRouterRoles` (sets; order does not matter).
 *
 * ```ts
 * new frontdoor.ServiceEdgeRouterPolicy("app-routers", {
 *   name: "app-routers",
 *   serviceRoles: ["#app"],
 *   edgeRouterRoles: ["#all"],
 * });
 * ```
 */
export class ServiceEdgeRouterPolicy extends resourceClass("ServiceEdgeRouterPolicy") {}
