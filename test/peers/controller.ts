// A real OpenZiti controller for the real-peer suites: `ziti edge quickstart` (no router) with its
// home in a temp dir, listening on 127.0.0.1 only (the bind addresses come from the environment;
// --ctrl-address is only what it advertises), on a free port, with a random admin password.
// stop() ends the process group and removes the home; a process exit hook does the same, so no
// test run leaves a controller behind.
import { type ChildProcess, spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { EdgeClient } from "../support/edgeClient";
import { type ControllerRelease, controllerPeer, defaultRelease, peerPath } from "./index";

export interface RealController {
  url: string;
  username: string;
  password: string;
  /** The controller's root CA (PEM): the CA bundle clients need. */
  caPem: string;
  home: string;
  pid: number;
  /** The release it runs (FRONTDOOR_ZITI_RELEASE, else v1.6.0, unless asked otherwise). */
  release: ControllerRelease;
  /** The controller's console output so far (for failure messages). */
  output(): string;
  /**
   * Raw management API calls as another admin would make them (its own session); every answer is
   * checked against the swagger (`admin.violations`).
   */
  admin: EdgeClient;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

/** A peer process started by spawnDetached: its console output, whether it ended, and how to end it. */
export interface DetachedPeer {
  child: ChildProcess;
  /** Its console output so far (the last 100-200 kB). */
  output(): string;
  /** "exited with <code or signal>" once it ended, else undefined. */
  exited(): string | undefined;
  /** Ends its process group: SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * Starts a peer detached, in its own process group (so stop() and a SIGKILL reach everything it
 * started), capturing its console output; the process exit hook kills it if the run ends first.
 */
export function spawnDetached(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): DetachedPeer {
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited: string | undefined;
  child.once("exit", (code, signal) => {
    exited = `exited with ${code ?? signal}`;
    running.delete(child);
  });
  return {
    child,
    output: () => output,
    exited: () => exited,
    stop: async () => {
      if (exited) return;
      killGroup(child, "SIGTERM");
      const deadline = Date.now() + 10_000;
      while (!exited && Date.now() < deadline) await sleep(100);
      if (!exited) killGroup(child, "SIGKILL");
      while (!exited) await sleep(50);
    },
  };
}

/** Sends `signal` to the child's whole process group (it was started detached). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Provider settings for the controller (password login as its admin). */
export function realEdgeConfig(ctrl: RealController, edgeUrl = ctrl.url): Record<string, string> {
  return {
    "frontdoor:edgeUrl": edgeUrl,
    "frontdoor:edgeUsername": ctrl.username,
    "frontdoor:edgePassword": ctrl.password,
    "frontdoor:caBundle": ctrl.caPem,
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startController(
  options: { timeoutMs?: number; release?: ControllerRelease } = {},
): Promise<RealController> {
  const release = options.release ?? defaultRelease();
  const ziti = peerPath(controllerPeer(release));
  if (!ziti) throw new Error(`${controllerPeer(release)} is not built (npm run peers)`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ziti-quickstart-"));
  const port = await freePort();
  const username = "admin";
  const password = crypto.randomBytes(18).toString("base64url");
  const peer = spawnDetached(
    ziti,
    [
      "edge",
      "quickstart",
      "--home",
      home,
      "--ctrl-address",
      "127.0.0.1",
      "--ctrl-port",
      String(port),
      "--no-router",
      "--username",
      username,
      "--password",
      password,
    ],
    {
      cwd: home,
      env: {
        ...process.env,
        ZITI_CTRL_BIND_ADDRESS: "127.0.0.1",
        ZITI_CTRL_EDGE_BIND_ADDRESS: "127.0.0.1",
        ZITI_HOME: home,
      },
    },
  );
  const { child, output } = peer;

  const url = `https://127.0.0.1:${port}`;
  const stop = async () => {
    await peer.stop();
    fs.rmSync(home, { recursive: true, force: true });
  };

  try {
    const caFile = path.join(home, "pki", "root-ca", "certs", "root-ca.cert");
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    // Ready when the root CA exists and the management API answers over TLS verified by it.
    let admin: EdgeClient | undefined;
    for (;;) {
      if (peer.exited()) throw new Error(`the controller ${peer.exited()}:\n${output().slice(-4000)}`);
      if (Date.now() > deadline)
        throw new Error(`the controller did not become ready:\n${output().slice(-4000)}`);
      if (fs.existsSync(caFile)) {
        admin ??= new EdgeClient(url, fs.readFileSync(caFile, "utf8"));
        const ready = await admin.call("GET", "/version", { token: null }).catch(() => undefined);
        if (ready?.status === 200) break;
      }
      await sleep(250);
    }
    const login = await admin.login(username, password);
    if (login.status !== 200)
      throw new Error(`admin login failed: ${login.status} ${JSON.stringify(login.body)}`);
    const caPem = fs.readFileSync(caFile, "utf8");
    return {
      url,
      username,
      password,
      caPem,
      home,
      pid: child.pid as number,
      release,
      output,
      admin,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Every TCP socket the process listens on, as "address:port" (from `ss`). */
export function listeningAddresses(pid: number): string[] {
  const { execFileSync } = require("node:child_process") as typeof import("node:child_process");
  const text = execFileSync("ss", ["-H", "-ltnp"], { encoding: "utf8" });
  return text
    .split("\n")
    .filter((line) => line.includes(`pid=${pid},`))
    .map((line) => line.trim().split(/\s+/)[3]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
