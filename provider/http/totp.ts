// TOTP codes (RFC 6238 over RFC 4226 HOTP: HMAC-SHA1, 6 digits, 30 s steps) from a base32 secret,
// as authenticator apps show it. Used to complete MFA when the Edge controller asks for it.
import { createHmac } from "node:crypto";
import { ProviderError } from "./errors";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const STEP_SECONDS = 30;
const DIGITS = 6;

export function base32Decode(secret: string): Buffer {
  // Apps show secrets grouped and padded ("JBSW Y3DP ..."), sometimes lower case.
  const clean = secret.toUpperCase().replace(/[\s=-]/g, "");
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    // The message never quotes the secret.
    if (index < 0) throw new ProviderError("frontdoor:edgeTotpSecret is not a base32 TOTP secret");
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  if (bytes.length === 0) throw new ProviderError("frontdoor:edgeTotpSecret is empty");
  return Buffer.from(bytes);
}

export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, "0");
}

/** The code of a base32 secret at a time (ms since the epoch). */
export function totpCode(secretBase32: string, atMs = Date.now()): string {
  return hotp(base32Decode(secretBase32), Math.floor(atMs / 1000 / STEP_SECONDS));
}
