// enrollIdentity: what a device does with an identity's enrollment JWT (ott), done the way the
// OpenZiti SDKs do it, so the result is a usable identity:
// 1. the JWT names its controller (`iss`); the certificate that controller presents over TLS must be
//    the one whose key signed the JWT (the JWT is the trust anchor: nothing is trusted before that);
// 2. the controller's CA bundle comes from `/.well-known/est/cacerts`, trusted because the certificate
//    presented on that same connection signed the JWT; from then on TLS is verified with that bundle;
// 3. a new key and a CSR (node-forge) go to the Edge client API, `POST /edge/client/v1/enroll/ott`
//    with the one-time token: the controller signs the certificate and consumes the token.
// The key, the JWT and its token are secrets: registered before any request, never in messages.
import { createPublicKey, constants as cryptoConstants, verify, X509Certificate } from "node:crypto";
import https from "node:https";
import type { TLSSocket } from "node:tls";
import type Forge from "node-forge";
import { z } from "zod";
import { pemSetting } from "../config";
import { nodeForge } from "../forge";
import { ProviderError } from "../http/errors";
import { registerSecret } from "../redact";
import { generateKeyPairAndCsr } from "../resources/pem";
import { caBundleArg, parseArgs } from "./args";
import type { FunctionDefinition } from "./index";

export const CLIENT_API_PATH = "/edge/client/v1";
const CA_CERTS_PATH = "/.well-known/est/cacerts";
const FN = "enrollIdentity";
const TIMEOUT_MS = 30_000;

export const EnrollIdentityArgs = z.strictObject({
  jwt: z
    .string()
    .min(1)
    .meta({ secret: true })
    .describe(
      "The identity's enrollment JWT (`enrollmentJwt` of an Identity with `enrollment: {ott: true}`; a secret).",
    ),
  commonName: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Common name of the CSR (default: the identity id; the controller sets the certificate's subject).",
    ),
  keySize: z
    .number()
    .int()
    .min(2048)
    .max(4096)
    .multipleOf(1024)
    .default(2048)
    .describe("RSA key size in bits: 2048 (default), 3072 or 4096."),
  caBundle: caBundleArg(
    "(added to the controller's own CA bundle; rarely needed: the JWT anchors the trust).",
  ),
});
export type EnrollIdentityArgs = z.input<typeof EnrollIdentityArgs>;

export const EnrollIdentityResult = z.object({
  identityId: z.string().describe("Id of the enrolled identity (the JWT's subject)."),
  ztApi: z.string().describe("The controller's client API URL (`<issuer>/edge/client/v1`)."),
  certificatePem: z.string().describe("The identity's client certificate (PEM), signed by the controller."),
  privateKeyPem: z
    .string()
    .meta({ secret: true })
    .describe("The identity's private key (PEM, PKCS#8; a secret)."),
  caBundlePem: z.string().describe("The controller's CA bundle (PEM), from `/.well-known/est/cacerts`."),
  fingerprint: z
    .string()
    .describe("SHA-1 of the certificate (lowercase hex): the cert authenticator's fingerprint."),
  expiresAt: z.string().describe("When the certificate expires (ISO 8601)."),
  identityJson: z
    .string()
    .meta({ secret: true })
    .describe(
      'The standard Ziti identity file: {"ztAPI", "ztAPIs", "id": {"cert", "key", "ca"}} with `pem:` values (a secret: it holds the key).',
    ),
});
export type EnrollIdentityResult = z.output<typeof EnrollIdentityResult>;

interface EnrollmentClaims {
  iss: string;
  sub: string;
  jti: string;
  em: string;
  exp?: number;
}

/** Enrolls the identity of an ott enrollment JWT; see the module comment for the trust steps. */
export async function enrollIdentity(input: EnrollIdentityArgs): Promise<EnrollIdentityResult> {
  const args = parseArgs(FN, EnrollIdentityArgs, input);
  registerSecret(args.jwt);
  const { header, claims, signedPart, signature } = decodeJwt(args.jwt);
  registerSecret(claims.jti);
  const issuer = new URL(claims.iss);
  const extraCas = pemSetting(args.caBundle, "caBundle");

  // The CA bundle and the certificate presented with it: the bundle is trusted only once that
  // certificate proves to be the JWT's signer (the Go SDK pins the connection to it likewise).
  const bundle = await request(issuer, CA_CERTS_PATH, { method: "GET", accept: "application/pkcs7-mime" });
  if (!verifySignature(String(header.alg), signedPart, signature, bundle.peer)) {
    throw new ProviderError(
      `${FN}: the enrollment JWT is not signed by the certificate the controller at ${issuer.origin} presents ` +
        "(wrong controller, or a connection that is not the controller's): not enrolled",
    );
  }
  const caBundlePem = caBundleOf(issuer, bundle);
  const trust = extraCas ? `${caBundlePem}${extraCas}` : caBundlePem;

  const { privateKeyPem, csrPem } = generateKeyPairAndCsr(
    { commonName: args.commonName ?? claims.sub },
    args.keySize,
  );
  registerSecret(privateKeyPem);
  const answer = await request(issuer, `${CLIENT_API_PATH}/enroll/ott`, {
    method: "POST",
    ca: trust,
    body: JSON.stringify({ token: claims.jti, clientCsr: csrPem }),
  });
  if (answer.status !== 200) throw enrollmentRefused(answer);
  const certificatePem = String((parseJson(answer.body) as { data?: { cert?: unknown } })?.data?.cert ?? "");
  const leaf = firstCertificate(certificatePem);
  if (!leaf) throw new ProviderError(`${FN}: the controller's answer holds no certificate`);
  const ztApi = `${issuer.origin}${CLIENT_API_PATH}`;
  const identityJson = JSON.stringify({
    ztAPI: ztApi,
    ztAPIs: [ztApi],
    id: { cert: `pem:${certificatePem}`, key: `pem:${privateKeyPem}`, ca: `pem:${caBundlePem}` },
  });
  registerSecret(identityJson);
  return {
    identityId: claims.sub,
    ztApi,
    certificatePem,
    privateKeyPem,
    caBundlePem,
    fingerprint: leaf.fingerprint.replace(/:/g, "").toLowerCase(),
    expiresAt: new Date(leaf.validTo).toISOString(),
    identityJson,
  };
}

/** Header, claims and signature of the JWT, checked for what an ott enrollment needs (never quoting it). */
function decodeJwt(jwt: string) {
  const parts = jwt.trim().split(".");
  const bad = (why: string) => new ProviderError(`${FN}: jwt ${why}`);
  if (parts.length !== 3) throw bad("is not a JWT (three base64url parts separated by dots expected)");
  let header: Record<string, unknown>;
  let claims: Partial<EnrollmentClaims>;
  try {
    header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    throw bad("is not a JWT (its header or claims are not base64url JSON)");
  }
  if (claims.em !== "ott") {
    throw bad(
      `is a "${String(claims.em)}" enrollment: enrollIdentity handles ott (a certificate issued by the controller)`,
    );
  }
  for (const claim of ["iss", "sub", "jti"] as const)
    if (typeof claims[claim] !== "string" || claims[claim] === "") throw bad(`has no "${claim}" claim`);
  let issuer: URL;
  try {
    issuer = new URL(String(claims.iss));
  } catch {
    throw bad("has an issuer that is not a URL");
  }
  if (issuer.protocol !== "https:") throw bad(`names an issuer that is not https (${issuer.origin})`);
  if (typeof claims.exp === "number" && claims.exp * 1000 <= Date.now()) {
    throw bad(
      `expired at ${new Date(claims.exp * 1000).toISOString()}: re-issue the enrollment ` +
        "(Identity reissueExpiredEnrollment or reEnrollmentTrigger)",
    );
  }
  return {
    header,
    claims: claims as EnrollmentClaims,
    signedPart: `${parts[0]}.${parts[1]}`,
    signature: Buffer.from(parts[2], "base64url"),
  };
}

/** Whether the certificate's key made the signature (RS*, PS*, ES* as JWTs spell them). */
function verifySignature(alg: string, signed: string, signature: Buffer, cert: X509Certificate): boolean {
  const match = /^(RS|PS|ES)(256|384|512)$/.exec(alg);
  if (!match) return false;
  const hash = `sha${match[2]}`;
  const key = createPublicKey(cert.publicKey.export({ type: "spki", format: "pem" }));
  const options =
    match[1] === "ES"
      ? { key, dsaEncoding: "ieee-p1363" as const }
      : match[1] === "PS"
        ? { key, padding: cryptoConstants.RSA_PKCS1_PSS_PADDING, saltLength: Number(match[2]) / 8 }
        : { key };
  try {
    return verify(hash, Buffer.from(signed), options, signature);
  } catch {
    return false;
  }
}

/** The certificates of the EST answer (base64 DER of a certs-only PKCS#7), as one PEM text. */
function caBundleOf(issuer: URL, answer: Answer): string {
  const forge = nodeForge();
  if (answer.status !== 200) {
    throw new ProviderError(`${FN}: GET ${CA_CERTS_PATH} at ${issuer.origin} failed (HTTP ${answer.status})`);
  }
  let pems: string[];
  try {
    const der = Buffer.from(answer.body.replace(/\s+/g, ""), "base64").toString("binary");
    const p7 = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(der)) as Forge.pkcs7.PkcsSignedData;
    pems = p7.certificates.map((c) => forge.pki.certificateToPem(c));
  } catch {
    throw new ProviderError(
      `${FN}: the CA bundle from ${CA_CERTS_PATH} is not a base64 PKCS#7 of certificates`,
    );
  }
  if (pems.length === 0) throw new ProviderError(`${FN}: the CA bundle from ${CA_CERTS_PATH} is empty`);
  return pems.join("");
}

interface Answer {
  status: number;
  body: string;
  peer: X509Certificate;
}

interface RequestOptions {
  method: string;
  /** Verify TLS with these CAs (PEM). */
  ca?: string;
  body?: string;
  accept?: string;
}

/**
 * One HTTPS request on a connection of its own. Without `ca` the server is not verified: the caller
 * judges the answer by the certificate presented (`peer`).
 */
function request(issuer: URL, path: string, opts: RequestOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(path, issuer.origin),
      {
        method: opts.method,
        agent: false,
        timeout: TIMEOUT_MS,
        ...(opts.ca ? { ca: opts.ca } : { rejectUnauthorized: false }),
        headers: {
          accept: opts.accept ?? "application/json",
          ...(opts.body ? { "content-type": "application/json" } : {}),
        },
      },
      (res) => {
        const raw = (res.socket as TLSSocket).getPeerCertificate?.()?.raw;
        if (!raw) {
          res.destroy();
          reject(new ProviderError(`${FN}: ${issuer.origin} presented no TLS certificate`));
          return;
        }
        const peer = new X509Certificate(raw);
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), peer }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on("error", (error) =>
      reject(new ProviderError(`${FN}: ${opts.method} ${path} at ${issuer.origin} failed: ${error.message}`)),
    );
    req.end(opts.body);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function enrollmentRefused(answer: Answer): ProviderError {
  const error = (parseJson(answer.body) as { error?: { code?: string; message?: string } })?.error;
  const detail = error ? `${error.code ?? ""}: ${error.message ?? ""}` : answer.body.slice(0, 200);
  return new ProviderError(
    `${FN}: the controller refused the enrollment (HTTP ${answer.status} ${detail}); an ott is single-use ` +
      "and expires: re-issue it (Identity reEnrollmentTrigger) if it was used or lapsed",
  );
}

function firstCertificate(pem: string): X509Certificate | undefined {
  const block = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(pem);
  if (!block) return undefined;
  try {
    return new X509Certificate(block[0]);
  } catch {
    return undefined;
  }
}

export const enrollmentFunctions: FunctionDefinition[] = [
  {
    name: "enrollIdentity",
    description:
      "Enrolls an identity from its ott enrollment JWT through the Edge client API, as the OpenZiti SDKs do: the " +
      "controller named by the JWT must present the certificate that signed it, its CA bundle comes from " +
      "`/.well-known/est/cacerts`, a new key and CSR (node-forge) are sent with the one-time token (which the " +
      "controller consumes). Returns the certificate, the private key (secret), the CA bundle and the standard " +
      "Ziti identity JSON (secret).",
    inputs: EnrollIdentityArgs,
    outputs: EnrollIdentityResult,
    // The JWT names its controller: no setting is used.
    run: (args) => enrollIdentity(args as EnrollIdentityArgs),
  },
];
