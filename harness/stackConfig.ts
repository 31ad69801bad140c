// Stack config in `Pulumi.<stack>.yaml`, as the real CLI keeps it, so a program's folder works the
// same under the harness and under `pulumi`: plain values, and secrets as `secure: v1:...` encrypted
// with the passphrase secrets provider's scheme (PBKDF2-SHA256, 1,000,000 rounds, over the file's
// `encryptionsalt`; AES-256-GCM with a 12-byte nonce; `v1:<nonce>:<ciphertext+tag>` in base64).
// Checked both ways against the real CLI (test/harness-stack-config.test.ts).
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { fullConfigKey } from "./project";

const yaml: {
  load(text: string): unknown;
  dump(value: unknown, options?: object): string;
} = require("js-yaml");

const ROUNDS = 1_000_000;
/** What the CLI encrypts into `encryptionsalt`, to tell a wrong passphrase from a right one. */
const CHECK_TEXT = "pulumi";

interface StackFile {
  encryptionsalt?: string;
  config?: Record<string, unknown>;
  [other: string]: unknown;
}

export interface StackConfig {
  config: Record<string, string>;
  secretConfig: Record<string, string>;
}

export function stackConfigFile(programDir: string, stack: string): string {
  return path.join(programDir, `Pulumi.${stack}.yaml`);
}

/** The config of `Pulumi.<stack>.yaml` (empty without the file); structured values as JSON text. */
export function readStackConfig(programDir: string, stack: string): StackConfig {
  const file = stackConfigFile(programDir, stack);
  if (!fs.existsSync(file)) return { config: {}, secretConfig: {} };
  const doc = (yaml.load(fs.readFileSync(file, "utf8")) ?? {}) as StackFile;
  const result: StackConfig = { config: {}, secretConfig: {} };
  let key: Buffer | undefined;
  for (const [name, value] of Object.entries(doc.config ?? {})) {
    const secure = (value as { secure?: unknown } | null)?.secure;
    if (typeof secure === "string") {
      key ??= keyFor(file, doc.encryptionsalt);
      result.secretConfig[name] = decrypt(key, secure, `${file}: ${name}`);
    } else {
      result.config[name] = typeof value === "string" ? value : JSON.stringify(value);
    }
  }
  return result;
}

/** `pulumi config set [--secret] key value`: writes the value into `Pulumi.<stack>.yaml`. */
export function setStackConfig(
  programDir: string,
  stack: string,
  project: string,
  name: string,
  value: string,
  secret: boolean,
): void {
  const file = stackConfigFile(programDir, stack);
  const doc = (fs.existsSync(file) ? (yaml.load(fs.readFileSync(file, "utf8")) ?? {}) : {}) as StackFile;
  const full = fullConfigKey(project, name);
  let stored: unknown = value;
  if (secret) {
    if (!doc.encryptionsalt) {
      const salt = randomBytes(8);
      const fresh = deriveKey(salt);
      doc.encryptionsalt = `v1:${salt.toString("base64")}:${encrypt(fresh, CHECK_TEXT)}`;
    }
    stored = { secure: encrypt(keyFor(file, doc.encryptionsalt), value) };
  }
  doc.config = { ...doc.config, [full]: stored };
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, yaml.dump(doc, { lineWidth: -1 }));
  fs.renameSync(temp, file);
}

function passphrase(): string {
  const fromFile = process.env.PULUMI_CONFIG_PASSPHRASE_FILE;
  if (fromFile) return fs.readFileSync(fromFile, "utf8").replace(/\r?\n$/, "");
  const phrase = process.env.PULUMI_CONFIG_PASSPHRASE;
  if (phrase === undefined)
    throw new Error(
      "secret stack config needs PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE), as pulumi does",
    );
  return phrase;
}

function deriveKey(salt: Buffer): Buffer {
  return pbkdf2Sync(passphrase(), salt, ROUNDS, 32, "sha256");
}

/** The key of a file's `encryptionsalt` (`v1:<salt>:<encrypted check text>`), verified. */
function keyFor(file: string, encryptionsalt: string | undefined): Buffer {
  const parts = encryptionsalt?.split(":") ?? [];
  if (parts.length !== 5 || parts[0] !== "v1")
    throw new Error(
      `${file} has secure values but no valid encryptionsalt (made by another secrets provider?)`,
    );
  const key = deriveKey(Buffer.from(parts[1], "base64"));
  if (decrypt(key, parts.slice(2).join(":"), file, "incorrect passphrase") !== CHECK_TEXT)
    throw new Error(`${file}: incorrect passphrase`);
  return key;
}

function encrypt(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

function decrypt(key: Buffer, value: string, where: string, failure = "cannot decrypt"): string {
  const [version, nonce, sealed] = value.split(":");
  if (version !== "v1" || !nonce || !sealed) throw new Error(`${where}: not a v1 secure value`);
  const bytes = Buffer.from(sealed, "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new Error(`${where}: ${failure} (wrong PULUMI_CONFIG_PASSPHRASE?)`);
  }
}
