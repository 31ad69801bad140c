// Runs the Pulumi program in this process with a resource monitor that performs each registered
// resource's step on the real host right away and answers with the real id and outputs.
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { stripSecrets } from "./secrets";
import type { Session } from "./session";
import type { StateResource } from "./state";
import { type Registration, runStep, type StepResult } from "./steps";

const settings = require("@pulumi/pulumi/runtime/settings");
const resproto = require("@pulumi/pulumi/proto/resource_pb");
const structproto = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", {
    paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))],
  }),
);

const DYNAMIC_TYPE = "pulumi-nodejs:dynamic";
// What the monitor tells the runtime it supports. No resource references: the host does not accept
// them, so resources passed as inputs are sent as their ids, as the engine does for this provider.
const FEATURES = new Set(["secrets", "deletedWith", "aliasSpecs"]);

type Callback = (err: any, resp?: any) => void;

export interface ProgramRun {
  /** URNs the program registered (custom resources only). */
  registered: Set<string>;
  /** The program's exports, serialized (secret markers, unknowns in preview). */
  outputs: Record<string, any>;
  /** Errors the program itself raised (not step failures). */
  errors: string[];
}

class HarnessMonitor {
  readonly registered = new Set<string>();
  private readonly steps = new Map<string, Promise<boolean>>();
  /** Resolves at the first failed step: like the engine, the harness then starts no new step. */
  readonly firstFailure: Promise<void>;
  private failed = false;
  private signalFailure!: () => void;
  /**
   * The live resources of the state by URN, as the program run starts: a URN registers once, so the
   * only step that changes its entry is its own. One lookup per step instead of a scan of the state.
   */
  private readonly olds = new Map<string, StateResource>();

  constructor(private readonly s: Session) {
    for (const r of s.state.resources) if (!r.pendingDelete) this.olds.set(r.urn, r);
    this.firstFailure = new Promise((resolve) => {
      this.signalFailure = resolve;
    });
  }

  private urn(parent: string, type: string, name: string): string {
    // Same rule as the engine: a child's type is qualified by its parent's type.
    const qualified = parent ? `${parent.split("::")[2]}$${type}` : type;
    return `urn:pulumi:${this.s.stack}::${this.s.project}::${qualified}::${name}`;
  }

  supportsFeature(req: any, cb: Callback) {
    cb(null, { getHassupport: () => FEATURES.has(req.getId()) });
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
    const urn = this.urn(req.getParent(), req.getType(), req.getName());
    const answer = (id: string, outputs: Record<string, any>) => {
      const resp = new resproto.RegisterResourceResponse();
      resp.setUrn(urn);
      resp.setId(id);
      resp.setObject(structproto.Struct.fromJavaScript(outputs));
      resp.setResult(resproto.Result.SUCCESS);
      cb(null, resp);
    };
    if (!req.getCustom()) return answer("", {}); // components have no step of their own
    if (!req.getType().startsWith(DYNAMIC_TYPE)) {
      return cb(
        new Error(`the harness only runs dynamic resources, not ${req.getType()} (${req.getName()})`),
      );
    }
    if (this.steps.has(urn)) return cb(new Error(`duplicate resource URN ${urn}`));
    this.registered.add(urn);
    const reg = registration(req, urn);
    const step = this.step(reg);
    this.steps.set(
      urn,
      step.then(
        () => true,
        () => false,
      ),
    );
    step.then(
      (r) => answer(r.id, r.outputs),
      (e) => cb(new Error(e.message)),
    );
  }

  private async step(reg: Registration): Promise<StepResult> {
    // The engine starts a step only when the steps it depends on are done.
    const deps = await Promise.all(reg.dependencies.map((d) => this.steps.get(d) ?? true));
    if (deps.includes(false)) throw new Error(`${reg.name} not updated: a dependency failed`);
    if (this.failed) throw new Error(`${reg.name} not updated: an earlier step failed`);
    try {
      return await this.s.limit.run(() => runStep(this.s, reg, this.olds.get(reg.urn)));
    } catch (e: any) {
      const inState = this.s.state.resources.some((r) => r.urn === reg.urn);
      this.s.fail({ urn: reg.urn, name: reg.name, type: reg.type, message: e.message });
      this.s.record(reg, inState ? "update" : "create", { error: e.message });
      this.failed = true;
      this.signalFailure();
      throw e;
    }
  }

  /** Resolves when every step started so far has finished. */
  async settle(): Promise<void> {
    let n = -1;
    while (n !== this.steps.size) {
      n = this.steps.size;
      await Promise.all(this.steps.values());
    }
  }
}

function registration(req: any, urn: string): Registration {
  const deps = new Set<string>(req.getDependenciesList());
  const propertyDependencies: Record<string, string[]> = {};
  for (const [key, pd] of req.getPropertydependenciesMap().entries()) {
    const urns: string[] = pd.getUrnsList().filter((u: string) => u !== urn);
    for (const u of urns) deps.add(u);
    if (urns.length) propertyDependencies[key] = urns;
  }
  deps.delete(urn);
  return {
    urn,
    type: req.getType(),
    name: req.getName(),
    inputs: req.getObject()?.toJavaScript() ?? {},
    dependencies: [...deps],
    propertyDependencies,
    protect: req.getProtect() ?? false,
    retainOnDelete: req.getRetainondelete() ?? false,
    deleteBeforeReplace: req.getDeletebeforereplace(),
    importId: req.getImportid(),
    ignoreChanges: req.getIgnorechangesList(),
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
  };
}

/** Loads the program's index.ts under the harness monitor and waits for every registration to finish. */
export async function runProgram(s: Session): Promise<ProgramRun> {
  const monitor = new HarnessMonitor(s);
  settings.setMockOptions(monitor, s.project, s.stack, s.preview);
  await settings.awaitFeatureSupport();
  const config = stripSecrets(s.state.config);
  const secretConfigKeys = Object.keys(s.state.config).filter(
    (k) => stripSecrets(s.state.config[k]) !== s.state.config[k],
  );
  pulumi.runtime.setAllConfig(config, secretConfigKeys);

  const errors: string[] = [];
  // Failed registrations reject promises the program never awaits; collect them instead of crashing.
  const onRejection = (e: any) => errors.push(e?.message ?? String(e));
  process.on("unhandledRejection", onRejection);
  const cwd = process.cwd();
  process.chdir(s.programDir); // pulumi runs programs in their directory
  const stackTraceLimit = Error.stackTraceLimit;
  if (!keepPromiseStacks(s)) Error.stackTraceLimit = 0;
  let outputs: Record<string, any> = {};
  const program = (async () => {
    try {
      registerTypeScript();
      let exported = require(path.join(s.programDir, "index.ts"));
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
      await settings.waitForRPCs();
    } catch (e: any) {
      errors.push(e?.message ?? String(e));
    }
  })();
  // After a failed step the program may wait forever on outputs that will never resolve (resources
  // depending on the failed one); the engine stops the deployment then, and so does the harness,
  // once the steps already under way have finished.
  await Promise.race([program, monitor.firstFailure]);
  await monitor.settle();
  Error.stackTraceLimit = stackTraceLimit;
  process.chdir(cwd);
  // The handler stays: after a failed step, registrations still pending reject later, and must not
  // crash the harness before it writes the state and the report.
  return { registered: monitor.registered, outputs, errors };
}

/**
 * Pulumi's runtime formats a stack trace for every promise it makes (`debuggablePromise`), kept on the
 * promise for a leak report that prints them only under PULUMI_DEBUG_PROMISE_LEAKS: about 30 stack
 * strings per resource, alive until the resource's step is done, which is most of a large `up` (a heap
 * snapshot at 1000 pending resources: 28 MB of them; formatting them was 12% of the CPU profile).
 * While the program runs the harness keeps no frames (the runtime still finds resources' source
 * positions: it lifts the limit itself for that), unless that report or --debug asks for them. The
 * harness reports a program's errors by their messages, which stay whole.
 */
function keepPromiseStacks(s: Session): boolean {
  return Boolean(s.opts.debug || process.env.PULUMI_DEBUG_PROMISE_LEAKS);
}

function registerTypeScript(): void {
  // Already registered when the CLI runs under ts-node; otherwise load it for the program.
  if (require.extensions[".ts"]) return;
  require("ts-node").register({ transpileOnly: true });
}
