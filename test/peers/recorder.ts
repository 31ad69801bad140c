// A recording reverse proxy on 127.0.0.1 (plain HTTP in, TLS to the real controller out): the
// provider talks to it as its edgeUrl, and every request and answer it relays is checked against
// the controller's swagger, so the provider's real traffic is held to the contract, not only its
// traffic with the mock.
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { validateRequest, validateResponse } from "../conformance/swagger";

export interface Exchange {
  method: string;
  path: string;
  status: number;
}

export interface Recorder {
  url: string;
  exchanges: Exchange[];
  violations: string[];
  close(): Promise<void>;
}

const MANAGEMENT = "/edge/management/v1";

function parse(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (!contentType?.includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function startRecorder(target: string, caPem: string): Promise<Recorder> {
  const upstream = new URL(target);
  const exchanges: Exchange[] = [];
  const violations: string[] = [];
  const agent = new https.Agent({ ca: caPem, keepAlive: true });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const requestText = Buffer.concat(chunks).toString("utf8");
      const method = req.method ?? "GET";
      const url = req.url ?? "/";
      const pathname = url.split("?")[0];
      const checked = pathname.startsWith(MANAGEMENT);
      if (checked && requestText) {
        violations.push(
          ...validateRequest(method, pathname, parse(requestText, req.headers["content-type"])),
        );
      }
      const headers = { ...req.headers, host: upstream.host };
      const out = https.request(
        { host: upstream.hostname, port: upstream.port, path: url, method, headers, agent },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on("data", (c: Buffer) => parts.push(c));
          answer.on("end", () => {
            const body = Buffer.concat(parts);
            const status = answer.statusCode ?? 0;
            exchanges.push({ method, path: pathname, status });
            if (checked) {
              const parsed = parse(body.toString("utf8"), answer.headers["content-type"]);
              violations.push(...validateResponse(method, pathname, status, parsed));
            }
            res.writeHead(status, answer.headers);
            res.end(body);
          });
        },
      );
      out.on("error", (error) => {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`recorder: ${error.message}`);
      });
      out.end(requestText ? Buffer.concat(chunks) : undefined);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        exchanges,
        violations,
        close: () =>
          new Promise<void>((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
