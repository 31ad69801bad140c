// A tiny HTTPS/HTTP client for tests of the edge mock: real requests on loopback, optional client
// certificate (mTLS), and a swagger conformance check of every response it receives.
import http from "node:http";
import https from "node:https";
import { BASE_PATH } from "../../mock/edge/envelope";
import { validateResponse } from "../conformance/swagger";

export interface EdgeReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON (or the text when not JSON): tests read arbitrary fields of it. */
  body: any;
}

export interface CallOptions {
  /** JSON body. */
  body?: unknown;
  /** Raw text body sent as text/plain (CA verification). */
  text?: string;
  /** Session token; defaults to the client's own (`login`), `null` sends none. */
  token?: string | null;
  /** More request headers (e.g. `authorization` for an ext-jwt login). */
  headers?: Record<string, string>;
  /** Client certificate and key (PEM) for this call. */
  cert?: string;
  key?: string;
}

export class EdgeClient {
  token?: string;
  /** Swagger violations of the responses received so far. */
  readonly violations: string[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly caPem?: string,
  ) {}

  /** `path` is below the base path, e.g. `/identities?limit=5`. */
  call(method: string, path: string, options: CallOptions = {}): Promise<EdgeReply> {
    const url = new URL(`${BASE_PATH}${path}`, this.baseUrl);
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token) headers["zt-session"] = token;
    let payload: string | undefined;
    if (options.text !== undefined) {
      payload = options.text;
      headers["content-type"] = "text/plain";
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    const transport = url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method,
          headers,
          ca: this.caPem,
          cert: options.cert,
          key: options.key,
          // A fresh connection per call, so a client certificate is never reused by accident.
          agent: false,
        },
        (res) => {
          readReply(res).then((reply) => {
            this.violations.push(...validateResponse(method, url.pathname, reply.status, reply.body));
            resolve(reply);
          }, reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** Password login; keeps the session token for later calls. */
  async login(username: string, password: string): Promise<EdgeReply> {
    const reply = await this.call("POST", "/authenticate?method=password", {
      body: { username, password },
      token: null,
    });
    if (reply.status === 200) this.token = reply.body.data.token;
    return reply;
  }
}

/** Reads an HTTP answer to its end: status, headers, and the body as JSON (as text when it is not JSON). */
export function readReply(
  res: http.IncomingMessage,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("error", reject);
    res.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
    });
  });
}
