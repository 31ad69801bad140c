// The harness's state file: what `pulumi` would keep in its backend, as one JSON file per stack.
// In memory secrets are in Pulumi's marked form `{[SIG_KEY]: SECRET_SIG, value}`; on disk `value` is
// replaced by `ciphertext` (crypto.ts). Nothing secret is ever written in plaintext.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Cipher, makeCipher, newSalt } from "./crypto";
import { mapSecrets } from "./secrets";

export interface StateResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** The checked inputs (incl. `__provider`), secret markers kept. */
  inputs: Record<string, any>;
  /** The outputs the host returned (incl. `__provider`), secret keys marked. */
  outputs: Record<string, any>;
  /** URNs this resource depends on (deleted after it, created before it). */
  dependencies: string[];
  additionalSecretOutputs?: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  /** The old object of a create-before-delete replace, still to be deleted (same URN as its successor). */
  pendingDelete?: boolean;
  /**
   * Why the object's create (or update) did not finish although the object exists (the host's
   * partial failure): as in Pulumi, the next `up` updates it even when nothing changed.
   */
  initErrors?: string[];
}

/**
 * An operation the engine started on the provider and has not seen finish, as Pulumi keeps them
 * (`pending_operations` in `pulumi stack export`): written before the call goes out, removed in the
 * same write that records its result. One left in the state means the run was interrupted while the
 * call was under way: a `creating` one may have left an object the state does not know.
 */
export type PendingType = "creating" | "updating" | "deleting" | "importing";
export interface PendingOperation {
  type: PendingType;
  /** The resource as the call was about to make it (`id` "" for a create, or the imported id). */
  resource: StateResource;
}

export interface HarnessState {
  version: 1;
  project: string;
  stack: string;
  /** Stack config, full keys (`frontdoor:apiUrl`); secret values marked. Saved like `pulumi up -c` does. */
  config: Record<string, any>;
  /** In dependency order: every resource comes after the resources it depends on. */
  resources: StateResource[];
  /** The program's exports from the last `up`. */
  outputs: Record<string, any>;
  /** Operations under way (or interrupted: left over from a run that did not finish). */
  pendingOperations: PendingOperation[];
}

interface StateFile extends HarnessState {
  encryptionSalt?: string;
}

export function emptyState(project: string, stack: string): HarnessState {
  return { version: 1, project, stack, config: {}, resources: [], outputs: {}, pendingOperations: [] };
}

/**
 * A state file and its journal. Writing the whole state after every batch of steps costs time and
 * bytes quadratic in the number of resources (519 MB written for 2000), so between full writes
 * (snapshots) only what changed is appended to `<file>.journal`, one JSON line per changed resource.
 * A snapshot is written first, again whenever the journal has grown past it (so the bytes written stay
 * linear in the number of steps), and at the end of a run, which also removes the journal. After a
 * crash, `load` replays the journal over the snapshot (a torn last line is ignored).
 */
export class StateStore {
  private salt: string | undefined;
  private cipher: Cipher | undefined;
  /** What the files hold, per resource key: the parts of the resource as they were last written. */
  private written = new Map<string, unknown[]>();
  /** The pending operations the files hold, per operation key. */
  private writtenPending = new Map<string, PendingOperation>();
  private writtenHead: unknown[] | undefined;
  private snapshotBytes = 0;
  private journalBytes = 0;
  /** Bytes written to the snapshot and the journal by this store (for tests and benchmarks). */
  bytesWritten = 0;

  constructor(readonly file: string) {}

  get journalFile(): string {
    return `${this.file}.journal`;
  }

  /** Whether this store has written the state yet (a snapshot comes first). */
  get started(): boolean {
    return this.writtenHead !== undefined;
  }

  /** Whether a journal is on disk (appended by this run, or left by an interrupted one). */
  get hasJournal(): boolean {
    return this.journalBytes > 0 || this.replayed;
  }

  private replayed = false;
  private saltWritten = false;

  private getCipher(): Cipher {
    if (!this.cipher) {
      this.salt ??= newSalt();
      this.cipher = makeCipher(this.file, this.salt);
    }
    return this.cipher;
  }

  /** Reads and decrypts the state, with the journal of an interrupted run replayed; none is an empty state. */
  load(project: string, stack: string): HarnessState {
    let raw: string | undefined;
    try {
      raw = fs.readFileSync(this.file, "utf8");
    } catch (e: any) {
      if (e.code !== "ENOENT") throw e;
    }
    let state: HarnessState;
    if (raw === undefined) {
      state = emptyState(project, stack);
    } else {
      const { encryptionSalt, ...stored } = JSON.parse(raw) as StateFile;
      this.salt = encryptionSalt;
      this.saltWritten = encryptionSalt !== undefined;
      state = { ...stored, pendingOperations: stored.pendingOperations ?? [] };
    }
    state = this.replayJournal(state);
    return mapSecrets(state, (s) => ({
      ...withoutCiphertext(s),
      value: this.getCipher().decrypt(s.ciphertext as string),
    }));
  }

  private replayJournal(state: HarnessState): HarnessState {
    let text: string;
    try {
      text = fs.readFileSync(this.journalFile, "utf8");
    } catch (e: any) {
      if (e.code === "ENOENT") return state;
      throw e;
    }
    this.replayed = true;
    const resources = new Map(state.resources.map((r) => [resourceKey(r), r]));
    const pending = new Map(state.pendingOperations.map((op) => [operationKey(op), op]));
    let head = { config: state.config, outputs: state.outputs };
    for (const line of text.split("\n")) {
      // One line per write, all of its entries together: a step's result and the end of its
      // pending operation are applied both or neither.
      let entries: JournalEntry[];
      try {
        const parsed = JSON.parse(line);
        entries = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        continue; // a line torn by a crash while it was written, or the empty end
      }
      for (const entry of entries) {
        if (entry.salt) {
          this.salt ??= entry.salt;
          this.saltWritten = true;
        }
        if (entry.put) resources.set(resourceKey(entry.put), entry.put);
        if (entry.del) resources.delete(entry.del);
        if (entry.head) head = entry.head;
        if (entry.pend) pending.set(operationKey(entry.pend), entry.pend);
        if (entry.unpend) pending.delete(entry.unpend);
      }
    }
    return {
      ...state,
      ...head,
      resources: dependencyOrder([...resources.values()]),
      pendingOperations: [...pending.values()],
    };
  }

  /**
   * Records the state: appends what changed since the last write to the journal, or writes a
   * snapshot (the first write, a journal grown past the snapshot, or `final`).
   */
  save(state: HarnessState, final = false, pendingOnly = false): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    if (final || this.writtenHead === undefined || this.journalBytes > Math.max(this.snapshotBytes, 65_536)) {
      this.writeSnapshot(state);
      return;
    }
    const entries: JournalEntry[] = [];
    const pendingNow = new Set<string>();
    for (const op of state.pendingOperations) {
      const key = operationKey(op);
      pendingNow.add(key);
      if (this.writtenPending.get(key) === op) continue;
      entries.push({ pend: this.encrypted(op) });
      this.writtenPending.set(key, op);
    }
    if (!pendingOnly) this.resourceEntries(state, entries);
    // Ended operations go last, in the same line as the results they made.
    for (const key of [...this.writtenPending.keys()]) {
      if (pendingNow.has(key) || pendingOnly) continue;
      entries.push({ unpend: key });
      this.writtenPending.delete(key);
    }
    if (entries.length === 0) return;
    // The salt made for the first secret after the last snapshot travels in the journal.
    if (this.salt && !this.saltWritten) {
      entries[0] = { ...entries[0], salt: this.salt };
      this.saltWritten = true;
    }
    const text = `${JSON.stringify(entries)}\n`;
    fs.appendFileSync(this.journalFile, text);
    this.journalBytes += Buffer.byteLength(text);
    this.bytesWritten += Buffer.byteLength(text);
  }

  private resourceEntries(state: HarnessState, entries: JournalEntry[]): void {
    const present = new Set<string>();
    for (const r of state.resources) {
      const key = resourceKey(r);
      present.add(key);
      // Compared without building the parts of an unchanged resource: this loop runs over every
      // resource at every write, so it must not allocate per resource.
      if (!sameResource(this.written.get(key), r)) {
        entries.push({ put: this.encrypted(r) });
        this.written.set(key, resourceParts(r));
      }
    }
    for (const key of [...this.written.keys()]) {
      if (present.has(key)) continue;
      entries.push({ del: key });
      this.written.delete(key);
    }
    const head = [state.config, state.outputs];
    if (!sameParts(this.writtenHead, head)) {
      entries.push({ head: this.encrypted({ config: state.config, outputs: state.outputs }) });
      this.writtenHead = head;
    }
  }

  private writeSnapshot(state: HarnessState): void {
    // Only the snapshot needs the dependency order (a journal is ordered again when replayed): steps
    // change the resources in memory in any order, without sorting the whole list at every write.
    const encrypted = this.encrypted({ ...state, resources: dependencyOrder(state.resources) });
    const doc: StateFile = { ...encrypted, ...(this.salt ? { encryptionSalt: this.salt } : {}) };
    // Write-then-rename so a crash never leaves a truncated state file; then the journal is stale.
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, this.file);
    fs.rmSync(this.journalFile, { force: true });
    this.snapshotBytes = Buffer.byteLength(text);
    this.saltWritten = this.salt !== undefined;
    this.replayed = false;
    this.bytesWritten += this.snapshotBytes;
    this.journalBytes = 0;
    this.written = new Map(state.resources.map((r) => [resourceKey(r), resourceParts(r)]));
    this.writtenPending = new Map(state.pendingOperations.map((op) => [operationKey(op), op]));
    this.writtenHead = [state.config, state.outputs];
  }

  private encrypted<T>(value: T): T {
    return mapSecrets(value, (s) => ({ ...withoutValue(s), ciphertext: this.getCipher().encrypt(s.value) }));
  }
}

interface JournalEntry {
  put?: StateResource;
  /** The key of a resource that is gone. */
  del?: string;
  head?: { config: Record<string, any>; outputs: Record<string, any> };
  salt?: string;
  /** An operation that started. */
  pend?: PendingOperation;
  /** The key of an operation that ended. */
  unpend?: string;
}

/** A pending operation's identity: a resource has at most one operation of each type under way. */
export function operationKey(op: PendingOperation): string {
  return `${op.type}\u0000${resourceKey(op.resource)}`;
}

/** A resource's identity in the state: its URN, and whether it is the old half of a replacement. */
export function resourceKey(r: StateResource): string {
  return `${r.urn}${r.pendingDelete ? "\u0000old" : ""}`;
}

/**
 * The parts of a resource that steps replace when they change it (never edited in place), so a
 * change is seen by comparing references: no serialization of unchanged resources.
 */
function resourceParts(r: StateResource): unknown[] {
  return [
    r,
    r.id,
    r.inputs,
    r.outputs,
    r.dependencies,
    r.additionalSecretOutputs,
    r.protect,
    r.retainOnDelete,
  ];
}

function sameParts(a: unknown[] | undefined, b: unknown[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** sameParts(written, resourceParts(r)) without allocating. */
function sameResource(written: unknown[] | undefined, r: StateResource): boolean {
  return (
    written !== undefined &&
    written[0] === r &&
    written[1] === r.id &&
    written[2] === r.inputs &&
    written[3] === r.outputs &&
    written[4] === r.dependencies &&
    written[5] === r.additionalSecretOutputs &&
    written[6] === r.protect &&
    written[7] === r.retainOnDelete
  );
}

/** Stable topological order: each resource after the ones it depends on. */
export function dependencyOrder(resources: StateResource[]): StateResource[] {
  const out: StateResource[] = [];
  const byUrn = new Map<string, StateResource[]>();
  for (const r of resources) {
    const same = byUrn.get(r.urn);
    if (same) same.push(r);
    else byUrn.set(r.urn, [r]);
  }
  const dependenciesOf = (r: StateResource) =>
    r.dependencies.flatMap((dep) => (byUrn.get(dep) ?? []).filter((d) => d !== r));
  // Depth first, each resource placed after its dependencies, with an explicit stack (a long chain of
  // dependencies must not overflow the call stack). One set for the whole walk (not one per
  // resource): a resource already visited is either placed or on the current path (a cycle), and is
  // skipped either way.
  const visited = new Set<StateResource>();
  for (const root of resources) {
    if (visited.has(root)) continue;
    visited.add(root);
    const trail = [{ r: root, deps: dependenciesOf(root), next: 0 }];
    while (trail.length > 0) {
      const top = trail[trail.length - 1];
      if (top.next < top.deps.length) {
        const d = top.deps[top.next++];
        if (visited.has(d)) continue;
        visited.add(d);
        trail.push({ r: d, deps: dependenciesOf(d), next: 0 });
      } else {
        trail.pop();
        out.push(top.r);
      }
    }
  }
  return out;
}

function withoutCiphertext(s: Record<string, unknown>) {
  const { ciphertext: _c, ...rest } = s;
  return rest;
}

function withoutValue(s: Record<string, unknown>) {
  const { value: _v, ...rest } = s;
  return rest;
}

/**
 * The state's lock (`<state file>.lock`), like the lock a Pulumi backend takes for an update: two runs
 * on one state would each overwrite what the other recorded. The CLI keeps a lock left by a killed
 * run until `pulumi cancel`; the harness knows which process holds its lock, and takes over a lock
 * whose process is gone (saying so), so a killed run needs no extra step.
 */
export class StateLock {
  private held = false;

  constructor(readonly file: string) {}

  /** Takes the lock; returns a warning when it took over the lock of a run that is gone. */
  acquire(): string | undefined {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const mine = JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() });
    const take = () => {
      fs.writeFileSync(this.file, mine, { flag: "wx" });
      this.held = true;
    };
    try {
      take();
      return undefined;
    } catch (e: any) {
      if (e.code !== "EEXIST") throw lockError(this.file, e);
    }
    const holder = readLock(this.file);
    if (holder && holder.host === os.hostname() && alive(holder.pid)) {
      throw new Error(
        `the state ${this.file.replace(/\.lock$/, "")} is locked by harness process ${holder.pid} ` +
          `(since ${holder.at}): wait for it to end`,
      );
    }
    fs.rmSync(this.file, { force: true });
    try {
      take();
    } catch (e: any) {
      throw lockError(this.file, e); // another run took it in between
    }
    return `took over the lock of an interrupted run (process ${holder?.pid ?? "unknown"}, gone)`;
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    fs.rmSync(this.file, { force: true });
  }
}

function readLock(file: string): { pid: number; host: string; at: string } | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined; // torn or gone: no live holder can be named
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === "EPERM";
  }
}

function lockError(file: string, e: any): Error {
  return new Error(`cannot lock the state (${file}): ${e.message}`);
}

/** Decrypted state for assertions (secrets in marked form `{[SIG_KEY]: SECRET_SIG, value}`). */
export function readState(stateFile: string): HarnessState {
  return new StateStore(stateFile).load("", "");
}
