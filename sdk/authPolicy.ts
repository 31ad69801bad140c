import { type AuthPolicyInputs, authPolicy } from "../provider/resources/authPolicy";
import { type Args, resourceClass } from "./resource";

export type AuthPolicyArgs = Args<import("zod").input<typeof AuthPolicyInputs>>;

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
export class AuthPolicy extends resourceClass(authPolicy) {}
