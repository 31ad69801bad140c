// PEM handling for client certificates and key pairs. Certificates are read with Node's X509Certificate
// (any key type, native SHA-256 fingerprints); certificate requests with node-forge, whose CSR support
// includes verifying the self-signature (RSA only: the service signs RSA requests only, too).

import { createHash, createPublicKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import type Forge from "node-forge";
import { z } from "zod";
import { nodeForge } from "../forge";
import { warn } from "../log";
import type { CheckFailure } from "../resource";
import { containsUnknown, UNKNOWN } from "../resource";

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)\r?\n?-----END \1-----/;
const CERTIFICATE = "CERTIFICATE";
const CSR_LABELS = ["CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"];

const ANY_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/**
 * Why a field meant to hold exactly one certificate (or certificate request) does not, or undefined.
 * A private key pasted along with the certificate must never be uploaded or stored, a second block or
 * text around the block would be sent as is: each is refused. The message never quotes the value.
 */
/**
 * PEM as it is sent: line endings made \n, whitespace around it removed, one final newline. The
 * state keeps what was declared (the same certificate in other whitespace is not a change).
 */
export function pemForRequest(value: string): string {
  return `${value.replace(/\r\n?/g, "\n").trim()}\n`;
}

/**
 * A PEM input: put in the form it is sent in at check, so the state, the request and the controller's
 * copy hold the same text (the engine's unknown marker of a preview is left as it is).
 */
export const pemInput = z
  .string()
  .min(1)
  .overwrite((value) => (value === UNKNOWN ? value : pemForRequest(value)));

export function singlePemProblem(value: string): string | undefined {
  const blocks = [...value.matchAll(ANY_BLOCK)];
  if (
    blocks.some((block) => block[1].includes("PRIVATE KEY")) ||
    /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value)
  )
    return "holds a private key: give the certificate alone (the key is never uploaded or stored)";
  if (blocks.length > 1) return `must hold exactly one PEM block, found ${blocks.length}`;
  if (blocks.length === 1 && value.replace(blocks[0][0], "").trim() !== "")
    return "has text before or after the PEM block: give the PEM block alone";
  return undefined;
}

/**
 * An expired certificate is refused when it is new or changed; one that expired since it was accepted
 * (unchanged in the program) only draws a warning, so the run that replaces it is not blocked.
 */
/**
 * A certificate input read at check time, in the form it is sent in (CRLF line endings and surrounding
 * whitespace are no problem): undefined when it is unset or not known yet (during a preview it may be
 * computed from another resource: it is checked again when the update runs), else the certificate or
 * the failure naming `property`. `single` also refuses more than one PEM block.
 */
export function certificateInput(
  value: unknown,
  property: string,
  single = false,
): X509Certificate | CheckFailure[] | undefined {
  if (value === undefined || containsUnknown(value)) return undefined;
  const pem = pemForRequest(String(value));
  const problem = single ? singlePemProblem(pem) : undefined;
  if (problem) return [{ property, reason: problem }];
  try {
    // node:crypto rather than node-forge: forge cannot read EC certificates, common for CAs.
    return new X509Certificate(pem);
  } catch {
    return [{ property, reason: "is not a PEM certificate" }];
  }
}

export function expiryFailures(
  certificate: X509Certificate,
  property: string,
  unchanged: boolean,
  resource: string,
): CheckFailure[] {
  const notAfter = new Date(certificate.validTo);
  if (notAfter.getTime() > Date.now()) return [];
  const reason = `the certificate expired on ${notAfter.toISOString()}`;
  if (!unchanged) return [{ property, reason: `${reason}: give a valid one` }];
  warn(`${resource}: ${property}: ${reason}; renew it`);
  return [];
}

export type ParsedPem =
  | { kind: "certificate"; certificate: X509Certificate }
  | { kind: "csr"; csr: Forge.pki.CertificateSigningRequest };

/**
 * Parses a certificate or a certificate request (chosen by the PEM label). Throws an Error whose
 * message describes the problem without quoting the input (it might be a misplaced private key).
 */
export function parseCertificateOrCsr(value: string): ParsedPem {
  const block = PEM_BLOCK.exec(value);
  if (!block) {
    throw new Error(
      "must be PEM text: a certificate (-----BEGIN CERTIFICATE-----) or a certificate request (-----BEGIN CERTIFICATE REQUEST-----)",
    );
  }
  const label = block[1];
  if (label === CERTIFICATE) {
    try {
      return { kind: "certificate", certificate: new X509Certificate(block[0]) };
    } catch {
      throw new Error("the CERTIFICATE PEM block does not contain a valid X.509 certificate");
    }
  }
  if (CSR_LABELS.includes(label)) return { kind: "csr", csr: parseCsr(block[0]) };
  throw new Error(`PEM label "${label}" is neither CERTIFICATE nor CERTIFICATE REQUEST`);
}

function parseCsr(pem: string): Forge.pki.CertificateSigningRequest {
  const forge = nodeForge();
  let csr: Forge.pki.CertificateSigningRequest;
  try {
    csr = forge.pki.certificationRequestFromPem(pem);
  } catch {
    throw new Error("the CERTIFICATE REQUEST PEM block is not a valid certificate request (RSA keys only)");
  }
  let valid = false;
  try {
    valid = csr.verify();
  } catch {
    valid = false;
  }
  if (!valid) throw new Error("the certificate request's signature does not verify");
  return csr;
}

/**
 * The certificate properties a ClientCertificate exposes (its outputs). Distinguished names are RFC
 * 4514 style: the encoded order reversed, comma-separated.
 */
export const CertificateDetails = z.object({
  fingerprintSha256: z
    .string()
    .describe("SHA-256 fingerprint of the DER certificate, lowercase hex, no colons."),
  serialNumber: z.string().describe("Serial number, lowercase hex."),
  subject: z.string().describe("Subject distinguished name, RFC 4514 style (e.g. `O=Acme,CN=device-1`)."),
  issuer: z.string().describe("Issuer distinguished name, RFC 4514 style."),
  notBefore: z.string().describe("Start of validity (ISO 8601)."),
  notAfter: z.string().describe("End of validity (ISO 8601)."),
});
export type CertificateDetails = z.output<typeof CertificateDetails>;

export function certificateDetails(certificate: X509Certificate): CertificateDetails {
  return {
    fingerprintSha256: createHash("sha256").update(certificate.raw).digest("hex"),
    serialNumber: certificate.serialNumber.toLowerCase(),
    subject: rfc4514(certificate.subject),
    issuer: rfc4514(certificate.issuer),
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
  };
}

/** Node prints names one attribute per line, least specific first; RFC 4514 reverses and uses commas. */
function rfc4514(name: string): string {
  return name
    .split("\n")
    .filter(Boolean)
    .reverse()
    .map((rdn) => rdn.replace(/([,+;])/g, "\\$1"))
    .join(",");
}

/** DER SubjectPublicKeyInfo of a PEM certificate or CSR, to tell whether a certificate was made from a CSR. */
export function publicKeyDer(parsed: ParsedPem): Buffer {
  const forge = nodeForge();
  const key =
    parsed.kind === "certificate"
      ? parsed.certificate.publicKey
      : createPublicKey(forge.pki.publicKeyToPem(parsed.csr.publicKey as Forge.pki.PublicKey));
  return key.export({ type: "spki", format: "der" });
}

export interface SubjectFields {
  commonName: string;
  organization?: string;
  organizationalUnit?: string;
}

export interface GeneratedKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
  csrPem: string;
}

/** An RSA key (generated natively: pure-JS generation takes seconds) and a CSR signed with it. */
export function generateKeyPairAndCsr(subject: SubjectFields, keySize: number): GeneratedKeyPair {
  const forge = nodeForge();
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: keySize,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.publicKeyFromPem(publicKey);
  const attributes: Forge.pki.CertificateField[] = [{ name: "commonName", value: subject.commonName }];
  if (subject.organization) attributes.push({ name: "organizationName", value: subject.organization });
  if (subject.organizationalUnit) attributes.push({ shortName: "OU", value: subject.organizationalUnit });
  csr.setSubject(attributes);
  csr.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return {
    privateKeyPem: privateKey,
    publicKeyPem: publicKey,
    csrPem: forge.pki.certificationRequestToPem(csr),
  };
}
