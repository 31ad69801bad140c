// One HTTP client per API, on undici: pooled keep-alive connections, TLS verified against the system
// roots or a configured CA bundle (never disabled), JSON in and out, timeouts, and retries with
// backoff on 429/502/503/504 and on network errors (for a POST that is not idempotent, only on 429 and
// errors before sending: after a lost answer or a 502/503/504 the caller looks the object up).
// Authentication is pluggable (`AuthScheme`), so the Frontdoor, Edge and search clients share this
// mechanism and differ only in how they sign requests.
import { createSecureContext, rootCertificates } from "node:tls";
import type { Dispatcher } from "undici";
import { debug, debugging, progress } from "../log";
import { ApiError, clockSkewHint, ProviderError } from "./errors";
import {
  backoffDelay,
  DEFAULT_RETRY,
  isAmbiguousStatus,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
  sleep,
} from "./retry";
import { poolClass, type RequestApi, requestApi } from "./undiciParts";

export interface TlsOptions {
  /** Extra trusted CA certificates (PEM), for servers with their own CA. */
  caBundle?: string;
  /** Client certificate and key (PEM) for mutual TLS. */
  clientCertPem?: string;
  clientKeyPem?: string;
}

/**
 * The TLS options of every connection of a client: one secure context, made once. Given as `ca`
 * (Node's roots plus the bundle: adding a CA must not drop public roots), each new connection would
 * build a context of its own and parse all ~145 roots again: about 20 ms of CPU per connection,
 * most of the provider's own CPU in a profile of 50 services at --parallel 8. Options the context
 * refuses (e.g. a malformed key) are passed as they are, so the connection fails and says why, as before.
 */
function tlsConnectOptions(tls: TlsOptions): object {
  const options = {
    ...(tls.caBundle ? { ca: [...rootCertificates, tls.caBundle] } : {}),
    ...(tls.clientCertPem ? { cert: tls.clientCertPem, key: tls.clientKeyPem } : {}),
  };
  if (Object.keys(options).length === 0) return {};
  try {
    return { secureContext: createSecureContext(options) };
  } catch {
    return options;
  }
}

/**
 * Before a server has answered a client once, a refused connection or an unknown host is a wrong address
 * (a setting), not an outage: it is tried for about this long, not for the whole retry budget. Once the
 * server has answered, the same error is a restart or an outage and is retried as before.
 */
export const UNREACHABLE_AT_FIRST_MS = 1_000;

/** A wait of a request that would end this long after its first attempt prints a progress line (log.ts). */
export const PROGRESS_AFTER_MS = 3_000;

export interface HttpClientOptions {
  /** e.g. `https://gateway.example.com`; request paths are appended. */
  baseUrl: string;
  /** Shown in errors when no resource is named, e.g. `Frontdoor API`. */
  apiName: string;
  tls?: TlsOptions;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Pool size per origin. */
  connections?: number;
  /**
   * One node of a cluster (cluster.ts): a node that cannot serve (no connection, a timeout, 502/503/504)
   * fails at once instead of being retried here, so that the cluster moves to another node.
   */
  failFast?: boolean;
}

/** How a client authenticates: headers for each request, and what to do when the server says 401. */
export interface AuthScheme {
  /** Static credentials answer at once; a session or token that may need fetching answers a promise. */
  headers(): Record<string, string> | Promise<Record<string, string>>;
  /** Called once on a 401; returns true when credentials were renewed and the request may be retried. */
  renew?(): Promise<boolean>;
}

export const noAuth: AuthScheme = { headers: () => ({}) };

export interface RequestOptions {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON body (object) or a raw text body (string, sent with `contentType`). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Names what is being worked on, for error messages: `AuthProvider "corp-sso"`. */
  resource?: string;
  /** Send without credentials (e.g. token-authenticated calls). */
  anonymous?: boolean;
  /** Statuses that are answers, not errors (e.g. 404 on read means "gone"). */
  accept?: number[];
  /** A POST that may safely be sent again when its answer was lost (e.g. a login): retried like a GET. */
  idempotent?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

/** Turns an error answer into the server's code and message; each API has its own error shape. */
export type ErrorParser = (body: unknown) => { code?: string; message?: string };

export class HttpClient {
  readonly dispatcher: Dispatcher;
  /** undici's request API, sent with `dispatcher` as `this`. */
  private readonly undiciRequest: RequestApi;
  private readonly retry: RetryPolicy;
  /** Path of the base URL without trailing slash; request paths are appended as they are (already encoded). */
  private readonly basePath: string;
  /** Scheme, host and port of the base URL: with basePath, what error messages show as the URL requested. */
  private readonly origin: string;
  /** Whether the server has answered this client (any status): until then, a refused connection is a wrong address. */
  answered = false;

  constructor(
    readonly options: HttpClientOptions,
    readonly auth: AuthScheme,
    private readonly parseError: ErrorParser,
  ) {
    const tls = options.tls ?? {};
    this.retry = options.retry ?? DEFAULT_RETRY;
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, "");
    this.origin = base.origin;
    const timeout = options.timeoutMs ?? 30_000;
    // One origin per client, so one pool of it: an Agent (a pool per origin) would look the pool up
    // and parse the URL again on every request, which showed in the per-request profile.
    // undici's parts load with the first client, not with this module: a host that only checks and
    // diffs (the second host of a preview) never sends a request.
    this.undiciRequest = requestApi();
    this.dispatcher = new (poolClass())(base.origin, {
      connections: options.connections ?? 16,
      keepAliveTimeout: 30_000,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connect: { timeout, ...tlsConnectOptions(tls) },
    });
  }

  async request<T = unknown>(opts: RequestOptions): Promise<HttpResponse<T>> {
    const started = Date.now();
    const resource = opts.resource ?? this.options.apiName;
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      let response: HttpResponse<unknown>;
      try {
        response = await this.send(opts);
      } catch (err) {
        // Failing to obtain credentials (e.g. a refused OAuth grant) is not a network problem.
        if (err instanceof ApiError || err instanceof ProviderError) throw err;
        const unreachable = !this.answered && isUnreachable(err);
        const error = this.networkError(opts, resource, err, unreachable);
        // A POST that may have reached the server is not retried blindly: the caller decides
        // (look the object up and adopt it, or report what exists).
        if (error.ambiguous && opts.method === "POST" && !opts.idempotent) throw error;
        // A certificate that does not verify will not verify on the next attempt either.
        const budgetMs = unreachable ? UNREACHABLE_AT_FIRST_MS : this.retry.maxElapsedMs;
        if (isTlsFailure(err) || this.options.failFast || !this.mayRetry(attempt, started, budgetMs))
          throw error;
        const delay = backoffDelay(this.retry, attempt);
        debug(`${opts.method} ${opts.path}: ${error.serverMessage}; retry ${attempt} in ${delay} ms`);
        this.reportWait(
          opts,
          resource,
          `no answer (${error.code ?? error.serverMessage})`,
          attempt,
          started,
          delay,
        );
        await sleep(delay);
        continue;
      }
      const { status } = response;
      if (status === 401 && !opts.anonymous && !renewed && this.auth.renew) {
        renewed = true;
        if (await this.auth.renew()) {
          debug(`${opts.method} ${opts.path}: 401, credentials renewed, retrying`);
          attempt--;
          continue;
        }
      }
      // A gateway error or an unavailable service may come after the server carried out a POST (a
      // proxy timing out on a slow create): as ambiguous as a lost answer, so the caller decides. A 429
      // is a definite "not done", and is retried like any request.
      if (isAmbiguousStatus(status) && opts.method === "POST" && !opts.idempotent) {
        throw new ApiError({
          resource,
          method: opts.method,
          path: opts.path,
          url: this.urlOf(opts.path),
          status,
          ...serverSays(this.parseError, response.body),
          ambiguous: true,
        });
      }
      const nodeDown = this.options.failFast && isAmbiguousStatus(status);
      if (isRetryableStatus(status) && !nodeDown && this.mayRetry(attempt, started)) {
        const delay = backoffDelay(this.retry, attempt, parseRetryAfter(response.headers["retry-after"]));
        debug(`${opts.method} ${opts.path}: HTTP ${status}; retry ${attempt} in ${delay} ms`);
        this.reportWait(opts, resource, `HTTP ${status}`, attempt, started, delay);
        await sleep(delay);
        continue;
      }
      if (status >= 400 && !opts.accept?.includes(status)) {
        const { code, serverMessage } = serverSays(this.parseError, response.body);
        const hint = status === 401 ? clockSkewHint(response.headers.date) : "";
        throw new ApiError({
          resource,
          method: opts.method,
          path: opts.path,
          url: this.urlOf(opts.path),
          status,
          code,
          serverMessage: serverMessage + hint,
        });
      }
      return response as HttpResponse<T>;
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private mayRetry(attempt: number, started: number, budgetMs = this.retry.maxElapsedMs): boolean {
    return attempt < this.retry.maxAttempts && Date.now() - started < budgetMs;
  }

  /**
   * A progress line (log.ts) before a wait that ends more than PROGRESS_AFTER_MS after the request's
   * first attempt: what is waited for, the next attempt and the time left of the retry budget.
   */
  private reportWait(
    opts: RequestOptions,
    resource: string,
    what: string,
    attempt: number,
    started: number,
    delayMs: number,
  ): void {
    const elapsed = Date.now() - started;
    if (elapsed + delayMs < PROGRESS_AFTER_MS) return;
    const of = Number.isFinite(this.retry.maxAttempts) ? ` of ${this.retry.maxAttempts}` : "";
    const left = Math.max(0, Math.ceil((this.retry.maxElapsedMs - elapsed) / 1000));
    progress(
      `${resource}: ${opts.method} ${opts.path}: ${what}; attempt ${attempt + 1}${of} in ` +
        `${(delayMs / 1000).toFixed(1)} s (retrying for up to ${left} s more, frontdoor:retryTimeoutSeconds)`,
    );
  }

  /** The URL of a request path, without query string (which may carry secrets): for error messages. */
  private urlOf(path: string): string {
    return this.origin + this.basePath + path.split("?")[0];
  }

  private async send(opts: RequestOptions): Promise<HttpResponse<unknown>> {
    let target = this.basePath + opts.path;
    if (opts.query) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(opts.query))
        if (value !== undefined) query.set(key, String(value));
      if (query.size) target += `?${query}`;
    }
    const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
    if (!opts.anonymous) {
      const auth = this.auth.headers();
      Object.assign(headers, auth instanceof Promise ? await auth : auth);
    }
    let body: string | undefined;
    if (typeof opts.body === "string") {
      body = opts.body;
      headers["content-type"] = opts.contentType ?? "text/plain";
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] = opts.contentType ?? "application/json";
    }
    const res = await this.undiciRequest.call(this.dispatcher, {
      path: target,
      method: opts.method,
      headers,
      body,
    });
    this.answered = true;
    const text = await res.body.text();
    if (debugging()) debug(`${opts.method} ${opts.path} -> ${res.statusCode}`);
    return { status: res.statusCode, headers: res.headers, body: parseBody(text) };
  }

  private networkError(opts: RequestOptions, resource: string, err: unknown, unreachable: boolean): ApiError {
    const e = err as { code?: string; message?: string };
    const address = unreachable
      ? ` (${new URL(this.options.baseUrl).origin} cannot be reached: check the address in the settings, and that the server is running)`
      : "";
    // Errors raised before a connection exists cannot have reached the server.
    const beforeSend = isUnreachable(err) || e.code === "UND_ERR_CONNECT_TIMEOUT";
    const tlsHint = isTlsFailure(err)
      ? " (TLS verification failed: configure the server's CA bundle, e.g. frontdoor:caBundle)"
      : "";
    // Node 24 appends its own advice to a TLS failure ("; if the root CA is installed locally, try
    // running Node.js with --use-system-ca"); the provider's way is its CA bundle setting (the
    // bundle goes into its own connections' `ca`), so the message says that alone, as on Node 20/22.
    const message = (e.message ?? String(err)).replace(NODE_SYSTEM_CA_ADVICE, "");
    return new ApiError({
      resource,
      method: opts.method,
      path: opts.path,
      url: this.urlOf(opts.path),
      status: 0,
      code: e.code,
      serverMessage: `${message}${tlsHint}${address}`,
      ambiguous: !beforeSend && !tlsHint,
    });
  }
}

/** No server at the address: nothing listens on the port, or the host name is not known. */
export function isUnreachable(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

const NODE_SYSTEM_CA_ADVICE =
  /; if the root CA is installed locally, try running Node\.js with --use-system-ca$/;

export function isTlsFailure(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return /certificate|self[- ]signed|CERT_/i.test(`${e.code} ${e.message}`);
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The code and message of an error answer (the body itself, shortened, when the API's shape is absent). */
function serverSays(parse: ErrorParser, body: unknown): { code?: string; serverMessage: string } {
  const { code, message } = parse(body);
  return { code, serverMessage: message ?? describeBody(body) };
}

function describeBody(body: unknown): string {
  if (body === undefined) return "(empty response)";
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
