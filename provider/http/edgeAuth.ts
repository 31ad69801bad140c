// Edge management API sessions: one API session per provider process, obtained with
// `POST /authenticate?method=password|cert|ext-jwt` on first use (single flight: concurrent requests share
// one login) and sent as the `zt-session` header. Sessions expire (30 min sliding on real
// controllers): a 401 makes the HTTP client call `renew`, which logs in again once. When the session
// says MFA is required, it is completed with a TOTP code from `frontdoor:edgeTotpSecret`.
// With an external JWT (externalJwt.ts), every login takes a fresh token from its source, so a
// renewal after the token expired logs in with a new one; with a source that gives newer tokens (a
// rotated file, the CI's token request) the session is also renewed shortly before its token expires.
// The JWT of the session is also sent as `authorization: Bearer` beside `zt-session` on every request:
// an auth policy with `secondary.requireExtJwtSigner` makes the controller check it on each request
// (its auth queries), and refuse the session's requests without it.
import { MISSING_EDGE_CREDENTIALS } from "../config";
import { debug } from "../log";
import { registerSecret } from "../redact";
import type { AuthScheme, HttpResponse, RequestOptions } from "./client";
import { ProviderError } from "./errors";
import { decodeJwt, type JwtSource, localProblem } from "./externalJwt";
import { totpCode } from "./totp";

export const SESSION_HEADER = "zt-session";
/** A session logged in with a renewable external JWT logs in again this long before the JWT expires. */
const RENEW_BEFORE_MS = 60_000;

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
  /** The clock (a test moves it to a token's expiry). */
  now: () => number = Date.now;
  /** When the external JWT of the session expires (from its `exp`), for a source that gives fresh ones. */
  private jwtExpiresAtMs?: number;
  private renewing?: Promise<void>;
  /** The external JWT the session logged in with: sent on every request (secondary ext-jwt factor). */
  private sessionJwt?: string;

  constructor(private readonly credentials: EdgeCredentials) {
    const { username, password, useCertificate, jwt } = credentials;
    if (!(username && password) && !useCertificate && !jwt) {
      throw new ProviderError(MISSING_EDGE_CREDENTIALS);
    }
  }

  async headers(): Promise<Record<string, string>> {
    if (
      this.token &&
      this.jwtExpiresAtMs !== undefined &&
      this.now() >= this.jwtExpiresAtMs - RENEW_BEFORE_MS
    ) {
      this.renewing ??= this.renewBeforeExpiry().finally(() => {
        this.renewing = undefined;
      });
      await this.renewing;
    }
    return this.sessionHeaders(await this.session());
  }

  /** The session token, and the session's external JWT when it logged in with one (secondary factor). */
  private sessionHeaders(session: string): Record<string, string> {
    return this.sessionJwt
      ? { [SESSION_HEADER]: session, authorization: `Bearer ${this.sessionJwt}` }
      : { [SESSION_HEADER]: session };
  }

  /**
   * Logs in again with a fresh token from the source before the session's token expires (a controller
   * may end the session with it). Requests meanwhile keep the current session; when no valid fresh
   * token comes (a token file not rotated yet), the session goes on until the controller ends it (401).
   */
  private async renewBeforeExpiry(): Promise<void> {
    try {
      await this.finishLogin(await this.loginWithJwt(this.credentials.jwt!, this.jwtExpiresAtMs), "ext-jwt");
      debug("Edge API session renewed before its external JWT expired");
    } catch (err) {
      this.jwtExpiresAtMs = undefined;
      debug(`Edge API session not renewed before its external JWT expired: ${(err as Error).message}`);
    }
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

  /** `newerThanMs`: only a token that expires later than this is sent (renewal before expiry). */
  private async loginWithJwt(
    jwt: NonNullable<EdgeCredentials["jwt"]>,
    newerThanMs?: number,
  ): Promise<HttpResponse<unknown>> {
    const token = await jwt.source.token();
    registerSecret(token);
    const exp = decodeJwt(token)?.claims.exp;
    if (newerThanMs !== undefined && !(typeof exp === "number" && exp * 1000 > newerThanMs)) {
      throw new ProviderError(`${jwt.source.label} has no newer token yet`);
    }
    const refused = (why: string) =>
      new ProviderError(
        `Edge authentication with an external JWT from ${jwt.source.label} was refused: ${why}`,
      );
    // An expired token is not sent: the controller would only answer 401.
    const local = localProblem(token, this.now());
    if (local) throw refused(local);
    this.jwtExpiresAtMs = jwt.source.renewable && typeof exp === "number" ? exp * 1000 : undefined;
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
    this.sessionJwt = token;
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
      headers: this.sessionHeaders(token),
      resource: "Edge MFA (frontdoor:edgeTotpSecret)",
      anonymous: true,
    });
    debug("Edge API session: MFA completed");
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
