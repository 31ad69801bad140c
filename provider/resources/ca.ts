// Ca: a third-party certificate authority whose certificates identities may authenticate or enroll
// with. A CA is created unverified; given the CA's private key, the provider verifies it itself: it
// issues a certificate whose CN is the CA's verificationToken, signed by that key, and POSTs it as
// text/plain to /cas/{id}/verify. `certPem` is immutable (a change replaces the CA).
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  X509Certificate,
} from "node:crypto";
import { z } from "zod";
import { nodeForge } from "../forge";
import type { EdgeObject } from "../http/edge";
import { ApiError } from "../http/errors";
import type { CheckFailure, Props, ResourceContext, ResourceDefinition } from "../resource";
import { containsUnknown } from "../resource";
import { edgeName } from "./common";
import { defined, EdgeCollection, listOf, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { certificateInput, expiryFailures, pemForRequest, pemInput } from "./pem";
import { setOf, tags } from "./roles";

export const ExternalIdClaim = z
  .strictObject({
    location: z.enum(["COMMON_NAME", "SAN_URI", "SAN_EMAIL"]).describe("Where in the certificate the id is."),
    matcher: z
      .enum(["ALL", "PREFIX", "SUFFIX", "SCHEME"])
      .default("ALL")
      .describe("Which values match (default ALL)."),
    matcherCriteria: z.string().default("").describe("Prefix, suffix or scheme for the matcher."),
    parser: z.enum(["NONE", "SPLIT"]).default("NONE").describe("How the value is parsed (default NONE)."),
    parserCriteria: z.string().default("").describe("Separator for SPLIT."),
    index: z.number().int().min(0).default(0).describe("Which match or split part is used (default 0)."),
  })
  .meta({
    id: "CaExternalIdClaim",
    description: "How an identity's externalId is read from its certificate.",
  });

export const CaInputs = z.strictObject({
  name: edgeName("Name of the CA (unique)."),
  certPem: pemInput.describe(
    "The CA certificate (PEM; sent with LF line endings, without surrounding whitespace). Immutable: a change replaces the CA.",
  ),
  isAuthEnabled: z
    .boolean()
    .default(false)
    .describe("Certificates it signed may authenticate (default false)."),
  isAutoCaEnrollmentEnabled: z
    .boolean()
    .default(false)
    .describe("Identities are created on first authentication with a certificate it signed (default false)."),
  isOttCaEnrollmentEnabled: z
    .boolean()
    .default(false)
    .describe("Identities may enroll by ottca with a certificate it signed (default false)."),
  identityRoles: setOf(
    z.string().min(1),
    "Role attributes (without #) given to identities enrolled through this CA (a set).",
  ),
  identityNameFormat: z
    .string()
    .min(1)
    .optional()
    .describe('Name of auto-enrolled identities (controller default "[caName] - [commonName]").'),
  externalIdClaim: ExternalIdClaim.optional(),
  tags,
  privateKeyPem: z
    .string()
    .min(1)
    .optional()
    .meta({ secret: true })
    .describe(
      "The CA's private key (PEM, RSA; a secret): with it the provider verifies the CA after creating it.",
    ),
});
export type CaInputs = z.output<typeof CaInputs>;

const collection = new EdgeCollection("Ca", "cas");

function validate(inputs: CaInputs, olds: Props): CheckFailure[] {
  const cert = certificateInput(inputs.certPem, "certPem", true);
  if (cert === undefined) return [];
  if (Array.isArray(cert)) return cert;
  if (!cert.ca) {
    return [{ property: "certPem", reason: "is not a CA certificate (basicConstraints cA is not true)" }];
  }
  const expired = expiryFailures(cert, "certPem", olds.certPem === inputs.certPem, collection.label(inputs));
  if (expired.length) return expired;
  if (inputs.privateKeyPem === undefined || containsUnknown(inputs.privateKeyPem)) return [];
  const failure = (reason: string) => [{ property: "privateKeyPem", reason }];
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(inputs.privateKeyPem);
  } catch {
    return failure("is not a PEM private key");
  }
  const spki = { type: "spki", format: "der" } as const;
  if (!createPublicKey(key).export(spki).equals(cert.publicKey.export(spki))) {
    return failure("does not belong to certPem");
  }
  // The verification certificate is made with node-forge, which signs with RSA keys only.
  if (key.asymmetricKeyType !== "rsa")
    return failure("automatic verification needs an RSA key; verify other CAs yourself");
  return [];
}

function body(inputs: CaInputs, identityNameFormat: unknown): Props {
  return defined({
    name: inputs.name,
    isAuthEnabled: inputs.isAuthEnabled,
    isAutoCaEnrollmentEnabled: inputs.isAutoCaEnrollmentEnabled,
    isOttCaEnrollmentEnabled: inputs.isOttCaEnrollmentEnabled,
    identityRoles: inputs.identityRoles,
    identityNameFormat,
    externalIdClaim: inputs.externalIdClaim,
    tags: inputs.tags,
  });
}

/** Whether two PEM texts hold the same certificate (whitespace aside). */
export function sameCertificate(a: unknown, b: unknown): boolean {
  try {
    const parse = (pem: unknown) => new X509Certificate(pemForRequest(String(pem)));
    return parse(a).raw.equals(parse(b).raw);
  } catch {
    return false;
  }
}

/**
 * A certificate input as read: the state's text when the controller holds the same certificate (in any
 * whitespace), else the controller's copy in the form check gives an input (\n line endings). Read by id
 * alone (an import), a certificate uploaded with \r\n would otherwise differ from the program the CLI
 * writes from it (a YAML block keeps no \r): a replacement on the first preview.
 */
export function pemAsRead(server: unknown, state: unknown): unknown {
  if (sameCertificate(server, state)) return state;
  return typeof server === "string" && server ? pemForRequest(server) : server;
}

function outputs(server: EdgeObject, state: Props): Props {
  return {
    name: server.name,
    // The same certificate in other whitespace is not a change (it would replace the CA).
    certPem: pemAsRead(server.certPem, state.certPem),
    isAuthEnabled: server.isAuthEnabled ?? false,
    isAutoCaEnrollmentEnabled: server.isAutoCaEnrollmentEnabled ?? false,
    isOttCaEnrollmentEnabled: server.isOttCaEnrollmentEnabled ?? false,
    identityRoles: listOf(server.identityRoles),
    identityNameFormat: server.identityNameFormat ?? null,
    externalIdClaim: server.externalIdClaim ?? null,
    tags: tagsOf(server.tags),
    // Never returned by the controller: kept from the program.
    privateKeyPem: state.privateKeyPem ?? null,
    fingerprint: server.fingerprint ?? null,
    isVerified: server.isVerified ?? false,
    verificationToken: server.verificationToken ?? null,
  };
}

/** A certificate with CN = the verification token, signed by the CA's key (valid one hour). */
export function verificationCertificate(caCertPem: string, caKeyPem: string, token: string): string {
  const forge = nodeForge();
  const caCert = forge.pki.certificateFromPem(caCertPem);
  const caKey = forge.pki.privateKeyFromPem(caKeyPem);
  // A fresh subject key, made natively (forge's pure-JS RSA key generation is slow).
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`; // positive, 16 bytes
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 5 * 60_000);
  cert.validity.notAfter = new Date(now + 60 * 60_000);
  cert.setSubject([{ name: "commonName", value: token }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.sign(caKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** Verifies the CA with its key when it is not verified yet; returns the CA as it now is. */
async function verifyIfPossible(ctx: ResourceContext, inputs: CaInputs, id: string): Promise<EdgeObject> {
  for (let attempt = 1; ; attempt++) {
    const server = await collection.require(ctx, inputs, id);
    if (server.isVerified || !inputs.privateKeyPem) return server;
    const pem = verificationCertificate(
      inputs.certPem,
      inputs.privateKeyPem,
      String(server.verificationToken),
    );
    try {
      await ctx.edge().request({
        method: "POST",
        path: collection.path(id, "verify"),
        body: pem,
        contentType: "text/plain",
        resource: collection.label(inputs),
        accept: [409], // already verified (by someone else meanwhile): the goal is reached
      });
      return collection.require(ctx, inputs, id);
    } catch (err) {
      // The answer was lost: whether it was carried out shows in the CA (checked at the loop's top).
      if (!(err instanceof ApiError && err.ambiguous) || attempt >= VERIFY_ATTEMPTS) throw err;
    }
  }
}

/** How many times a verification whose answer was lost is checked and, if not done, sent again. */
const VERIFY_ATTEMPTS = 3;

export const ca = {
  kind: "Ca",
  api: "edge" as const,
  description:
    "An OpenZiti certificate authority (CA) for certificate authentication and ottca/auto enrollment. It is created " +
    "unverified; with `privateKeyPem` (RSA) the provider verifies it automatically. `certPem` is immutable.",
  inputs: CaInputs,
  outputs: z.object({
    fingerprint: z.string().nullable().describe("Fingerprint of the CA certificate."),
    isVerified: z.boolean().describe("Whether the CA is verified (only verified CAs can be used)."),
    verificationToken: z
      .string()
      .nullable()
      .describe("Token to put in the CN of a certificate signed by the CA to verify it (secret)."),
  }),
  replaceOnChanges: ["certPem"],
  // The certificate's fingerprint is unique: the old CA must go before the new one is created.
  deleteBeforeReplace: true,
  setProperties: ["identityRoles"],
  serverDefaults: ["identityNameFormat"],
  secretOutputs: ["verificationToken", "privateKeyPem"],
  validate,
  async create(ctx, inputs) {
    const request = { ...body(inputs, inputs.identityNameFormat), certPem: pemForRequest(inputs.certPem) };
    return collection.createAndRead(ctx, inputs, request, outputs, (id) => verifyIfPossible(ctx, inputs, id));
  },
  async update(ctx, id, olds, news) {
    // PUT needs identityNameFormat: when the program leaves it to the server, the current one is sent.
    const nameFormat =
      news.identityNameFormat ??
      olds.identityNameFormat ??
      (await collection.require(ctx, news, id)).identityNameFormat;
    await collection.put(ctx, news, id, body(news, nameFormat));
    return outputs(await verifyIfPossible(ctx, news, id), news);
  },
  ...collectionOperations(collection, outputs),
  // An adopted CA is verified like a new one (e.g. its create answer was lost before verification).
  adopt: async (ctx, id, inputs) => outputs(await verifyIfPossible(ctx, inputs, id), inputs),
} satisfies ResourceDefinition<CaInputs>;
