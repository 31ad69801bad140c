// Edge management API sessions: one API session per provider process, obtained with
// `POST /authenticate?method=password|cert|ext-jwt` on first use (single flight: concurrent requests share
// one login) and sent as the `zt-session` header. Sessions expire (30 min sliding on real
// controllers): a 401 makes the HTTP client call `renew`, which logs in again once. When the session
// says MFA is required, it is completed with a TOTP code from `frontdoor:edgeTotpSecret`.
// With an external JWT (externalJwt.ts), every login takes a fresh token from its source, so a
// renewal after the token expired logs in with a new one.
import { debug } from "../log";
import { registerSecret } from "../redact";
import type { AuthScheme, HttpResponse, RequestOptions } from "./client";
import { ProviderError } from "./errors";
import { type JwtSource, localProblem } from "./externalJwt";
import { totpCode } from "./totp";

export const SESSION_HEADER = "zt-session";

export interface EdgeCredentials {
  username?: string;
  password?: string;
  /** With a client certificate (configured on the connection for mutual TLS): method=cert. */
  useCertificate?: boolean;
  totpSecret?: string;
  /** Log in with an external JWT (method=ext-jwt); `explain` says why the controller refused one. */
  jwt?: { source: JwtSource; explain(token: string): Promise<string> };
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
    const { username, password, useCertificate, jwt } = credentials;
    if (!(username && password) && !useCertificate && !jwt) {
      throw new ProviderError(
        "Edge API credentials are missing: set frontdoor:edgeUsername + frontdoor:edgePassword " +
          "(ZITI_USERNAME + ZITI_PASSWORD), or frontdoor:edgeCertPem + frontdoor:edgeKeyPem " +
          "(ZITI_CLIENT_CERT + ZITI_CLIENT_KEY), or a Ziti identity file: frontdoor:edgeIdentityFile " +
          "(ZITI_IDENTITY_FILE) or frontdoor:edgeIdentityJson (ZITI_IDENTITY_JSON), or an external JWT: " +
          "frontdoor:edgeJwt, frontdoor:edgeJwtFile or frontdoor:edgeJwtAudience (the CI's OIDC token)",
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
    if (this.credentials.jwt)
      return this.finishLogin(await this.loginWithJwt(this.credentials.jwt), "ext-jwt");
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
    return this.finishLogin(res, method);
  }

  private async loginWithJwt(jwt: NonNullable<EdgeCredentials["jwt"]>): Promise<HttpResponse<unknown>> {
    const token = await jwt.source.token();
    registerSecret(token);
    const refused = (why: string) =>
      new ProviderError(
        `Edge authentication with an external JWT from ${jwt.source.label} was refused: ${why}`,
      );
    // An expired token is not sent: the controller would only answer 401.
    const local = localProblem(token);
    if (local) throw refused(local);
    const res = await this.send!({
      method: "POST",
      path: "/authenticate",
      query: { method: "ext-jwt" },
      headers: { authorization: `Bearer ${token}` },
      body: {},
      resource: "Edge authentication (method=ext-jwt)",
      anonymous: true,
      idempotent: true,
      accept: [401],
    });
    if (res.status === 401) throw refused(await jwt.explain(token));
    return res;
  }

  private async finishLogin(res: HttpResponse<unknown>, method: string): Promise<string> {
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
