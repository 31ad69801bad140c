// CertificateRequestToken: a time-limited secret that lets its holder (e.g. a device in the field) create
// client certificates without API credentials. The API description: usable until `expiresAt`; nothing about single
// use. Neither a used nor an expired token is drift: expiry shows in `status` / `daysUntilExpiry`, and
// `rotateWhenExpired` opts into a new token on the next up. A service that does delete used tokens is
// coped with too: a token gone while a certificate of its name exists is kept as CONSUMED, not deleted.
import { z } from "zod";
import { registerSecret } from "../redact";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { explainNameClash } from "./clientCertificate";
import { created, daysUntil, daysUntilExpiry, frontdoorId, frontdoorName } from "./common";
import { FrontdoorCollection, type ServerObject } from "./frontdoorCollection";
import { collectionOperations } from "./operations";

const subjectField = (what: string) =>
  z.string().min(1).optional().describe(`${what} of the certificates made with the token (optional).`);

export const CertificateRequestTokenInputs = z.strictObject({
  frontdoorId,
  name: frontdoorName(
    "Name of the token, which becomes the name of the certificate made with it; unique within the frontdoor " +
      "among tokens and client certificates.",
  ),
  commonName: subjectField("Common name (CN)"),
  organization: subjectField("Organization (O)"),
  organizationalUnit: subjectField("Organizational unit (OU)"),
  rotateWhenExpired: z
    .boolean()
    .optional()
    .describe(
      "Replace the token with a new one (new `token`, same name) on the next `up` once it has expired " +
        "(`preview` shows the replacement). Off by default: an expired token then stays, shown by `status`. " +
        "Either way a refresh does not report expiry as drift.",
    ),
});
export type CertificateRequestTokenInputs = z.output<typeof CertificateRequestTokenInputs>;

export const CertificateRequestTokenOutputs = z.object({
  token: z.string().describe("The token (a secret; never changes)."),
  expiresAt: z.string().describe("When the token stops being usable (ISO 8601)."),
  status: z
    .enum(["VALID", "EXPIRED", "CONSUMED"])
    .describe(
      "`VALID` until `expiresAt`, then `EXPIRED` (as of the last create, update or refresh); `CONSUMED` when " +
        "the service deleted the token after a certificate was made with it. Never drift.",
    ),
  daysUntilExpiry: daysUntilExpiry("the token"),
  ...created("the token"),
});

const SUBJECT_FIELDS = ["commonName", "organization", "organizationalUnit"] as const;
const collection = new FrontdoorCollection("CertificateRequestToken", "certificate-request-tokens");

/** `state` carries what the API does not hold (rotateWhenExpired): the program's inputs or the last state. */
function outputs(state: Props, server: ServerObject): Props {
  registerSecret(server.token);
  return {
    frontdoorId: state.frontdoorId,
    name: server.name,
    // The service answers null for an unset subject field; null is "unset" to the diff as well.
    commonName: server.commonName ?? null,
    organization: server.organization ?? null,
    organizationalUnit: server.organizationalUnit ?? null,
    rotateWhenExpired: state.rotateWhenExpired ?? null,
    token: server.token,
    expiresAt: server.expiresAt,
    status: Date.parse(String(server.expiresAt)) <= Date.now() ? "EXPIRED" : "VALID",
    daysUntilExpiry: daysUntil(server.expiresAt),
    createdAt: server.createdAt,
    createdBy: server.createdBy,
  };
}

/** The request body: every field, unset ones as null (a PUT replaces them all). */
function body(inputs: CertificateRequestTokenInputs): Props {
  const fields: Props = { name: inputs.name };
  for (const key of SUBJECT_FIELDS) fields[key] = inputs[key] ?? null;
  return fields;
}

async function create(ctx: ResourceContext, inputs: CertificateRequestTokenInputs) {
  const server = await explainNameClash(collection.create(ctx, inputs, body(inputs)), inputs.name);
  return { id: server.id, outs: outputs(inputs, server) };
}

async function update(ctx: ResourceContext, id: string, olds: Props, news: CertificateRequestTokenInputs) {
  const subjectChanged = SUBJECT_FIELDS.some((key) => (news[key] ?? null) !== (olds[key] ?? null));
  // Subject changes PUT the whole record (the token itself is never sent: it cannot change); a rename
  // PATCHes; a change of rotateWhenExpired alone is the provider's own business.
  if (subjectChanged) await explainNameClash(collection.put(ctx, news, id, body(news)), news.name);
  else if (news.name !== olds.name)
    await explainNameClash(collection.patch(ctx, news, id, { name: news.name }), news.name);
  // The update answers are not documented: the record is read back.
  return outputs(news, await collection.require(ctx, news, id));
}

const certificates = new FrontdoorCollection("ClientCertificate", "client-certificates");

/**
 * Refresh. A token that is gone may have been consumed by a service that deletes used tokens (the API description
 * does not say single use, DESIGN notes claim it): if a client certificate of the token's name made
 * since the token exists, the token is kept as CONSUMED, so a drift job stays green. Otherwise it was
 * deleted (drift).
 */
async function read(ctx: ResourceContext, id: string, state: Props) {
  const server = await collection.get(ctx, state, id);
  if (server) return outputs(state, server);
  if (typeof state.token !== "string" || typeof state.name !== "string") return undefined;
  const made = await certificates.findByName(ctx, state);
  if (!made || String(made.createdAt) < String(state.createdAt)) return undefined;
  return { ...state, status: "CONSUMED", daysUntilExpiry: daysUntil(state.expiresAt) };
}

/** With rotateWhenExpired: replace when the token had expired by the time this run's check ran. */
function replacementsDue(olds: Props, news: Props): string[] {
  if (news.rotateWhenExpired !== true || typeof news.rotationCheckedAt !== "string") return [];
  const expiresAt = Date.parse(String(olds.expiresAt));
  return expiresAt <= Date.parse(news.rotationCheckedAt) ? ["expiresAt"] : [];
}

export const certificateRequestToken = {
  kind: "CertificateRequestToken",
  api: "frontdoor" as const,
  description:
    "A certificate request token: a time-limited secret (`token`) with preset subject metadata that lets its " +
    "holder create client certificates without API credentials (see `createCertificateWithToken`). It is " +
    "usable until `expiresAt`; the API documents no single use. Neither use nor expiry is drift: `status` " +
    "and `daysUntilExpiry` show expiry, `rotateWhenExpired` replaces an expired token on the next `up`. " +
    "Should the service delete a used token, a refresh keeps it as `CONSUMED` when a client certificate " +
    "of its name exists.",
  inputs: CertificateRequestTokenInputs,
  outputs: CertificateRequestTokenOutputs,
  expiry: { at: "expiresAt", what: "token", warningDays: 1 },
  replaceOnChanges: ["frontdoorId"],
  // A rotated token keeps its name, which must be free first (names are unique per frontdoor).
  deleteBeforeReplace: true,
  secretOutputs: ["token"],
  // The time of the check is kept with the inputs: a refresh runs no check, so it never rotates.
  checkStamp: (inputs, now) =>
    inputs.rotateWhenExpired ? { rotationCheckedAt: new Date(now).toISOString() } : {},
  replacementsDue,
  create,
  update,
  ...collectionOperations(collection, (server, state) => outputs(state, server)),
  read,
} satisfies ResourceDefinition<CertificateRequestTokenInputs>;
