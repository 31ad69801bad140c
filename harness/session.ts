// One harness command's shared context: the project, the state, the host, the report being built.
import * as path from "node:path";
import { Host } from "./host";
import { Limiter } from "./limit";
import { ProgramProcess } from "./program";
import { fullConfigKey, projectName } from "./project";
import { makeSecret, maskSecrets, stripSecrets } from "./secrets";
import { readStackConfig } from "./stackConfig";
import {
  dependencyOrder,
  type HarnessState,
  type PendingOperation,
  type PendingType,
  StateLock,
  type StateResource,
  StateStore,
} from "./state";

export { dependencyOrder } from "./state";

import type { Command, Failure, HarnessOptions, Op, PendingReport, Report, ResourceReport } from "./types";

export class Session {
  readonly project: string;
  readonly stack: string;
  readonly programDir: string;
  readonly store: StateStore;
  readonly lock: StateLock;
  readonly state: HarnessState;
  readonly limit: Limiter;
  readonly report: Report;
  private readonly started = Date.now();
  private hostPromise: Promise<Host> | undefined;
  private programProcess: ProgramProcess | undefined;

  constructor(
    readonly command: Command,
    readonly opts: HarnessOptions,
  ) {
    this.programDir = path.resolve(opts.programDir);
    this.project = projectName(this.programDir);
    this.stack = opts.stack ?? "dev";
    this.store = new StateStore(
      path.resolve(opts.stateFile ?? path.join(this.programDir, ".state", `${this.stack}.json`)),
    );
    this.lock = new StateLock(`${this.store.file}.lock`);
    // Preview never writes the state: it needs no lock.
    const tookOver = this.preview ? undefined : this.lock.acquire();
    try {
      this.state = this.store.load(this.project, this.stack);
    } catch (e) {
      this.lock.release();
      throw e;
    }
    this.state.project = this.project;
    this.state.stack = this.stack;
    // The stack's `Pulumi.<stack>.yaml`, as the CLI reads it; then, like `pulumi up -c k=v`, config
    // given on the command line, which wins and is saved with the stack.
    const fromFile = readStackConfig(this.programDir, this.stack);
    const config = { ...fromFile.config, ...opts.config };
    const secretConfig = { ...fromFile.secretConfig, ...opts.secretConfig };
    for (const [k, v] of Object.entries(config)) this.state.config[fullConfigKey(this.project, k)] = v;
    for (const [k, v] of Object.entries(secretConfig)) {
      this.state.config[fullConfigKey(this.project, k)] = makeSecret(v);
    }
    this.limit = new Limiter(Math.max(1, opts.parallel ?? 16));
    this.report = {
      command,
      project: this.project,
      stack: this.stack,
      stateFile: this.store.file,
      preview: command === "preview",
      ok: true,
      resources: [],
      outputs: {},
      summary: {},
      changes: [],
      failures: [],
      pendingOperations: this.state.pendingOperations.map(pendingReport),
      pendingAfter: [],
      warnings: tookOver ? [tookOver] : [],
      durationMs: 0,
      pid: process.pid,
    };
  }

  get preview(): boolean {
    return this.command === "preview";
  }

  /** Starts the host (once) and configures it with the stack config; call early to overlap start-up. */
  host(): Promise<Host> {
    this.hostPromise ??= (async () => {
      const env = {
        ...process.env,
        PULUMI_NODEJS_PROJECT: this.project,
        PULUMI_NODEJS_STACK: this.stack,
      };
      const host = await Host.start(this.programDir, env, this.opts.debug ?? false);
      this.report.hostPid = host.pid;
      try {
        await host.configure(stripSecrets(this.state.config));
      } catch (e) {
        await host.stop();
        throw e;
      }
      return host;
    })();
    return this.hostPromise;
  }

  /** Starts the program process (once); call early to overlap its loading of @pulumi/pulumi. */
  program(): ProgramProcess {
    if (!this.programProcess) {
      this.programProcess = new ProgramProcess();
      this.report.programPid = this.programProcess.pid;
    }
    return this.programProcess;
  }

  /**
   * Writes the state (never during preview; the snapshot puts resources in dependency order). Steps that finish in the
   * same turn of the event loop share one write; `close` writes whatever is still pending.
   */
  save(): void {
    if (this.preview || this.saveScheduled) return;
    this.saveScheduled = true;
    setImmediate(() => this.flush());
  }

  private saveScheduled = false;

  /**
   * Records that `type` is about to be done to `resource` and writes that to disk before returning,
   * as Pulumi does: if the run dies before the call's result is recorded, the next run finds the
   * operation pending and says so. `end` removes it in the same write as the result.
   */
  async operation<T>(type: PendingType, resource: StateResource, call: () => Promise<T>): Promise<T> {
    if (this.preview) return call();
    const op: PendingOperation = { type, resource };
    this.state.pendingOperations.push(op);
    if (!this.store.started) this.state.resources = dependencyOrder(this.state.resources);
    this.store.save(this.state, false, true);
    try {
      return await call();
    } finally {
      // Ended whatever the outcome, as the engine does: a failed call answered by the provider
      // says what happened (an init failure carries the object it made, kept by the caller).
      this.state.pendingOperations = this.state.pendingOperations.filter((x) => x !== op);
      this.save();
    }
  }

  /**
   * Writes the state now, as it is (pending operations included), with a complete snapshot: for a
   * harness about to exit on a signal or a crash.
   */
  saveNow(): void {
    if (this.preview) return;
    this.saveScheduled = true;
    this.flush(true);
    this.lock.release();
  }

  private flush(final = false): void {
    if (!this.saveScheduled && !final) return;
    this.saveScheduled = false;
    if (this.preview) return;
    this.store.save(this.state, final);
  }

  /** Removes `r` from the state in place (no copy of the whole list for every deleted resource). */
  removeResource(r: StateResource): void {
    const i = this.state.resources.indexOf(r);
    if (i >= 0) this.state.resources.splice(i, 1);
  }

  record(
    res: StateResource | { urn: string; type: string; name: string },
    op: Op,
    extra: Partial<ResourceReport> = {},
  ) {
    const outputs = "outputs" in res ? res.outputs : {};
    const { __provider, ...shown } = outputs;
    this.report.resources.push({
      urn: res.urn,
      type: res.type,
      name: res.name,
      id: "id" in res ? res.id : "",
      op,
      outputs: maskSecrets(shown),
      providerBytes: typeof __provider === "string" ? Buffer.byteLength(__provider) : 0,
      ...extra,
    });
    if (!extra.error) this.report.summary[op] = (this.report.summary[op] ?? 0) + 1;
    this.progress?.(this.report.resources[this.report.resources.length - 1], this.report.resources.length);
  }

  /** Called as each step finishes (the CLI prints a line and the running count). */
  progress?: (step: ResourceReport, done: number) => void;

  fail(failure: Failure): void {
    this.report.ok = false;
    this.report.failures.push(failure);
  }

  async close(): Promise<Report> {
    // One last full write: the state file alone holds the stack again (the journal is removed).
    if (this.saveScheduled || this.store.hasJournal) this.flush(true);
    if (this.hostPromise) {
      const host = await this.hostPromise.catch(() => undefined);
      this.report.hostPeakRssBytes = host?.peakRssBytes();
      this.report.hostCpuMs = host?.cpuMs();
      await host?.stop();
    }
    if (this.programProcess) {
      await this.programProcess.stop(); // already stopped when the program ran to its end
      this.report.programPeakRssBytes = this.programProcess.peakRssBytes;
      this.report.programCpuMs = this.programProcess.cpuMs;
    }
    this.report.pendingAfter = this.state.pendingOperations.map(pendingReport);
    this.lock.release();
    this.report.durationMs = Date.now() - this.started;
    // maxRSS is in kilobytes.
    this.report.harnessPeakRssBytes = process.resourceUsage().maxRSS * 1024;
    const cpu = process.cpuUsage();
    this.report.harnessCpuMs = (cpu.user + cpu.system) / 1000;
    return this.report;
  }

  /** The host's output, appended to error messages (it holds the provider's stack traces). */
  async hostLog(): Promise<string> {
    const host = await this.hostPromise?.catch(() => undefined);
    return host?.log ?? "";
  }
}

export function pendingReport(op: PendingOperation): PendingReport {
  const { urn, name, type, id } = op.resource;
  return { urn, name, type, op: op.type, id };
}
