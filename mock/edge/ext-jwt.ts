// `authenticate?method=ext-jwt` as a real controller (v1.6.0) does it: up to two `Authorization:
// Bearer` JWTs; the header's `kid` and the `iss` claim are required; the signer is the enabled one
// whose issuer equals `iss` exactly; its key is the certificate of certPem (kid: the signer's kid,
// else the certificate's fingerprint) or the JWKS key with that kid, fetched from jwksEndpoint when
// the kid is not known yet (at most once a second, keys kept once seen); the signature, exp and nbf
// must hold (no leeway); the audience must include the signer's; the claimsProperty claim (default
// `sub`) names the identity by externalId (useExternalId) or id; the identity's auth policy must
// allow primary ext-jwt with this signer (allowedSigners empty: any). Every refusal is 401 INVALID_AUTH.
// The JWKS is fetched over HTTPS trusting Node's roots plus `trustedCaPems` (a controller trusts its
// system roots), or over plain http.
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import * as http from "node:http";
import * as https from "node:https";
import { rootCertificates } from "node:tls";
import type { MockRequest } from "../types";
import { invalidAuth } from "./envelope";
import { fingerprint, parseCertificatePem } from "./pki";
import type { EdgeState, ExternalJwtSignerRecord, IdentityRecord } from "./state";

const REFETCH_INTERVAL_MS = 1000;
const MAX_CANDIDATES = 2;

const ALGORITHMS: Record<string, { hash: string; ecdsa?: boolean }> = {
  RS256: { hash: "sha256" },
  RS384: { hash: "sha384" },
  RS512: { hash: "sha512" },
  ES256: { hash: "sha256", ecdsa: true },
  ES384: { hash: "sha384", ecdsa: true },
};

interface Jwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

interface SignerKeys {
  keys: Map<string, KeyObject>;
  fetchedAtMs: number;
}

export class ExtJwtAuth {
  /** JWKS keys by signer id, kept as the controller keeps them (never dropped). */
  private readonly jwks = new Map<string, SignerKeys>();

  constructor(
    private readonly state: EdgeState,
    private readonly trustedCaPems: string[] = [],
  ) {}

  /** Before the (synchronous) route runs: fetch the JWKS of the signers the request's JWTs name. */
  async prepare(req: MockRequest): Promise<void> {
    for (const jwt of candidates(req)) {
      const kid = jwt.header.kid;
      const signer = this.signerFor(jwt);
      if (!signer?.jwksEndpoint || typeof kid !== "string") continue;
      const known = this.jwks.get(signer.id);
      if (known?.keys.has(kid)) continue;
      if (known && Date.now() - known.fetchedAtMs < REFETCH_INTERVAL_MS) continue;
      const keys = known?.keys ?? new Map<string, KeyObject>();
      this.jwks.set(signer.id, { keys, fetchedAtMs: Date.now() });
      try {
        const body = (await this.getJson(signer.jwksEndpoint)) as { keys?: Record<string, unknown>[] };
        for (const jwk of body?.keys ?? []) {
          if (typeof jwk.kid !== "string") continue;
          try {
            keys.set(jwk.kid, createPublicKey({ key: jwk as never, format: "jwk" }));
          } catch {
            // a key Node cannot read is skipped, as the controller skips what it cannot parse
          }
        }
      } catch {
        // unreachable JWKS: the login fails on the missing key
      }
    }
  }

  /** The identity and signer of the first candidate JWT that authenticates; 401 otherwise. */
  authenticate(req: MockRequest): [IdentityRecord, ExternalJwtSignerRecord] {
    for (const jwt of candidates(req)) {
      const result = this.check(jwt);
      if (result) return result;
    }
    throw invalidAuth();
  }

  private check(jwt: Jwt): [IdentityRecord, ExternalJwtSignerRecord] | undefined {
    const kid = jwt.header.kid;
    const signer = this.signerFor(jwt);
    if (typeof kid !== "string" || !signer || !signer.enabled) return undefined;
    const key = this.keyOf(signer, kid);
    if (!key || !signatureVerifies(jwt, key)) return undefined;
    const now = Date.now() / 1000;
    const { exp, nbf, aud } = jwt.claims;
    if (exp !== undefined && (typeof exp !== "number" || exp <= now)) return undefined;
    if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return undefined;
    const audiences = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
    if (!audiences.includes(signer.audience)) return undefined;
    const claim = jwt.claims[signer.claimsProperty || "sub"];
    if (typeof claim !== "string" || claim === "") return undefined;
    const identity = signer.useExternalId
      ? this.state.identities.all().find((i) => i.externalId === claim)
      : this.state.identities.find(claim);
    if (!identity || identity.disabled) return undefined;
    const policy = this.state.authPolicies.find(identity.authPolicyId);
    if (!policy?.primary.extJwt.allowed) return undefined;
    const allowed = policy.primary.extJwt.allowedSigners;
    if (allowed.length > 0 && !allowed.includes(signer.id)) return undefined;
    return [identity, signer];
  }

  private signerFor(jwt: Jwt): ExternalJwtSignerRecord | undefined {
    const iss = jwt.claims.iss;
    if (typeof iss !== "string" || iss === "") return undefined;
    return this.state.externalJwtSigners.all().find((s) => s.issuer === iss);
  }

  private keyOf(signer: ExternalJwtSignerRecord, kid: string): KeyObject | undefined {
    if (signer.certPem) {
      const cert = parseCertificatePem(signer.certPem);
      if ((signer.kid ?? fingerprint(cert)) !== kid) return undefined;
      return createPublicKey(signer.certPem);
    }
    return this.jwks.get(signer.id)?.keys.get(kid);
  }

  private getJson(url: string): Promise<unknown> {
    const target = new URL(url);
    const client = target.protocol === "https:" ? https : http;
    const ca = this.trustedCaPems.length ? [...rootCertificates, ...this.trustedCaPems] : undefined;
    return new Promise((resolve, reject) => {
      const req = client.get(target, { ...(ca ? { ca } : {}), timeout: 5000 }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          if (res.statusCode !== 200) return reject(new Error(`JWKS answered ${res.statusCode}`));
          try {
            resolve(JSON.parse(text));
          } catch (err) {
            reject(err);
          }
        });
      });
      req.on("timeout", () => req.destroy(new Error("JWKS timed out")));
      req.on("error", reject);
    });
  }
}

/** Whether a request is an ext-jwt login (management or client API). */
export function isExtJwtLogin(req: MockRequest): boolean {
  return (
    req.method === "POST" && /\/authenticate\/?$/.test(req.path) && req.query.get("method") === "ext-jwt"
  );
}

function candidates(req: MockRequest): Jwt[] {
  const raw = req.headers.authorization;
  const values = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const out: Jwt[] = [];
  for (const value of values) {
    if (!value.startsWith("Bearer ")) continue;
    const jwt = decode(value.slice("Bearer ".length).trim());
    if (jwt) out.push(jwt);
  }
  return out.slice(0, MAX_CANDIDATES);
}

function decode(token: string): Jwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const part = (text: string) => JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    return {
      header: part(parts[0]),
      claims: part(parts[1]),
      signingInput: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2], "base64url"),
    };
  } catch {
    return undefined;
  }
}

function signatureVerifies(jwt: Jwt, key: KeyObject): boolean {
  const alg = ALGORITHMS[String(jwt.header.alg)];
  if (!alg) return false;
  try {
    return verify(
      alg.hash,
      Buffer.from(jwt.signingInput),
      { key, ...(alg.ecdsa ? { dsaEncoding: "ieee-p1363" as const } : {}) },
      jwt.signature,
    );
  } catch {
    return false;
  }
}
