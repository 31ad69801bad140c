// Frontdoor API credentials: a static bearer token, `Basic <username:token>` as the API description writes it,
// or an OAuth2 client-credentials grant whose access token is cached and renewed before it expires.
import { MISSING_FRONTDOOR_CREDENTIALS } from "../config";
import { debug } from "../log";
import { registerSecret } from "../redact";
import { type AuthScheme, HttpClient, type HttpClientOptions } from "./client";

/** Connection options the token endpoint shares with the API client. */
export type ClientOptions = Pick<HttpClientOptions, "tls" | "retry" | "timeoutMs">;

import { ApiError, ProviderError } from "./errors";

export function bearerAuth(token: string): AuthScheme {
  const headers = { authorization: `Bearer ${token}` };
  return { headers: () => headers };
}

/**
 * The API description's `Authorization: Basic <username:token>`: one space after `Basic`, then username, colon,
 * token, as they are (the API description shows no base64 step, unlike RFC 7617). Parts that would make the
 * header ambiguous are refused before any call.
 */
export function usernameTokenAuth(username: string, token: string): AuthScheme {
  if (username.includes(":") || /\s/.test(username)) {
    throw new ProviderError(
      "frontdoor:username must not contain a colon or whitespace (Basic username:token)",
    );
  }
  if (/\s/.test(token)) throw new ProviderError("frontdoor:token must not contain whitespace");
  const headers = { authorization: `Basic ${username}:${token}` };
  return { headers: () => headers };
}

/** RFC 7617 HTTP Basic (base64 of `id:secret`): the OAuth2 token endpoint's client authentication. */
export function basicAuth(username: string, secret: string): AuthScheme {
  const headers = { authorization: `Basic ${Buffer.from(`${username}:${secret}`).toString("base64")}` };
  return { headers: () => headers };
}

/** NetFoundry's tools renew when fewer than 600 s remain; short-lived tokens renew at half their life. */
const RENEW_MARGIN_MS = 600_000;

export class ClientCredentialsAuth implements AuthScheme {
  private token?: { value: string; renewAt: number };
  private pending?: Promise<string>;
  /** The token endpoint, through the same HTTP layer: CA bundle, timeouts and retries apply. */
  private readonly http: HttpClient;
  private readonly path: string;

  constructor(tokenUrl: string, clientId: string, clientSecret: string, options: ClientOptions) {
    const url = new URL(tokenUrl);
    this.path = url.pathname + url.search;
    this.http = new HttpClient(
      { ...options, baseUrl: url.origin, apiName: "OAuth2 token", connections: 2 },
      basicAuth(clientId, clientSecret),
      oauthError,
    );
  }

  async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.accessToken()}` };
  }

  async renew(): Promise<boolean> {
    this.token = undefined;
    await this.accessToken();
    return true;
  }

  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.renewAt) return this.token.value;
    // One grant at a time: concurrent requests share the renewal.
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const res = await this.http.request<Record<string, unknown>>({
      method: "POST",
      path: this.path,
      body: "grant_type=client_credentials",
      contentType: "application/x-www-form-urlencoded",
      // A grant whose answer was lost only leaves an unused token behind: it may be sent again.
      idempotent: true,
    });
    const body = res.body ?? {};
    if (typeof body.access_token !== "string") {
      throw new ApiError({
        resource: "OAuth2 token",
        method: "POST",
        path: this.path,
        status: res.status,
        serverMessage: "no access_token in the answer",
      });
    }
    const lifetimeMs = (typeof body.expires_in === "number" ? body.expires_in : 3600) * 1000;
    const margin = Math.min(RENEW_MARGIN_MS, lifetimeMs / 2);
    registerSecret(body.access_token);
    this.token = { value: body.access_token, renewAt: Date.now() + lifetimeMs - margin };
    debug(`OAuth2 access token obtained, valid ${Math.round(lifetimeMs / 1000)} s`);
    return body.access_token;
  }
}

/** RFC 6749 error answers: `{error, error_description}`. */
function oauthError(body: unknown): { code?: string; message?: string } {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  return {
    code: typeof b.error === "string" ? b.error : undefined,
    message: typeof b.error_description === "string" ? b.error_description : undefined,
  };
}

export function missingCredentials(): never {
  throw new ProviderError(MISSING_FRONTDOOR_CREDENTIALS);
}
