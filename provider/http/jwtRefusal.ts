// Why a controller refused an external JWT. A controller answers 401 INVALID_AUTH for every refusal
// (expired, wrong audience, unknown issuer, unknown key, no identity, auth policy), so this compares
// the token's own claims (decoded; verified here only to tell a bad signature) with what the
// controller publishes without a login (its enabled signers' audiences and externalAuthUrl, client
// API) and what the issuer publishes (its OIDC discovery document and JWKS), and says when it cannot tell.
import { createPublicKey, type JsonWebKey, verify } from "node:crypto";
import { type DecodedJwt, decodeJwt, type FetchJson, localProblem } from "./externalJwt";

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
