// Enrollment JWTs, RS256-signed as a controller signs them: with the key of its TLS server
// certificate when the mock serves HTTPS (`useKey`; `kid` names that certificate), so a client can
// check a JWT against the certificate the controller presents; else with a key of the mock's own.
import {
  createPrivateKey,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  type KeyObject,
} from "node:crypto";

export class JwtSigner {
  private key?: { privateKey: KeyObject; publicKey: KeyObject };
  private kid?: string;

  /** The public key (PEM) that verifies the JWTs, e.g. for tests. */
  get publicKeyPem(): string {
    return this.keys().publicKey.export({ type: "spki", format: "pem" }).toString();
  }

  /** Signs with this RSA key from now on (the TLS server key); `kid` goes into the JWT header. */
  useKey(privateKeyPem: string, kid: string): void {
    const privateKey = createPrivateKey(privateKeyPem);
    this.key = { privateKey, publicKey: createPublicKey(privateKey) };
    this.kid = kid;
  }

  sign(claims: Record<string, unknown>): string {
    const header = { alg: "RS256", typ: "JWT", ...(this.kid ? { kid: this.kid } : {}) };
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
