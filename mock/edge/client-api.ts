// The part of the Edge client API (/edge/client/v1) that a device uses to become an identity and see
// what it may reach, plus the EST CA bundle (/.well-known/est/cacerts):
// - `POST /enroll/ott` (JSON {token, clientCsr}) and `POST /enroll?method=ott&token=...` (PEM CSR
//   body): the one-time token is consumed, the CSR signed by the mock's identity CA (its own PKI in
//   pki.ts), the enrollment replaced by a cert authenticator, as a controller does;
// - `POST /authenticate?method=cert|password`, `GET|DELETE /current-api-session` (any identity, not
//   only admins);
// - `GET /services`: the services the caller may dial or bind, with its permissions;
// - `GET /external-jwt-signers` (no session): the enabled signers, with only what a client needs to
//   get a token (name, audience, externalAuthUrl, clientId, scopes, targetToken; no issuer, no keys).
import type { MockResponse } from "../types";
import { recordHead } from "./crud";
import { ApiError, meta, ok } from "./envelope";
import { fingerprint, pkcs7CertsOnly, signClientCsr } from "./pki";
import { listQuery } from "./query";
import { Reach } from "./reach";
import type { Services } from "./resources/services";
import { type Route, type RouteContext, route } from "./routes";
import type { Sessions } from "./sessions";
import type { ApiSession, EdgeState, EnrollmentRecord } from "./state";
import { asObject, str } from "./validate";

export const CLIENT_BASE_PATH = "/edge/client/v1";
export const CA_CERTS_PATH = "/.well-known/est/cacerts";
const CERT_DAYS = 365;

export class ClientApi {
  constructor(
    private readonly state: EdgeState,
    private readonly sessions: Sessions,
    private readonly services: Services,
  ) {}

  routes(): Route[] {
    return [
      ...this.sessions.routes(),
      route("POST", "/enroll/ott", "public", (ctx) => this.enrollOtt(ctx, this.jsonRequest(ctx))),
      route("POST", "/enroll", "public", (ctx) => this.enroll(ctx)),
      route("GET", "/services", "client", (ctx) => this.listServices(ctx)),
      route("GET", "/external-jwt-signers", "public", (ctx) => this.listSigners(ctx)),
    ];
  }

  /** The EST answer: base64 of a certs-only PKCS#7 (application/pkcs7-mime). */
  caCerts(): MockResponse {
    return {
      status: 200,
      headers: { "content-type": "application/pkcs7-mime" },
      body: pkcs7CertsOnly(this.state.caBundlePems()),
    };
  }

  private jsonRequest(ctx: RouteContext): { token: string; csr: string } {
    const body = asObject(ctx.body ?? {});
    return {
      token: str(body, "token", { required: true }) as string,
      csr: str(body, "clientCsr", { required: true }) as string,
    };
  }

  /** `POST /enroll?method=ott&token=...` with the CSR as the body (application/x-pem-file). */
  private enroll(ctx: RouteContext): MockResponse {
    const method = ctx.req.query.get("method");
    if (method !== "ott")
      throw new ApiError(400, "INVALID_ENROLL_METHOD", "The enrollment method is not valid");
    const token = ctx.req.query.get("token") ?? "";
    const csr = typeof ctx.body === "string" ? ctx.body : "";
    return this.enrollOtt(ctx, { token, csr });
  }

  private enrollOtt(_ctx: RouteContext, request: { token: string; csr: string }): MockResponse {
    const enrollment = this.pendingOtt(request.token);
    const identity = this.state.identities.require(enrollment.identityId);
    let signed: ReturnType<typeof signClientCsr>;
    try {
      const ca = this.state.identityCa();
      signed = signClientCsr(request.csr, { cert: ca.cert, keys: ca.keys }, identity.id, CERT_DAYS);
    } catch (error) {
      throw new ApiError(
        400,
        "COULD_NOT_PROCESS_CSR",
        `could not process the CSR: ${(error as Error).message}`,
      );
    }
    // One use: the enrollment becomes the identity's certificate authenticator.
    this.state.enrollments.delete(enrollment.id);
    const authenticator = this.state.addCertAuthenticator(
      identity.id,
      fingerprint(signed.cert),
      signed.certPem,
    );
    this.state.authenticators.update(authenticator.id, { issuedByNetwork: true });
    return { status: 200, body: { data: { cert: signed.certPem }, meta: meta() } };
  }

  /** The ott enrollment of this token, still valid; the token is never echoed back. */
  private pendingOtt(token: string): EnrollmentRecord {
    const enrollment = this.state.enrollments.all().find((e) => e.token === token && e.method === "ott");
    if (!enrollment) throw new ApiError(400, "INVALID_ENROLLMENT_TOKEN", "The supplied token is not valid");
    if (Date.parse(enrollment.expiresAt) <= Date.now())
      throw new ApiError(400, "ENROLLMENT_EXPIRED", "The window for this enrollment has expired");
    return enrollment;
  }

  private listSigners(ctx: RouteContext): MockResponse {
    const enabled = this.state.externalJwtSigners.all().filter((s) => s.enabled);
    const page = listQuery(this.state.externalJwtSigners, ctx.req.query, enabled);
    return ok(
      page.items.map((signer) => ({
        ...recordHead("external-jwt-signers", signer),
        name: signer.name,
        audience: signer.audience,
        externalAuthUrl: signer.externalAuthUrl ?? null,
        clientId: signer.clientId ?? null,
        scopes: signer.scopes.length > 0 ? [...signer.scopes] : null,
        targetToken: signer.targetToken,
        enrollToCertEnabled: false,
        enrollToTokenEnabled: false,
      })),
      page.meta,
    );
  }

  private listServices(ctx: RouteContext): MockResponse {
    const session = ctx.session as ApiSession;
    const reach = new Reach(this.state);
    const visible = this.state.services
      .all()
      .map((service) => ({ service, permissions: reach.permissions(session.identityId, service.id) }))
      .filter((entry) => entry.permissions.length > 0);
    const byId = new Map(visible.map((entry) => [entry.service.id, entry.permissions]));
    const page = listQuery(
      this.state.services,
      ctx.req.query,
      visible.map((entry) => entry.service),
    );
    return ok(
      page.items.map((s) => ({ ...this.services.render(s), permissions: byId.get(s.id) })),
      page.meta,
    );
  }
}
