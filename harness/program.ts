// The harness's side of a program run. The program runs in a process of its own (programChild.ts),
// as the Pulumi CLI runs it under its language host: the memory Pulumi's runtime keeps per pending
// resource (~90 KB) is that process's, not the harness's. Each resource the program registers comes
// here over the IPC channel; the harness performs its step on the real host right away and answers
// with the real id and outputs.
import * as path from "node:path";
import { GroupProcess } from "./children";
import type { FromProgram, PlainRegistration, ToProgram } from "./programProtocol";
import { stripSecrets } from "./secrets";
import type { Session } from "./session";
import type { StateResource } from "./state";
import { type Registration, runStep, type StepResult } from "./steps";

const DYNAMIC_TYPE = "pulumi-nodejs:dynamic";
const boot = path.join(__dirname, "boot.js");

export interface ProgramRun {
  /** URNs the program registered (custom resources only). */
  registered: Set<string>;
  /** The program's exports, serialized (secret markers, unknowns in preview). */
  outputs: Record<string, any>;
  /** Errors the program itself raised (not step failures). */
  errors: string[];
}

/** The program process: started early (loading @pulumi/pulumi takes ~0.5 s), told to run later. */
export class ProgramProcess {
  private readonly proc: GroupProcess;
  private stopping: Promise<void> | undefined;
  /** Read just before it is stopped (from /proc, so while it still runs). */
  peakRssBytes?: number;
  cpuMs?: number;
  /** Messages from the program, once runProgram listens. */
  onMessage: (message: FromProgram) => void = () => undefined;

  constructor() {
    // Its stdout and stderr are the harness's, as the program's console output was when it ran in
    // the harness. Its stdin is not used: the IPC channel is its link to the harness.
    this.proc = new GroupProcess(process.execPath, [boot, "--program"], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.proc.child.on("message", (message: FromProgram) => this.onMessage(message));
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Resolves with how the process ended ("signal SIGKILL", "code 1"). */
  get exited(): Promise<string> {
    return this.proc.exited.then(() => this.proc.ended ?? "unknown");
  }

  send(message: ToProgram): void {
    // After the program process died the answer has nobody to go to; its exit is reported instead.
    if (this.proc.child.connected) this.proc.child.send(message, () => undefined);
  }

  /** Records its peak memory and CPU time, then stops it (once). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.peakRssBytes = this.proc.peakRssBytes();
      this.cpuMs = this.proc.cpuMs();
      await this.proc.stop();
    })();
    return this.stopping;
  }
}

class HarnessMonitor {
  readonly registered = new Set<string>();
  private readonly steps = new Map<string, Promise<boolean>>();
  /** Resolves at the first failed step: like the engine, the harness then starts no new step. */
  readonly firstFailure: Promise<void>;
  /** Why no new step starts any more (a failed step, the program process gone). */
  private stopReason: string | undefined;
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

  /** One registration from the program: its URN, id and outputs once its step is done. */
  async register(
    plain: PlainRegistration,
  ): Promise<{ urn: string; id: string; outputs: Record<string, any> }> {
    const urn = this.urn(plain.parent, plain.type, plain.name);
    if (!plain.custom) return { urn, id: "", outputs: {} }; // components have no step of their own
    if (!plain.type.startsWith(DYNAMIC_TYPE)) {
      throw new Error(`the harness only runs dynamic resources, not ${plain.type} (${plain.name})`);
    }
    if (this.steps.has(urn)) throw new Error(`duplicate resource URN ${urn}`);
    this.registered.add(urn);
    const step = this.step(registration(plain, urn));
    this.steps.set(
      urn,
      step.then(
        () => true,
        () => false,
      ),
    );
    const { id, outputs } = await step;
    return { urn, id, outputs };
  }

  private async step(reg: Registration): Promise<StepResult> {
    // The engine starts a step only when the steps it depends on are done.
    const deps = await Promise.all(reg.dependencies.map((d) => this.steps.get(d) ?? true));
    if (deps.includes(false)) throw new Error(`${reg.name} not updated: a dependency failed`);
    return this.s.limit.run(async () => {
      // Checked when the step would start (a step waiting for a free slot has not started).
      if (this.stopReason) throw new Error(`${reg.name} not updated: ${this.stopReason}`);
      try {
        return await runStep(this.s, reg, this.olds.get(reg.urn));
      } catch (e: any) {
        const inState = this.s.state.resources.some((r) => r.urn === reg.urn);
        this.s.fail({ urn: reg.urn, name: reg.name, type: reg.type, message: e.message });
        this.s.record(reg, inState ? "update" : "create", { error: e.message });
        this.stop("an earlier step failed");
        this.signalFailure();
        throw e;
      }
    });
  }

  /** Starts no new step (those already started finish). */
  stop(reason: string): void {
    this.stopReason ??= reason;
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

/** The step's view of a registration: dependencies on the resource itself left out. */
function registration(plain: PlainRegistration, urn: string): Registration {
  const deps = new Set<string>(plain.dependencies);
  const propertyDependencies: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(plain.propertyDependencies)) {
    const urns = list.filter((u) => u !== urn);
    for (const u of urns) deps.add(u);
    if (urns.length) propertyDependencies[key] = urns;
  }
  deps.delete(urn);
  const { parent, custom, dependencies, ...rest } = plain;
  return { ...rest, urn, dependencies: [...deps], propertyDependencies };
}

/** Runs the program in its process, stepping each resource it registers; waits for every step. */
export async function runProgram(s: Session): Promise<ProgramRun> {
  const monitor = new HarnessMonitor(s);
  const program = s.program();
  let outputs: Record<string, any> = {};
  const errors: string[] = [];
  const done = new Promise<void>((resolve) => {
    program.onMessage = (message) => {
      if (message.kind === "done") {
        outputs = message.outputs;
        errors.push(...message.errors);
        return resolve();
      }
      const { seq } = message;
      monitor.register(message.registration).then(
        (r) => program.send({ kind: "registered", seq, ...r }),
        (e: any) => program.send({ kind: "registered", seq, error: e.message }),
      );
    };
  });
  const config = stripSecrets(s.state.config);
  program.send({
    kind: "start",
    programDir: s.programDir,
    project: s.project,
    stack: s.stack,
    preview: s.preview,
    config,
    secretKeys: Object.keys(s.state.config).filter((k) => config[k] !== s.state.config[k]),
    keepPromiseStacks: keepPromiseStacks(s),
  });
  // After a failed step the program may wait forever on outputs that will never resolve (resources
  // depending on the failed one); the engine stops the deployment then, and so does the harness,
  // once the steps already under way have finished. A program process that dies fails the run: no
  // new step starts, the steps under way finish, and the state holds what they did.
  let finished = false;
  const exited = program.exited.then((how) => {
    if (finished) return;
    s.fail({ message: `the program process exited (${how}) before the program finished` });
    monitor.stop("the program process exited");
  });
  await Promise.race([done, monitor.firstFailure, exited]);
  finished = true;
  await monitor.settle();
  await program.stop();
  return { registered: monitor.registered, outputs, errors };
}

/**
 * Pulumi's per-promise stack traces cost memory and CPU in the program process (see programChild.ts);
 * kept only when the leak report (PULUMI_DEBUG_PROMISE_LEAKS) or --debug asks for them.
 */
function keepPromiseStacks(s: Session): boolean {
  return Boolean(s.opts.debug || process.env.PULUMI_DEBUG_PROMISE_LEAKS);
}
