// The mock server in a process of its own, driven through its `/__mock/` control interface: for
// benchmarks (so the server's work does not share the measured client's event loop) and for users
// who run it beside their own tests.
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import http from "node:http";
import https from "node:https";
import * as path from "node:path";
import { controlHeaders, type DemoCredentials, type RequestLogEntry } from "./server";

export interface MockProcess {
  url: string;
  /** With `--cluster N`: every node's URL (`url` is the first); else `[url]`. */
  urls: string[];
  /** With `--tls` or `--cluster`: the CA of the server certificates (control calls trust it). */
  caPem?: string;
  credentials: DemoCredentials;
  control<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  log(): Promise<RequestLogEntry[]>;
  clearLog(): Promise<void>;
  close(): Promise<void>;
}

export async function startMockProcess(args: string[] = []): Promise<MockProcess> {
  // Compiled (the installed package) the CLI is JavaScript; in the checkout it runs through ts-node.
  const compiled = path.join(__dirname, "cli.js");
  const argv = fs.existsSync(compiled)
    ? [compiled, ...args]
    : ["-r", "ts-node/register/transpile-only", path.join(__dirname, "cli.ts"), ...args];
  const child: ChildProcess = spawn(process.execPath, argv, {
    cwd: path.resolve(__dirname, ".."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const nodes = args.includes("--cluster") ? Number(args[args.indexOf("--cluster") + 1]) : 0;
  const needsCa = args.includes("--tls") || nodes > 0;
  const { url, token, printed } = await new Promise<{ url: string; token: string; printed: string }>(
    (resolve, reject) => {
      let seen = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const url = /listening on (\S+)\n/.exec(seen)?.[1];
        const token = /^export FRONTDOOR_MOCK_TOKEN=(\S+)\n/m.exec(seen)?.[1];
        // Whole lines only (a chunk may end mid-line), and all the caller needs: the CA with TLS, every node.
        const complete =
          (!needsCa || /^export FRONTDOOR_CA_BUNDLE=\S+\n/m.test(seen)) &&
          (seen.match(/^ {2}node \S+: \S+\n/gm) ?? []).length >= nodes;
        if (url && token && complete) resolve({ url, token, printed: seen });
      });
      child.once("exit", (code) => reject(new Error(`mock server exited (${code}) before listening`)));
    },
  );
  child.stdout!.resume();
  const caFile = /^export FRONTDOOR_CA_BUNDLE=(\S+)$/m.exec(printed)?.[1];
  const caPem = caFile ? fs.readFileSync(caFile, "utf8") : undefined;
  const urls = /^export ZITI_EDGE_URLS=(\S+)$/m.exec(printed)?.[1]?.split(",") ?? [url];
  const control = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const { status, text } = await request(
      `${url}/__mock/${route}`,
      method,
      controlHeaders(token),
      caPem,
      body,
    );
    if (status >= 400) throw new Error(`mock control ${method} ${route}: ${status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const credentials = await control<DemoCredentials>("GET", "credentials");
  return {
    url,
    urls,
    caPem,
    credentials,
    control,
    log: () => control<RequestLogEntry[]>("GET", "log"),
    clearLog: () => control<void>("DELETE", "log"),
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** One request (HTTPS trusting `caPem` when given): the status and the body as text. */
function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  caPem: string | undefined,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const transport = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method, headers, ca: caPem, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}
