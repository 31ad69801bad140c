// Certificate request token calls. Creating a certificate with a token is what its holder (e.g. a device
// in the field) can do WITHOUT API credentials: the token is the credential. Looking a token up
// (by-token) is an authenticated call in the seed, so validation sends the configured API credentials.
// The token travels in the URL path, so it is registered as a secret before any request: error
// messages and debug lines show `[secret]` instead.
import { z } from "zod";
import type { RawSettings } from "../config";
import { required } from "../config";
import { noAuth } from "../http/client";
import { ApiError, ProviderError } from "../http/errors";
import { FrontdoorClient } from "../http/frontdoor";
import { registerSecret } from "../redact";
import { caBundleArg, parseArgs } from "./args";
import type { FunctionDefinition } from "./index";

const connection = {
  apiUrl: z
    .string()
    .min(1)
    .optional()
    .describe("Base URL of the Frontdoor API (default: config frontdoor:apiUrl, env FRONTDOOR_API_URL)."),
  caBundle: caBundleArg("(default: config frontdoor:caBundle)."),
  frontdoorId: z
    .string()
    .min(1)
    .optional()
    .describe("The frontdoor of the token (default: config frontdoor:frontdoorId, env FRONTDOOR_ID)."),
  token: z.string().min(1).meta({ secret: true }).describe("The certificate request token (a secret)."),
};

export const CreateCertificateWithTokenArgs = z
  .strictObject({
    ...connection,
    csrPem: z
      .string()
      .min(1)
      .optional()
      .describe("A PEM certificate request: the frontdoor's CA signs it with the token's subject and name."),
    name: z
      .string()
      .min(1)
      .optional()
      .describe("Name of the uploaded certificate (with certificatePem only)."),
    certificatePem: z.string().min(1).optional().describe("A PEM certificate to upload under `name`."),
  })
  .superRefine((args, ctx) => {
    if ((args.csrPem === undefined) === (args.certificatePem === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["csrPem"],
        message: "give exactly one of csrPem and certificatePem",
      });
    } else if (args.certificatePem !== undefined && args.name === undefined) {
      ctx.addIssue({ code: "custom", path: ["name"], message: "required with certificatePem" });
    } else if (args.csrPem !== undefined && args.name !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["name"],
        message: "not allowed with csrPem (the token's name is used)",
      });
    }
  });
export type CreateCertificateWithTokenArgs = z.input<typeof CreateCertificateWithTokenArgs>;

export const CreateCertificateWithTokenResult = z.object({
  id: z.string().describe("Id of the new client certificate."),
  name: z.string().describe("Its name (the token's name, for a CSR)."),
  frontdoorId: z.string(),
  createdAt: z.string().describe("When it was created (ISO 8601)."),
  createdBy: z.string().describe("Who created it (the token's creator)."),
});
export type CreateCertificateWithTokenResult = z.output<typeof CreateCertificateWithTokenResult>;

export const ValidateCertificateRequestTokenArgs = z.strictObject(connection);
export type ValidateCertificateRequestTokenArgs = z.input<typeof ValidateCertificateRequestTokenArgs>;

export const ValidateCertificateRequestTokenResult = z.object({
  id: z.string().describe("Id of the token record."),
  name: z.string().describe("The token's name (the name of the certificate made with it)."),
  frontdoorId: z.string(),
  commonName: z.string().nullable().describe("Preset common name, or null."),
  organization: z.string().nullable().describe("Preset organization, or null."),
  organizationalUnit: z.string().nullable().describe("Preset organizational unit, or null."),
  expiresAt: z.string().describe("When the token expires (ISO 8601)."),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type ValidateCertificateRequestTokenResult = z.output<typeof ValidateCertificateRequestTokenResult>;

/** POST `/frontdoor/{fd}/client-certificates/token/{token}` without an Authorization header. */
export async function createCertificateWithToken(
  input: CreateCertificateWithTokenArgs,
  settings: RawSettings = {},
): Promise<CreateCertificateWithTokenResult> {
  const args = parseArgs("createCertificateWithToken", CreateCertificateWithTokenArgs, input);
  const body = args.csrPem
    ? { type: "CSR", value: args.csrPem }
    : { name: args.name, type: "CERTIFICATE", value: args.certificatePem };
  const created = await tokenCall(
    "createCertificateWithToken",
    args,
    settings,
    "anonymous",
    (client, frontdoorId) =>
      client.call<Record<string, unknown>>({
        method: "POST",
        path: FrontdoorClient.path(frontdoorId, "client-certificates", "token", args.token),
        body,
        anonymous: true,
        resource: "certificate request token",
      }),
  );
  return pick(CreateCertificateWithTokenResult, created);
}

/** GET `/frontdoor/{fd}/certificate-request-tokens/by-token/{token}` with the API credentials. */
export async function validateCertificateRequestToken(
  input: ValidateCertificateRequestTokenArgs,
  settings: RawSettings = {},
): Promise<ValidateCertificateRequestTokenResult> {
  const args = parseArgs("validateCertificateRequestToken", ValidateCertificateRequestTokenArgs, input);
  const record = await tokenCall(
    "validateCertificateRequestToken",
    args,
    settings,
    "credentials",
    (client, frontdoorId) =>
      client.call<Record<string, unknown>>({
        method: "GET",
        path: FrontdoorClient.path(frontdoorId, "certificate-request-tokens", "by-token", args.token),
        resource: "certificate request token",
      }),
  );
  return pick(ValidateCertificateRequestTokenResult, record);
}

type ConnectionArgs = { apiUrl?: string; caBundle?: string; frontdoorId?: string; token: string };

/**
 * Runs one call with a client of its own (anonymous, or with the configured API credentials), and
 * turns the token's refusals into clear errors. The seed says nothing of single use: a token may be
 * refused after use by a service that consumes tokens, so the messages allow for it.
 */
async function tokenCall<T>(
  fn: string,
  args: ConnectionArgs,
  settings: RawSettings,
  auth: "anonymous" | "credentials",
  work: (client: FrontdoorClient, frontdoorId: string) => Promise<T>,
): Promise<T> {
  registerSecret(args.token);
  const merged: RawSettings = {
    ...settings,
    apiUrl: args.apiUrl ?? settings.apiUrl,
    caBundle: args.caBundle ?? settings.caBundle,
    frontdoorId: args.frontdoorId ?? settings.frontdoorId,
  };
  const frontdoorId = required(merged, "frontdoorId", fn);
  const client = new FrontdoorClient(merged, auth === "anonymous" ? noAuth : undefined);
  try {
    return await work(client, frontdoorId);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) {
      throw new ProviderError(
        `${fn}: ${refusal(err.status, auth)} (HTTP ${err.status}: ${err.serverMessage})`,
      );
    }
    throw err;
  } finally {
    await client.http.close();
  }
}

function refusal(status: number, auth: "anonymous" | "credentials"): string {
  if (status === 404)
    return "certificate request token not found (unknown, deleted, or consumed by a service that deletes used tokens)";
  return auth === "anonymous"
    ? "certificate request token refused: expired, unknown, or consumed by a service that deletes used tokens"
    : "refused: the certificate request token expired, or the API credentials were not accepted";
}

/** The documented fields of an answer (extra fields the server may add are dropped; missing ones are null). */
function pick<S extends z.ZodObject>(schema: S, body: Record<string, unknown> | undefined): z.output<S> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) out[key] = body?.[key] ?? null;
  return out as z.output<S>;
}

export const certificateFunctions: FunctionDefinition[] = [
  {
    name: "createCertificateWithToken",
    description:
      "Creates a client certificate with a certificate request token, without API credentials: from a CSR " +
      "(signed with the token's subject, named after the token) or by uploading a certificate under a name. " +
      "A token is usable until `expiresAt` (the API documents no single use). Fails clearly when the token " +
      "is refused (expired or unknown).",
    inputs: CreateCertificateWithTokenArgs,
    outputs: CreateCertificateWithTokenResult,
    run: (args, settings) => createCertificateWithToken(args as CreateCertificateWithTokenArgs, settings),
  },
  {
    name: "validateCertificateRequestToken",
    description:
      "Checks a certificate request token and returns its record (name, preset subject, expiry). The lookup is " +
      "an authenticated call: it uses the provider's API credentials (frontdoor:token, ...). Fails when the " +
      "token is unknown or expired.",
    inputs: ValidateCertificateRequestTokenArgs,
    outputs: ValidateCertificateRequestTokenResult,
    run: (args, settings) =>
      validateCertificateRequestToken(args as ValidateCertificateRequestTokenArgs, settings),
  },
];
