// External JWT login (`authenticate?method=ext-jwt`): where the token comes from, and why a
// controller refused one. The token comes from frontdoor:edgeJwt (a value), frontdoor:edgeJwtFile
// (read again at every login: CI token files rotate), or the CI's OIDC token request (GitHub
// Actions: ACTIONS_ID_TOKEN_REQUEST_URL + ACTIONS_ID_TOKEN_REQUEST_TOKEN, with the audience of
// frontdoor:edgeJwtAudience), asked again at every login so that a renewal gets a fresh token.
// A controller answers 401 for every refusal, so `explainRefusal` compares the token's own claims
// (decoded, never verified here as a credential) with what the controller and the issuer publish.
import { createPublicKey, type JsonWebKey, verify } from "node:crypto";
import * as fs from "node:fs";
import { isLoopback, type RawSettings, transportSettings } from "../config";
import { registerSecret } from "../redact";
import { HttpClient, noAuth } from "./client";
import { ProviderError } from "./errors";

export interface JwtSource {
  /** Where the token comes from, for messages (never the token). */
  label: string;
  /** Whether each call may give a newer token (a file the CI rotates, the CI's token request). */
  renewable: boolean;
  token(): Promise<string>;
}

/** GETs a JSON document with the provider's TLS settings (CA bundle, timeouts). */
export type FetchJson = (url: string, headers?: Record<string, string>) => Promise<unknown>;

/** The configured source of external JWTs, or undefined when none is set. */
export function jwtSource(
  settings: RawSettings,
  fetchJson: FetchJson,
  env: NodeJS.ProcessEnv = process.env,
): JwtSource | undefined {
  if (settings.edgeJwt !== undefined) {
    const value = settings.edgeJwt.trim();
    return { label: "frontdoor:edgeJwt", renewable: false, token: async () => value };
  }
  const file = settings.edgeJwtFile;
  if (file !== undefined) {
    return {
      label: `frontdoor:edgeJwtFile (${file})`,
      renewable: true,
      token: async () => {
        let text: string;
        try {
          text = fs.readFileSync(file, "utf8").trim();
        } catch (err) {
          throw new ProviderError(`frontdoor:edgeJwtFile cannot be read: ${(err as Error).message}`);
        }
        registerSecret(text);
        if (!text) throw new ProviderError(`frontdoor:edgeJwtFile (${file}) is empty`);
        return text;
      },
    };
  }
  const audience = settings.edgeJwtAudience;
  if (audience === undefined) return undefined;
  return {
    label: `the CI's OIDC token (ACTIONS_ID_TOKEN_REQUEST_URL, audience "${audience}")`,
    renewable: true,
    token: () => githubOidcToken(audience, fetchJson, env),
  };
}

/** GitHub Actions' token request: GET `<url>&audience=<aud>` with the request token, answer `{value}`. */
async function githubOidcToken(audience: string, fetchJson: FetchJson, env: NodeJS.ProcessEnv) {
  const url = env.ACTIONS_ID_TOKEN_REQUEST_URL;
  const bearer = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
  if (!url || !bearer) {
    throw new ProviderError(
      "frontdoor:edgeJwtAudience asks for the CI's OIDC token, but ACTIONS_ID_TOKEN_REQUEST_URL and " +
        "ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set: in GitHub Actions, give the job `permissions: id-token: write`",
    );
  }
  registerSecret(bearer);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new ProviderError("ACTIONS_ID_TOKEN_REQUEST_URL is not a URL");
  }
  // The request token travels in this request: never in clear beyond this machine.
  if (target.protocol !== "https:" && !(target.protocol === "http:" && isLoopback(target.hostname))) {
    throw new ProviderError("ACTIONS_ID_TOKEN_REQUEST_URL must be an https URL");
  }
  target.searchParams.set("audience", audience);
  const body = (await fetchJson(target.toString(), { authorization: `Bearer ${bearer}` })) as {
    value?: unknown;
  };
  const value = typeof body?.value === "string" ? body.value : undefined;
  if (!value) throw new ProviderError("The CI's OIDC token request answered without a token (`value`)");
  registerSecret(value);
  return value;
}

/** A `FetchJson` over the provider's HTTP client: TLS verified with the CA bundle, few retries. */
export function fetchJsonWith(settings: RawSettings): FetchJson {
  return async (url, headers) => {
    const target = new URL(url);
    const transport = transportSettings(settings);
    const client = new HttpClient(
      {
        baseUrl: target.origin,
        apiName: `GET ${target.origin}${target.pathname}`,
        ...transport,
        retry: { ...transport.retry, maxElapsedMs: Math.min(transport.retry.maxElapsedMs, 15_000) },
        connections: 1,
      },
      noAuth,
      () => ({}),
    );
    try {
      const res = await client.request({ method: "GET", path: target.pathname + target.search, headers });
      return res.body;
    } finally {
      await client.close();
    }
  };
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

/** The header and claims of a compact JWS, or undefined when it is not one. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const part = (text: string) => JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    const header = part(parts[0]);
    const claims = part(parts[1]);
    if (!header || typeof header !== "object" || !claims || typeof claims !== "object") return undefined;
    return {
      header,
      claims,
      signingInput: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2], "base64url"),
    };
  } catch {
    return undefined;
  }
}

/** Why a token cannot be used now without asking anyone: not a JWT, expired, not yet valid. */
export function localProblem(token: string, now = Date.now()): string | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return "it is not a JWT (three base64url parts: header, claims, signature)";
  const { exp, nbf } = jwt.claims;
  if (typeof exp === "number" && exp * 1000 <= now) {
    return `it expired at ${new Date(exp * 1000).toISOString()} (${Math.round(now / 1000 - exp)} s ago)`;
  }
  if (typeof nbf === "number" && nbf * 1000 > now) {
    return `it is not valid before ${new Date(nbf * 1000).toISOString()}`;
  }
  return undefined;
}

interface PublicSigner {
  name?: string;
  audience?: string | null;
  externalAuthUrl?: string | null;
}

/**
 * Why the controller refused `token`, as far as what is public tells: the token's expiry; its
 * audience against the audiences of the controller's enabled signers (client API, no login);
 * its issuer against the issuer those signers' OIDC discovery documents name (externalAuthUrl),
 * or the token's own issuer's; its `kid` and signature against that issuer's JWKS. Says so when
 * it cannot tell.
 */
export async function explainRefusal(token: string, edgeUrl: string, fetchJson: FetchJson): Promise<string> {
  const local = localProblem(token);
  if (local) return local;
  const jwt = decodeJwt(token) as DecodedJwt;
  const iss = typeof jwt.claims.iss === "string" ? jwt.claims.iss : undefined;
  const aud = toList(jwt.claims.aud);
  const kid = typeof jwt.header.kid === "string" ? jwt.header.kid : undefined;
  if (!iss) return "it has no issuer (iss claim): the controller finds its signer by issuer";
  if (!kid) return "its header has no key id (kid): the controller finds the signing key by kid";

  let signers: PublicSigner[];
  try {
    const list = (await fetchJson(
      `${edgeUrl.replace(/\/+$/, "")}/edge/client/v1/external-jwt-signers?limit=500`,
    )) as { data?: PublicSigner[] };
    signers = list?.data ?? [];
  } catch (err) {
    return `the cause cannot be told: the controller's list of external JWT signers could not be read (${(err as Error).message})`;
  }
  if (signers.length === 0) return "the controller has no enabled external JWT signer";
  const matching = signers.filter((s) => s.audience && aud.includes(s.audience));
  if (matching.length === 0) {
    const accepted = [...new Set(signers.map((s) => s.audience).filter(Boolean))].map((a) => `"${a}"`);
    return (
      `wrong audience: the token is for ${aud.map((a) => `"${a}"`).join(", ") || "no audience"}, ` +
      `the controller's signers accept ${accepted.join(", ")} (set frontdoor:edgeJwtAudience or the token's audience)`
    );
  }

  // The issuer each matching signer's OIDC discovery document names (externalAuthUrl is the issuer's URL).
  const published: { signer: string; issuer: string; jwksUri?: string }[] = [];
  for (const signer of matching) {
    if (!signer.externalAuthUrl) continue;
    const doc = await discovery(signer.externalAuthUrl, fetchJson);
    if (doc?.issuer) published.push({ signer: signer.name ?? "?", ...doc, issuer: doc.issuer });
  }
  let jwksUri = published.find((p) => p.issuer === iss)?.jwksUri;
  if (published.length > 0 && !published.some((p) => p.issuer === iss)) {
    const expected = published.map((p) => `"${p.issuer}" (signer "${p.signer}")`).join(", ");
    return `wrong issuer: the token's issuer is "${iss}", the controller's signers for its audience expect ${expected}`;
  }
  jwksUri ??= (await discovery(iss, fetchJson))?.jwksUri;
  if (!jwksUri) {
    return (
      `the cause cannot be told: the audience matches signer ${matching.map((s) => `"${s.name}"`).join(", ")}, ` +
      `but neither the signer nor the issuer "${iss}" publishes a discovery document to check the issuer and key against`
    );
  }
  let keys: (JsonWebKey & { kid?: string })[];
  try {
    keys = ((await fetchJson(jwksUri)) as { keys?: (JsonWebKey & { kid?: string })[] })?.keys ?? [];
  } catch (err) {
    return `the cause cannot be told: the issuer's keys (${jwksUri}) could not be read (${(err as Error).message})`;
  }
  const key = keys.find((k) => k.kid === kid);
  if (!key) {
    return `unknown key: the token is signed with key "${kid}", which the issuer's JWKS (${jwksUri}) does not list (${keys.map((k) => `"${k.kid}"`).join(", ") || "no keys"})`;
  }
  if (!signatureVerifies(jwt, key)) {
    return `bad signature: the token does not verify with key "${kid}" of the issuer's JWKS (${jwksUri})`;
  }
  return (
    `the token's issuer, audience, key and expiry are right, so the controller refused it for a reason it ` +
    "does not publish: no identity whose externalId (or id) is the token's identity claim, an auth policy " +
    "that does not allow this signer (primary.extJwt), or a disabled identity"
  );
}

async function discovery(
  base: string,
  fetchJson: FetchJson,
): Promise<{ issuer?: string; jwksUri?: string } | undefined> {
  try {
    const doc = (await fetchJson(`${base.replace(/\/+$/, "")}/.well-known/openid-configuration`)) as {
      issuer?: unknown;
      jwks_uri?: unknown;
    };
    if (!doc || typeof doc !== "object") return undefined;
    return {
      issuer: typeof doc.issuer === "string" ? doc.issuer : undefined,
      jwksUri: typeof doc.jwks_uri === "string" ? doc.jwks_uri : undefined,
    };
  } catch {
    return undefined;
  }
}

const ALGORITHMS: Record<string, { hash: string; ecdsa?: boolean; pss?: boolean }> = {
  RS256: { hash: "sha256" },
  RS384: { hash: "sha384" },
  RS512: { hash: "sha512" },
  PS256: { hash: "sha256", pss: true },
  ES256: { hash: "sha256", ecdsa: true },
  ES384: { hash: "sha384", ecdsa: true },
};

function signatureVerifies(jwt: DecodedJwt, jwk: JsonWebKey): boolean {
  const alg = ALGORITHMS[String(jwt.header.alg)];
  if (!alg) return false;
  try {
    const key = createPublicKey({ key: jwk, format: "jwk" });
    return verify(
      alg.hash,
      Buffer.from(jwt.signingInput),
      {
        key,
        ...(alg.ecdsa ? { dsaEncoding: "ieee-p1363" as const } : {}),
        ...(alg.pss ? { padding: 6 } : {}),
      },
      jwt.signature,
    );
  } catch {
    return false;
  }
}

function toList(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
