// The real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) as a child process, and a
// typed client for the ResourceProvider gRPC calls the engine makes on it.
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { stripSecrets } from "./secrets";

// The stubs must use the grpc-js and google-protobuf that @pulumi/pulumi itself resolves: Struct
// conversion fails across two copies of google-protobuf.
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromPulumi = (id: string) => require(require.resolve(id, { paths: [pulumiDir] }));
const grpc = fromPulumi("@grpc/grpc-js");
const structproto = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const statusproto = require("@pulumi/pulumi/proto/status_pb");

type Props = Record<string, any>;

export interface CheckFailure {
  property: string;
  reason: string;
}
export interface DiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** An error the host returned; `created` is set when the object exists despite the error (init failure). */
export class HostError extends Error {
  constructor(
    message: string,
    readonly created?: { id: string; outputs: Props },
  ) {
    super(message);
  }
}

function struct(props: Props) {
  // The host does not accept secrets: strip the markers here, once, for every call.
  return structproto.Struct.fromJavaScript(stripSecrets(props));
}

/** Where the host comes from: the program's own @pulumi/pulumi if it has one (as the engine would run it). */
function hostEntry(programDir: string): string {
  try {
    return require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: [programDir] });
  } catch {
    return require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js");
  }
}

const watchdog = path.join(__dirname, "host-watchdog.js");

/** Hosts started by this process and not yet stopped: killed, with their process groups, on any exit. */
const live = new Set<ChildProcess>();

/**
 * Kills every host this process started, synchronously (usable in `exit` and signal handlers). Each
 * host runs in a process group of its own, so whatever it started goes too.
 */
export function killAllHosts(signal: NodeJS.Signals = "SIGKILL"): void {
  for (const child of live) killGroup(child, signal);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

// A harness that ends in any way but a SIGKILL takes its hosts with it (the watchdog covers SIGKILL).
process.on("exit", () => killAllHosts());

export class Host {
  private output = "";
  private client: any;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly debug: boolean,
  ) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  /** Starts the host in `programDir` (so the provider's `require("pulumi-frontdoor/...")` resolves there). */
  static async start(programDir: string, env: NodeJS.ProcessEnv, debug: boolean): Promise<Host> {
    // Any engine address works: the host never calls back. Its own process group (detached), so a
    // Ctrl-C in the terminal reaches only the harness, which then stops the host itself; its stdin
    // is a pipe the watchdog watches.
    const child = spawn(process.execPath, ["--require", watchdog, hostEntry(programDir), "127.0.0.1:1"], {
      cwd: programDir,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    live.add(child);
    child.once("exit", () => live.delete(child));
    const host = new Host(child, debug);
    const port = await new Promise<number>((resolve, reject) => {
      let stdout = "";
      const onData = (chunk: Buffer) => {
        stdout += chunk.toString();
        const nl = stdout.indexOf("\n");
        if (nl < 0) return;
        child.stdout!.off("data", onData);
        host.capture(stdout.slice(nl + 1));
        child.stdout!.on("data", (c: Buffer) => host.capture(c.toString()));
        resolve(Number(stdout.slice(0, nl).trim()));
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (c: Buffer) => host.capture(c.toString()));
      child.once("error", reject);
      child.once("exit", (code) =>
        reject(new Error(`dynamic-provider host exited (${code}): ${host.output}`)),
      );
    });
    host.client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return host;
  }

  private capture(text: string) {
    this.output += text;
    if (this.debug && text) process.stderr.write(text.replace(/^/gm, "[host] "));
  }

  /** Everything the host printed (provider logs, stack traces), for error messages. */
  get log(): string {
    return this.output;
  }

  private call(method: string, req: any): Promise<any> {
    return new Promise((resolve, reject) => {
      this.client[method](req, async (err: any, resp: any) => {
        if (!err) return resolve(resp);
        // A host that died (killed, crashed) fails every call under way: say so, not just
        // "UNAVAILABLE" (its exit may be seen a moment after the broken connection).
        if (err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.CANCELLED) {
          await Promise.race([this.exited, new Promise((r) => setTimeout(r, 500))]);
        }
        const { exitCode, signalCode } = this.child;
        if (exitCode !== null || signalCode !== null) {
          const how = signalCode ?? `code ${exitCode}`;
          return reject(new HostError(`the dynamic-provider host exited (${how}) during ${method}`));
        }
        reject(toHostError(err));
      });
    });
  }

  /** `config` keyed like `frontdoor:apiUrl`; secret values are sent as plain strings (acceptSecrets=false). */
  async configure(config: Props): Promise<void> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(struct(config));
    req.setAcceptsecrets(false);
    req.setAcceptresources(false);
    await this.call("configure", req);
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    const resp = await this.call("check", req);
    const failures = resp
      .getFailuresList()
      .map((f: any) => ({ property: f.getProperty(), reason: f.getReason() }));
    return { inputs: resp.getInputs()?.toJavaScript() ?? news, failures };
  }

  async diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<DiffResult> {
    const req = new provproto.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    req.setOldInputs(struct(oldInputs));
    const resp = await this.call("diff", req);
    const replaces: string[] = resp.getReplacesList();
    // DIFF_UNKNOWN (no diff method) counts as changed, as in the engine's legacy diff.
    const changes = resp.getChanges() !== provproto.DiffResponse.DiffChanges.DIFF_NONE || replaces.length > 0;
    return { changes, replaces, deleteBeforeReplace: resp.getDeletebeforereplace() };
  }

  async create(urn: string, inputs: Props): Promise<{ id: string; outputs: Props }> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(struct(inputs));
    const resp = await this.call("create", req);
    return { id: resp.getId(), outputs: resp.getProperties()?.toJavaScript() ?? {} };
  }

  async update(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<Props> {
    const req = new provproto.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    req.setOldInputs(struct(oldInputs));
    const resp = await this.call("update", req);
    return resp.getProperties()?.toJavaScript() ?? {};
  }

  async delete(urn: string, id: string, outputs: Props, inputs: Props): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(outputs));
    req.setOldInputs(struct(inputs));
    await this.call("delete", req);
  }

  /** An empty `id` in the answer means the object is gone. */
  async read(
    urn: string,
    id: string,
    props: Props,
    inputs: Props,
  ): Promise<{ id: string; outputs: Props; inputs?: Props }> {
    const req = new provproto.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(props));
    req.setInputs(struct(inputs));
    const resp = await this.call("read", req);
    return {
      id: resp.getId(),
      outputs: resp.getProperties()?.toJavaScript() ?? {},
      inputs: resp.getInputs()?.toJavaScript(),
    };
  }

  /** The host's process id (its process group has the same id). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Peak resident memory of the host process so far (Linux: VmHWM), in bytes; undefined elsewhere. */
  peakRssBytes(): number | undefined {
    try {
      const status = require("node:fs").readFileSync(`/proc/${this.child.pid}/status`, "utf8") as string;
      const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
      return kb ? Number(kb) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** CPU time (user + system) of the host process so far (Linux: /proc/<pid>/stat), in ms. */
  cpuMs(): number | undefined {
    try {
      const stat = require("node:fs").readFileSync(`/proc/${this.child.pid}/stat`, "utf8") as string;
      // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<void> {
    this.client?.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      killGroup(this.child, "SIGTERM");
      await this.exited;
    }
  }
}

/** gRPC error -> HostError carrying the provider's message and, for init failures, the created object. */
function toHostError(err: any): HostError {
  const message = err.details || err.message || String(err);
  const bin = err.metadata?.get?.("grpc-status-details-bin")?.[0];
  if (bin) {
    try {
      const status = statusproto.Status.deserializeBinary(bin);
      for (const any of status.getDetailsList()) {
        const detail = any.unpack(
          provproto.ErrorResourceInitFailed.deserializeBinary,
          "pulumirpc.ErrorResourceInitFailed",
        );
        if (detail?.getId()) {
          return new HostError(message, {
            id: detail.getId(),
            outputs: detail.getProperties()?.toJavaScript() ?? {},
          });
        }
      }
    } catch {
      // Malformed details: the message alone still says what failed.
    }
  }
  return new HostError(message);
}
