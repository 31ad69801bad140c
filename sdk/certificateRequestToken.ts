import { type Args, resourceClass } from "./resource";
import type { CertificateRequestTokenInputs } from "./types.generated";

export type CertificateRequestTokenArgs = Args<CertificateRequestTokenInputs>;

/**
 * A certificate request token (`frontdoor:index:CertificateRequestToken`): a time-limited secret with
 * preset subject metadata that lets a device create client certificates without API credentials
 * (`createCertificateWithToken`). `token` is a secret output. Usable until `expiresAt`; neither use nor
 * expiry is drift (`status`, `daysUntilExpiry`); `rotateWhenExpired: true` replaces it at the next `up` once
 * expired.
 *
 * ```ts
 * const enrol = new frontdoor.CertificateRequestToken("sensor-17", {
 *   name: "sensor-17",
 *   commonName: "sensor-17.devices.example.com",
 *   organization: "Acme",
 * });
 * export const enrolmentToken = enrol.token; // hand it to the device
 * ```
 */
export class CertificateRequestToken extends resourceClass("CertificateRequestToken") {}
