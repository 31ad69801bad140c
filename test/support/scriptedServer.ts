// A tiny HTTP(S) server on 127.0.0.1 for unit tests of the HTTP client: it records every request as it
// arrived on the wire (method, URL, headers, body, socket, arrival time) and answers from a script,
// so a test asserts exactly what was sent and controls exactly what comes back (statuses, headers
// and bodies no API mock would produce on purpose: empty, plain text, 300+ characters, a skewed Date).

import { spawn } from "node:child_process";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import * as net from "node:net";
import type { TLSSocket } from "node:tls";

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The client's port: one per connection. */
  remotePort: number;
  /** Arrival time (ms). */
  at: number;
  /** The client certificate's SHA-256 fingerprint, over TLS when one was presented. */
  clientCertificate?: string;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  holdMs?: number;
  /** Close the connection instead of answering (a server killed while the request was in flight). */
  reset?: boolean;
}

export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  /** Answers for the next requests, in order; when they run out: `respond`'s, else 200 `{"ok":true}`. */
  script: ScriptedAnswer[];
  /** Answers computed from the request (a stateful fake), once the script ran out. */
  respond?: (request: SeenRequest) => ScriptedAnswer | undefined;
  close(): Promise<void>;
}

export interface ScriptedTls {
  certificatePem: string;
  privateKeyPem: string;
  /** Ask for a client certificate (not required, not verified: the test compares its fingerprint). */
  requestCert?: boolean;
}

const DEFAULT_ANSWER: ScriptedAnswer = {
  status: 200,
  headers: { "content-type": "application/json" },
  body: '{"ok":true}',
};

export async function startScriptedServer(tls?: ScriptedTls): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const script: ScriptedAnswer[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const peer = tls ? (req.socket as TLSSocket).getPeerCertificate() : undefined;
      const request: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        remotePort: req.socket.remotePort ?? 0,
        at: Date.now(),
        clientCertificate: peer?.fingerprint256 || undefined,
      };
      seen.push(request);
      const answer = script.shift() ?? scripted.respond?.(request) ?? DEFAULT_ANSWER;
      if (answer.reset) {
        req.socket.destroy();
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body);
      }, answer.holdMs ?? 0);
    });
  };
  const server = tls
    ? https.createServer(
        {
          cert: tls.certificatePem,
          key: tls.privateKeyPem,
          requestCert: tls.requestCert ?? false,
          rejectUnauthorized: false,
        },
        handler,
      )
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const scripted: ScriptedServer = {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    seen,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return scripted;
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A port on 127.0.0.1 whose listener never accepts and whose accept queue is full: the kernel drops
 * each further SYN, so a connect hangs until the client's connect timeout. Node accepts every
 * connection itself, so the listener is a python3 socket with backlog 0; one connection fills the queue.
 */
export async function fullBacklogPort(): Promise<{ port: number; close(): Promise<void> }> {
  const listener = spawn(
    "python3",
    [
      "-c",
      "import socket,sys\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\nsys.stdin.read()",
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => listener.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    listener.once("error", reject);
    listener.stdout.once("data", (data) => resolve(Number(String(data).trim())));
  });
  const filler = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    filler.once("connect", resolve);
    filler.once("error", reject);
  });
  return {
    port,
    close: async () => {
      filler.destroy();
      listener.stdin.end(); // python reads stdin to its end, then exits
      await exited;
    },
  };
}
