import { type Args, resourceClass } from "./resource";
import type { CaInputs } from "./types.generated";

export type CaArgs = Args<CaInputs>;

/**
 * An OpenZiti certificate authority (`frontdoor:index:Ca`). Created unverified; give `privateKeyPem`
 * (RSA, stored as a secret) and the provider verifies it right after creating it. `certPem` is immutable:
 * changing it replaces the CA. `verificationToken` is a secret output.
 *
 * ```ts
 * const corpCa = new frontdoor.Ca("corp-ca", {
 *   name: "corp-ca",
 *   certPem: caCertPem,
 *   privateKeyPem: cfg.requireSecret("caKeyPem"),
 *   isAuthEnabled: true,
 *   isOttCaEnrollmentEnabled: true,
 * });
 * new frontdoor.Identity("robot", { name: "robot", type: "Device", enrollment: { ottca: corpCa.id } });
 * ```
 */
export class Ca extends resourceClass("Ca") {}
