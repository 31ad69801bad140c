// EdgeRouter: an OpenZiti edge router, created with a one-time enrollment (JWT, a secret output).
// The enrollment disappears once the router enrolled and lapses after its expiry: neither is drift
// (only inputs are compared). A new enrollment is issued without replacing the router, by
// POST /edge-routers/{id}/re-enroll, when `reEnrollmentTrigger` changes: never automatically,
// because re-enrolling revokes the certificate of a router that already enrolled.
import { z } from "zod";
import { ENROLLMENT_WARNING_MINUTES } from "../expiry";
import type { EdgeObject } from "../http/edge";
import { registerSecret } from "../redact";
import { type Props, type ResourceContext, type ResourceDefinition, sameValue } from "../resource";
import { edgeName, reEnrollmentTrigger } from "./common";
import { defined, EdgeCollection, listOf, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { roleAttributes, tags } from "./roles";

export const EdgeRouterInputs = z.strictObject({
  name: edgeName("Name of the edge router (unique)."),
  roleAttributes,
  isTunnelerEnabled: z
    .boolean()
    .default(false)
    .describe(
      "Whether the router also runs a tunneler (and gets an identity of type Router; default false).",
    ),
  cost: z.number().int().min(0).max(65535).default(0).describe("Routing cost 0..65535 (default 0)."),
  noTraversal: z
    .boolean()
    .default(false)
    .describe("Whether the router must not be used for transit traffic (default false)."),
  disabled: z.boolean().default(false).describe("Whether the router is disabled (default false)."),
  appData: tags.describe("Application data (values: string, boolean or null)."),
  tags,
  reEnrollmentTrigger: reEnrollmentTrigger(
    "re-enrolls the router (a new enrollment JWT, the old certificate revoked) without replacing it. " +
      "Use it when the enrollment expired before the router enrolled, or to re-key it.",
  ),
});
export type EdgeRouterInputs = z.output<typeof EdgeRouterInputs>;

export const EdgeRouterOutputs = z.object({
  enrollmentJwt: z
    .string()
    .nullable()
    .describe("Enrollment JWT for `ziti router enroll` (secret; null once the router enrolled)."),
  enrollmentToken: z.string().nullable().describe("Enrollment one-time token (secret; null once consumed)."),
  enrollmentCreatedAt: z.string().nullable().describe("When the current enrollment was issued (ISO 8601)."),
  enrollmentExpiresAt: z
    .string()
    .nullable()
    .describe("When the current enrollment expires (ISO 8601); an expired enrollment is not drift."),
  isVerified: z.boolean().describe("Whether the router has enrolled."),
  isOnline: z.boolean().describe("Whether the router is connected to the controller now."),
  fingerprint: z.string().nullable().describe("Fingerprint of the router's certificate, once enrolled."),
  syncStatus: z.string().describe("The controller's synchronisation status of the router."),
});

const collection = new EdgeCollection("EdgeRouter", "edge-routers");

/** The body of create and PUT: every declared field, so PUT resets what was removed. */
function body(inputs: EdgeRouterInputs): Props {
  const { name, roleAttributes, isTunnelerEnabled, cost, noTraversal, disabled, appData, tags } = inputs;
  return { name, roleAttributes, isTunnelerEnabled, cost, noTraversal, disabled, appData, tags };
}

function outputs(server: EdgeObject, state: Props): Props {
  // Masked in any message that might quote them (defence in depth: none is built with them).
  registerSecret(server.enrollmentJwt);
  registerSecret(server.enrollmentToken);
  return {
    name: server.name,
    roleAttributes: listOf(server.roleAttributes),
    isTunnelerEnabled: server.isTunnelerEnabled ?? false,
    cost: server.cost ?? 0,
    noTraversal: server.noTraversal ?? false,
    disabled: server.disabled ?? false,
    appData: tagsOf(server.appData),
    tags: tagsOf(server.tags),
    // Never returned by the API: what the program last asked for.
    reEnrollmentTrigger: state.reEnrollmentTrigger ?? null,
    enrollmentJwt: server.enrollmentJwt ?? null,
    enrollmentToken: server.enrollmentToken ?? null,
    enrollmentCreatedAt: server.enrollmentCreatedAt ?? null,
    enrollmentExpiresAt: server.enrollmentExpiresAt ?? null,
    isVerified: server.isVerified ?? false,
    isOnline: server.isOnline ?? false,
    fingerprint: server.fingerprint || null,
    syncStatus: server.syncStatus ?? "",
  };
}

async function create(ctx: ResourceContext, inputs: EdgeRouterInputs) {
  // A new router comes with its enrollment: the trigger only matters for later changes.
  return collection.createAndRead(ctx, inputs, body(inputs), outputs);
}

async function update(ctx: ResourceContext, id: string, olds: Props, news: EdgeRouterInputs) {
  await collection.put(ctx, news, id, defined(body(news)));
  if (!sameValue(olds.reEnrollmentTrigger, news.reEnrollmentTrigger)) {
    // No body; sending it again after a lost answer only issues yet another fresh enrollment.
    await ctx.edge().request({
      method: "POST",
      path: collection.path(id, "re-enroll"),
      resource: collection.label(news),
      idempotent: true,
    });
  }
  return outputs(await collection.require(ctx, news, id), news);
}

export const edgeRouter = {
  kind: "EdgeRouter",
  api: "edge" as const,
  description:
    "An OpenZiti edge router with its enrollment. `enrollmentJwt` and `enrollmentToken` are secrets; they become " +
    "null once the router enrolled, and an enrollment that expired is not drift. Changing `reEnrollmentTrigger` " +
    "issues a new enrollment without replacing the router.",
  inputs: EdgeRouterInputs,
  outputs: EdgeRouterOutputs,
  setProperties: ["roleAttributes"],
  secretOutputs: ["enrollmentJwt", "enrollmentToken"],
  expiry: {
    at: "enrollmentExpiresAt",
    what: "enrollment",
    warningMinutes: ENROLLMENT_WARNING_MINUTES,
    issuedAt: "enrollmentCreatedAt",
    renewal: "issue a new one in place with a new reEnrollmentTrigger",
  },
  create,
  update,
  ...collectionOperations(collection, outputs),
} satisfies ResourceDefinition<EdgeRouterInputs>;
