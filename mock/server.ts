// The mock server: one HTTP(S) server for the Frontdoor API, the OpenZiti Edge management API and
// event search, with fault injection, a request log and a `/__mock/` control interface for the demo
// and for tests running in another process. It is meant for loopback: it answers only requests whose
// Host is a loopback name (a web page cannot reach it through DNS rebinding), and the control interface
// takes a token printed at start and JSON bodies only (a page cannot post a form to it).
import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { EdgeMock } from "./edge";
import { DEFAULT_RETRY_AFTER_SECONDS, type FaultDecision, FaultInjector, type FaultRule } from "./faults";
import { type Collection, FRONTDOOR_DEMO, FrontdoorMock, type FrontdoorMockOptions } from "./frontdoor";
import { isCollection } from "./frontdoor/store";
import { type CertificateAuthority, createRootCa, issueServerCertificate } from "./pki";
import { SearchMock } from "./search";
import type { MockRequest, MockResponse } from "./types";

export type { FrontdoorMockOptions } from "./frontdoor";

export interface MockServerOptions {
  /** Default 0 (ephemeral). */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** Serve HTTPS with a certificate from the mock's own CA; client certificates are requested, not required. */
  tls?: boolean;
  frontdoor?: FrontdoorMockOptions;
  /** Passed through to EdgeMock. */
  edge?: Record<string, unknown>;
  /** Passed through to SearchMock. */
  search?: Record<string, unknown>;
  /** Token the control interface requires (default: a random one, see `MockServer.controlToken`). */
  controlToken?: string;
  /** The largest request body taken, in bytes (default 1 MiB); a bigger one is answered 413 unread. */
  maxBodyBytes?: number;
  /** The request log keeps the last this many requests (default 1000). */
  logLimit?: number;
  /** Each logged body keeps its first this many characters (default 16 KiB). */
  logBodyChars?: number;
  /** @internal Cluster mode (cluster.ts): the CA every node's certificate comes from. */
  rootCa?: CertificateAuthority;
  /** @internal Cluster mode: decides each API request's fate in place of the node's own mocks. */
  intercept?: RequestInterceptor;
  /** @internal Cluster mode: more `/__mock/` routes (answers undefined when a route is not its own). */
  control?: (req: MockRequest) => Promise<MockResponse | undefined>;
}

/** Cluster mode: answer, or drop the connection without an answer (a node that died). */
export type RequestInterceptor = (
  req: MockRequest,
  local: (req: MockRequest) => Promise<MockResponse>,
) => Promise<MockResponse | "drop">;

export interface DemoCredentials {
  frontdoorId: string;
  frontdoorToken: string;
  otherFrontdoorId: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  edgeUsername: string;
  edgePassword: string;
  searchUsername: string;
  searchPassword: string;
}

export interface RequestLogEntry {
  method: string;
  /** Path without query string; tokens in the path are redacted. */
  path: string;
  /** Query string without "?", when there was one. */
  query?: string;
  /** 0 when the connection was dropped instead of answered. */
  status: number;
  /** Arrival time, ISO 8601. */
  at: string;
  /** Request body as text with secrets redacted, when there was one; cut after `logBodyChars`. */
  body?: string;
}

export interface MockServer {
  url: string;
  /** Sent as `x-mock-token` with every `/__mock/` call (see `controlHeaders`). */
  controlToken: string;
  /** The CA that signed the TLS server certificate (with tls: true). */
  caPem?: string;
  /** The TLS server certificate (with tls: true). */
  certPem?: string;
  credentials: DemoCredentials;
  faults: FaultInjector;
  /** The last `logLimit` requests in arrival order (control calls under /__mock/ are not logged). */
  log: RequestLogEntry[];
  /**
   * Called as each logged request arrives, before it is answered (in-process tests: e.g. to kill the
   * client at an exact request, which the mock then still carries out).
   */
  onRequest?: (entry: RequestLogEntry) => void;
  clearLog(): void;
  frontdoor: FrontdoorMock;
  edge: EdgeMock;
  search: SearchMock;
  /** Connection counters, e.g. to show that a client reuses its pooled sockets. */
  stats: { connectionsOpened: number; openConnections: number; peakOpenConnections: number };
  /** Stops listening and resets every open connection (cluster mode: a killed node). */
  suspend(): Promise<void>;
  /** Listens again on the same address and port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

const DEMO_EDGE = { username: "admin", password: "edge-demo-password" };
const DEMO_SEARCH = { username: "elastic", password: "search-demo-password" };
const CONTROL_PREFIX = "/__mock/";
/** Defaults of the limits (MockServerOptions): a mock that runs for days holds a bounded amount. */
export const MOCK_LIMITS = { maxBodyBytes: 1024 * 1024, logLimit: 1000, logBodyChars: 16 * 1024 };
export const CONTROL_TOKEN_HEADER = "x-mock-token";

/** Headers of a `/__mock/` control call: the token, and the one content type writes may have. */
export function controlHeaders(token: string): Record<string, string> {
  return { [CONTROL_TOKEN_HEADER]: token, "content-type": "application/json" };
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? "127.0.0.1";
  const rootCa = options.rootCa ?? createRootCa("Frontdoor Mock Root CA");
  const frontdoor = new FrontdoorMock(options.frontdoor ?? {}, rootCa);
  const edge = new EdgeMock({
    adminUsername: DEMO_EDGE.username,
    adminPassword: DEMO_EDGE.password,
    ...options.edge,
  } as ConstructorParameters<typeof EdgeMock>[0]);
  const search = new SearchMock({
    username: DEMO_SEARCH.username,
    password: DEMO_SEARCH.password,
    ...options.search,
  } as ConstructorParameters<typeof SearchMock>[0]);
  const faults = new FaultInjector();
  const log: RequestLogEntry[] = [];
  const limits = {
    maxBodyBytes: options.maxBodyBytes ?? MOCK_LIMITS.maxBodyBytes,
    logLimit: options.logLimit ?? MOCK_LIMITS.logLimit,
    logBodyChars: options.logBodyChars ?? MOCK_LIMITS.logBodyChars,
  };
  const controlToken = options.controlToken ?? randomBytes(24).toString("hex");
  if (!isLoopbackName(host)) {
    process.stderr.write(
      `warning: the mock server binds to ${host}, not a loopback address: other machines can reach it, ` +
        "and its demo credentials are public. Bind to 127.0.0.1 unless you mean it.\n",
    );
  }

  // Filled in once listening (the token URL needs the port).
  const mock: MockServer = {
    url: "",
    controlToken,
    credentials: {} as DemoCredentials,
    faults,
    log,
    clearLog: () => {
      log.length = 0;
    },
    frontdoor,
    edge,
    search,
    stats: { connectionsOpened: 0, openConnections: 0, peakOpenConnections: 0 },
    suspend: async () => {},
    resume: async () => {},
    close: async () => {},
  };

  const dispatch = async (req: MockRequest): Promise<MockResponse> => {
    let response: MockResponse | undefined;
    if (req.path === "/version" && req.method === "GET") response = edge.version(req);
    else if (req.path.startsWith("/edge/") || req.path.startsWith("/.well-known/"))
      response = await edge.handle(req);
    else if (req.path.includes("/_search")) response = await search.handle(req);
    else response = await frontdoor.handle(req);
    return (
      response ?? {
        status: 404,
        body: { error: "not_found", message: `no route for ${req.method} ${req.path}` },
      }
    );
  };

  const onRequest = async (incoming: http.IncomingMessage, res: http.ServerResponse) => {
    // Before the body is read: a request for another site, or a body over the limit, costs nothing.
    const refused = !allowedHost(incoming.headers.host, host)
      ? errorFor(incoming.url ?? "/", 403, "forbidden", "Host must be a loopback name")
      : undefined;
    const req = refused ?? (await toMockRequest(incoming, limits.maxBodyBytes));
    if ("status" in req) {
      // The rest of the body is not read: the connection ends with this answer.
      send(res, { ...req, headers: { ...req.headers, connection: "close" } });
      return;
    }
    if (req.path.startsWith(CONTROL_PREFIX)) {
      send(
        res,
        controlRefusal(req, controlToken) ??
          (await options.control?.(req)) ??
          (await controlRequest(mock, req)),
      );
      return;
    }
    const entry = logEntry(req, limits.logBodyChars);
    log.push(entry);
    if (log.length > limits.logLimit) log.splice(0, log.length - limits.logLimit);
    mock.onRequest?.(entry);
    const fault = faults.decide(req.method, req.path);
    if (fault?.kind === "drop") {
      incoming.socket.destroy();
      return;
    }
    const refusal = fault && faultResponse(fault, req.path);
    if (refusal) {
      entry.status = refusal.status;
      send(res, refusal);
      return;
    }
    if (fault?.kind === "delay") await sleep(fault.delayMs);
    const answer = await (options.intercept ? options.intercept(req, dispatch) : dispatch(req)).catch(
      internalError,
    );
    if (answer === "drop") {
      incoming.socket.destroy();
      return;
    }
    const response = answer;
    if (fault?.kind === "commit-then-drop") {
      incoming.socket.destroy();
      return;
    }
    const gatewayError = fault && committedFaultResponse(fault);
    if (gatewayError) {
      entry.status = gatewayError.status;
      send(res, gatewayError);
      return;
    }
    entry.status = response.status;
    send(res, response);
  };

  const listener = (incoming: http.IncomingMessage, res: http.ServerResponse) => {
    onRequest(incoming, res).catch((error) => {
      if (!res.headersSent) send(res, internalError(error));
    });
  };

  let server: http.Server | https.Server;
  if (options.tls) {
    const { certificatePem, privateKeyPem } = issueServerCertificate(rootCa, uniqueHosts(host));
    server = https.createServer(
      { key: privateKeyPem, cert: certificatePem, requestCert: true, rejectUnauthorized: false },
      listener,
    );
    mock.caPem = rootCa.certificatePem;
    mock.certPem = certificatePem;
    edge.useServerIdentity({
      certPem: certificatePem,
      keyPem: privateKeyPem,
      caPems: [rootCa.certificatePem],
    });
  } else {
    server = http.createServer(listener);
  }

  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    mock.stats.connectionsOpened++;
    mock.stats.openConnections = sockets.size;
    mock.stats.peakOpenConnections = Math.max(mock.stats.peakOpenConnections, sockets.size);
    socket.on("close", () => {
      sockets.delete(socket);
      mock.stats.openConnections = sockets.size;
    });
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(options.port ?? 0);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  mock.url = `${options.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  mock.credentials = {
    frontdoorId: FRONTDOOR_DEMO.frontdoorId,
    frontdoorToken: FRONTDOOR_DEMO.frontdoorToken,
    otherFrontdoorId: FRONTDOOR_DEMO.otherFrontdoorId,
    clientId: FRONTDOOR_DEMO.clientId,
    clientSecret: FRONTDOOR_DEMO.clientSecret,
    tokenUrl: `${mock.url}/oauth2/token`,
    edgeUsername: DEMO_EDGE.username,
    edgePassword: DEMO_EDGE.password,
    searchUsername: DEMO_SEARCH.username,
    searchPassword: DEMO_SEARCH.password,
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  mock.suspend = stop;
  mock.resume = () => (server.listening ? Promise.resolve() : listen(port));
  mock.close = stop;
  return mock;
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1 (the mock's own check: it imports nothing from provider/). */
function isLoopbackName(name: string): boolean {
  const host = name.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "::1"
  );
}

/**
 * A Host header naming a loopback name, or the address the server was explicitly bound to (not a
 * wildcard): anything else is a request meant for another site, e.g. a page rebinding its DNS name.
 */
function allowedHost(header: string | undefined, boundTo: string): boolean {
  if (!header) return false;
  let name: string;
  try {
    name = new URL(`http://${header}`).hostname;
  } catch {
    return false;
  }
  const bound = boundTo.replace(/^\[|\]$/g, "").toLowerCase();
  const wildcard = bound === "0.0.0.0" || bound === "::";
  return isLoopbackName(name) || (!wildcard && name.replace(/^\[|\]$/g, "").toLowerCase() === bound);
}

function uniqueHosts(host: string): string[] {
  return [...new Set([host, "localhost", "127.0.0.1"])];
}

/** The request with its body, or a 413 answer once the body is over `maxBytes` (the rest is left unread). */
async function toMockRequest(
  incoming: http.IncomingMessage,
  maxBytes: number,
): Promise<MockRequest | MockResponse> {
  const body =
    Number(incoming.headers["content-length"] ?? 0) > maxBytes
      ? undefined
      : await readBody(incoming, maxBytes);
  if (body === undefined)
    return errorFor(
      incoming.url ?? "/",
      413,
      "payload_too_large",
      `request body over the mock's limit of ${maxBytes} bytes`,
    );
  const url = new URL(incoming.url ?? "/", "http://mock.invalid");
  const req: MockRequest = {
    method: (incoming.method ?? "GET").toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
    body,
  };
  const socket = incoming.socket as TLSSocket;
  if (typeof socket.getPeerCertificate === "function") {
    const certificate = socket.getPeerCertificate();
    if (certificate && Object.keys(certificate).length > 0) req.clientCertificate = certificate;
  }
  return req;
}

/**
 * The body, or undefined as soon as it is over `maxBytes`: reading stops there (paused, not destroyed,
 * so that the answer still goes out on the connection).
 */
function readBody(incoming: http.IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      incoming.off("data", onData).off("end", onEnd).pause();
      resolve(undefined);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    incoming.on("data", onData).once("end", onEnd).once("error", reject);
  });
}

function send(res: http.ServerResponse, response: MockResponse): void {
  const headers: Record<string, string> = { ...response.headers };
  let payload: Buffer | string | undefined;
  if (response.body === undefined || response.status === 204) {
    payload = undefined;
  } else if (Buffer.isBuffer(response.body) || typeof response.body === "string") {
    payload = response.body;
    headers["content-type"] ??= "text/plain; charset=utf-8";
  } else {
    payload = JSON.stringify(response.body);
    headers["content-type"] ??= "application/json";
  }
  res.writeHead(response.status, headers);
  res.end(payload, response.afterSent);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function internalError(error: unknown): MockResponse {
  // The message names the failure, never request data (which may hold secrets).
  const name = error instanceof Error ? error.name : "Error";
  return { status: 500, body: { error: "internal_error", message: `mock server failure (${name})` } };
}

/** 429 / 503 answers in the error shape of the API the path belongs to. */
/** What a gateway answers once the request behind it was carried out: its own page, not the API's error. */
function committedFaultResponse(fault: FaultDecision): MockResponse | undefined {
  const match = /^commit-then-(50[234])$/.exec(fault.kind);
  if (!match) return undefined;
  const status = Number(match[1]);
  const text = { 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" }[status];
  return {
    status,
    headers: { "content-type": "text/html" },
    body: `<html><body><h1>${status} ${text}</h1></body></html>`,
  };
}

/**
 * An error answer in the shape of the API the path belongs to: the Edge API's envelope (its code is
 * `error` in upper case), the control interface's, the Frontdoor API's `{error, message}` otherwise.
 */
function errorFor(
  rawPath: string,
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
): MockResponse {
  const path = rawPath.split("?")[0];
  if (path.startsWith(CONTROL_PREFIX)) return { ...controlError(status, message), headers };
  if (path.startsWith("/edge/")) {
    const envelope = { code: error.toUpperCase(), message, requestId: `mock-${Date.now()}` };
    return { status, headers, body: { error: envelope, meta: {} } };
  }
  return { status, headers, body: { error, message } };
}

function faultResponse(fault: FaultDecision, path: string): MockResponse | undefined {
  if (fault.kind === "500") {
    const error = path.startsWith("/edge/") ? "unhandled" : "internal_error";
    return errorFor(path, 500, error, "internal error (injected)");
  }
  if (fault.kind !== "429" && fault.kind !== "503") return undefined;
  const status = Number(fault.kind);
  const retryAfter =
    fault.kind === "429" ? (fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS) : fault.retryAfterSeconds;
  const headers: Record<string, string> =
    retryAfter === undefined ? {} : { "retry-after": String(retryAfter) };
  const message = status === 429 ? "too many requests" : "service unavailable";
  const edge = path.startsWith("/edge/");
  const error = status === 429 ? (edge ? "rate_limited" : "too_many_requests") : "service_unavailable";
  return errorFor(path, status, error, message, headers);
}

// ---- request log (secrets redacted, so the demo and tests may print it) ----

const REDACTED = "[redacted]";
const SECRET_KEY = /secret|password|passphrase|api_?key|token|jwt|private|^ott$/i;

function logEntry(req: MockRequest, bodyChars: number): RequestLogEntry {
  const entry: RequestLogEntry = {
    method: req.method,
    path: redactPath(req.path),
    status: 0,
    at: new Date().toISOString(),
  };
  const query = req.query.toString();
  if (query) entry.query = query;
  if (req.body.length > 0) {
    const body = redactBody(req.body.toString("utf8"), req.headers["content-type"]);
    entry.body =
      body.length > bodyChars
        ? `${body.slice(0, bodyChars)}... [${body.length - bodyChars} more characters]`
        : body;
  }
  return entry;
}

function redactPath(path: string): string {
  return path.replace(/\/(by-token|token)\/[^/]+/g, `/$1/${REDACTED}`);
}

function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value === "string") return value.includes("PRIVATE KEY") ? REDACTED : value;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redactJson(item)]),
  );
}

function redactBody(text: string, contentType: string | undefined): string {
  if (text.includes("PRIVATE KEY")) return REDACTED;
  if (contentType?.startsWith("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(text);
    for (const key of [...form.keys()]) if (SECRET_KEY.test(key)) form.set(key, REDACTED);
    return form.toString();
  }
  try {
    return JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    return text;
  }
}

// ---- /__mock/ control interface ----

/** A control route's error answer (also the cluster's control routes: cluster.ts). */
export const controlError = (status: number, message: string): MockResponse => ({
  status,
  body: { error: message },
});

/** 401 without the token, 415 for a write that is not JSON (a cross-site form post); else undefined. */
function controlRefusal(req: MockRequest, token: string): MockResponse | undefined {
  const given = Buffer.from(String(req.headers[CONTROL_TOKEN_HEADER] ?? ""));
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return controlError(
      401,
      `the control interface needs the header ${CONTROL_TOKEN_HEADER} (printed at start)`,
    );
  const contentType = String(req.headers["content-type"] ?? "");
  if (req.method !== "GET" && req.method !== "HEAD" && !/^application\/json\s*(;|$)/i.test(contentType))
    return controlError(415, "control writes take Content-Type: application/json only");
  return undefined;
}

/** A control write's JSON object body (also the cluster's control routes: cluster.ts). */
export function controlJson(req: MockRequest): Record<string, any> {
  const text = req.body.toString("utf8");
  const value = text ? JSON.parse(text) : {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("body must be a JSON object");
  return value;
}

async function controlRequest(mock: MockServer, req: MockRequest): Promise<MockResponse> {
  try {
    return controlRoute(mock, req) ?? controlError(404, `no control route ${req.method} ${req.path}`);
  } catch (error) {
    return controlError(400, error instanceof Error ? error.message : "bad control request");
  }
}

function controlRoute(mock: MockServer, req: MockRequest): MockResponse | undefined {
  const route = `${req.method} ${req.path.slice(CONTROL_PREFIX.length - 1)}`;
  switch (route) {
    case "POST /faults": {
      const { pathRegex, path, ...rest } = controlJson(req);
      const rule: FaultRule = { ...(rest as FaultRule), path: pathRegex ? new RegExp(path) : path };
      mock.faults.inject(rule);
      return { status: 204 };
    }
    case "POST /faults/random":
      mock.faults.random(controlJson(req) as Parameters<FaultInjector["random"]>[0]);
      return { status: 204 };
    case "DELETE /faults":
      mock.faults.clear();
      return { status: 204 };
    case "GET /log":
      return { status: 200, body: mock.log };
    case "DELETE /log":
      mock.clearLog();
      return { status: 204 };
    case "GET /stats":
      return { status: 200, body: mock.stats };
    case "DELETE /stats":
      Object.assign(mock.stats, { connectionsOpened: 0, peakOpenConnections: mock.stats.openConnections });
      return { status: 204 };
    case "GET /credentials":
      return { status: 200, body: { url: mock.url, ...mock.credentials, caPem: mock.caPem } };
    case "POST /frontdoor/tokens": {
      const body = controlJson(req);
      return { status: 201, body: { token: mock.frontdoor.issueToken(body as any) } };
    }
  }
  return frontdoorControl(mock.frontdoor, req);
}

/** `/__mock/frontdoor/{fd}/{collection}/{id}`: read or change Frontdoor objects behind the API's back. */
function frontdoorControl(frontdoor: FrontdoorMock, req: MockRequest): MockResponse | undefined {
  const match = /^\/__mock\/frontdoor\/([^/]+)\/([^/]+)\/([^/]+)(\/status)?$/.exec(req.path);
  if (!match) return undefined;
  const [, fd, collection, id, statusSuffix] = match.map((part) => part && decodeURIComponent(part));
  if (!isCollection(collection)) return controlError(404, `unknown collection ${collection}`);
  const missing = controlError(404, `${collection}/${id} not found in frontdoor ${fd}`);
  if (statusSuffix) {
    if (req.method !== "POST" || collection !== "custom-frontends") return undefined;
    if (!frontdoor.get(fd, collection, id)) return missing;
    frontdoor.setCustomFrontendStatus(fd, id, controlJson(req).status);
    return { status: 200, body: frontdoor.get(fd, collection, id) };
  }
  const target = collection as Collection;
  switch (req.method) {
    case "GET": {
      const record = frontdoor.get(fd, target, id);
      return record ? { status: 200, body: record } : missing;
    }
    case "PATCH": {
      const record = frontdoor.patch(fd, target, id, controlJson(req));
      return record ? { status: 200, body: record } : missing;
    }
    case "DELETE":
      return frontdoor.remove(fd, target, id) ? { status: 204 } : missing;
  }
  return undefined;
}
