import { type Args, resourceClass } from "./resource";
import type { ServicePolicyInputs } from "./types.generated";

export type ServicePolicyArgs = Args<ServicePolicyInputs>;

/**
 * An OpenZiti service policy (`frontdoor:index:ServicePolicy`): identities matching `identityRoles` may
 * dial (`Dial`) or host (`Bind`) the services matching `serviceRoles`, while passing the posture checks
 * matching `postureCheckRoles`. Roles are sets of `#attribute`, `@id` or `#all` alone.
 *
 * ```ts
 * new frontdoor.ServicePolicy("app-dial", {
 *   name: "app-dial",
 *   type: "Dial",
 *   identityRoles: ["#app-users"],
 *   serviceRoles: ["#app"],
 * });
 * ```
 */
export class ServicePolicy extends resourceClass("ServicePolicy") {}
