// A self-signed certificate computed from a private key the same way on every run of a month (validity
// from the first day of the current UTC month, for 397 days: within the policy pack's 398-day bound of
// frontdoor-client-certificate-validity; serial derived from the key and month, deterministic RSA signature), so
// re-running `up` is no change, and the first run of a new month uploads a fresh certificate.
import { createHash } from "node:crypto";
import * as forge from "node-forge";

export function selfSignedCertificatePem(privateKeyPem: string, commonName: string): string {
  const key = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  const now = new Date();
  cert.validity.notBefore = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  cert.validity.notAfter = new Date(cert.validity.notBefore.getTime() + 397 * 86_400_000);
  // A month's certificate has a serial of its own.
  const serialOf = `${privateKeyPem}\n${cert.validity.notBefore.toISOString()}`;
  cert.serialNumber = `01${createHash("sha256").update(serialOf).digest("hex").slice(0, 30)}`;
  cert.setSubject([{ name: "commonName", value: commonName }]);
  cert.setIssuer([{ name: "commonName", value: commonName }]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
