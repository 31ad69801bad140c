import { type Args, resourceClass } from "./resource";
import type { EdgeRouterInputs } from "./types.generated";

export type EdgeRouterArgs = Args<EdgeRouterInputs>;

/**
 * An OpenZiti edge router (`frontdoor:index:EdgeRouter`) with its enrollment. `enrollmentJwt` is a
 * secret; it becomes null once the router enrolled, and an enrollment that expired is not drift (a
 * nightly `refresh --expect-no-changes` stays green). To issue a new enrollment without replacing the
 * router (it expired before use, or the router must be re-keyed), change `reEnrollmentTrigger`.
 *
 * ```ts
 * const west = new frontdoor.EdgeRouter("west-1", {
 *   name: "west-1",
 *   roleAttributes: ["west", "public"],
 *   isTunnelerEnabled: true,
 *   reEnrollmentTrigger: "2026-11-24", // bump to re-enroll
 * });
 * export const westJwt = west.enrollmentJwt; // secret: `ziti router enroll --jwt ...`
 * ```
 */
export class EdgeRouter extends resourceClass("EdgeRouter") {}
