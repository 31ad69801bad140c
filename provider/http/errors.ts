// The one error type of the HTTP layer: it names the resource, the operation, the HTTP status and the
// server's own message, and never a credential (messages pass through `redact`).
import { redact } from "../redact";

export interface ApiErrorDetails {
  /** What was being worked on, e.g. `AuthProvider "corp-sso"` or `Frontdoor API`. */
  resource: string;
  method: string;
  /** Request path without query string. */
  path: string;
  /** The URL requested (base URL and path, without query string), shown in the message when known. */
  url?: string;
  /** HTTP status; 0 when no answer arrived (network error, timeout). */
  status: number;
  /** Machine-readable code from the server (`conflict`, `COULD_NOT_VALIDATE`, ...), if any. */
  code?: string;
  /** The server's message (or the network error's). */
  serverMessage: string;
  /** True when the request may have reached the server but the answer was lost (a POST then is ambiguous). */
  ambiguous?: boolean;
}

export class ApiError extends Error {
  readonly resource: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly code?: string;
  readonly serverMessage: string;
  readonly ambiguous: boolean;

  constructor(details: ApiErrorDetails) {
    const status = details.status ? `HTTP ${details.status}` : "no response";
    const code = details.code ? ` ${details.code}` : "";
    super(
      redact(
        `${details.resource}: ${details.method} ${details.url ?? details.path} failed (${status}${code}): ${details.serverMessage}`,
      ),
    );
    this.name = "ApiError";
    this.resource = details.resource;
    this.method = details.method;
    this.path = redact(details.path);
    this.status = details.status;
    this.code = details.code;
    this.serverMessage = redact(details.serverMessage);
    this.ambiguous = details.ambiguous ?? false;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

/** A problem the user must fix (configuration, input), as opposed to an API failure. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(redact(message));
    this.name = "ProviderError";
  }
}

/**
 * A create answered 2xx without an id: the object may exist, but is not named, so it is as ambiguous as
 * a lost answer (the caller looks it up by name, as after a network error).
 */
export function answerWithoutIdError(resource: string, path: string, status: number): ApiError {
  return new ApiError({
    resource,
    method: "POST",
    path,
    status,
    serverMessage: "the answer has no id",
    ambiguous: true,
  });
}

/**
 * The object exists on the server, but the operation did not finish (reading it back, waiting for it to
 * be ready, verifying it). The dynamic-provider host reports an error carrying `id` and `properties` as
 * "created, but failed to initialize": the engine keeps the object in the state with these properties
 * (no orphan), and the next `up` updates it, which finishes the work; a refresh reads it in full.
 */
export class PartialFailureError extends ProviderError {
  readonly reasons: string[];
  constructor(
    message: string,
    readonly id: string,
    public properties: Record<string, unknown>,
  ) {
    super(message);
    this.name = "PartialFailureError";
    this.reasons = [this.message];
  }
}

/** A list endpoint the API does not document, and this server does not offer (404/405). */
export class ListUnavailableError extends ProviderError {
  constructor(message: string) {
    super(message);
    this.name = "ListUnavailableError";
  }
}

/** Beyond this difference between the local clock and the server's `Date` header, a 401 says so. */
export const CLOCK_SKEW_LIMIT_SECONDS = 60;

/**
 * A hint for a 401 when the server's `Date` header and the local clock disagree: tokens are
 * time-bound, and clock skew on the caller can make a token look expired (seed, Authentication 3).
 */
export function clockSkewHint(dateHeader: unknown, now = Date.now()): string {
  const serverMs = typeof dateHeader === "string" ? Date.parse(dateHeader) : Number.NaN;
  if (Number.isNaN(serverMs)) return "";
  const skewSeconds = Math.round((now - serverMs) / 1000);
  if (Math.abs(skewSeconds) <= CLOCK_SKEW_LIMIT_SECONDS) return "";
  const direction = skewSeconds > 0 ? "ahead of" : "behind";
  return (
    ` (the local clock is ${Math.abs(skewSeconds)} s ${direction} the server's Date header: clock skew ` +
    "can make a token look expired or not yet valid; synchronise the clock, e.g. with NTP)"
  );
}
