import { type Args, resourceClass } from "./resource";
import type { AuthPolicyInputs } from "./types.generated";

export type AuthPolicyArgs = Args<AuthPolicyInputs>;

/**
 * An OpenZiti auth policy (`frontdoor:index:AuthPolicy`): allowed primary methods and secondary
 * requirements. Every field left out takes the controller's default. Deleting a policy that identities
 * still use fails: move them first.
 *
 * ```ts
 * const strict = new frontdoor.AuthPolicy("certs-and-totp", {
 *   name: "certs-and-totp",
 *   primary: { updb: { allowed: false } },
 *   secondary: { requireTotp: true },
 * });
 * new frontdoor.Identity("ops", { name: "ops", authPolicyId: strict.id });
 * ```
 */
export class AuthPolicy extends resourceClass("AuthPolicy") {}
