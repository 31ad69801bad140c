// Edge management API sessions: one API session per provider process, obtained with
// `POST /authenticate?method=password|cert` on first use (single flight: concurrent requests share
// one login) and sent as the `zt-session` header. Sessions expire (30 min sliding on real
// controllers): a 401 makes the HTTP client call `renew`, which logs in again once. When the session
// says MFA is required, it is completed with a TOTP code from `frontdoor:edgeTotpSecret`.
import { debug } from "../log";
import { registerSecret } from "../redact";
import type { AuthScheme, HttpResponse, RequestOptions } from "./client";
import { ProviderError } from "./errors";
import { totpCode } from "./totp";

export const SESSION_HEADER = "zt-session";

export interface EdgeCredentials {
  username?: string;
  password?: string;
  /** With a client certificate (configured on the connection for mutual TLS): method=cert. */
  useCertificate?: boolean;
  totpSecret?: string;
}

/** Sends a request without session (the client's own transport, so its TLS settings apply). */
export type SendAnonymous = (opts: RequestOptions) => Promise<HttpResponse<unknown>>;

interface ApiSessionData {
  token?: string;
  isMfaRequired?: boolean;
  isMfaComplete?: boolean;
  expirationSeconds?: number;
}

export class EdgeSessionAuth implements AuthScheme {
  private token?: string;
  private pending?: Promise<string>;
  /** Set by the EdgeClient that owns this scheme. */
  send?: SendAnonymous;
  /** Logins so far: more than one means the session expired and was renewed. */
  logins = 0;

  constructor(private readonly credentials: EdgeCredentials) {
    const { username, password, useCertificate } = credentials;
    if (!(username && password) && !useCertificate) {
      throw new ProviderError(
        "Edge API credentials are missing: set frontdoor:edgeUsername + frontdoor:edgePassword " +
          "(ZITI_USERNAME + ZITI_PASSWORD), or frontdoor:edgeCertPem + frontdoor:edgeKeyPem " +
          "(ZITI_CLIENT_CERT + ZITI_CLIENT_KEY), or a Ziti identity file: frontdoor:edgeIdentityFile " +
          "(ZITI_IDENTITY_FILE) or frontdoor:edgeIdentityJson (ZITI_IDENTITY_JSON)",
      );
    }
  }

  async headers(): Promise<Record<string, string>> {
    return { [SESSION_HEADER]: await this.session() };
  }

  /** The session expired or was removed: log in again (joining a login already under way). */
  async renew(): Promise<boolean> {
    if (!this.pending) this.token = undefined;
    await this.session();
    return true;
  }

  private session(): Promise<string> {
    if (this.token) return Promise.resolve(this.token);
    this.pending ??= this.login().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async login(): Promise<string> {
    if (!this.send) throw new ProviderError("EdgeSessionAuth is not attached to a client");
    const { username, password } = this.credentials;
    const method = username && password ? "password" : "cert";
    const res = await this.send({
      method: "POST",
      path: "/authenticate",
      query: { method },
      // method=cert authenticates with the TLS client certificate; the body stays empty.
      body: method === "password" ? { username, password } : {},
      resource: `Edge authentication (method=${method})`,
      anonymous: true,
      // A login that reached the server only leaves an unused session behind: send it again.
      idempotent: true,
    });
    const session = (res.body as { data?: ApiSessionData })?.data ?? {};
    const token = session.token ?? headerValue(res.headers[SESSION_HEADER]);
    if (!token) throw new ProviderError("Edge authentication answered without a session token");
    registerSecret(token);
    this.logins++;
    debug(`Edge API session obtained (method=${method}, ${session.expirationSeconds ?? "?"} s)`);
    if (session.isMfaRequired && !session.isMfaComplete) await this.completeMfa(token);
    this.token = token;
    return token;
  }

  private async completeMfa(token: string): Promise<void> {
    const secret = this.credentials.totpSecret;
    if (!secret) {
      throw new ProviderError(
        "The Edge controller requires MFA for this identity: set frontdoor:edgeTotpSecret " +
          "(pulumi config set --secret frontdoor:edgeTotpSecret <base32 secret>) or ZITI_TOTP_SECRET",
      );
    }
    // A code is short-lived and never echoed by the controller: not registered as a secret, so
    // that ordinary six-digit numbers in messages stay readable.
    const code = totpCode(secret);
    await this.send!({
      method: "POST",
      path: "/authenticate/mfa",
      body: { code },
      headers: { [SESSION_HEADER]: token },
      resource: "Edge MFA (frontdoor:edgeTotpSecret)",
      anonymous: true,
    });
    debug("Edge API session: MFA completed");
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
