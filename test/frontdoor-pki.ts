// Test PKI made with node-forge (keys generated natively: pure-JS RSA generation takes seconds).
import { generateKeyPairSync } from "node:crypto";
import forge from "node-forge";

export function newKeys(): forge.pki.rsa.KeyPair {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

let shared: forge.pki.rsa.KeyPair | undefined;
/** One key pair shared by the tests that do not care which key they use. */
export function keys(): forge.pki.rsa.KeyPair {
  shared ??= newKeys();
  return shared;
}

export interface CsrOptions {
  organization?: string;
  organizationalUnit?: string;
  /** Break the signature. */
  tamper?: boolean;
  /** Use a new key instead of the shared one. */
  fresh?: boolean;
}

export function csrPem(commonName: string, options: CsrOptions = {}): string {
  const pair = options.fresh ? newKeys() : keys();
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = pair.publicKey;
  const subject: forge.pki.CertificateField[] = [{ name: "commonName", value: commonName }];
  if (options.organization) subject.push({ name: "organizationName", value: options.organization });
  if (options.organizationalUnit) subject.push({ shortName: "OU", value: options.organizationalUnit });
  csr.setSubject(subject);
  csr.sign(pair.privateKey, forge.md.sha256.create());
  if (options.tamper) csr.signature = `${(csr.signature as string).slice(0, -1)}x`;
  return forge.pki.certificationRequestToPem(csr);
}

/** A self-signed certificate with a key of its own, valid 30 days. */
export function selfSignedPem(commonName: string, validDays = 30): string {
  const pair = newKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = pair.publicKey;
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(8))}`;
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + validDays * 86_400_000);
  cert.setSubject([{ name: "commonName", value: commonName }]);
  cert.setIssuer([{ name: "commonName", value: commonName }]);
  cert.sign(pair.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
