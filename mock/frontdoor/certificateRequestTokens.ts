// Certificate request tokens: a time-limited secret (`crt_...`) that lets its holder create client
// certificates without API credentials. expiresAt = createdAt + certificateRequestTokenTtlSeconds.
// As the API description says, a token is usable until `expiresAt` (then 401); the API description says nothing about single
// use, so a used token stays (unless the `consumeCertificateRequestTokens` option simulates a service
// that deletes it). Names share one namespace with certificates. The by-token lookup is an
// authenticated call like any other (only token-based certificate creation is anonymous).
import { randomBytes } from "node:crypto";
import type { FrontdoorMockOptions, RequestContext } from "./context";
import {
  assertCertificateNameFree,
  deletionRecord,
  listOrCreate,
  methodNotAllowed,
  requireOne,
  serverNow,
} from "./context";
import {
  invalidRequest,
  type JsonObject,
  jsonBody,
  nonEmpty,
  notFound,
  ok,
  optional,
  type PropertyRule,
  unauthorized,
  validate,
} from "./http";
import { type FrontdoorState, newId, nowIso } from "./store";

const COLLECTION = "certificate-request-tokens";
export const DEFAULT_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

const BODY_RULES: Record<string, PropertyRule> = {
  name: { type: "string", required: true, check: nonEmpty },
  commonName: { type: "string", nullable: true },
  organization: { type: "string", nullable: true },
  organizationalUnit: { type: "string", nullable: true },
};
const OPTIONAL_FIELDS = ["commonName", "organization", "organizationalUnit"] as const;

function findByToken(fd: FrontdoorState, token: string): JsonObject | undefined {
  return [...fd.collection(COLLECTION).values()].find((record) => record.token === token);
}

function isExpired(record: JsonObject, options: FrontdoorMockOptions): boolean {
  return serverNow(options) >= Date.parse(String(record.expiresAt));
}

/**
 * The token record a holder may use to create a certificate: 401 when unknown or expired.
 * Never echoes the token itself.
 */
export function usableToken(fd: FrontdoorState, token: string, options: FrontdoorMockOptions): JsonObject {
  const record = findByToken(fd, token);
  if (!record) throw unauthorized("certificate request token not valid");
  if (isExpired(record, options)) throw unauthorized("certificate request token expired");
  return record;
}

/** After a certificate was made with the token: kept (the API description), or deleted when the option says so. */
export function afterTokenUse(fd: FrontdoorState, record: JsonObject, options: FrontdoorMockOptions): void {
  if (options.consumeCertificateRequestTokens) fd.collection(COLLECTION).delete(record.id as string);
}

/** `GET .../by-token/{token}` (authenticated): the full record; 404 unknown, 401 expired. */
function lookUpByToken(ctx: RequestContext, token: string) {
  if (ctx.req.method !== "GET") throw methodNotAllowed(ctx.req.method);
  const record = findByToken(ctx.fd, token);
  if (!record) throw notFound("certificate request token not found");
  if (isExpired(record, ctx.options)) throw unauthorized("certificate request token expired");
  return ok(record);
}

export function handleCertificateRequestTokens(ctx: RequestContext) {
  const { req, fd, rest } = ctx;
  if (rest.length === 0)
    return listOrCreate(
      ctx,
      COLLECTION,
      (record) => record,
      () => create(ctx, jsonBody(req)),
    );
  if (rest.length === 2 && rest[0] === "by-token") return lookUpByToken(ctx, rest[1]);
  const record = requireOne(ctx, COLLECTION, "certificate request token");
  switch (req.method) {
    case "GET":
      return ok(record);
    case "PATCH":
      return ok(update(fd, record, jsonBody(req), optional(BODY_RULES), false));
    case "PUT":
      return ok(update(fd, record, jsonBody(req), BODY_RULES, true));
    case "DELETE":
      fd.collection(COLLECTION).delete(record.id as string);
      return ok(deletionRecord(record, fd.id, ctx.principal));
    default:
      throw methodNotAllowed(req.method);
  }
}

function rejectImmutable(body: JsonObject): void {
  if ("token" in body) throw invalidRequest("property 'token' cannot be changed");
}

function create(ctx: RequestContext, body: JsonObject): JsonObject {
  const { fd } = ctx;
  rejectImmutable(body);
  validate(body, BODY_RULES);
  assertCertificateNameFree(fd, body.name as string);
  const now = serverNow(ctx.options);
  const ttlSeconds = ctx.options.certificateRequestTokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  return fd.insert(COLLECTION, {
    id: newId(),
    name: body.name,
    frontdoorId: fd.id,
    token: `crt_${randomBytes(24).toString("base64url")}`,
    commonName: body.commonName ?? null,
    organization: body.organization ?? null,
    organizationalUnit: body.organizationalUnit ?? null,
    expiresAt: nowIso(now + ttlSeconds * 1000),
    createdAt: nowIso(now),
    createdBy: ctx.principal,
  });
}

function update(
  fd: FrontdoorState,
  record: JsonObject,
  body: JsonObject,
  rules: Record<string, PropertyRule>,
  replaceAll: boolean,
): JsonObject {
  rejectImmutable(body);
  validate(body, rules);
  if (body.name !== undefined) assertCertificateNameFree(fd, body.name as string, record.id as string);
  if (body.name !== undefined) record.name = body.name;
  for (const field of OPTIONAL_FIELDS) {
    // PUT replaces: an optional field left out becomes null. PATCH changes only what it names.
    if (field in body || replaceAll) record[field] = body[field] ?? null;
  }
  return record;
}
