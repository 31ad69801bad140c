// A self-signed CA certificate for a key, made with node-forge. Deterministic on purpose: the serial
// comes from the key, the validity dates are fixed and RSA PKCS#1 v1.5 signatures do not vary, so
// every `pulumi up` computes the same certificate and the Ca resource is not replaced.
import { createHash } from "node:crypto";
import * as forge from "node-forge";

export function selfSignedCaPem(privateKeyPem: string, commonName: string): string {
  const key = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  const publicDer = forge.asn1.toDer(forge.pki.publicKeyToAsn1(publicKey)).getBytes();
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${createHash("sha256").update(publicDer, "binary").digest("hex").slice(0, 30)}`;
  cert.validity.notBefore = new Date("2025-01-01T00:00:00Z");
  cert.validity.notAfter = new Date("2045-01-01T00:00:00Z");
  const subject = [{ name: "commonName", value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
