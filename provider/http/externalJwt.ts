// External JWT login (`authenticate?method=ext-jwt`): where the token comes from, and why a
// controller refused one. The token comes from frontdoor:edgeJwt (a value), frontdoor:edgeJwtFile
// (read again at every login: CI token files rotate), or the CI's OIDC token request (GitHub
// Actions: ACTIONS_ID_TOKEN_REQUEST_URL + ACTIONS_ID_TOKEN_REQUEST_TOKEN, with the audience of
// frontdoor:edgeJwtAudience), asked again at every login so that a renewal gets a fresh token.
// Why a controller refused a token: jwtRefusal.ts.
import * as fs from "node:fs";
import { flagSetting, type RawSettings, transportSettings } from "../config";
import { registerSecret } from "../redact";
import { HttpClient, noAuth } from "./client";
import { credentialDestinationProblem } from "./destinations";
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
      token: async () => readJwtFile(file),
    };
  }
  const audience = settings.edgeJwtAudience;
  if (audience === undefined) return undefined;
  return {
    label: `the CI's OIDC token (ACTIONS_ID_TOKEN_REQUEST_URL, audience "${audience}")`,
    renewable: true,
    token: () => githubOidcToken(audience, fetchJson, env, flagSetting(settings, "allowPlainHttp")),
  };
}

/** The most of frontdoor:edgeJwtFile that is read: a JWT is a few KiB (header, claims, one signature). */
export const MAX_JWT_FILE_BYTES = 64 * 1024;

/**
 * The token in frontdoor:edgeJwtFile, read at most MAX_JWT_FILE_BYTES (+1, to tell a bigger file) so
 * that a wrong path (a log, a disk image, /dev/zero) is refused at once instead of held in memory.
 */
function readJwtFile(file: string): string {
  const buffer = Buffer.alloc(MAX_JWT_FILE_BYTES + 1);
  let length = 0;
  try {
    const fd = fs.openSync(file, "r");
    try {
      while (length < buffer.length) {
        const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
        if (read === 0) break;
        length += read;
      }
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw new ProviderError(`frontdoor:edgeJwtFile cannot be read: ${(err as Error).message}`);
  }
  if (length > MAX_JWT_FILE_BYTES)
    throw new ProviderError(
      `frontdoor:edgeJwtFile (${file}) is larger than ${MAX_JWT_FILE_BYTES / 1024} KiB: not a JWT (is it the right file?)`,
    );
  const text = buffer.toString("utf8", 0, length).trim();
  registerSecret(text);
  if (!text) throw new ProviderError(`frontdoor:edgeJwtFile (${file}) is empty`);
  return text;
}

/** GitHub Actions' token request: GET `<url>&audience=<aud>` with the request token, answer `{value}`. */
async function githubOidcToken(
  audience: string,
  fetchJson: FetchJson,
  env: NodeJS.ProcessEnv,
  allowPlainHttp: boolean,
) {
  const url = env.ACTIONS_ID_TOKEN_REQUEST_URL;
  const bearer = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
  if (!url || !bearer) {
    throw new ProviderError(
      "frontdoor:edgeJwtAudience asks for the CI's OIDC token, but ACTIONS_ID_TOKEN_REQUEST_URL and " +
        "ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set: in GitHub Actions, give the job `permissions: id-token: write`",
    );
  }
  registerSecret(bearer);
  // The request token travels in this request: the rule of every credential destination (its query
  // string is part of the URL GitHub gives).
  const problem = credentialDestinationProblem(url, allowPlainHttp, false);
  if (problem) throw new ProviderError(`ACTIONS_ID_TOKEN_REQUEST_URL ${problem}`);
  const target = new URL(url);
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

/** Why a token cannot be used now without asking anyone: not a JWT, a time claim that is no time, expired, not yet valid. */
export function localProblem(token: string, now = Date.now()): string | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return "it is not a JWT (three base64url parts: header, claims, signature)";
  const badTime = timeClaimProblem(jwt.claims);
  if (badTime) return badTime;
  const { exp, nbf } = jwt.claims as { exp?: number; nbf?: number };
  if (exp !== undefined && exp * 1000 <= now) {
    return `it expired at ${new Date(exp * 1000).toISOString()} (${Math.round(now / 1000 - exp)} s ago)`;
  }
  if (nbf !== undefined && nbf * 1000 > now) {
    return `it is not valid before ${new Date(nbf * 1000).toISOString()}`;
  }
  return undefined;
}

/** RFC 7519's time claims: NumericDate, seconds since 1970. */
const TIME_CLAIMS = ["exp", "nbf", "iat"] as const;
/** The seconds Date can show (±8.64e15 ms, ECMA-262's time range): beyond them a time has no date. */
const MAX_NUMERIC_DATE = 8.64e12;

/** A time claim that is not a finite number of seconds within Date's range (1e400 parses as Infinity). */
function timeClaimProblem(claims: Record<string, unknown>): string | undefined {
  for (const name of TIME_CLAIMS) {
    const value = claims[name];
    if (value === undefined) continue;
    if (typeof value !== "number")
      return `its ${name} claim is a ${value === null ? "null" : typeof value}, not a time (RFC 7519: seconds since 1970)`;
    if (!Number.isFinite(value) || Math.abs(value) > MAX_NUMERIC_DATE)
      return `its ${name} claim (${value}) is not a time: seconds since 1970 within ±${MAX_NUMERIC_DATE} expected`;
  }
  return undefined;
}
