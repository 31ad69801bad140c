// A self-signed certificate computed from a private key the same way on every run (fixed validity,
// serial derived from the key, deterministic RSA signature), so re-running `up` is no change.
import { createHash } from "node:crypto";
import * as forge from "node-forge";

export function selfSignedCertificatePem(privateKeyPem: string, commonName: string): string {
  const key = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = `01${createHash("sha256").update(privateKeyPem).digest("hex").slice(0, 30)}`;
  cert.validity.notBefore = new Date("2025-01-01T00:00:00Z");
  cert.validity.notAfter = new Date("2035-01-01T00:00:00Z");
  cert.setSubject([{ name: "commonName", value: commonName }]);
  cert.setIssuer([{ name: "commonName", value: commonName }]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
