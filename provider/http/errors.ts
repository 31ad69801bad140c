// The one error type of the HTTP layer: it names the resource, the operation, the HTTP status and the
// server's own message, and never a credential (messages pass through `redact`).
import { redact } from "../redact";

export interface ApiErrorDetails {
  /** What was being worked on, e.g. `AuthProvider "corp-sso"` or `Frontdoor API`. */
  resource: string;
  method: string;
  /** Request path without query string. */
  path: string;
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
        `${details.resource}: ${details.method} ${details.path} failed (${status}${code}): ${details.serverMessage}`,
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
