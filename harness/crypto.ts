// Encryption of secret values in the state file.
//
// Each secret is stored as `{[SIG_KEY]: SECRET_SIG, ciphertext: "v1:<iv>:<tag>:<data>"}` (base64 parts),
// AES-256-GCM with a fresh 12-byte IV per value. The 32-byte key is derived with scrypt (N=2^14) and a
// per-state random salt (kept in the state file) from:
//   - env PULUMI_CONFIG_PASSPHRASE when set (like pulumi's passphrase secrets provider), otherwise
//   - a random 32-byte key kept in `<state file>.key` (mode 0600), created on first use.
// A wrong passphrase or key file makes decryption fail with a clear error instead of returning garbage.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export interface Cipher {
  encrypt(plain: unknown): string;
  decrypt(ciphertext: string): unknown;
}

function keyMaterial(stateFile: string): Buffer {
  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE;
  if (passphrase !== undefined && passphrase !== "") return Buffer.from(passphrase, "utf8");
  const keyFile = `${stateFile}.key`;
  try {
    return Buffer.from(fs.readFileSync(keyFile, "utf8").trim(), "base64");
  } catch (e: any) {
    if (e.code !== "ENOENT") throw e;
  }
  const key = crypto.randomBytes(32);
  // The key may be needed before the first state write made the state's folder (a fresh program
  // folder): make it here. Written whole under a temporary name, then linked into place, so no
  // reader ever sees a partial key and a key another process just created is never overwritten.
  fs.mkdirSync(path.dirname(keyFile), { recursive: true });
  const tmp = `${keyFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, key.toString("base64"), { mode: 0o600 });
  try {
    fs.linkSync(tmp, keyFile);
  } catch (e: any) {
    if (e.code !== "EEXIST") throw e;
    return Buffer.from(fs.readFileSync(keyFile, "utf8").trim(), "base64");
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return key;
}

export function newSalt(): string {
  return crypto.randomBytes(16).toString("base64");
}

export function makeCipher(stateFile: string, salt: string): Cipher {
  const key = crypto.scryptSync(keyMaterial(stateFile), Buffer.from(salt, "base64"), 32);
  // Like Pulumi's caching crypter: a value keeps its ciphertext across the saves of one run (the state
  // is saved after every step; re-encrypting every secret each time made large stacks slow).
  const known = new Map<string, string>();
  return {
    encrypt(plain) {
      const text = JSON.stringify(plain);
      const cached = known.get(text);
      if (cached) return cached;
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([c.update(text, "utf8"), c.final()]);
      const ciphertext = ["v1", iv, c.getAuthTag(), data]
        .map((p) => (typeof p === "string" ? p : p.toString("base64")))
        .join(":");
      known.set(text, ciphertext);
      return ciphertext;
    },
    decrypt(ciphertext) {
      const [version, iv, tag, data] = ciphertext.split(":");
      if (version !== "v1") throw new Error(`unsupported ciphertext version ${version}`);
      const d = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
      d.setAuthTag(Buffer.from(tag, "base64"));
      try {
        const plain = Buffer.concat([d.update(Buffer.from(data, "base64")), d.final()]);
        return JSON.parse(plain.toString("utf8"));
      } catch {
        throw new Error(
          `cannot decrypt a secret in ${stateFile}: wrong PULUMI_CONFIG_PASSPHRASE or ${stateFile}.key?`,
        );
      }
    },
  };
}
