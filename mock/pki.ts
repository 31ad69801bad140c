// The mock's own PKI (node-forge for X.509, Node's crypto for fast native RSA key generation).
// Deliberately separate from anything in provider/: the mock must not share the provider's reading
// of the contract.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

const pki = forge.pki;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CertificateAuthority {
  certificate: forge.pki.Certificate;
  privateKey: forge.pki.rsa.PrivateKey;
  certificatePem: string;
}

export interface SubjectFields {
  commonName?: string | null;
  organization?: string | null;
  organizationalUnit?: string | null;
}

/** A problem with PEM input; the message is safe to show (it never contains the input). */
export class PkiInputError extends Error {}

/** RSA 2048 key pair, generated natively (pure-JS generation would take seconds). */
export function generateRsaKeyPair(): forge.pki.rsa.KeyPair {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const forgeKey = pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: forgeKey, publicKey: pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

/** A fresh random positive serial number (hex), 16 bytes as CAs commonly use. */
export function randomSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x01; // positive, and no leading zero byte to strip
  return bytes.toString("hex");
}

function subjectAttributes(fields: SubjectFields): forge.pki.CertificateField[] {
  const attributes: forge.pki.CertificateField[] = [];
  if (fields.commonName) attributes.push({ name: "commonName", value: fields.commonName });
  if (fields.organization) attributes.push({ name: "organizationName", value: fields.organization });
  if (fields.organizationalUnit) {
    attributes.push({ shortName: "OU", value: fields.organizationalUnit });
  }
  return attributes;
}

function newCertificate(publicKey: forge.pki.PublicKey, validDays: number): forge.pki.Certificate {
  const certificate = pki.createCertificate();
  certificate.publicKey = publicKey;
  certificate.serialNumber = randomSerialHex();
  const now = Date.now();
  certificate.validity.notBefore = new Date(now);
  certificate.validity.notAfter = new Date(now + validDays * DAY_MS);
  return certificate;
}

function authorityKeyId(issuer: CertificateAuthority) {
  return {
    name: "authorityKeyIdentifier",
    keyIdentifier: issuer.certificate.generateSubjectKeyIdentifier().getBytes(),
  };
}

function caExtensions(pathLength?: number): object[] {
  const basicConstraints =
    pathLength === undefined
      ? { name: "basicConstraints", critical: true, cA: true }
      : { name: "basicConstraints", critical: true, cA: true, pathLenConstraint: pathLength };
  return [
    basicConstraints,
    { name: "keyUsage", critical: true, keyCertSign: true, cRLSign: true, digitalSignature: true },
    { name: "subjectKeyIdentifier" },
  ];
}

function toAuthority(certificate: forge.pki.Certificate, privateKey: forge.pki.rsa.PrivateKey) {
  return { certificate, privateKey, certificatePem: pki.certificateToPem(certificate) };
}

/** A self-signed root CA, valid ten years. */
export function createRootCa(commonName: string): CertificateAuthority {
  const keys = generateRsaKeyPair();
  const certificate = newCertificate(keys.publicKey, 3650);
  const subject = subjectAttributes({ commonName, organization: "Frontdoor Mock" });
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions(caExtensions());
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return toAuthority(certificate, keys.privateKey);
}

/** An intermediate CA signed by `parent` (e.g. one per frontdoor). */
export function createIntermediateCa(parent: CertificateAuthority, commonName: string): CertificateAuthority {
  const keys = generateRsaKeyPair();
  const certificate = newCertificate(keys.publicKey, 3650);
  certificate.setSubject(subjectAttributes({ commonName, organization: "Frontdoor Mock" }));
  certificate.setIssuer(parent.certificate.subject.attributes);
  certificate.setExtensions([...caExtensions(0), authorityKeyId(parent)]);
  certificate.sign(parent.privateKey, forge.md.sha256.create());
  return toAuthority(certificate, keys.privateKey);
}

/** A TLS server certificate for the given host names / IP addresses. */
export function issueServerCertificate(
  ca: CertificateAuthority,
  hosts: string[],
): { certificatePem: string; privateKeyPem: string } {
  const keys = generateRsaKeyPair();
  const certificate = newCertificate(keys.publicKey, 365);
  certificate.setSubject(subjectAttributes({ commonName: hosts[0] }));
  certificate.setIssuer(ca.certificate.subject.attributes);
  const altNames = hosts.map((host) =>
    /^[\d.]+$|:/.test(host) ? { type: 7, ip: host } : { type: 2, value: host },
  );
  certificate.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", critical: true, digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectAltName", altNames },
    authorityKeyId(ca),
  ]);
  certificate.sign(ca.privateKey, forge.md.sha256.create());
  return {
    certificatePem: pki.certificateToPem(certificate),
    privateKeyPem: pki.privateKeyToPem(keys.privateKey),
  };
}

/** Parses a PEM CSR and checks its self-signature. */
export function parseVerifiedCsr(pem: string): forge.pki.CertificateSigningRequest {
  const read = readCsr(pem);
  if (!read)
    throw new PkiInputError("is not a valid certificate signing request (only RSA keys are supported)");
  if (!read.selfSigned) throw new PkiInputError("has an invalid certificate signing request signature");
  return read.csr;
}

/**
 * A PEM CSR and whether its self-signature holds; undefined when it does not parse (forge reads RSA
 * keys only). Each API words the two failures its own way.
 */
export function readCsr(
  pem: string,
): { csr: forge.pki.CertificateSigningRequest; selfSigned: boolean } | undefined {
  let csr: forge.pki.CertificateSigningRequest;
  try {
    csr = pki.certificationRequestFromPem(pem);
  } catch {
    return undefined;
  }
  try {
    return { csr, selfSigned: csr.verify() };
  } catch {
    return { csr, selfSigned: false };
  }
}

/**
 * Signs a client certificate as the Frontdoor service does: issuer = `ca`, EKU serverAuth, key usage
 * digitalSignature + keyCertSign + cRLSign and nothing else, valid 365 days, fresh random serial.
 * `subject` replaces the CSR's subject when given (token-based creation uses the token's metadata).
 */
export function signCsr(
  ca: CertificateAuthority,
  csr: forge.pki.CertificateSigningRequest,
  subject?: SubjectFields,
): string {
  const certificate = newCertificate(csr.publicKey as forge.pki.PublicKey, 365);
  certificate.setSubject(subject ? subjectAttributes(subject) : csr.subject.attributes);
  certificate.setIssuer(ca.certificate.subject.attributes);
  certificate.setExtensions([
    {
      name: "keyUsage",
      critical: true,
      digitalSignature: true,
      nonRepudiation: false,
      keyEncipherment: false,
      dataEncipherment: false,
      keyAgreement: false,
      keyCertSign: true,
      cRLSign: true,
      encipherOnly: false,
      decipherOnly: false,
    },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectKeyIdentifier" },
    authorityKeyId(ca),
  ]);
  certificate.sign(ca.privateKey, forge.md.sha256.create());
  return pki.certificateToPem(certificate);
}
