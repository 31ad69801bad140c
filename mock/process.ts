// The mock server in a process of its own, driven through its `/__mock/` control interface: for
// benchmarks (so the server's work does not share the measured client's event loop) and for users
// who run it beside their own tests.
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { controlHeaders, type DemoCredentials, type RequestLogEntry } from "./server";

export interface MockProcess {
  url: string;
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
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let seen = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /listening on (\S+)/.exec(seen)?.[1];
      const token = /^export FRONTDOOR_MOCK_TOKEN=(\S+)$/m.exec(seen)?.[1];
      if (url && token) resolve({ url, token });
    });
    child.once("exit", (code) => reject(new Error(`mock server exited (${code}) before listening`)));
  });
  child.stdout!.resume();
  const control = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/__mock/${route}`, {
      method,
      headers: controlHeaders(token),
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status >= 400)
      throw new Error(`mock control ${method} ${route}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const credentials = await control<DemoCredentials>("GET", "credentials");
  return {
    url,
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
