// /identities: CRUD, list, and the identity's authenticators and enrollments. Quirks of a real
// controller kept on purpose: types User/Device/Service are stored as `Default`; unset
// roleAttributes read back as null, unset tags/appData as {}; enrollments expire after 180 min.

import type { MockResponse } from "../../types";
import { collectionRoutes, listPage, recordHead } from "../crud";
import { created, empty, entityRef, invalidField } from "../envelope";
import { type Route, type RouteContext, route } from "../routes";
import {
  DEFAULT_AUTH_POLICY_ID,
  type EdgeState,
  type EnrollmentRecord,
  type IdentityRecord,
  identityDefaults,
} from "../state";
import { asObject, type Body, bool, int, map, object, oneOf, str, stringList, tags } from "../validate";
import { Enrollments } from "./enrollments";
import PERMISSION_NAMES from "./permissions.json";

export const IDENTITY_TYPES = ["User", "Device", "Service", "Router", "Default"] as const;
export const HOSTING_PRECEDENCES = ["default", "required", "failed"] as const;
export { ENROLLMENT_TTL_MINUTES } from "./enrollments";

// The permission names the controller accepts: its swagger's `permissions` enum, kept as data.
export const PERMISSIONS: readonly string[] = PERMISSION_NAMES;

/** How a controller stores an identity type: only Router keeps its own. */
function storedType(type: string): string {
  return type === "Router" ? "Router" : "Default";
}

type Mode = "create" | "put" | "patch";

export class Identities {
  private readonly issuer: Enrollments;

  constructor(private readonly state: EdgeState) {
    this.issuer = new Enrollments(state);
  }

  routes(): Route[] {
    const render = (identity: IdentityRecord) => this.render(identity);
    const authenticators = route("GET", "/identities/{id}/authenticators", "full", (c) =>
      this.authenticators(c),
    );
    const enrollments = route("GET", "/identities/{id}/enrollments", "full", (c) => this.enrollments(c));
    return collectionRoutes(this.state.identities, this, render, authenticators, enrollments);
  }

  create(body: Body, ctx: RouteContext): MockResponse {
    const fields = this.readFields(body, "create");
    const enrollment = object(body, "enrollment", { nullable: true });
    const requests = enrollment ? this.readEnrollment(enrollment) : [];
    this.state.identities.assertUniqueName(fields.name as string);
    const identity = this.state.addIdentity({
      ...identityDefaults(),
      ...fields,
      name: fields.name as string,
    });
    for (const r of requests) this.issuer.issue(identity, r, ctx.issuer);
    return created("identities", identity.id);
  }

  update(ctx: RouteContext, mode: Mode): MockResponse {
    const identity = this.state.identities.require(ctx.params.id);
    const fields = this.readFields(asObject(ctx.body), mode);
    if (fields.name !== undefined) this.state.identities.assertUniqueName(fields.name, identity.id);
    if (mode === "patch") {
      this.state.identities.update(identity.id, fields);
    } else {
      // PUT replaces every updatable field: what was not sent goes back to its default.
      const { isDefaultAdmin, mfaSecret, disabled } = identity;
      this.state.identities.replace(identity.id, {
        ...identityDefaults(),
        ...fields,
        name: fields.name as string,
        isDefaultAdmin,
        mfaSecret,
        disabled,
      });
    }
    return empty();
  }

  remove(ctx: RouteContext): MockResponse {
    const identity = this.state.identities.require(ctx.params.id);
    if (identity.isDefaultAdmin) {
      throw invalidField("id", "the default admin identity can not be deleted", identity.id);
    }
    this.state.deleteIdentity(identity.id);
    return empty();
  }

  private authenticators(ctx: RouteContext): MockResponse {
    const identity = this.state.identities.require(ctx.params.id);
    const records = this.state.authenticatorsOf(identity.id);
    return listPage(
      this.state.authenticators,
      ctx,
      (a) => ({
        ...recordHead("authenticators", a),
        method: a.method,
        identityId: a.identityId,
        identity: entityRef("identities", identity.id, identity.name),
        ...(a.method === "updb" ? { username: a.username } : {}),
        ...(a.method === "cert" ? { fingerprint: a.fingerprint, certPem: a.certPem } : {}),
        isIssuedByNetwork: a.issuedByNetwork === true,
        isExtendRequested: false,
        isKeyRollRequested: false,
        extendRequestedAt: null,
      }),
      records,
    );
  }

  private enrollments(ctx: RouteContext): MockResponse {
    const identity = this.state.identities.require(ctx.params.id);
    return listPage(
      this.state.enrollments,
      ctx,
      (e) => this.issuer.render(e),
      this.state.enrollmentsOf(identity.id),
    );
  }

  /**
   * The fields present in a create/put/patch body, checked and normalised (null or unset means
   * the field's default). Required fields are enforced for create and put.
   */
  private readFields(body: Body, mode: Mode): Partial<IdentityRecord> {
    const required = mode !== "patch";
    const out: Partial<IdentityRecord> = {};
    const has = (field: string) => field in body;
    const name = str(body, "name", { required, nullable: !required });
    if (name !== undefined) out.name = name;
    const type = oneOf(body, "type", IDENTITY_TYPES, { required, nullable: !required });
    if (type !== undefined) out.typeId = storedType(type);
    const isAdmin = bool(body, "isAdmin", { required, nullable: !required });
    if (isAdmin !== undefined) out.isAdmin = isAdmin;
    if (has("authPolicyId")) {
      const id = str(body, "authPolicyId", { nullable: true }) ?? DEFAULT_AUTH_POLICY_ID;
      if (!this.state.authPolicies.find(id)) {
        throw invalidField("authPolicyId", `auth policy '${id}' not found`, id);
      }
      out.authPolicyId = id;
    }
    if (has("externalId")) out.externalId = str(body, "externalId", { nullable: true }) ?? null;
    if (has("defaultHostingCost")) {
      out.defaultHostingCost = int(body, "defaultHostingCost", { nullable: true, min: 0, max: 65535 }) ?? 0;
    }
    if (has("defaultHostingPrecedence")) {
      out.defaultHostingPrecedence =
        oneOf(body, "defaultHostingPrecedence", HOSTING_PRECEDENCES, { nullable: true }) ?? "default";
    }
    if (has("serviceHostingCosts")) {
      out.serviceHostingCosts =
        map(body, "serviceHostingCosts", (m, k, p) => int(m, k, { min: 0, max: 65535 }, p)) ?? {};
    }
    if (has("serviceHostingPrecedences")) {
      out.serviceHostingPrecedences =
        map(body, "serviceHostingPrecedences", (m, k, p) => oneOf(m, k, HOSTING_PRECEDENCES, {}, p)) ?? {};
    }
    if (has("roleAttributes")) {
      out.roleAttributes = stringList(body, "roleAttributes", { nullable: true }) ?? null;
    }
    if (has("permissions")) {
      out.permissions = stringList(body, "permissions", { nullable: true, allowed: PERMISSIONS }) ?? [];
    }
    if (has("tags")) out.tags = tags(body, "tags") ?? {};
    if (has("appData")) out.appData = tags(body, "appData") ?? {};
    return out;
  }

  private readEnrollment(
    enrollment: Body,
  ): { method: EnrollmentRecord["method"]; caId?: string; username?: string }[] {
    const requests: { method: EnrollmentRecord["method"]; caId?: string; username?: string }[] = [];
    const prefix = "enrollment";
    if (bool(enrollment, "ott", { nullable: true }, prefix)) requests.push({ method: "ott" });
    const caId = str(enrollment, "ottca", { nullable: true }, prefix);
    if (caId !== undefined) {
      const ca = this.state.cas.find(caId);
      if (!ca) throw invalidField("enrollment.ottca", `CA '${caId}' not found`, caId);
      if (!ca.isVerified) throw invalidField("enrollment.ottca", `CA '${caId}' is not verified`, caId);
      requests.push({ method: "ottca", caId });
    }
    const username = str(enrollment, "updb", { nullable: true }, prefix);
    if (username !== undefined) {
      if (username.length < 4 || username.length > 100) {
        throw invalidField("enrollment.updb", "username must be 4..100 characters", username);
      }
      if (this.state.authenticators.all().some((a) => a.username === username)) {
        throw invalidField("enrollment.updb", `username '${username}' is already in use`, username);
      }
      requests.push({ method: "updb", username });
    }
    if (requests.filter((r) => r.method !== "updb").length > 1) {
      throw invalidField("enrollment", "only one of ott and ottca may be given", null);
    }
    return requests;
  }

  render(identity: IdentityRecord): Record<string, unknown> {
    const policy = this.state.authPolicies.find(identity.authPolicyId);
    const authenticators: Record<string, unknown> = {};
    for (const a of this.state.authenticatorsOf(identity.id)) {
      if (a.method === "updb" && !authenticators.updb) {
        authenticators.updb = { id: a.id, username: a.username };
      }
      if (a.method === "cert" && !authenticators.cert) {
        authenticators.cert = { id: a.id, fingerprint: a.fingerprint };
      }
    }
    const enrollment: Record<string, unknown> = {};
    for (const e of this.state.enrollmentsOf(identity.id)) {
      const base = { id: e.id, token: e.token, jwt: e.jwt, expiresAt: e.expiresAt };
      if (e.method === "ottca" && e.caId) {
        const ca = this.state.cas.find(e.caId);
        enrollment.ottca = { ...base, caId: e.caId, ca: entityRef("cas", e.caId, ca?.name ?? "") };
      } else {
        enrollment[e.method] = base;
      }
    }
    const hasApiSession = [...this.state.sessions.values()].some((s) => s.identityId === identity.id);
    return {
      ...recordHead("identities", identity, {
        "auth-policies": { href: `./auth-policies/${identity.authPolicyId}` },
        authenticators: { href: `./identities/${identity.id}/authenticators` },
        enrollments: { href: `./identities/${identity.id}/enrollments` },
      }),
      name: identity.name,
      type: entityRef("identity-types", identity.typeId, identity.typeId),
      typeId: identity.typeId,
      isAdmin: identity.isAdmin,
      isDefaultAdmin: identity.isDefaultAdmin,
      authPolicyId: identity.authPolicyId,
      authPolicy: entityRef("auth-policies", identity.authPolicyId, policy?.name ?? ""),
      externalId: identity.externalId,
      defaultHostingCost: identity.defaultHostingCost,
      defaultHostingPrecedence: identity.defaultHostingPrecedence,
      serviceHostingCosts: identity.serviceHostingCosts,
      serviceHostingPrecedences: identity.serviceHostingPrecedences,
      roleAttributes: identity.roleAttributes,
      permissions: identity.permissions,
      appData: identity.appData ?? {},
      authenticators,
      enrollment,
      envInfo: {},
      sdkInfo: {},
      disabled: identity.disabled,
      disabledAt: null,
      disabledUntil: null,
      hasApiSession,
      hasEdgeRouterConnection: false,
      edgeRouterConnectionStatus: "offline",
      isMfaEnabled: identity.mfaSecret !== undefined,
    };
  }
}
