// Response envelopes and errors of the Edge management API, spelled as a real controller spells
// them: `{data, meta}` on success, `{error: {code, message, requestId, cause?}, meta}` on failure.
import { randomUUID } from "node:crypto";
import type { MockResponse } from "../types";

export const BASE_PATH = "/edge/management/v1";

export function meta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: "0.0.1", apiEnrollmentVersion: "0.0.1", ...extra };
}

export function ok(data: unknown, extraMeta: Record<string, unknown> = {}): MockResponse {
  return { status: 200, body: { data, meta: meta(extraMeta) } };
}

/** PATCH/PUT/DELETE and other "nothing to say" successes answer `{data: {}, meta: {}}`. */
export function empty(): MockResponse {
  return { status: 200, body: { data: {}, meta: {} } };
}

export function created(collectionPath: string, id: string): MockResponse {
  return {
    status: 201,
    body: { data: { id, _links: selfLink(collectionPath, id) }, meta: {} },
  };
}

export function selfLink(collectionPath: string, id: string): Record<string, { href: string }> {
  return { self: { href: `./${collectionPath}/${id}` } };
}

export interface FieldCause {
  field: string;
  reason: string;
  value: unknown;
}

/** An error answer. Handlers throw it; the router turns it into the error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly cause?: FieldCause,
  ) {
    super(message);
  }

  toResponse(): MockResponse {
    const error: Record<string, unknown> = {
      code: this.code,
      message: this.message,
      requestId: randomUUID(),
      args: { urlVars: {} },
    };
    if (this.cause) {
      error.cause = this.cause;
      error.causeMessage = `${this.cause.field}: ${this.cause.reason}`;
    }
    return { status: this.status, body: { error, meta: meta() } };
  }
}

export const notFound = () =>
  new ApiError(404, "NOT_FOUND", "The resource requested was not found or is no longer available");

export const unauthorized = () =>
  new ApiError(
    401,
    "UNAUTHORIZED",
    "The request could not be completed. The session is not authorized or the credentials are invalid",
  );

export const invalidAuth = () => new ApiError(401, "INVALID_AUTH", "The authentication request failed");

/** 400 COULD_NOT_VALIDATE naming the offending field. Never pass a secret as `value`. */
export function invalidField(field: string, reason: string, value: unknown): ApiError {
  return new ApiError(400, "COULD_NOT_VALIDATE", "The supplied request contains an invalid document", {
    field,
    reason,
    value,
  });
}

/** A short reference to another entity: `{_links, entity, id, name}`. */
export function entityRef(collectionPath: string, id: string, name: string): Record<string, unknown> {
  return { _links: selfLink(collectionPath, id), entity: collectionPath, id, name };
}
