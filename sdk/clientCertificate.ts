import { type Args, resourceClass } from "./resource";
import type { ClientCertificateInputs } from "./types.generated";

export type ClientCertificateArgs = Args<ClientCertificateInputs>;

/**
 * A client certificate of a frontdoor (`frontdoor:index:ClientCertificate`), for mutual TLS. `value` is a
 * PEM certificate (uploaded) or a PEM certificate request (the frontdoor's CA issues the certificate,
 * shown as `certificatePem` with its fingerprint, serial number, subject, issuer and validity).
 *
 * ```ts
 * const key = new frontdoor.KeyPair("device-1", { commonName: "device-1", organization: "Acme" });
 * const cert = new frontdoor.ClientCertificate("device-1", { name: "device-1", value: key.csrPem });
 * export const certificatePem = cert.certificatePem;
 * export const privateKeyPem = key.privateKeyPem; // a secret
 * ```
 */
export class ClientCertificate extends resourceClass("ClientCertificate") {}
