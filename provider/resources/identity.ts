// Identity: a user, device or service of the OpenZiti network, with its enrollment. Quirks handled:
// the controller stores types User/Device/Service as `Default` (the declared type is kept then, so
// it is not a change); unset roleAttributes come back null; an enrollment disappears once consumed
// (the `enrollment` input is what was asked for at creation, so consuming it is not drift).
// Enrollments are re-issued without replacing the identity: opt-in when the pending one expired
// (`reissueExpiredEnrollment`, decided at `up`, never at refresh), or on demand (`reEnrollmentTrigger`).
import { z } from "zod";
import { ENROLLMENT_WARNING_MINUTES } from "../expiry";
import type { EdgeObject } from "../http/edge";
import { warn } from "../log";
import { registerSecret } from "../redact";
import { type Props, type ResourceContext, type ResourceDefinition, sameValue } from "../resource";
import { daysUntil, daysUntilExpiry, edgeName, objectId, reEnrollmentTrigger } from "./common";
import { defined, EdgeCollection, listOf, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { roleAttributes, setOf, tags } from "./roles";

export const IDENTITY_TYPES = ["User", "Device", "Service", "Router", "Default"] as const;
/** Types a controller stores as `Default`. */
const STORED_AS_DEFAULT = ["User", "Device", "Service"];
const PRECEDENCES = ["default", "required", "failed"] as const;

const PERMISSION_FAMILIES = [
  "auth-policy",
  "ca",
  "config",
  "config-type",
  "edge-router-policy",
  "enrollment",
  "external-jwt-signer",
  "identity",
  "posture-check",
  "router",
  "service",
  "service-edge-router-policy",
  "service-policy",
  "terminator",
] as const;
const ACTIONS = ["read", "create", "update", "delete"] as const;
type Family = (typeof PERMISSION_FAMILIES)[number];
/** A permission name, typed (so the SDK's generated types and zod's agree on the literals). */
type Permission =
  | "admin_readonly"
  | Family
  | `${Family}.${(typeof ACTIONS)[number]}`
  | "ops"
  | `ops.${"read" | "update" | "delete"}`;
/** The permission enum of the controller's swagger, built from its families. */
export const PERMISSIONS = [
  "admin_readonly",
  ...PERMISSION_FAMILIES.flatMap((f) => [f, ...ACTIONS.map((a) => `${f}.${a}` as const)]),
  "ops",
  "ops.read",
  "ops.update",
  "ops.delete",
] as [Permission, ...Permission[]];

const cost = z.number().int().min(0).max(65535);

export const Enrollment = z
  .union([
    z.strictObject({
      ott: z
        .literal(true)
        .describe("One-time token enrollment (client certificate issued by the controller)."),
    }),
    z.strictObject({
      ottca: objectId.describe("One-time token enrollment with a certificate of this (verified) CA id."),
    }),
    z.strictObject({
      updb: z.string().min(4).max(100).describe("Username/password enrollment with this username."),
    }),
  ])
  .meta({
    id: "IdentityEnrollment",
    description: "How the identity enrolls: exactly one of ott, ottca, updb.",
  });

export const IdentityInputs = z.strictObject({
  name: edgeName("Name of the identity (unique)."),
  type: z
    .enum(IDENTITY_TYPES)
    .default("User")
    .describe(
      "Identity type (default User). Controllers store User/Device/Service as Default; that is not a change.",
    ),
  isAdmin: z.boolean().default(false).describe("Whether the identity is an administrator (default false)."),
  authPolicyId: objectId.default("default").describe('Auth policy id (default "default").'),
  externalId: z
    .string()
    .min(1)
    .optional()
    .describe("External id (e.g. matched against JWT claims or certificate names)."),
  roleAttributes,
  defaultHostingCost: cost.default(0).describe("Default hosting cost 0..65535 (default 0)."),
  defaultHostingPrecedence: z
    .enum(PRECEDENCES)
    .default("default")
    .describe('Default hosting precedence: default, required or failed (default "default").'),
  serviceHostingCosts: z.record(objectId, cost).default({}).describe("Hosting cost per service id."),
  serviceHostingPrecedences: z
    .record(objectId, z.enum(PRECEDENCES))
    .default({})
    .describe("Hosting precedence per service id."),
  appData: tags.describe("Application data (values: string, boolean or null)."),
  tags,
  permissions: setOf(z.enum(PERMISSIONS), "Fine-grained admin permissions (a set)."),
  enrollment: Enrollment.optional().describe(
    "Enrollment to create with the identity. A change replaces the identity; the enrollment being consumed is not a change.",
  ),
  reissueExpiredEnrollment: z
    .boolean()
    .optional()
    .describe(
      "Re-issue the pending enrollment (new JWT and expiry, same identity) on the next `up` once it has " +
        "expired (`preview` shows the update). Off by default: an expired enrollment then stays, shown by " +
        "`enrollmentDaysUntilExpiry`. Either way a refresh never reports expiry as drift, and an identity that " +
        "has enrolled is left alone.",
    ),
  reEnrollmentTrigger: reEnrollmentTrigger(
    "issues a new enrollment of the declared method without replacing the identity: a pending enrollment " +
      "is re-issued (new JWT and expiry); for an identity that already enrolled, its authenticator is reset " +
      "to a new enrollment (its certificate or password stops working).",
  ),
  enrollmentMinutes: z
    .number()
    .int()
    .min(1)
    .max(525600)
    .optional()
    .describe(
      "Lifetime in minutes of the enrollments the provider re-issues (default 180, the controller's default " +
        "for new ones).",
    ),
});
export type IdentityInputs = z.output<typeof IdentityInputs>;

const Authenticators = z.object({
  cert: z.object({ id: z.string(), fingerprint: z.string() }).optional(),
  updb: z.object({ id: z.string(), username: z.string() }).optional(),
});

export const IdentityOutputs = z.object({
  enrollmentId: z.string().nullable().describe("Id of the pending enrollment, null once consumed."),
  enrollmentJwt: z
    .string()
    .nullable()
    .describe("Enrollment JWT to give to the enrolling client (secret; null once consumed)."),
  enrollmentToken: z.string().nullable().describe("Enrollment one-time token (secret; null once consumed)."),
  enrollmentExpiresAt: z
    .string()
    .nullable()
    .describe("When the enrollment expires (ISO 8601), null once consumed."),
  enrollmentDaysUntilExpiry: daysUntilExpiry("the pending enrollment").describe(
    "Whole days until the pending enrollment expires, as of the last create, update or refresh (negative " +
      "once expired; null without a pending enrollment). Never drift; programs warn near expiry.",
  ),
  authenticators: Authenticators.describe("The identity's authenticators (cert fingerprint, updb username)."),
  isDefaultAdmin: z.boolean().describe("Whether this is the controller's default admin."),
  hasApiSession: z.boolean().describe("Whether the identity has an API session now."),
  hasEdgeRouterConnection: z.boolean().describe("Whether the identity is connected to an edge router."),
  isMfaEnabled: z.boolean().describe("Whether the identity has enrolled in MFA."),
  disabled: z.boolean().describe("Whether the identity is disabled."),
  authPolicyName: z.string().nullable().describe("Name of the identity's auth policy."),
});

const collection = new EdgeCollection("Identity", "identities");

/** The body shared by create and PUT: every declared field, so PUT resets what was removed. */
function body(inputs: IdentityInputs): Props {
  return defined({
    name: inputs.name,
    type: inputs.type,
    isAdmin: inputs.isAdmin,
    authPolicyId: inputs.authPolicyId,
    externalId: inputs.externalId ?? null,
    roleAttributes: inputs.roleAttributes,
    defaultHostingCost: inputs.defaultHostingCost,
    defaultHostingPrecedence: inputs.defaultHostingPrecedence,
    serviceHostingCosts: inputs.serviceHostingCosts,
    serviceHostingPrecedences: inputs.serviceHostingPrecedences,
    appData: inputs.appData,
    tags: inputs.tags,
    permissions: inputs.permissions,
  });
}

/** The first pending enrollment of the identity (there is at most one per method). */
function pendingEnrollment(server: EdgeObject): Props | undefined {
  const enrollment = tagsOf(server.enrollment);
  for (const method of ["ott", "ottca", "updb"]) {
    const e = enrollment[method];
    if (e && typeof e === "object") return e as Props;
  }
  return undefined;
}

/** The state: the server's values in the input's form, plus computed outputs. */
function outputs(server: EdgeObject, state: Props): Props {
  const serverType = String(server.typeId ?? (server.type as Props | undefined)?.id ?? "Default");
  const declaredType = typeof state.type === "string" ? state.type : undefined;
  const type =
    serverType === "Default" && declaredType && STORED_AS_DEFAULT.includes(declaredType)
      ? declaredType
      : serverType;
  const pending = pendingEnrollment(server);
  // Masked in any message that might quote them (defence in depth: none is built with them).
  registerSecret(pending?.jwt);
  registerSecret(pending?.token);
  const authenticators = tagsOf(server.authenticators);
  const policy = tagsOf(server.authPolicy);
  return {
    name: server.name,
    type,
    isAdmin: server.isAdmin ?? false,
    authPolicyId: server.authPolicyId ?? "default",
    externalId: server.externalId ?? null,
    roleAttributes: listOf(server.roleAttributes),
    defaultHostingCost: server.defaultHostingCost ?? 0,
    defaultHostingPrecedence: server.defaultHostingPrecedence ?? "default",
    serviceHostingCosts: tagsOf(server.serviceHostingCosts),
    serviceHostingPrecedences: tagsOf(server.serviceHostingPrecedences),
    appData: tagsOf(server.appData),
    tags: tagsOf(server.tags),
    // Controllers older than the swagger's permissions (v1.6 among them) neither store nor return
    // them: keep what is known instead of reporting a change nobody made (docs/guides/controller-fidelity.md#values-accepted-but-not-kept).
    permissions: "permissions" in server ? listOf(server.permissions) : listOf(state.permissions),
    // Never returned in this form: what the program asked for at creation.
    enrollment: state.enrollment ?? null,
    // The provider's own settings (the API holds none of them).
    reissueExpiredEnrollment: state.reissueExpiredEnrollment ?? null,
    reEnrollmentTrigger: state.reEnrollmentTrigger ?? null,
    enrollmentMinutes: state.enrollmentMinutes ?? null,
    enrollmentId: (pending?.id as string | undefined) ?? null,
    enrollmentJwt: (pending?.jwt as string | undefined) ?? null,
    enrollmentToken: (pending?.token as string | undefined) ?? null,
    enrollmentExpiresAt: (pending?.expiresAt as string | undefined) ?? null,
    enrollmentDaysUntilExpiry: daysUntil(pending?.expiresAt),
    authenticators: {
      ...(authenticators.cert ? { cert: pick(authenticators.cert, ["id", "fingerprint"]) } : {}),
      ...(authenticators.updb ? { updb: pick(authenticators.updb, ["id", "username"]) } : {}),
    },
    isDefaultAdmin: server.isDefaultAdmin ?? false,
    hasApiSession: server.hasApiSession ?? false,
    hasEdgeRouterConnection: server.hasEdgeRouterConnection ?? false,
    isMfaEnabled: server.isMfaEnabled ?? false,
    disabled: server.disabled ?? false,
    authPolicyName: typeof policy.name === "string" ? policy.name : null,
  };
}

function pick(value: unknown, keys: string[]): Props {
  const source = tagsOf(value);
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

/**
 * Controllers that predate `permissions` (v1.5.0 and v1.6.0 among them) take them and keep nothing:
 * said at `up`, so nobody believes them applied (the state keeps the declared ones: no false drift).
 */
function outputsReporting(server: EdgeObject, state: Props): Props {
  const declared = listOf(state.permissions);
  if (declared.length > 0 && !("permissions" in server))
    warn(
      `${collection.label(state)}: this controller does not keep permissions (it predates them); ` +
        `${declared.join(", ")} not applied. Use isAdmin, or a controller release that has permissions.`,
    );
  return outputs(server, state);
}

async function create(ctx: ResourceContext, inputs: IdentityInputs) {
  const enrollment = defined({ enrollment: inputs.enrollment });
  return collection.createAndRead(ctx, inputs, { ...body(inputs), ...enrollment }, outputsReporting);
}

async function update(ctx: ResourceContext, id: string, olds: Props, news: IdentityInputs) {
  // PUT, not PATCH: the whole declared state, so a field removed from the program is reset.
  await collection.put(ctx, news, id, body(news));
  const triggered = !sameValue(olds.reEnrollmentTrigger, news.reEnrollmentTrigger);
  if (triggered || reissueDue(olds, news).length > 0) await reissueEnrollment(ctx, id, news, triggered);
  return outputsReporting(await collection.require(ctx, news, id), news);
}

/** The controller's default lifetime of a new enrollment. */
const DEFAULT_ENROLLMENT_MINUTES = 180;
/** The authenticator an enrollment of each method turns into. */
const AUTHENTICATOR_OF: Record<string, string> = { ott: "cert", ottca: "cert", updb: "updb" };

function declaredMethod(enrollment: IdentityInputs["enrollment"]): string | undefined {
  return enrollment ? Object.keys(enrollment)[0] : undefined;
}

/**
 * A new enrollment of the declared method. A pending one (expired or not) is deleted and issued anew
 * (`POST /enrollments/{id}/refresh` is not used: on a real controller, v1.6.0, it stores a new token
 * but signs the old one into the JWT, so neither JWT enrolls; see test/real-enrollment.test.ts). An
 * identity that already enrolled has its authenticator reset to an enrollment
 * (`POST /authenticators/{id}/re-enroll`), only when triggered. With neither, a new one is created.
 */
async function reissueEnrollment(
  ctx: ResourceContext,
  id: string,
  inputs: IdentityInputs,
  triggered: boolean,
) {
  const method = declaredMethod(inputs.enrollment);
  if (!method) return;
  const label = collection.label(inputs);
  const minutes = inputs.enrollmentMinutes ?? DEFAULT_ENROLLMENT_MINUTES;
  const expiresAt = new Date(Date.now() + minutes * 60_000).toISOString();
  const edge = ctx.edge();
  const enrollments = await edge.list<EdgeObject>(collection.path(id, "enrollments"), undefined, label);
  const pending = enrollments.find((e) => e.method === method);
  if (pending) {
    await edge.delete(`/enrollments/${encodeURIComponent(pending.id)}`, `${label}: enrollment`);
  } else {
    const kind = AUTHENTICATOR_OF[method];
    const authenticators = await edge.list<EdgeObject>(
      collection.path(id, "authenticators"),
      undefined,
      label,
    );
    const authenticator = authenticators.find((a) => a.method === kind);
    // Enrolled: only a trigger resets it (its certificate or password stops working).
    if (authenticator && !triggered) return;
    if (authenticator) {
      await edge.request({
        method: "POST",
        path: `/authenticators/${encodeURIComponent(authenticator.id)}/re-enroll`,
        body: { expiresAt },
        resource: `${label}: ${kind} authenticator`,
      });
      return;
    }
  }
  const enrollment = inputs.enrollment as Record<string, unknown>;
  await edge.create(
    "/enrollments",
    defined({
      method,
      identityId: id,
      expiresAt,
      caId: method === "ottca" ? enrollment.ottca : undefined,
      username: method === "updb" ? enrollment.updb : undefined,
    }),
    `${label}: enrollment`,
  );
}

/**
 * With reissueExpiredEnrollment: an update when the pending enrollment had expired by the time this
 * run's check ran (a refresh runs no check, so it never re-issues, and expiry is never drift).
 */
function reissueDue(olds: Props, news: Props): string[] {
  if (news.reissueExpiredEnrollment !== true || typeof news.reissueCheckedAt !== "string") return [];
  if (typeof olds.enrollmentJwt !== "string" || typeof olds.enrollmentExpiresAt !== "string") return [];
  return Date.parse(olds.enrollmentExpiresAt) <= Date.parse(news.reissueCheckedAt)
    ? ["reissueExpiredEnrollment"]
    : [];
}

export const identity = {
  kind: "Identity",
  api: "edge" as const,
  description:
    "An OpenZiti identity (user, device or service) with an optional enrollment (ott, ottca or updb). " +
    "`enrollmentJwt` and `enrollmentToken` are secrets; they become null once the identity enrolled, which is not drift. " +
    "An enrollment is re-issued without replacing the identity: once expired with `reissueExpiredEnrollment`, " +
    "or whenever `reEnrollmentTrigger` changes. `enrollIdentity` turns the JWT into a usable identity.",
  inputs: IdentityInputs,
  outputs: IdentityOutputs,
  expiry: {
    at: "enrollmentExpiresAt",
    what: "enrollment",
    warningMinutes: ENROLLMENT_WARNING_MINUTES,
    renewal: "re-issue it in place with reissueExpiredEnrollment: true or a new reEnrollmentTrigger",
  },
  replaceOnChanges: ["enrollment"],
  // Names are unique: the new identity can only be created once the old one is gone.
  deleteBeforeReplace: true,
  setProperties: ["roleAttributes", "permissions"],
  secretOutputs: ["enrollmentJwt", "enrollmentToken"],
  validate: (inputs) =>
    !inputs.enrollment && (inputs.reissueExpiredEnrollment || inputs.reEnrollmentTrigger)
      ? [
          {
            property: inputs.reEnrollmentTrigger ? "reEnrollmentTrigger" : "reissueExpiredEnrollment",
            reason: "needs `enrollment` (the method of the enrollments to issue)",
          },
        ]
      : [],
  // The time of the check is kept with the inputs: a refresh runs no check, so it never re-issues.
  checkStamp: (inputs, now) =>
    inputs.reissueExpiredEnrollment ? { reissueCheckedAt: new Date(now).toISOString() } : {},
  updatesDue: reissueDue,
  create,
  update,
  ...collectionOperations(collection, outputs),
  async findExisting(ctx, inputs) {
    const server = await collection.findByName(ctx, inputs);
    if (!server) return undefined;
    const outs = outputs(server, inputs);
    // The API never returns the enrollment in its declared form, but whether one of the declared
    // method is pending shows: an identity without it (enrolled already, or made without one) is not
    // what is declared, and is not adopted.
    const method = inputs.enrollment && Object.keys(inputs.enrollment)[0];
    if (method && !tagsOf(server.enrollment)[method]) outs.enrollment = null;
    return { id: server.id, outs };
  },
} satisfies ResourceDefinition<IdentityInputs>;
