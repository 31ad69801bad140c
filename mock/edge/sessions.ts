// API sessions: authenticate (password, client certificate or external JWT: ext-jwt.ts), MFA completion, current session.
import { timingSafeEqual } from "node:crypto";
import forge from "node-forge";
import type { MockResponse } from "../types";
import { ApiError, empty, entityRef, invalidAuth, meta, unauthorized } from "./envelope";
import type { ExtJwtAuth } from "./ext-jwt";
import { commonName, fingerprintOfDer, isSignedBy, parseCertificatePem } from "./pki";
import { type Route, type RouteContext, route } from "./routes";
import type { ApiSession, EdgeState, IdentityRecord } from "./state";
import { verifyTotp } from "./totp";
import { asObject, str } from "./validate";

export const SESSION_HEADER = "zt-session";

export class Sessions {
  constructor(
    private readonly state: EdgeState,
    private readonly ttlSeconds: number,
    private readonly extJwt: ExtJwtAuth,
  ) {}

  routes(): Route[] {
    return [
      route("POST", "/authenticate", "public", (ctx) => this.authenticate(ctx)),
      route("POST", "/authenticate/mfa", "partial", (ctx) => this.completeMfa(ctx)),
      route("GET", "/current-api-session", "partial", (ctx) => this.current(ctx)),
      route("DELETE", "/current-api-session", "partial", (ctx) => this.logout(ctx)),
    ];
  }

  /**
   * The live session for a `zt-session` token, its expiry slid forward; 401 UNAUTHORIZED when the
   * token is unknown or expired, or when `full` access is needed and MFA is pending.
   */
  resolve(token: string | undefined, needsFullAccess: boolean): ApiSession {
    const session = token ? this.state.sessions.get(token) : undefined;
    if (!session) throw unauthorized();
    const now = Date.now();
    const identity = this.state.identities.find(session.identityId);
    if (session.expiresAtMs <= now || !identity || identity.disabled) {
      this.state.sessions.delete(session.token);
      throw unauthorized();
    }
    session.expiresAtMs = now + this.ttlSeconds * 1000;
    session.lastActivityAt = new Date(now).toISOString();
    if (needsFullAccess && session.isMfaRequired && !session.isMfaComplete) throw unauthorized();
    return session;
  }

  private authenticate(ctx: RouteContext): MockResponse {
    const method = ctx.req.query.get("method");
    let identity: IdentityRecord;
    let authenticatorId: string;
    if (method === "password") {
      [identity, authenticatorId] = this.byPassword(ctx.body);
    } else if (method === "cert") {
      [identity, authenticatorId] = this.byCertificate(ctx);
    } else if (method === "ext-jwt") {
      const [jwtIdentity, signer] = this.extJwt.authenticate(ctx.req);
      [identity, authenticatorId] = [jwtIdentity, `extJwtId:${signer.id}`];
    } else {
      throw new ApiError(400, "INVALID_AUTH_METHOD", "The supplied authentication method is not valid");
    }
    if (identity.disabled) throw invalidAuth();
    const now = new Date();
    const session: ApiSession = {
      id: this.state.newToken(),
      token: this.state.newToken(),
      identityId: identity.id,
      authenticatorId,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      lastActivityAt: now.toISOString(),
      expiresAtMs: now.getTime() + this.ttlSeconds * 1000,
      isMfaRequired: identity.mfaSecret !== undefined,
      isMfaComplete: false,
      ipAddress: clientAddress(ctx),
      configTypes: [],
    };
    this.state.sessions.set(session.token, session);
    return {
      status: 200,
      headers: { [SESSION_HEADER]: session.token },
      body: { data: this.render(session), meta: meta() },
    };
  }

  private byPassword(rawBody: unknown): [IdentityRecord, string] {
    const body = asObject(rawBody ?? {});
    const username = typeof body.username === "string" ? body.username : "";
    const password = typeof body.password === "string" ? body.password : "";
    const authenticator = this.state.authenticators
      .all()
      .find((a) => a.method === "updb" && a.username === username);
    if (!authenticator || !sameSecret(authenticator.password ?? "", password)) throw invalidAuth();
    const identity = this.state.identities.find(authenticator.identityId);
    if (!identity || !this.policyAllows(identity, "updb")) throw invalidAuth();
    return [identity, authenticator.id];
  }

  /**
   * A certificate authenticates when its fingerprint is a `cert` authenticator's, or when a
   * verified, auth-enabled CA signed it and an identity's externalId (or name) equals its CN;
   * the latter gets a cert authenticator on first use, as CA-based enrollment would give it.
   */
  private byCertificate(ctx: RouteContext): [IdentityRecord, string] {
    const raw = ctx.req.clientCertificate?.raw;
    if (!raw || raw.length === 0) throw invalidAuth();
    const fingerprint = fingerprintOfDer(raw);
    const known = this.state.authenticators
      .all()
      .find((a) => a.method === "cert" && a.fingerprint === fingerprint);
    if (known) {
      const identity = this.state.identities.find(known.identityId);
      if (!identity || !this.policyAllows(identity, "cert")) throw invalidAuth();
      return [identity, known.id];
    }
    const cert = forge.pki.certificateFromAsn1(forge.asn1.fromDer(raw.toString("binary")));
    const cn = commonName(cert);
    const trustedCa = this.state.cas
      .all()
      .find((ca) => ca.isVerified && ca.isAuthEnabled && isSignedBy(cert, parseCertificatePem(ca.certPem)));
    const identity = this.state.identities
      .all()
      .find((i) => cn !== undefined && (i.externalId === cn || i.name === cn));
    if (!trustedCa || !identity || !this.policyAllows(identity, "cert")) throw invalidAuth();
    const authenticator = this.state.addCertAuthenticator(
      identity.id,
      fingerprint,
      forge.pki.certificateToPem(cert),
      trustedCa.id,
    );
    return [identity, authenticator.id];
  }

  private policyAllows(identity: IdentityRecord, method: "updb" | "cert"): boolean {
    const policy = this.state.authPolicies.find(identity.authPolicyId);
    return policy ? policy.primary[method].allowed : true;
  }

  private completeMfa(ctx: RouteContext): MockResponse {
    const session = ctx.session as ApiSession;
    const identity = this.state.identities.require(session.identityId);
    if (!identity.mfaSecret) {
      throw new ApiError(409, "MFA_NOT_ENROLLED", "The current identity is not enrolled in MFA");
    }
    const code = str(asObject(ctx.body ?? {}), "code", { required: true });
    // The code is never echoed back: it is a credential.
    if (!code || !verifyTotp(identity.mfaSecret, code)) {
      throw new ApiError(401, "MFA_INVALID_TOKEN", "An invalid token/code was provided");
    }
    session.isMfaComplete = true;
    return empty();
  }

  private current(ctx: RouteContext): MockResponse {
    return { status: 200, body: { data: this.render(ctx.session as ApiSession), meta: meta() } };
  }

  private logout(ctx: RouteContext): MockResponse {
    this.state.sessions.delete((ctx.session as ApiSession).token);
    return empty();
  }

  private render(session: ApiSession): Record<string, unknown> {
    const identity = this.state.identities.find(session.identityId);
    const mfaPending = session.isMfaRequired && !session.isMfaComplete;
    return {
      _links: { self: { href: "./current-api-session" } },
      id: session.id,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      tags: {},
      token: session.token,
      identity: entityRef("identities", session.identityId, identity?.name ?? ""),
      identityId: session.identityId,
      authenticatorId: session.authenticatorId,
      configTypes: session.configTypes,
      ipAddress: session.ipAddress,
      authQueries: mfaPending
        ? [
            {
              typeId: "MFA",
              provider: "ziti",
              format: "numeric",
              httpMethod: "POST",
              httpUrl: "./authenticate/mfa",
              minLength: 4,
              maxLength: 6,
              isTotpEnrolled: true,
            },
          ]
        : [],
      isMfaRequired: session.isMfaRequired,
      isMfaComplete: session.isMfaComplete,
      isCertExtendable: false,
      isCertExtendRequested: false,
      isCertKeyRollRequested: false,
      improperClientCertChain: false,
      lastActivityAt: session.lastActivityAt,
      cachedLastActivityAt: session.lastActivityAt,
      expiresAt: new Date(session.expiresAtMs).toISOString(),
      expirationSeconds: Math.max(0, Math.round((session.expiresAtMs - Date.now()) / 1000)),
    };
  }
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function clientAddress(ctx: RouteContext): string {
  const forwarded = ctx.req.headers["x-forwarded-for"];
  return (Array.isArray(forwarded) ? forwarded[0] : forwarded) ?? "127.0.0.1";
}
