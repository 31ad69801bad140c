// /edge-routers: CRUD, list and POST /{id}/re-enroll. A router is created with a one-time enrollment
// (token and an RS256 JWT with `em: "erott"`, valid 180 min); enrolling consumes it (the test helper
// `patch` plays the router), re-enroll issues a new one and forgets the router's certificate. Unset
// roleAttributes read back as null, unset cost/noTraversal/disabled as 0/false. Not modelled: the
// Router identity a real controller adds for a tunneler-enabled router.
import type { MockResponse } from "../../types";
import { collectionRoutes, recordHead } from "../crud";
import { created, empty } from "../envelope";
import { type Route, type RouteContext, route } from "../routes";
import type { EdgeRouterRecord, EdgeState } from "../state";
import { newId } from "../store";
import { asObject, type Body, bool, int, str, stringList, tags } from "../validate";

export const ROUTER_ENROLLMENT_TTL_MINUTES = 180;

type Mode = "create" | "put" | "patch";
type Fields = Partial<Omit<EdgeRouterRecord, "id" | "createdAt" | "updatedAt">>;

export class EdgeRouters {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    const reEnroll = route("POST", "/edge-routers/{id}/re-enroll", "full", (ctx) => this.reEnroll(ctx));
    return collectionRoutes(this.state.edgeRouters, this, render, reEnroll);
  }

  create(body: Body, ctx: RouteContext): MockResponse {
    const fields = readFields(body, "create");
    this.state.edgeRouters.assertUniqueName(fields.name as string);
    const id = newId();
    const router = this.state.edgeRouters.insert({
      ...defaults(),
      ...fields,
      id,
      name: fields.name as string,
      isVerified: false,
      isOnline: false,
      syncStatus: "SYNC_NEW",
      fingerprint: null,
      certPem: null,
      ...this.enrollment(id, ctx.issuer),
    } as Omit<EdgeRouterRecord, "createdAt" | "updatedAt">);
    return created("edge-routers", router.id);
  }

  update(ctx: RouteContext, mode: Mode): MockResponse {
    const router = this.state.edgeRouters.require(ctx.params.id);
    const fields = readFields(asObject(ctx.body), mode);
    if (fields.name !== undefined) this.state.edgeRouters.assertUniqueName(fields.name, router.id);
    // PUT: what was not sent goes back to its default; PATCH: only what was sent changes.
    this.state.edgeRouters.update(router.id, mode === "put" ? { ...defaults(), ...fields } : fields);
    return empty();
  }

  /** A new enrollment; the router's certificate is no longer valid (it must enroll again). */
  private reEnroll(ctx: RouteContext): MockResponse {
    const router = this.state.edgeRouters.require(ctx.params.id);
    this.state.edgeRouters.update(router.id, {
      ...this.enrollment(router.id, ctx.issuer),
      isVerified: false,
      isOnline: false,
      fingerprint: null,
      certPem: null,
    });
    return empty();
  }

  private enrollment(routerId: string, issuer: string): Fields {
    const token = this.state.newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ROUTER_ENROLLMENT_TTL_MINUTES * 60_000);
    const jwt = this.state.jwt.sign({
      iss: issuer,
      sub: routerId,
      exp: Math.floor(expiresAt.getTime() / 1000),
      jti: token,
      em: "erott",
    });
    return {
      enrollmentToken: token,
      enrollmentJwt: jwt,
      enrollmentCreatedAt: now.toISOString(),
      enrollmentExpiresAt: expiresAt.toISOString(),
    };
  }
}

function defaults(): Fields {
  return {
    roleAttributes: null,
    isTunnelerEnabled: false,
    cost: 0,
    noTraversal: false,
    disabled: false,
    appData: {},
    tags: {},
  };
}

/** The fields present in a body, checked (null means the field's default). */
function readFields(body: Body, mode: Mode): Fields {
  const out: Fields = {};
  const has = (field: string) => field in body;
  const name = str(body, "name", { required: mode !== "patch", nullable: mode === "patch" });
  if (name !== undefined) out.name = name;
  if (has("roleAttributes"))
    out.roleAttributes = stringList(body, "roleAttributes", { nullable: true }) ?? null;
  if (has("isTunnelerEnabled")) out.isTunnelerEnabled = bool(body, "isTunnelerEnabled") ?? false;
  if (has("cost")) out.cost = int(body, "cost", { nullable: true, min: 0, max: 65535 }) ?? 0;
  if (has("noTraversal")) out.noTraversal = bool(body, "noTraversal", { nullable: true }) ?? false;
  if (has("disabled")) out.disabled = bool(body, "disabled", { nullable: true }) ?? false;
  if (has("appData")) out.appData = tags(body, "appData") ?? {};
  if (has("tags")) out.tags = tags(body, "tags") ?? {};
  return out;
}

function render(router: EdgeRouterRecord): Record<string, unknown> {
  return {
    ...recordHead("edge-routers", router, {
      "edge-router-policies": { href: `./edge-routers/${router.id}/edge-router-policies` },
    }),
    name: router.name,
    appData: router.appData ?? {},
    cost: router.cost,
    disabled: router.disabled,
    noTraversal: router.noTraversal,
    hostname: "",
    isOnline: router.isOnline,
    supportedProtocols: {},
    syncStatus: router.syncStatus,
    roleAttributes: router.roleAttributes,
    isTunnelerEnabled: router.isTunnelerEnabled,
    isVerified: router.isVerified,
    // The swagger's fingerprint is not nullable: left out until the router enrolled.
    ...(router.fingerprint ? { fingerprint: router.fingerprint } : {}),
    certPem: router.certPem,
    unverifiedCertPem: null,
    unverifiedFingerprint: null,
    configs: [],
    ctrlChanListeners: {},
    interfaces: [],
    enrollmentToken: router.enrollmentToken,
    enrollmentJwt: router.enrollmentJwt,
    enrollmentCreatedAt: router.enrollmentCreatedAt,
    enrollmentExpiresAt: router.enrollmentExpiresAt,
  };
}
