// What a resource handler of the Frontdoor mock gets for one request, and helpers they share.
import type { MockRequest, MockResponse } from "../types";
import { FrontdoorError, invalidRequest, type JsonObject, ok } from "./http";
import { pageOf } from "./paging";
import { type Collection, type FrontdoorState, nowIso } from "./store";

export interface FrontdoorMockOptions {
  /** A new custom frontend is NEW for this long, then PENDING. Default 500. */
  customFrontendReadyAfterMs?: number;
  /** After becoming PENDING, a custom frontend turns ACTIVE after this long. Default: never. */
  customFrontendActiveAfterMs?: number;
  /** Lifetime of OAuth2 access tokens. Default 3600. */
  oauthTokenTtlSeconds?: number;
  /** Lifetime of certificate request tokens. Default 7 days. */
  certificateRequestTokenTtlSeconds?: number;
  /**
   * Delete a certificate request token once a certificate was made with it. Default false: the API description
   * says a token is usable until `expiresAt` and nothing about single use; this simulates a service
   * that does consume tokens, so tests can show the provider copes with both.
   */
  consumeCertificateRequestTokens?: boolean;
  /**
   * Serve `GET /frontdoor/{id}/custom-frontends` (a list the API description marks "not shown"). Default true;
   * false answers 405, as a service without that endpoint would.
   */
  listCustomFrontends?: boolean;
  /** The server's clock runs this many seconds ahead (negative: behind): its `Date` header and expiry checks. */
  clockSkewSeconds?: number;
}

/** The mock server's idea of "now" (epoch ms), skewed by `clockSkewSeconds`. */
export function serverNow(options: FrontdoorMockOptions): number {
  return Date.now() + (options.clockSkewSeconds ?? 0) * 1000;
}

export interface RequestContext {
  req: MockRequest;
  fd: FrontdoorState;
  /** Who is calling (the token's principal), for createdBy / deletedBy. */
  principal: string;
  options: FrontdoorMockOptions;
  /** Path segments after the collection name, e.g. ["<id>", "dns-records"]. */
  rest: string[];
}

export type ResourceHandler = (ctx: RequestContext) => MockResponse | Promise<MockResponse>;

export const methodNotAllowed = (method: string) =>
  new FrontdoorError(405, "method_not_allowed", `method ${method} is not allowed here`);

/** The delete answer of client certificates and certificate request tokens. */
export function deletionRecord(record: JsonObject, frontdoorId: string, principal: string): JsonObject {
  return { id: record.id, name: record.name, frontdoorId, deletedAt: nowIso(), deletedBy: principal };
}

/** A 409 unless `name` is free in `collection` (the record `exceptId` may keep its own name). */
export function assertNameFree(
  fd: FrontdoorState,
  collections: Collection[],
  name: string,
  exceptId?: string,
): void {
  for (const collection of collections) {
    for (const record of fd.collection(collection).values()) {
      if (record.name === name && record.id !== exceptId) {
        const what =
          collection === "auth-providers" ? "an auth provider" : describeCertificateName(collection);
        throw new FrontdoorError(409, "conflict", `${what} named '${name}' already exists`);
      }
    }
  }
}

function describeCertificateName(collection: Collection): string {
  return collection === "client-certificates" ? "a client certificate" : "a certificate request token";
}

/** Certificates and certificate request tokens share one namespace of names within a frontdoor. */
export function assertCertificateNameFree(fd: FrontdoorState, name: string, exceptId?: string): void {
  assertNameFree(fd, ["client-certificates", "certificate-request-tokens"], name, exceptId);
}

/**
 * A request for the collection itself (no id in the path): GET lists every record (each shown
 * through `view`, sorted by `sortField` unless the query asks otherwise), POST creates one (201).
 */
export function listOrCreate(
  ctx: RequestContext,
  collection: Collection,
  view: (record: JsonObject) => JsonObject,
  create: () => unknown,
  sortField = "name",
): MockResponse {
  const { req, fd } = ctx;
  if (req.method === "GET")
    return ok(pageOf([...fd.collection(collection).values()].map(view), req.query, sortField));
  if (req.method === "POST") return ok(create(), 201);
  throw methodNotAllowed(req.method);
}

/** The record named by the one path segment below the collection (400 for a longer path, 404 when unknown). */
export function requireOne(ctx: RequestContext, collection: Collection, what: string): JsonObject {
  if (ctx.rest.length !== 1) throw invalidRequest(`unknown path ${ctx.req.path}`);
  return ctx.fd.require(collection, ctx.rest[0], what);
}
