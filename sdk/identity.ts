import { type Args, resourceClass } from "./resource";
import type { IdentityInputs } from "./types.generated";

export type IdentityArgs = Args<IdentityInputs>;

/**
 * An OpenZiti identity (`frontdoor:index:Identity`), optionally enrolled by one-time token (`ott`), by a
 * certificate of a verified CA (`ottca`) or by username/password (`updb`). `enrollmentJwt` and
 * `enrollmentToken` are secrets and become null once the identity has enrolled (not drift). Changing
 * `enrollment` replaces the identity. Controllers store User/Device/Service as `Default`: the declared type stays.
 *
 * ```ts
 * const laptop = new frontdoor.Identity("alice-laptop", {
 *   name: "alice-laptop",
 *   type: "Device",
 *   roleAttributes: ["employees"],
 *   enrollment: { ott: true },
 * });
 * export const jwt = laptop.enrollmentJwt; // secret
 * ```
 */
export class Identity extends resourceClass("Identity") {}
