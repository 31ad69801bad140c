// CertificateRequestToken: a time-limited, single-use secret that lets its holder (e.g. a device in the
// field) create one client certificate without API credentials. The service deletes the token once it
// has been used, so a refresh after use reports the resource as deleted.
import { z } from "zod";
import { registerSecret } from "../redact";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { explainNameClash } from "./clientCertificate";
import { frontdoorId } from "./common";
import { FrontdoorCollection, type ServerObject } from "./frontdoorCollection";
import { collectionOperations } from "./operations";

const subjectField = (what: string) =>
  z.string().min(1).optional().describe(`${what} of the certificates made with the token (optional).`);

export const CertificateRequestTokenInputs = z.strictObject({
  frontdoorId,
  name: z
    .string()
    .min(1)
    .max(255)
    .describe(
      "Name of the token, which becomes the name of the certificate made with it; unique within the frontdoor " +
        "among tokens and client certificates.",
    ),
  commonName: subjectField("Common name (CN)"),
  organization: subjectField("Organization (O)"),
  organizationalUnit: subjectField("Organizational unit (OU)"),
});
export type CertificateRequestTokenInputs = z.output<typeof CertificateRequestTokenInputs>;

export const CertificateRequestTokenOutputs = z.object({
  token: z.string().describe("The token (a secret; never changes)."),
  expiresAt: z.string().describe("When the token stops being usable (ISO 8601)."),
  createdAt: z.string().describe("When the token was created (ISO 8601)."),
  createdBy: z.string().describe("Who created it."),
});

const SUBJECT_FIELDS = ["commonName", "organization", "organizationalUnit"] as const;
const collection = new FrontdoorCollection("CertificateRequestToken", "certificate-request-tokens");

function outputs(frontdoor: unknown, server: ServerObject): Props {
  registerSecret(server.token);
  return {
    frontdoorId: frontdoor,
    name: server.name,
    // The service answers null for an unset subject field; null is "unset" to the diff as well.
    commonName: server.commonName ?? null,
    organization: server.organization ?? null,
    organizationalUnit: server.organizationalUnit ?? null,
    token: server.token,
    expiresAt: server.expiresAt,
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
  return { id: server.id, outs: outputs(inputs.frontdoorId, server) };
}

async function update(ctx: ResourceContext, id: string, olds: Props, news: CertificateRequestTokenInputs) {
  const subjectChanged = SUBJECT_FIELDS.some((key) => (news[key] ?? null) !== (olds[key] ?? null));
  // Subject changes PUT the whole record (the token itself is never sent: it cannot change); a rename PATCHes.
  const work = subjectChanged
    ? collection.put(ctx, news, id, body(news))
    : collection.patch(ctx, news, id, { name: news.name });
  await explainNameClash(work, news.name);
  // The update answers are not documented: the record is read back.
  return outputs(news.frontdoorId, await collection.require(ctx, news, id));
}

export const certificateRequestToken = {
  kind: "CertificateRequestToken",
  api: "frontdoor" as const,
  description:
    "A certificate request token: a time-limited secret (`token`) with preset subject metadata that lets its " +
    "holder create one client certificate without API credentials (see `createCertificateWithToken`). " +
    "Single use: the service deletes the token once a certificate was made with it, so a later refresh " +
    "reports the resource as deleted (and `up` creates a new token).",
  inputs: CertificateRequestTokenInputs,
  outputs: CertificateRequestTokenOutputs,
  replaceOnChanges: ["frontdoorId"],
  secretOutputs: ["token"],
  create,
  update,
  ...collectionOperations(collection, (server, state) => outputs(state.frontdoorId, server)),
} satisfies ResourceDefinition<CertificateRequestTokenInputs>;
