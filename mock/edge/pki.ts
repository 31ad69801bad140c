// The edge mock's own PKI helpers (node-forge for X.509, node:crypto for fast RSA keys): parse and
// check CA certificates, fingerprints as controllers show them, signature checks, and issuing
// certificates for tests (admin client certificates, CAs, CA verification certificates).
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";
import { readCsr } from "../pki";

export type Certificate = forge.pki.Certificate;

export function parseCertificatePem(pem: string): Certificate {
  return forge.pki.certificateFromPem(pem);
}

export function certificateDer(cert: Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
}

/** SHA-1 of the DER encoding, lowercase hex without separators (the controller's format). */
export function fingerprintOfDer(der: Buffer): string {
  return createHash("sha1").update(der).digest("hex");
}

export function fingerprint(cert: Certificate): string {
  return fingerprintOfDer(certificateDer(cert));
}

export function isCaCertificate(cert: Certificate): boolean {
  const ext = cert.getExtension("basicConstraints") as { cA?: boolean } | null;
  return ext?.cA === true;
}

/** Whether `child` carries a valid signature by `issuer`'s key (and names it as issuer). */
export function isSignedBy(child: Certificate, issuer: Certificate): boolean {
  try {
    return issuer.verify(child);
  } catch {
    return false;
  }
}

export function commonName(cert: Certificate): string | undefined {
  const field = cert.subject.getField("CN") as { value?: string } | null;
  return field?.value;
}

export interface KeyPair {
  privateKey: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
  privateKeyPem: string;
}

/** An RSA 2048 key pair (generated natively: forge's pure-JS generation is slow). */
export function newKeyPair(): KeyPair {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return {
    privateKey: forgeKey,
    publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e),
    privateKeyPem: privateKey,
  };
}

export interface IssuedCertificate {
  cert: Certificate;
  certPem: string;
  keys: KeyPair;
  keyPem: string;
}

export interface IssueOptions {
  commonName: string;
  /** Make it a CA (basicConstraints cA, keyCertSign). */
  isCa?: boolean;
  /** Signer; self-signed when absent. */
  issuer?: { cert: Certificate; keys: KeyPair };
  /** Reuse a key pair (saves generating one). */
  keys?: KeyPair;
  days?: number;
}

export function issueCertificate(options: IssueOptions): IssuedCertificate {
  const keys = options.keys ?? newKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + (options.days ?? 30) * 86_400_000);
  const subject = [{ name: "commonName", value: options.commonName }];
  cert.setSubject(subject);
  cert.setIssuer(options.issuer ? options.issuer.cert.subject.attributes : subject);
  cert.setExtensions(
    options.isCa
      ? [
          { name: "basicConstraints", cA: true, critical: true },
          { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
        ]
      : [
          { name: "basicConstraints", cA: false },
          { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
          { name: "extKeyUsage", clientAuth: true },
        ],
  );
  cert.sign(options.issuer ? options.issuer.keys.privateKey : keys.privateKey, forge.md.sha256.create());
  return { cert, certPem: forge.pki.certificateToPem(cert), keys, keyPem: keys.privateKeyPem };
}

/**
 * Signs an enrolling client's CSR (ott enrollment): the CSR's self-signature must hold; the
 * certificate carries the given CN (the controller's choice, not the client's) and clientAuth.
 * Throws Error("...") on a CSR that cannot be parsed or whose signature fails.
 */
export function signClientCsr(
  csrPem: string,
  issuer: { cert: Certificate; keys: KeyPair },
  commonName: string,
  days = 365,
): { cert: Certificate; certPem: string } {
  const read = readCsr(csrPem);
  if (!read)
    throw new Error("the CSR could not be parsed (PEM CERTIFICATE REQUEST with an RSA key expected)");
  if (!read.selfSigned) throw new Error("the CSR's signature is invalid");
  const csr = read.csr;
  const cert = forge.pki.createCertificate();
  cert.publicKey = csr.publicKey as forge.pki.PublicKey;
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + days * 86_400_000);
  cert.setSubject([{ name: "commonName", value: commonName }]);
  cert.setIssuer(issuer.cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", clientAuth: true },
  ]);
  cert.sign(issuer.keys.privateKey, forge.md.sha256.create());
  return { cert, certPem: forge.pki.certificateToPem(cert) };
}

/** A certs-only PKCS#7 (degenerate signed data), base64 of the DER: the EST `cacerts` answer. */
export function pkcs7CertsOnly(pems: string[]): string {
  const p7 = forge.pkcs7.createSignedData();
  for (const pem of pems) p7.addCertificate(forge.pki.certificateFromPem(pem));
  const der = forge.asn1.toDer(p7.toAsn1()).getBytes();
  return Buffer.from(der, "binary").toString("base64");
}
