// Identity enrollment for devices and programs: `enrollIdentity` turns an identity's ott enrollment JWT
// into a usable identity (certificate, key, CA bundle, Ziti identity JSON) through the controller's Edge
// client API. It needs no API credentials: the one-time token in the JWT is the credential. There is
// deliberately no `...Output` variant: an ott is single-use and the key belongs on the device, so the
// enrollment runs where the identity will live (a device script, a provisioning job), not in every `up`
// (the next `up` would still see the consumed JWT in the state and fail).
import type { EnrollIdentityArgs, EnrollIdentityResult } from "./types.generated";

export type { EnrollIdentityArgs, EnrollIdentityResult } from "./types.generated";

/**
 * Enrolls the identity of an ott enrollment JWT, as the OpenZiti SDKs do: the controller named by the
 * JWT must present the certificate that signed it, the CA bundle comes from its
 * `/.well-known/est/cacerts`, and a new key with a CSR (node-forge) is sent with the one-time token,
 * which the controller consumes (a second call fails: re-issue the enrollment first). The JWT, its
 * token and the key never appear in errors.
 *
 * ```ts
 * // on the device, with the JWT handed over out of band:
 * const id = await enrollIdentity({ jwt: fs.readFileSync("device.jwt", "utf8") });
 * fs.writeFileSync("device.json", id.identityJson, { mode: 0o600 });
 * ```
 */
export function enrollIdentity(args: EnrollIdentityArgs): Promise<EnrollIdentityResult> {
  // Loaded at the call (node-forge, the Edge client API), not with the SDK.
  const enrollment: typeof import("../provider/functions/enrollment") = require("../provider/functions/enrollment");
  return enrollment.enrollIdentity(args);
}
