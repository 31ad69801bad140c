import { type Args, resourceClass } from "./resource";
import type { PostureCheckInputs } from "./types.generated";

export type PostureCheckArgs = Args<PostureCheckInputs>;

/**
 * An OpenZiti posture check (`frontdoor:index:PostureCheck`). `typeId` selects the fields: OS
 * (`operatingSystems`), DOMAIN (`domains`), MAC (`macAddresses`), PROCESS (`process`), PROCESS_MULTI
 * (`semantic`, `processes`) or MFA (`timeoutSeconds`, `promptOnWake`, `promptOnUnlock`,
 * `ignoreLegacyEndpoints`). Service policies select checks by `#roleAttribute` or `@id`. Changing
 * `typeId` replaces the check.
 *
 * ```ts
 * new frontdoor.PostureCheck("recent-windows", {
 *   name: "recent-windows",
 *   typeId: "OS",
 *   roleAttributes: ["workstations"],
 *   operatingSystems: [{ type: "Windows", versions: [">=10.0.19041"] }],
 * });
 * new frontdoor.PostureCheck("mfa-hourly", {
 *   name: "mfa-hourly",
 *   typeId: "MFA",
 *   roleAttributes: ["workstations"],
 *   timeoutSeconds: 3600,
 *   promptOnWake: true,
 * });
 * ```
 */
export class PostureCheck extends resourceClass("PostureCheck") {}
