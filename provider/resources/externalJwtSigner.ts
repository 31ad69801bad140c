// ExternalJwtSigner: an issuer of JWTs (an OIDC provider, a workload identity system) whose tokens
// identities may authenticate with; AuthPolicy `primary.extJwt.allowedSigners` and
// `secondary.requireExtJwtSigner` refer to its id. Keys come from exactly one of `jwksEndpoint` or
// `certPem`. Every field is sent on create and PUT, so the controller's defaults never apply.
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { CheckFailure, Props, ResourceContext, ResourceDefinition } from "../resource";
import { pemAsRead } from "./ca";
import { edgeName } from "./common";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { certificateInput, pemForRequest, pemInput } from "./pem";
import { setOf, tags } from "./roles";

const httpUrl = z.url({ protocol: /^https?$/ });

export const ExternalJwtSignerInputs = z.strictObject({
  name: edgeName("Name of the signer (unique)."),
  issuer: z.string().min(1).describe("Expected `iss` claim of the JWTs (unique among signers)."),
  audience: z.string().min(1).describe("Expected `aud` claim of the JWTs."),
  jwksEndpoint: httpUrl
    .optional()
    .describe("URL of the issuer's JWKS (its signing keys). Exactly one of jwksEndpoint and certPem."),
  certPem: pemInput
    .optional()
    .describe(
      "The certificate (PEM) whose key signs the JWTs. Exactly one of jwksEndpoint and certPem. Sent with LF line endings.",
    ),
  kid: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Key id of `certPem` (the JWT header `kid`); when unset, whatever the controller keeps is not drift.",
    ),
  claimsProperty: z.string().min(1).default("sub").describe('Claim that names the identity (default "sub").'),
  useExternalId: z
    .boolean()
    .default(false)
    .describe("Match `claimsProperty` against identities' externalId instead of their id (default false)."),
  enabled: z.boolean().default(true).describe("Whether JWTs of this signer are accepted (default true)."),
  externalAuthUrl: httpUrl
    .optional()
    .describe("Where clients obtain a JWT (the issuer's authorization URL), given to clients."),
  clientId: z.string().min(1).optional().describe("OAuth client id that clients use at externalAuthUrl."),
  scopes: setOf(z.string().min(1), "OAuth scopes that clients request (a set)."),
  targetToken: z
    .enum(["ACCESS", "ID"])
    .default("ACCESS")
    .describe("Which token clients present: the OAuth access token or the ID token (default ACCESS)."),
  tags,
});
export type ExternalJwtSignerInputs = z.output<typeof ExternalJwtSignerInputs>;

export const ExternalJwtSignerOutputs = z.object({
  fingerprint: z.string().nullable().describe("Fingerprint of certPem (null for a JWKS signer)."),
  commonName: z.string().nullable().describe("Subject common name of certPem (null for a JWKS signer)."),
  notBefore: z.string().nullable().describe("Start of certPem's validity (null for a JWKS signer)."),
  notAfter: z.string().nullable().describe("End of certPem's validity (null for a JWKS signer)."),
});

const collection = new EdgeCollection("ExternalJwtSigner", "external-jwt-signers");

function validate(inputs: ExternalJwtSignerInputs): CheckFailure[] {
  const { jwksEndpoint, certPem } = inputs;
  if (jwksEndpoint === undefined && certPem === undefined) {
    return [{ property: "jwksEndpoint", reason: "set either jwksEndpoint or certPem" }];
  }
  if (jwksEndpoint !== undefined && certPem !== undefined) {
    return [{ property: "certPem", reason: "set only one of jwksEndpoint and certPem" }];
  }
  const cert = certificateInput(certPem, "certPem");
  return Array.isArray(cert) ? cert : [];
}

/** The body of create and PUT (the swagger marks the optional fields nullable: null clears them). */
function body(inputs: ExternalJwtSignerInputs): Props {
  return {
    name: inputs.name,
    issuer: inputs.issuer,
    audience: inputs.audience,
    jwksEndpoint: inputs.jwksEndpoint ?? null,
    certPem: inputs.certPem === undefined ? null : pemForRequest(inputs.certPem),
    ...(inputs.kid !== undefined ? { kid: inputs.kid } : {}),
    claimsProperty: inputs.claimsProperty,
    useExternalId: inputs.useExternalId,
    enabled: inputs.enabled,
    externalAuthUrl: inputs.externalAuthUrl ?? null,
    clientId: inputs.clientId ?? null,
    scopes: inputs.scopes,
    targetToken: inputs.targetToken,
    tags: inputs.tags,
  };
}

/** Empty strings and zero times (what a controller answers for "none") read as null. */
function optional(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string" && value.startsWith("0001-01-01")) return null;
  return value;
}

function outputs(server: EdgeObject, state: Props): Props {
  return {
    name: server.name,
    issuer: server.issuer,
    audience: optional(server.audience),
    jwksEndpoint: optional(server.jwksEndpoint),
    // The same certificate in other whitespace is not a change.
    certPem: pemAsRead(optional(server.certPem), state.certPem),
    kid: optional(server.kid),
    claimsProperty: optional(server.claimsProperty) ?? "sub",
    useExternalId: server.useExternalId ?? false,
    enabled: server.enabled ?? false,
    externalAuthUrl: optional(server.externalAuthUrl),
    clientId: optional(server.clientId),
    scopes: listOf(server.scopes),
    targetToken: optional(server.targetToken) ?? "ACCESS",
    tags: tagsOf(server.tags),
    fingerprint: optional(server.fingerprint),
    commonName: optional(server.commonName),
    notBefore: optional(server.notBefore),
    notAfter: optional(server.notAfter),
  };
}

/**
 * POST, then read back. Real controllers (v1.5.0, v1.6.0) drop the tags of a new signer, though they
 * keep them on update: when the read-back has none of the declared tags, the whole state is PUT again.
 */
function create(ctx: ResourceContext, inputs: ExternalJwtSignerInputs) {
  return collection.createAndRead(ctx, inputs, body(inputs), outputs, async (id) => {
    const server = await collection.require(ctx, inputs, id);
    if (Object.keys(inputs.tags).length === 0 || Object.keys(tagsOf(server.tags)).length > 0) return server;
    await collection.put(ctx, inputs, id, body(inputs));
    return collection.require(ctx, inputs, id);
  });
}

export const externalJwtSigner = {
  kind: "ExternalJwtSigner",
  api: "edge" as const,
  description:
    "An OpenZiti external JWT signer: JWTs of this issuer (keys from `jwksEndpoint` or `certPem`) may " +
    "authenticate identities. Refer to its id in AuthPolicy `primary.extJwt.allowedSigners` or " +
    "`secondary.requireExtJwtSigner`.",
  inputs: ExternalJwtSignerInputs,
  outputs: ExternalJwtSignerOutputs,
  setProperties: ["scopes"],
  serverDefaults: ["kid"],
  validate,
  ...putOperations(collection, body, outputs),
  create,
  ...collectionOperations(collection, outputs),
} satisfies ResourceDefinition<ExternalJwtSignerInputs>;
