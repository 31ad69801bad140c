// Client certificates. `value` with PEM label CERTIFICATE is uploaded (must parse); with label
// CERTIFICATE REQUEST it is a CSR that is verified and signed by the frontdoor's intermediate CA.
// `value` is returned (as the certificate) only by get-by-id. Token-based creation
// (`POST .../client-certificates/token/{token}`, no Authorization) uses the token, which stays usable
// until it expires (see certificateRequestTokens.ts).
import { X509Certificate } from "node:crypto";
import { PkiInputError, parseVerifiedCsr, type SubjectFields, signCsr } from "../pki";
import type { MockRequest } from "../types";
import { afterTokenUse, usableToken } from "./certificateRequestTokens";
import {
  assertCertificateNameFree,
  assertNameFree,
  deletionRecord,
  type FrontdoorMockOptions,
  listOrCreate,
  methodNotAllowed,
  type RequestContext,
  requireOne,
} from "./context";
import { invalidRequest, type JsonObject, jsonBody, nonEmpty, ok, type PropertyRule, validate } from "./http";
import { type FrontdoorState, newId, nowIso } from "./store";

const COLLECTION = "client-certificates";

const BODY_RULES: Record<string, PropertyRule> = {
  name: { type: "string", required: true, check: nonEmpty },
  value: { type: "string", required: true },
};
const TOKEN_BODY_RULES: Record<string, PropertyRule> = {
  name: { type: "string" },
  type: { type: "string", required: true },
  value: { type: "string", required: true },
};

const CERTIFICATE_LABEL = /^\s*-----BEGIN CERTIFICATE-----/;
const CSR_LABEL = /^\s*-----BEGIN (NEW )?CERTIFICATE REQUEST-----/;

/** Parses an uploaded certificate; answers its canonical PEM (the server re-encodes what it stores). */
function uploadedCertificate(pem: string): string {
  try {
    return new X509Certificate(pem).toString();
  } catch {
    throw invalidRequest("property 'value' is not a valid PEM certificate");
  }
}

function generatedCertificate(fd: FrontdoorState, pem: string, subject?: SubjectFields): string {
  try {
    return signCsr(fd.ca, parseVerifiedCsr(pem), subject);
  } catch (error) {
    if (error instanceof PkiInputError) throw invalidRequest(`property 'value' ${error.message}`);
    throw error;
  }
}

/** The upload-versus-generate rule of the authenticated create and PUT: the PEM label decides. */
function certificateFromValue(fd: FrontdoorState, value: string): string {
  if (CERTIFICATE_LABEL.test(value)) return uploadedCertificate(value);
  if (CSR_LABEL.test(value)) return generatedCertificate(fd, value);
  throw invalidRequest("property 'value' must be a PEM certificate or a PEM certificate request");
}

const summary = (record: JsonObject) => ({
  id: record.id,
  name: record.name,
  frontdoorId: record.frontdoorId,
  createdAt: record.createdAt,
  createdBy: record.createdBy,
});

function insertCertificate(fd: FrontdoorState, name: string, value: string, createdBy: string): JsonObject {
  return fd.insert(COLLECTION, {
    id: newId(),
    name,
    frontdoorId: fd.id,
    createdAt: nowIso(),
    createdBy,
    value,
  });
}

export function handleClientCertificates(ctx: RequestContext) {
  const { req, fd, rest } = ctx;
  if (rest.length === 0)
    return listOrCreate(ctx, COLLECTION, summary, () => summary(create(ctx, jsonBody(req))));
  const record = requireOne(ctx, COLLECTION, "client certificate");
  switch (req.method) {
    case "GET":
      return ok(record);
    case "PATCH": {
      const body = jsonBody(req);
      validate(body, { name: { ...BODY_RULES.name } });
      rename(fd, record, body.name as string);
      return ok(summary(record));
    }
    case "PUT": {
      const body = jsonBody(req);
      validate(body, BODY_RULES);
      const value = certificateFromValue(fd, body.value as string);
      rename(fd, record, body.name as string);
      record.value = value;
      return ok(summary(record));
    }
    case "DELETE":
      fd.collection(COLLECTION).delete(record.id as string);
      return ok(deletionRecord(record, fd.id, ctx.principal));
    default:
      throw methodNotAllowed(req.method);
  }
}

function create(ctx: RequestContext, body: JsonObject): JsonObject {
  validate(body, BODY_RULES);
  assertCertificateNameFree(ctx.fd, body.name as string);
  const value = certificateFromValue(ctx.fd, body.value as string);
  return insertCertificate(ctx.fd, body.name as string, value, ctx.principal);
}

function rename(fd: FrontdoorState, record: JsonObject, name: string): void {
  assertCertificateNameFree(fd, name, record.id as string);
  record.name = name;
}

/**
 * `POST /frontdoor/{fd}/client-certificates/token/{token}`, authenticated by the token alone.
 * `{type: "CSR", value}`: signed with the token's subject metadata, named after the token.
 * `{name, type: "CERTIFICATE", value}`: uploaded under `name`.
 */
export function handleTokenBasedCreate(
  fd: FrontdoorState,
  token: string,
  req: MockRequest,
  options: FrontdoorMockOptions,
) {
  if (req.method !== "POST") throw methodNotAllowed(req.method);
  const tokenRecord = usableToken(fd, token, options);
  const body = jsonBody(req);
  validate(body, TOKEN_BODY_RULES);
  const value = body.value as string;
  let name: string;
  let certificatePem: string;
  if (body.type === "CSR") {
    if (body.name !== undefined) throw invalidRequest("property 'name' is not allowed with type CSR");
    if (!CSR_LABEL.test(value)) throw invalidRequest("property 'value' must be a PEM certificate request");
    name = tokenRecord.name as string;
    certificatePem = generatedCertificate(fd, value, {
      // The token's name stands in when it carries no common name.
      commonName: (tokenRecord.commonName as string | null) ?? name,
      organization: tokenRecord.organization as string | null,
      organizationalUnit: tokenRecord.organizationalUnit as string | null,
    });
  } else if (body.type === "CERTIFICATE") {
    if (typeof body.name !== "string" || body.name === "") {
      throw invalidRequest("property 'name' is required with type CERTIFICATE");
    }
    if (!CERTIFICATE_LABEL.test(value)) throw invalidRequest("property 'value' must be a PEM certificate");
    name = body.name;
    certificatePem = uploadedCertificate(value);
  } else {
    throw invalidRequest("property 'type' must be one of CSR, CERTIFICATE");
  }
  // The certificate may share its name with the token that made it (the token's name is its name);
  // a second certificate from the same CSR token clashes with the first one (409).
  assertNameFree(fd, ["client-certificates"], name);
  if (body.type === "CERTIFICATE")
    assertNameFree(fd, ["certificate-request-tokens"], name, tokenRecord.id as string);
  afterTokenUse(fd, tokenRecord, options);
  const record = insertCertificate(fd, name, certificatePem, tokenRecord.createdBy as string);
  return ok(summary(record), 201);
}
