// TOTP (RFC 6238 over RFC 4226 HOTP): HMAC-SHA1, 6 digits, 30 s steps, secrets in base32 as
// authenticator apps show them. The mock accepts the current step and one step either side,
// like controllers do to tolerate clock skew.
import { createHmac, randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;

// base32 (RFC 4648) through a string of bits, five per character: slow but plain, and a path of
// its own (the provider has its own TOTP code; each side checks the other against RFC vectors).
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  const bits = [...clean]
    .map((char) => {
      const index = ALPHABET.indexOf(char);
      if (index < 0) throw new Error("invalid base32 secret");
      return index.toString(2).padStart(5, "0");
    })
    .join("");
  // Trailing bits short of a byte are padding.
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
}

export function base32Encode(data: Buffer): string {
  const bits = [...data].map((byte) => byte.toString(2).padStart(8, "0")).join("");
  const groups = bits.match(/.{1,5}/g) ?? [];
  return groups.map((group) => ALPHABET[Number.parseInt(group.padEnd(5, "0"), 2)]).join("");
}

/** A fresh 160-bit secret, base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The HOTP value of a key for a counter (RFC 4226 dynamic truncation). */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const counterBytes = Buffer.alloc(8);
  counterBytes.writeBigUInt64BE(BigInt(counter));
  const hs = createHmac("sha1", key).update(counterBytes).digest();
  // RFC 4226 section 5.3, as its reference code writes it.
  const offset = hs[19] & 0xf;
  const snum = ((hs[offset] & 0x7f) << 24) | (hs[offset + 1] << 16) | (hs[offset + 2] << 8) | hs[offset + 3];
  return String(snum % 10 ** digits).padStart(digits, "0");
}

/** The TOTP code of a base32 secret at a time (ms since the epoch). */
export function totp(secretBase32: string, atMs = Date.now(), digits = TOTP_DIGITS): string {
  const counter = Math.floor(atMs / 1000 / TOTP_STEP_SECONDS);
  return hotp(base32Decode(secretBase32), counter, digits);
}

/** Whether `code` is valid now for the secret (current step +/- 1). */
export function verifyTotp(secretBase32: string, code: string, nowMs = Date.now()): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  for (const drift of [-1, 0, 1]) {
    if (totp(secretBase32, nowMs + drift * TOTP_STEP_SECONDS * 1000) === code) return true;
  }
  return false;
}
