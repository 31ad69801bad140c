// The harness's state file: what `pulumi` would keep in its backend, as one JSON file per stack.
// In memory secrets are in Pulumi's marked form `{[SIG_KEY]: SECRET_SIG, value}`; on disk `value` is
// replaced by `ciphertext` (crypto.ts). Nothing secret is ever written in plaintext.
import * as fs from "node:fs";
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
}

interface StateFile extends HarnessState {
  encryptionSalt?: string;
}

export function emptyState(project: string, stack: string): HarnessState {
  return { version: 1, project, stack, config: {}, resources: [], outputs: {} };
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
  private writtenHead: unknown[] | undefined;
  private snapshotBytes = 0;
  private journalBytes = 0;
  /** Bytes written to the snapshot and the journal by this store (for tests and benchmarks). */
  bytesWritten = 0;

  constructor(readonly file: string) {}

  get journalFile(): string {
    return `${this.file}.journal`;
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
      state = stored;
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
    let head = { config: state.config, outputs: state.outputs };
    for (const line of text.split("\n")) {
      let entry: JournalEntry;
      try {
        entry = JSON.parse(line);
      } catch {
        continue; // a line torn by a crash while it was written, or the empty end
      }
      if (entry.salt) {
        this.salt ??= entry.salt;
        this.saltWritten = true;
      }
      if (entry.put) resources.set(resourceKey(entry.put), entry.put);
      if (entry.del) resources.delete(entry.del);
      if (entry.head) head = entry.head;
    }
    return { ...state, ...head, resources: dependencyOrder([...resources.values()]) };
  }

  /**
   * Records the state: appends what changed since the last write to the journal, or writes a
   * snapshot (the first write, a journal grown past the snapshot, or `final`).
   */
  save(state: HarnessState, final = false): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    if (final || this.writtenHead === undefined || this.journalBytes > Math.max(this.snapshotBytes, 65_536)) {
      this.writeSnapshot(state);
      return;
    }
    const entries: JournalEntry[] = [];
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
    if (entries.length === 0) return;
    // The salt made for the first secret after the last snapshot travels in the journal.
    if (this.salt && !this.saltWritten) {
      entries[0] = { ...entries[0], salt: this.salt };
      this.saltWritten = true;
    }
    const text = `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`;
    fs.appendFileSync(this.journalFile, text);
    this.journalBytes += Buffer.byteLength(text);
    this.bytesWritten += Buffer.byteLength(text);
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
}

/** A resource's identity in the state: its URN, and whether it is the old half of a replacement. */
function resourceKey(r: StateResource): string {
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

/** Decrypted state for assertions (secrets in marked form `{[SIG_KEY]: SECRET_SIG, value}`). */
export function readState(stateFile: string): HarnessState {
  return new StateStore(stateFile).load("", "");
}
