// Identity enrollment for devices and programs: `enrollIdentity` turns an identity's ott enrollment JWT
// into a usable identity (certificate, key, CA bundle, Ziti identity JSON) through the controller's Edge
// client API. It needs no API credentials: the one-time token in the JWT is the credential.
import * as pulumi from "@pulumi/pulumi";
import * as enrollment from "../provider/functions/enrollment";

export type { EnrollIdentityArgs, EnrollIdentityResult } from "../provider/functions/enrollment";

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
export function enrollIdentity(
  args: enrollment.EnrollIdentityArgs,
): Promise<enrollment.EnrollIdentityResult> {
  return enrollment.enrollIdentity(args);
}

/**
 * `enrollIdentity` with Input arguments, as an Output whose key material is secret. It enrolls during
 * `pulumi up` only (preview shows unknown values); an ott is single-use, so the program must keep the
 * result (e.g. export it as a secret or write it to a secret store) rather than enroll on every run:
 * a run after the identity enrolled has no JWT left (`enrollmentJwt` is null) and skips enrollment.
 */
export function enrollIdentityOutput(
  args: pulumi.Input<{ jwt: pulumi.Input<string | null>; keySize?: number; commonName?: string }>,
): pulumi.Output<enrollment.EnrollIdentityResult | undefined> {
  const result = pulumi.output(args).apply(async (plain) => {
    if (pulumi.runtime.isDryRun() || !plain.jwt) return undefined;
    return enrollment.enrollIdentity({ ...plain, jwt: plain.jwt });
  });
  return pulumi.secret(result);
}
