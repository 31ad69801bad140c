// Enrollment JWTs, RS256-signed by a key of the mock (as a controller signs them with its own).
import { createSign, generateKeyPairSync, type KeyObject } from "node:crypto";

export class JwtSigner {
  private key?: { privateKey: KeyObject; publicKey: KeyObject };

  /** The public key (PEM) that verifies the JWTs, e.g. for tests. */
  get publicKeyPem(): string {
    return this.keys().publicKey.export({ type: "spki", format: "pem" }).toString();
  }

  sign(claims: Record<string, unknown>): string {
    const header = { alg: "RS256", typ: "JWT" };
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
    const input = `${encode(header)}.${encode(claims)}`;
    const signature = createSign("RSA-SHA256").update(input).sign(this.keys().privateKey);
    return `${input}.${signature.toString("base64url")}`;
  }

  // Generated on first use: most mock instances never enroll anything.
  private keys() {
    this.key ??= generateKeyPairSync("rsa", { modulusLength: 2048 });
    return this.key;
  }
}
