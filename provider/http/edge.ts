// The OpenZiti Edge management API client: paths under `<edgeUrl>/edge/management/v1`, answers in
// the envelope `{data, meta}`, errors `{error: {code, message, cause: {field, reason, value}}}`,
// lists paged with limit/offset and filtered with ZitiQL. Authentication: see edgeAuth.ts.
import {
  assertValidSettings,
  edgeUrlSettings,
  flagSetting,
  pemSetting,
  type RawSettings,
  transportSettings,
  zitiIdentitySetting,
} from "../config";
import { type ErrorParser, HttpClient, type HttpResponse, type RequestOptions } from "./client";
import { EdgeCluster, type EdgeNode } from "./cluster";
import { credentialDestinationProblem } from "./destinations";
import { EdgeSessionAuth } from "./edgeAuth";
import { answerWithoutIdError, ProviderError } from "./errors";
import { fetchJsonWith, jwtSource } from "./externalJwt";
import { explainRefusal } from "./jwtRefusal";

export const EDGE_BASE_PATH = "/edge/management/v1";
/** The controller's maximum page size. */
const PAGE_LIMIT = 500;

export type EdgeObject = Record<string, unknown> & { id: string };

interface Envelope<T> {
  data?: T;
  meta?: { pagination?: { limit?: number; offset?: number; totalCount?: number } };
}

export class EdgeClient {
  readonly http: HttpClient;
  readonly auth: EdgeSessionAuth;

  /** Set when the settings name an HA cluster (edgeUrls, several ztAPIs): requests go through it. */
  readonly cluster?: EdgeCluster;

  constructor(settings: RawSettings) {
    assertValidSettings(settings);
    // An identity file gives the certificate, the key, the CA and (from ztAPI/ztAPIs) the controller addresses.
    const identity = zitiIdentitySetting(settings);
    const { urls, cluster } = edgeUrlSettings(settings, identity);
    const clientCertPem = identity?.certPem ?? pemSetting(settings.edgeCertPem, "edgeCertPem");
    const clientKeyPem = identity?.keyPem ?? pemSetting(settings.edgeKeyPem, "edgeKeyPem");
    const caBundle = [pemSetting(settings.caBundle, "caBundle"), identity?.caPem].filter(Boolean).join("\n");
    if (clientCertPem && !clientKeyPem) {
      throw new ProviderError(
        "frontdoor:edgeCertPem needs its private key in frontdoor:edgeKeyPem (ZITI_CLIENT_KEY)",
      );
    }
    const transport = transportSettings(settings);
    // An external JWT (keyless login) comes from one source for every node; each node logs in with it.
    const fetchJson = fetchJsonWith({ ...settings, caBundle: caBundle || undefined });
    const source = jwtSource(settings, fetchJson);
    // One session and one connection pool per node: a node's session is kept for moving back to it.
    const node = (url: string): EdgeNode => {
      const auth = new EdgeSessionAuth({
        username: settings.edgeUsername,
        password: settings.edgePassword,
        useCertificate: clientCertPem !== undefined,
        totpSecret: settings.edgeTotpSecret,
        jwt: source && { source, explain: (token) => explainRefusal(token, url, fetchJson) },
      });
      const http = new HttpClient(
        {
          baseUrl: url + EDGE_BASE_PATH,
          apiName: "Edge management API",
          ...transport,
          tls: { caBundle: caBundle || undefined, clientCertPem, clientKeyPem },
          failFast: cluster,
        },
        auth,
        edgeError,
      );
      auth.send = (opts) => http.request(opts);
      return { url, http, auth };
    };
    // A node the cluster names gets the credentials too: it follows the rule of the URL settings.
    const allowPlainHttp = flagSetting(settings, "allowPlainHttp");
    const destinationProblem = (url: string) => credentialDestinationProblem(url, allowPlainHttp);
    if (cluster)
      this.cluster = new EdgeCluster(urls, node, transport.retry, EDGE_BASE_PATH, destinationProblem);
    const first = this.cluster?.node ?? node(urls[0]);
    this.http = first.http;
    this.auth = first.auth;
  }

  /** Any request (e.g. text/plain bodies); errors are thrown for every status >= 400 not accepted. */
  async request<T = unknown>(opts: RequestOptions): Promise<HttpResponse<T>> {
    // Log in before the request: HttpClient treats a failure inside its send (where it asks the
    // scheme for headers) as a network error, which would be retried and reported as ambiguous.
    if (this.cluster) return this.cluster.request<T>(opts);
    if (!opts.anonymous) await this.auth.headers();
    return this.http.request<T>(opts);
  }

  /** `data` of a GET, or undefined when the object does not exist (404). */
  async get<T = EdgeObject>(path: string, label: string): Promise<T | undefined> {
    const res = await this.request<Envelope<T>>({ method: "GET", path, resource: label, accept: [404] });
    return res.status === 404 ? undefined : res.body?.data;
  }

  /** POST a new object; returns its id. */
  async create(path: string, body: unknown, label: string): Promise<string> {
    const res = await this.request<Envelope<{ id?: string }>>({
      method: "POST",
      path,
      body,
      resource: label,
    });
    const id = res.body?.data?.id;
    if (!id) throw answerWithoutIdError(label, path, res.status);
    return id;
  }

  async put(path: string, body: unknown, label: string): Promise<void> {
    await this.request({ method: "PUT", path, body, resource: label });
  }

  async patch(path: string, body: unknown, label: string): Promise<void> {
    await this.request({ method: "PATCH", path, body, resource: label });
  }

  /** DELETE; an object already gone (404) is fine. */
  async delete(path: string, label: string): Promise<void> {
    await this.request({ method: "DELETE", path, resource: label, accept: [404] });
  }

  /** Every item of a list, page by page; `filter` is ZitiQL (see `nameFilter`). */
  async list<T = EdgeObject>(path: string, filter: string | undefined, label: string): Promise<T[]> {
    const items: T[] = [];
    for (let offset = 0; ; ) {
      const res = await this.request<Envelope<T[]>>({
        method: "GET",
        path,
        query: { limit: PAGE_LIMIT, offset, filter },
        resource: label,
      });
      const page = res.body?.data ?? [];
      items.push(...page);
      offset += page.length;
      const total = res.body?.meta?.pagination?.totalCount;
      if (page.length === 0 || (total !== undefined ? offset >= total : page.length < PAGE_LIMIT)) {
        return items;
      }
    }
  }

  async close(): Promise<void> {
    await (this.cluster ?? this.http).close();
  }
}

/** A ZitiQL string literal of text without backslashes or control characters (`"` escaped). */
function zitiqlText(value: string): string {
  return `"${value.replace(/"/g, '\\"')}"`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters ZitiQL cannot quote reliably
const UNQUOTABLE = /[\\\u0000-\u001f\u007f]/;

/**
 * The ZitiQL filter that finds an object by name; callers keep the exact match. Real controllers
 * (v1.5.0, v1.6.0) read a literal's backslashes more than once in ways that depend on what follows
 * (`a\\b` is found by neither `"a\\\\b"` nor `"a\\\\\\\\b"`), and most control characters have no
 * escape at all (400 INVALID_FILTER). So a name with either is looked up by `contains` of its
 * longest part free of them (no filter when there is none), and the exact match is made here.
 */
export function nameFilter(name: string): string | undefined {
  if (!UNQUOTABLE.test(name)) return `name = ${zitiqlText(name)}`;
  const longest = name.split(UNQUOTABLE).reduce((a, b) => (b.length > a.length ? b : a), "");
  return longest ? `name contains ${zitiqlText(longest)}` : undefined;
}

/**
 * Code, message and the field the server objects to with its reason. The cause's `value` is never
 * used: it echoes the rejected input, which may be a password.
 */
export const edgeError: ErrorParser = (body) => {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error !== "object") {
    return { message: typeof body === "string" && body ? body : undefined };
  }
  const cause =
    error.cause && typeof error.cause === "object" ? (error.cause as Record<string, unknown>) : {};
  const field = typeof cause.field === "string" ? cause.field : undefined;
  // A real controller explains some errors only in the cause's message, e.g. a 404 for a create
  // that names a service that does not exist: "services with id svc-1 not found".
  const reason =
    typeof cause.reason === "string"
      ? cause.reason
      : typeof cause.message === "string"
        ? cause.message
        : undefined;
  const message = typeof error.message === "string" ? error.message : undefined;
  const detail = field || reason ? ` (${[field, reason].filter(Boolean).join(": ")})` : "";
  return {
    code: typeof error.code === "string" ? error.code : undefined,
    message: message === undefined && !detail ? undefined : `${message ?? "error"}${detail}`,
  };
};
