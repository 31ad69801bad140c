// The real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) as a child process, and a
// typed client for the ResourceProvider gRPC calls the engine makes on it.
import * as path from "node:path";
import { GroupProcess } from "./children";
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
/** The fields DiffRequest and UpdateRequest share: the resource, its old state and inputs, the new inputs. */
function changeRequest<T extends ChangeRequest>(
  req: T,
  urn: string,
  id: string,
  olds: Props,
  news: Props,
  oldInputs: Props,
): T {
  req.setUrn(urn);
  req.setId(id);
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  req.setOldInputs(struct(oldInputs));
  return req;
}

interface ChangeRequest {
  setUrn(urn: string): unknown;
  setId(id: string): unknown;
  setOlds(olds: ReturnType<typeof struct>): unknown;
  setNews(news: ReturnType<typeof struct>): unknown;
  setOldInputs(oldInputs: ReturnType<typeof struct>): unknown;
}

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

export class Host {
  private output = "";
  private client: any;

  private constructor(
    private readonly proc: GroupProcess,
    private readonly debug: boolean,
  ) {}

  /** Starts the host in `programDir` (so the provider's `require("pulumi-frontdoor/...")` resolves there). */
  static async start(programDir: string, env: NodeJS.ProcessEnv, debug: boolean): Promise<Host> {
    // Any engine address works: the host never calls back. Its stdin is a pipe the watchdog watches.
    const proc = new GroupProcess(
      process.execPath,
      ["--require", watchdog, hostEntry(programDir), "127.0.0.1:1"],
      { cwd: programDir, env, stdio: ["pipe", "pipe", "pipe"] },
    );
    const child = proc.child;
    const host = new Host(proc, debug);
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
          await Promise.race([this.proc.exited, new Promise((r) => setTimeout(r, 500))]);
        }
        const how = this.proc.ended;
        if (how !== undefined) {
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
    const req = changeRequest(new provproto.DiffRequest(), urn, id, olds, news, oldInputs);
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
    const req = changeRequest(new provproto.UpdateRequest(), urn, id, olds, news, oldInputs);
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
    return this.proc.pid;
  }

  /** Peak resident memory of the host process so far (Linux), in bytes. */
  peakRssBytes(): number | undefined {
    return this.proc.peakRssBytes();
  }

  /** CPU time (user + system) of the host process so far (Linux), in ms. */
  cpuMs(): number | undefined {
    return this.proc.cpuMs();
  }

  async stop(): Promise<void> {
    this.client?.close();
    await this.proc.stop();
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
