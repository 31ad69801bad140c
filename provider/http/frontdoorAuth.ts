// Frontdoor API credentials: a static bearer token, HTTP Basic `username:token`, or an OAuth2
// client-credentials grant whose access token is cached and renewed before it expires.
import { request } from "undici";
import { debug } from "../log";
import { registerSecret } from "../redact";
import type { AuthScheme } from "./client";
import { ApiError, ProviderError } from "./errors";

export function bearerAuth(token: string): AuthScheme {
  return { headers: async () => ({ authorization: `Bearer ${token}` }) };
}

export function basicAuth(username: string, secret: string): AuthScheme {
  const encoded = Buffer.from(`${username}:${secret}`).toString("base64");
  return { headers: async () => ({ authorization: `Basic ${encoded}` }) };
}

/** NetFoundry's tools renew when fewer than 600 s remain; short-lived tokens renew at half their life. */
const RENEW_MARGIN_MS = 600_000;

export class ClientCredentialsAuth implements AuthScheme {
  private token?: { value: string; renewAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly tokenUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  /** The API client's connection pool (and so its CA bundle), set by the client that owns this scheme. */
  dispatcher?: import("undici").Dispatcher;

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
    const basic = Buffer.from(`${this.clientId}:${this.clientSecret}`).toString("base64");
    const where = { resource: "OAuth2 token", method: "POST", path: new URL(this.tokenUrl).pathname };
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(this.tokenUrl, {
        method: "POST",
        headers: {
          authorization: `Basic ${basic}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: "grant_type=client_credentials",
        dispatcher: this.dispatcher,
      });
    } catch (err) {
      throw new ApiError({ ...where, status: 0, serverMessage: (err as Error).message });
    }
    const body = (await res.body.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.statusCode >= 400 || typeof body.access_token !== "string") {
      throw new ApiError({
        ...where,
        status: res.statusCode,
        code: typeof body.error === "string" ? body.error : undefined,
        serverMessage:
          typeof body.error_description === "string"
            ? body.error_description
            : "no access_token in the answer",
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

export function missingCredentials(): never {
  throw new ProviderError(
    "Frontdoor API credentials are missing: set frontdoor:token (FRONTDOOR_TOKEN or NETFOUNDRY_API_TOKEN), " +
      "or frontdoor:clientId + frontdoor:clientSecret + frontdoor:tokenUrl " +
      "(NETFOUNDRY_CLIENT_ID + NETFOUNDRY_PASSWORD + NETFOUNDRY_OAUTH_URL)",
  );
}
