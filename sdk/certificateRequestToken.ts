import {
  type CertificateRequestTokenInputs,
  certificateRequestToken,
} from "../provider/resources/certificateRequestToken";
import { type Args, resourceClass } from "./resource";

export type CertificateRequestTokenArgs = Args<import("zod").input<typeof CertificateRequestTokenInputs>>;

/**
 * A certificate request token (`frontdoor:index:CertificateRequestToken`): a time-limited secret with
 * preset subject metadata that lets a device create one client certificate without API credentials
 * (`createCertificateWithToken`). `token` is a secret output. Single use: once a certificate was made
 * with it, the service deletes the token, so a refresh reports it deleted and the next `up` makes a new one.
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
export class CertificateRequestToken extends resourceClass(certificateRequestToken) {}
