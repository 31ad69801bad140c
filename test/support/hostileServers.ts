// Servers a hostile answer points the provider to, on 127.0.0.1 only: each records every TCP
// connection it accepts and every HTTP request that reaches it (headers and body as received), so a
// test asserts that no credential went there, or that the provider never even connected. Host names
// that look like other machines (`ctrl-2.cluster.test`) resolve to 127.0.0.1 through `loopbackNames`:
// the traffic never leaves the machine, while the provider sees a name that is not a loopback name.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RecordingServer {
  port: number;
  /** TCP connections accepted (before any TLS handshake). */
  connections: number;
  /** TLS handshakes completed by the server (with tls). */
  handshakes: number;
  /** The subject CN of each client certificate presented in a completed handshake (with requestCert). */
  clientCertificates: string[];
  requests: RecordedRequest[];
  /** The answer to each request (default: 200 `{"data":{}}`). */
  respond: (request: RecordedRequest) => { status: number; body: unknown };
  close(): Promise<void>;
}

export async function startRecordingServer(tls?: {
  certificatePem: string;
  privateKeyPem: string;
  /** Ask for a client certificate (not required, not verified: the test reads what was presented). */
  requestCert?: boolean;
  maxVersion?: "TLSv1.2" | "TLSv1.3";
}): Promise<RecordingServer> {
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      recorder.requests.push(request);
      const answer = recorder.respond(request);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  };
  const server = tls
    ? https.createServer(
        {
          cert: tls.certificatePem,
          key: tls.privateKeyPem,
          requestCert: tls.requestCert ?? false,
          rejectUnauthorized: false,
          maxVersion: tls.maxVersion,
        },
        handler,
      )
    : http.createServer(handler);
  server.on("connection", () => recorder.connections++);
  server.on("secureConnection", (socket: TLSSocket) => {
    recorder.handshakes++;
    const cn = socket.getPeerCertificate()?.subject?.CN;
    if (cn) recorder.clientCertificates.push(String(cn));
  });
  // A client that refuses the certificate ends the handshake: not an error of the test.
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const recorder: RecordingServer = {
    port: (server.address() as AddressInfo).port,
    connections: 0,
    handshakes: 0,
    clientCertificates: [],
    requests: [],
    respond: () => ({ status: 200, body: { data: {} } }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return recorder;
}

type Lookup = typeof dns.lookup;

/**
 * While `action` runs, each of `names` resolves to 127.0.0.1 (node's sockets, undici's included, look
 * names up through dns.lookup); every other name as before.
 */
export async function withLoopbackNames<T>(names: string[], action: () => Promise<T>): Promise<T> {
  const original = dns.lookup;
  const stub = (hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const opts = typeof options === "function" ? {} : options;
    const name = names.includes(hostname.toLowerCase()) ? "127.0.0.1" : hostname;
    return (original as (...args: unknown[]) => void).call(dns, name, opts, cb);
  };
  dns.lookup = stub as unknown as Lookup;
  try {
    return await action();
  } finally {
    dns.lookup = original;
  }
}
