// Shapes shared by the parts of the mock server. The mock imports nothing from provider/ or sdk/:
// it is an independent implementation of the API contracts, so the two sides check each other.
import type { IncomingHttpHeaders } from "node:http";
import type { PeerCertificate } from "node:tls";

/** A fully read request, as every API module of the mock sees it. */
export interface MockRequest {
  method: string;
  /** Path without the query string, e.g. `/frontdoor/fd-1/auth-providers`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Raw body (possibly empty). */
  body: Buffer;
  /** The TLS client certificate, when the server runs HTTPS and the client sent one. */
  clientCertificate?: PeerCertificate;
}

/** What an API module answers. A non-Buffer, non-string body is sent as JSON. */
export interface MockResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Called once the answer was handed to the network (a cluster node killing itself on request). */
  afterSent?: () => void;
}

/**
 * One API served by the mock (frontdoor, edge, search). `handle` answers `undefined` when the path
 * is not its own, so the server can try the next module.
 */
export interface MockApi {
  handle(req: MockRequest): Promise<MockResponse | undefined> | MockResponse | undefined;
}
