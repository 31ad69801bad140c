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

/** Opens a state file; the cipher is built lazily (scrypt costs time, most states hold no secrets). */
export class StateStore {
  private salt: string | undefined;
  private cipher: Cipher | undefined;

  constructor(readonly file: string) {}

  private getCipher(): Cipher {
    if (!this.cipher) {
      this.salt ??= newSalt();
      this.cipher = makeCipher(this.file, this.salt);
    }
    return this.cipher;
  }

  /** Reads and decrypts the state; a missing file is an empty state. */
  load(project: string, stack: string): HarnessState {
    let raw: string;
    try {
      raw = fs.readFileSync(this.file, "utf8");
    } catch (e: any) {
      if (e.code === "ENOENT") return emptyState(project, stack);
      throw e;
    }
    const { encryptionSalt, ...state } = JSON.parse(raw) as StateFile;
    this.salt = encryptionSalt;
    return mapSecrets(state, (s) => ({
      ...withoutCiphertext(s),
      value: this.getCipher().decrypt(s.ciphertext as string),
    }));
  }

  save(state: HarnessState): void {
    const encrypted = mapSecrets(state, (s) => ({
      ...withoutValue(s),
      ciphertext: this.getCipher().encrypt(s.value),
    }));
    const doc: StateFile = { ...encrypted, ...(this.salt ? { encryptionSalt: this.salt } : {}) };
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    // Write-then-rename so a crash never leaves a truncated state file.
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`);
    fs.renameSync(tmp, this.file);
  }
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
