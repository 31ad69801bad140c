import {
  type ServiceEdgeRouterPolicyInputs,
  serviceEdgeRouterPolicy,
} from "../provider/resources/serviceEdgeRouterPolicy";
import { type Args, resourceClass } from "./resource";

export type ServiceEdgeRouterPolicyArgs = Args<import("zod").input<typeof ServiceEdgeRouterPolicyInputs>>;

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
export class ServiceEdgeRouterPolicy extends resourceClass(serviceEdgeRouterPolicy) {}
