// Certificate request token calls for programs and for devices. Creating a certificate with a token needs
// no API credentials (the token is the credential); validating a token (the by-token lookup) is an
// authenticated call and uses the API credentials (frontdoor:token etc., or their environment variables). The plain functions return Promises (scripts on a device, or inside `apply`); the
// `...Output` variants take Inputs and return Outputs. The connection (apiUrl, caBundle, frontdoorId)
// defaults to stack config `frontdoor:*` inside a Pulumi program, else to the environment variables.
import * as pulumi from "@pulumi/pulumi";
import type { DeepInput } from "./resource";
import { programSettings } from "./settings";
import type {
  CreateCertificateWithTokenArgs,
  CreateCertificateWithTokenResult,
  ValidateCertificateRequestTokenArgs,
  ValidateCertificateRequestTokenResult,
} from "./types.generated";

export type {
  CreateCertificateWithTokenArgs,
  CreateCertificateWithTokenResult,
  ValidateCertificateRequestTokenArgs,
  ValidateCertificateRequestTokenResult,
} from "./types.generated";

/** The provider's token calls (HTTP client, validation), loaded at the first call, not with the SDK. */
const certificates = (): typeof import("../provider/functions/certificates") =>
  require("../provider/functions/certificates");

/**
 * Creates a client certificate with a certificate request token, without API credentials. With `csrPem`
 * the frontdoor's CA signs the request (subject and name come from the token); with `name` +
 * `certificatePem` the certificate is uploaded. A token is usable until its `expiresAt` (the API documents
 * no single use); a refused token fails with "certificate request token refused: expired, unknown, ...".
 * The token never appears in errors.
 *
 * ```ts
 * // on the device, with FRONTDOOR_API_URL and FRONTDOOR_ID set:
 * const cert = await createCertificateWithToken({ token: process.env.ENROL_TOKEN!, csrPem });
 * ```
 */
export function createCertificateWithToken(
  args: CreateCertificateWithTokenArgs,
): Promise<CreateCertificateWithTokenResult> {
  return certificates().createCertificateWithToken(args, programSettings());
}

/** Checks a certificate request token (with the API credentials) and returns its record; fails when unusable. */
export function validateCertificateRequestToken(
  args: ValidateCertificateRequestTokenArgs,
): Promise<ValidateCertificateRequestTokenResult> {
  return certificates().validateCertificateRequestToken(args, programSettings());
}

/**
 * `createCertificateWithToken` with Input arguments, as an Output. It makes a certificate, so it does
 * not run during `pulumi preview` (the result is unknown there), only during `pulumi up`.
 */
export function createCertificateWithTokenOutput(
  args: DeepInput<CreateCertificateWithTokenArgs>,
): pulumi.Output<CreateCertificateWithTokenResult> {
  type Result = CreateCertificateWithTokenResult;
  return pulumi
    .output(args)
    .apply(
      (plain): pulumi.Output<Result> =>
        pulumi.runtime.isDryRun()
          ? unknownOutput<Result>()
          : pulumi.output(createCertificateWithToken(plain as CreateCertificateWithTokenArgs)),
    );
}

/** An Output whose value is not known (what preview shows for values only `up` computes). */
function unknownOutput<T>(): pulumi.Output<T> {
  // Output's constructor is internal: (resources, value, isKnown, isSecret, allResources).
  const OutputImpl = pulumi.Output as unknown as new (...args: unknown[]) => pulumi.Output<T>;
  const none = new Set<pulumi.Resource>();
  return new OutputImpl(
    none,
    Promise.resolve(undefined),
    Promise.resolve(false),
    Promise.resolve(false),
    Promise.resolve(none),
  );
}

/** `validateCertificateRequestToken` with Input arguments, as an Output. */
export function validateCertificateRequestTokenOutput(
  args: DeepInput<ValidateCertificateRequestTokenArgs>,
): pulumi.Output<ValidateCertificateRequestTokenResult> {
  return pulumi
    .output(args)
    .apply((plain) => validateCertificateRequestToken(plain as ValidateCertificateRequestTokenArgs));
}
