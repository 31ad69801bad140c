// The program process: runs the user's Pulumi program in a process of its own, as the Pulumi CLI's
// Node.js language host does, so the memory the Pulumi runtime keeps per pending resource is not the
// harness's. Its resource monitor forwards each registration to the harness (program.ts) over the IPC
// channel and answers the program with the real id and outputs the harness's step returned.
// Started through boot.js (`node boot.js --program`: the cached .ts transpile hook loads a .ts program),
// early, so loading @pulumi/pulumi here overlaps the start of the dynamic-provider host.
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { programEntry } from "./entry";
import type {
  FromProgram,
  PlainRegistration,
  RegisteredMessage,
  StartMessage,
  ToProgram,
} from "./programProtocol";

// Gone with the harness whatever ended it, even a SIGKILL: the kernel closes the IPC channel then.
// A failure code: Pulumi's runtime prints its promise-leak report only on a clean exit.
process.on("disconnect", () => process.exit(1));

const settings = require("@pulumi/pulumi/runtime/settings");
const runtimeState = require("@pulumi/pulumi/runtime/state");
const resproto = require("@pulumi/pulumi/proto/resource_pb");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const structproto = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }),
);
const grpcStatus = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })).status;

// What the monitor tells the runtime it supports. No resource references: the host does not accept
// them, so resources passed as inputs are sent as their ids, as the engine does for this provider.
const FEATURES = new Set(["secrets", "deletedWith", "aliasSpecs"]);

type Callback = (err: any, resp?: any) => void;

function send(message: FromProgram): void {
  // No channel: the harness is gone, and the `disconnect` handler ends this process.
  process.send?.(message);
}

class ForwardingMonitor {
  private seq = 0;
  private readonly waiting = new Map<number, Callback>();

  supportsFeature(req: any, cb: Callback) {
    cb(null, { getHassupport: () => FEATURES.has(req.getId()) });
  }

  // @pulumi/pulumi 3.276 first asks for every feature at once (GetDeploymentInfo) and, on
  // UNIMPLEMENTED, probes them one by one (supportsFeature above), as 3.248 always does: one answer,
  // FEATURES, for both.
  getDeploymentInfo(_req: any, cb: Callback) {
    cb(
      Object.assign(new Error("GetDeploymentInfo is not implemented by the harness"), {
        code: grpcStatus.UNIMPLEMENTED,
      }),
    );
  }

  registerPackage(_req: any, cb: Callback) {
    const resp = new resproto.RegisterPackageResponse();
    resp.setRef("harness");
    cb(null, resp);
  }

  registerResourceOutputs(_req: any, cb: Callback) {
    cb(null, {});
  }

  invoke(req: any, cb: Callback) {
    cb(new Error(`the harness does not support invoke ${req.getTok()}`));
  }

  readResource(req: any, cb: Callback) {
    cb(new Error(`the harness does not support reading ${req.getType()} ${req.getName()} (Resource.get)`));
  }

  registerResource(req: any, cb: Callback) {
    const seq = ++this.seq;
    this.waiting.set(seq, cb);
    send({ kind: "register", seq, registration: plainRegistration(req) });
  }

  answer(message: RegisteredMessage) {
    const cb = this.waiting.get(message.seq);
    if (!cb) return;
    this.waiting.delete(message.seq);
    if ("error" in message) return cb(new Error(message.error));
    const resp = new resproto.RegisterResourceResponse();
    resp.setUrn(message.urn);
    resp.setId(message.id);
    resp.setObject(structproto.Struct.fromJavaScript(message.outputs));
    resp.setResult(resproto.Result.SUCCESS);
    cb(null, resp);
  }
}

function plainRegistration(req: any): PlainRegistration {
  const propertyDependencies: Record<string, string[]> = {};
  for (const [key, pd] of req.getPropertydependenciesMap().entries()) {
    propertyDependencies[key] = pd.getUrnsList();
  }
  return {
    type: req.getType(),
    name: req.getName(),
    parent: req.getParent(),
    custom: req.getCustom(),
    inputs: req.getObject()?.toJavaScript() ?? {},
    dependencies: req.getDependenciesList(),
    propertyDependencies,
    protect: req.getProtect() ?? false,
    retainOnDelete: req.getRetainondelete() ?? false,
    deleteBeforeReplace: req.getDeletebeforereplace(),
    importId: req.getImportid(),
    ignoreChanges: req.getIgnorechangesList(),
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
  };
}

const monitor = new ForwardingMonitor();

/**
 * Loads the program (its entry point found as the CLI's language host finds it: entry.ts) under the
 * forwarding monitor and waits for every registration.
 */
async function run(start: StartMessage): Promise<void> {
  settings.setMockOptions(monitor, start.project, start.stack, start.preview);
  await settings.awaitFeatureSupport();
  pulumi.runtime.setAllConfig(start.config, start.secretKeys);

  const errors: string[] = [];
  // Failed registrations reject promises the program never awaits; collect them instead of crashing.
  process.on("unhandledRejection", (e: any) => errors.push(e?.message ?? String(e)));
  process.chdir(start.programDir); // pulumi runs programs in their directory
  // Pulumi's runtime formats a stack trace for every promise it makes (`debuggablePromise`), kept on
  // the promise for a leak report that prints them only under PULUMI_DEBUG_PROMISE_LEAKS: about 30
  // stack strings per resource, alive until the resource's step is done, which is most of a large
  // `up` (a heap snapshot at 1000 pending resources: 28 MB of them; formatting them was 12% of the
  // CPU profile). The program keeps no frames (the runtime still finds resources' source positions:
  // it lifts the limit itself for that), unless that report or --debug asks for them. The harness
  // reports a program's errors by their messages, which stay whole.
  if (!start.keepPromiseStacks) Error.stackTraceLimit = 0;
  let outputs: Record<string, any> = {};
  try {
    const entry = programEntry(start.programDir);
    for (const warning of entry.warnings) console.error(`warning: ${warning}`);
    let exported = require(entry.request);
    if (typeof exported === "function") exported = exported();
    exported = await exported;
    if (exported && typeof exported === "object") {
      const { __esModule, ...exports } = exported;
      outputs = await pulumi.runtime.serializeProperties("outputs", exports, { keepOutputValues: false });
    }
  } catch (e: any) {
    errors.push(e?.message ?? String(e));
  }
  try {
    await settleRPCs();
  } catch (e: any) {
    errors.push(e?.message ?? String(e));
  }
  // The handler stays: registrations still pending may reject later; the harness stops this
  // process once it has the result.
  send({ kind: "done", outputs, errors });
}

/** The runtime's chain of pending RPCs: a new one replaces it (settings.rpcKeepAlive). */
function rpcChain(): unknown {
  return runtimeState.getStore().settings.rpcDone;
}

/**
 * Every RPC the program makes, including those made by apply callbacks that run after the last
 * registration answered. The CLI's language host ends the program when Node's event loop is empty
 * (beforeExit), so such a callback always runs there; this process stays up for the IPC channel, so
 * it waits itself: after the pending RPCs, one event loop turn (the promise chains that resolved with
 * them run first), and again while that turn started new ones. @pulumi/pulumi 3.276 resolves an
 * apply a few promise hops later than 3.248 (it awaits each output's `allResources`), after
 * waitForRPCs: a warning logged from an apply (provider/expiry.ts, an Identity's enrollment) was lost.
 */
async function settleRPCs(): Promise<void> {
  for (let round = 0; round < 100; round++) {
    await settings.waitForRPCs();
    const before = rpcChain();
    await new Promise((resolve) => setImmediate(resolve));
    if (rpcChain() === before) return;
  }
}

process.on("message", (message: ToProgram) => {
  if (message.kind === "registered") monitor.answer(message);
  else if (message.kind === "start") {
    run(message).catch((e: any) => send({ kind: "done", outputs: {}, errors: [e?.message ?? String(e)] }));
  }
});
