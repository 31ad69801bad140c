// /enrollments and /authenticators/{id}/re-enroll: issuing, re-issuing and listing identity
// enrollments, written from the controller's contract (swagger) and behaviour (v1.6.0, compared in
// test/real-enrollment.test.ts): one enrollment per method and identity (409 ENROLLMENT_EXISTS in the
// controller's words), an expiry that must lie in the future, a refresh that issues a new JWT and
// expiry even once expired, and an authenticator that re-enrolls turned back into an enrollment.
import type { MockResponse } from "../../types";
import { listPage, pick, recordHead } from "../crud";
import { ApiError, created, empty, entityRef, invalidField, ok } from "../envelope";
import { type Route, type RouteContext, route } from "../routes";
import type { EdgeState, EnrollmentRecord, IdentityRecord } from "../state";
import { asObject, oneOf, str } from "../validate";

export const ENROLLMENT_TTL_MINUTES = 180;
const METHODS = ["ott", "ottca", "updb"] as const;

export interface EnrollmentRequest {
  method: EnrollmentRecord["method"];
  caId?: string;
  username?: string;
}

export class Enrollments {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return [
      route("GET", "/enrollments", "full", (ctx) => this.list(ctx)),
      route("POST", "/enrollments", "full", (ctx) => this.create(ctx)),
      route("GET", "/enrollments/{id}", "full", (ctx) => ok(this.render(this.require(ctx.params.id)))),
      route("DELETE", "/enrollments/{id}", "full", (ctx) => this.remove(ctx)),
      route("POST", "/enrollments/{id}/refresh", "full", (ctx) => this.refresh(ctx)),
      route("POST", "/authenticators/{id}/re-enroll", "full", (ctx) => this.reEnroll(ctx)),
    ];
  }

  /** An enrollment with its one-time token and a JWT (signed by the mock's key) that expires with it. */
  issue(
    identity: IdentityRecord,
    request: EnrollmentRequest,
    issuer: string,
    expiresAt = new Date(Date.now() + ENROLLMENT_TTL_MINUTES * 60_000),
  ): EnrollmentRecord {
    const token = this.state.newToken();
    return this.state.enrollments.insert({
      identityId: identity.id,
      method: request.method,
      token,
      jwt: this.jwt(identity.id, request, token, issuer, expiresAt),
      expiresAt: expiresAt.toISOString(),
      caId: request.caId ?? null,
      username: request.username,
      tags: {},
    });
  }

  private jwt(
    identityId: string,
    request: EnrollmentRequest,
    token: string,
    issuer: string,
    expiresAt: Date,
  ): string {
    return this.state.jwt.sign({
      iss: issuer,
      sub: identityId,
      aud: [""],
      exp: Math.floor(expiresAt.getTime() / 1000),
      jti: token,
      em: request.method,
      ...(request.caId ? { ca: request.caId } : {}),
      ...(request.username ? { username: request.username } : {}),
    });
  }

  render(e: EnrollmentRecord): Record<string, unknown> {
    const identity = this.state.identities.find(e.identityId);
    return {
      ...recordHead("enrollments", e),
      ...pick(e, ["method", "token", "jwt", "expiresAt", "identityId"]),
      identity: entityRef("identities", e.identityId, identity?.name ?? ""),
      caId: e.caId,
      ...(e.username !== undefined ? { username: e.username } : {}),
    };
  }

  private require(id: string): EnrollmentRecord {
    return this.state.enrollments.require(id);
  }

  private list(ctx: RouteContext): MockResponse {
    return listPage(this.state.enrollments, ctx, (e) => this.render(e));
  }

  private create(ctx: RouteContext): MockResponse {
    const body = asObject(ctx.body);
    const method = oneOf(body, "method", METHODS, { required: true }) as EnrollmentRecord["method"];
    const identityId = str(body, "identityId", { required: true }) as string;
    const expiresAt = dateOf(body);
    const identity = this.state.identities.find(identityId);
    // A v1.6.0 controller answers a past expiry as it answers an unknown identity.
    if (!identity || expiresAt.getTime() <= Date.now())
      throw new ApiError(400, "REFERENCED_ENTITY_NOT_FOUND", "REFERENCED_ENTITY_NOT_FOUND");
    const request: EnrollmentRequest = { method };
    if (method === "ottca") {
      const caId = str(body, "caId", { nullable: true });
      if (!caId || !this.state.cas.find(caId)) throw invalidField("caId", "ca not found", caId ?? null);
      request.caId = caId;
    }
    if (method === "updb") {
      const username = str(body, "username", { nullable: true });
      if (!username) throw invalidField("username", "username not provided", username ?? null);
      request.username = username;
    }
    if (this.state.enrollmentsOf(identity.id).some((e) => e.method === method))
      throw enrollmentExists(method);
    return created("enrollments", this.issue(identity, request, ctx.issuer, expiresAt).id);
  }

  private remove(ctx: RouteContext): MockResponse {
    this.state.enrollments.delete(this.require(ctx.params.id).id);
    return empty();
  }

  /**
   * A new expiry and JWT, expired or not, as a v1.6.0 controller does it: the stored token changes but
   * the new JWT still carries the old one, so neither JWT enrolls any more; the answer is `{data: {}}`
   * (not the createEnvelope the swagger names).
   */
  private refresh(ctx: RouteContext): MockResponse {
    const enrollment = this.require(ctx.params.id);
    const expiresAt = futureDate(asObject(ctx.body), "must be after the current date and time");
    const request = {
      method: enrollment.method,
      caId: enrollment.caId ?? undefined,
      username: enrollment.username,
    };
    const jwt = this.jwt(enrollment.identityId, request, enrollment.token, ctx.issuer, expiresAt);
    this.state.enrollments.update(enrollment.id, {
      jwt,
      token: this.state.newToken(),
      expiresAt: expiresAt.toISOString(),
    });
    return empty();
  }

  /** The authenticator is deleted and replaced by an enrollment: cert -> ott (ottca with a CA), updb -> updb. */
  private reEnroll(ctx: RouteContext): MockResponse {
    const authenticator = this.state.authenticators.require(ctx.params.id);
    const expiresAt = futureDate(asObject(ctx.body), "must be after the current date and time");
    const identity = this.state.identities.require(authenticator.identityId);
    const request: EnrollmentRequest =
      authenticator.method === "updb"
        ? { method: "updb", username: authenticator.username }
        : authenticator.caId
          ? { method: "ottca", caId: authenticator.caId }
          : { method: "ott" };
    if (this.state.enrollmentsOf(identity.id).some((e) => e.method === request.method))
      throw enrollmentExists(request.method);
    this.state.authenticators.delete(authenticator.id);
    for (const [token, session] of this.state.sessions)
      if (session.authenticatorId === authenticator.id) this.state.sessions.delete(token);
    return created("enrollments", this.issue(identity, request, ctx.issuer, expiresAt).id);
  }
}

function dateOf(body: Record<string, unknown>): Date {
  const text = str(body, "expiresAt", { required: true }) as string;
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw invalidField("expiresAt", "must be a date-time", text);
  return at;
}

function futureDate(body: Record<string, unknown>, pastReason: string): Date {
  const at = dateOf(body);
  if (at.getTime() <= Date.now()) throw invalidField("expiresAt", pastReason, body.expiresAt);
  return at;
}

/** What a controller answers (v1.6.0): the code as the message, the method as the field. */
function enrollmentExists(method: string): ApiError {
  return new ApiError(409, "ENROLLMENT_EXISTS", "ENROLLMENT_EXISTS", {
    field: "method",
    reason: "enrollment of same method exists",
    value: method,
  });
}
