// AuthPolicy: which primary authentication methods identities may use and what they need second
// (TOTP, an external JWT signer). Defaults are the real controller's (those of its `default` policy),
// so leaving a field out is not drift. Updates use PUT: PATCH on real controllers resets the primary
// fields it does not carry (the mock reproduces that bug).
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import { ApiError, ProviderError } from "../http/errors";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { edgeName } from "./common";
import { EdgeCollection, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { setOf, tags } from "./roles";

const count = z.number().int().min(0);

export const AuthPolicyPrimary = z
  .strictObject({
    cert: z
      .strictObject({
        allowed: z.boolean().default(true).describe("Client certificates allowed (default true)."),
        allowExpiredCerts: z
          .boolean()
          .default(true)
          .describe("Expired certificates accepted (default true)."),
      })
      .prefault({}),
    extJwt: z
      .strictObject({
        allowed: z.boolean().default(true).describe("External JWTs allowed (default true)."),
        allowedSigners: setOf(
          z.string().min(1),
          "External JWT signer ids allowed (empty: any); a set, order does not matter.",
        ),
      })
      .prefault({}),
    updb: z
      .strictObject({
        allowed: z.boolean().default(true).describe("Username/password allowed (default true)."),
        minPasswordLength: count.default(5).describe("Minimum password length (default 5)."),
        requireMixedCase: z.boolean().default(false),
        requireNumberChar: z.boolean().default(false),
        requireSpecialChar: z.boolean().default(false),
        maxAttempts: count.default(0).describe("Failed attempts before lockout (0: unlimited)."),
        lockoutDurationMinutes: count.default(0).describe("Lockout duration (0: until unlocked)."),
      })
      .prefault({}),
  })
  .meta({ id: "AuthPolicyPrimary", description: "Allowed primary authentication methods." });

export const AuthPolicySecondary = z
  .strictObject({
    requireTotp: z.boolean().default(false).describe("Require TOTP MFA (default false)."),
    requireExtJwtSigner: z
      .string()
      .min(1)
      .optional()
      .describe("Id of an external JWT signer whose JWT is required as second factor."),
  })
  .meta({ id: "AuthPolicySecondary", description: "Secondary authentication requirements." });

export const AuthPolicyInputs = z.strictObject({
  name: edgeName("Name of the auth policy (unique)."),
  primary: AuthPolicyPrimary.prefault({}),
  secondary: AuthPolicySecondary.prefault({}),
  tags,
});
export type AuthPolicyInputs = z.output<typeof AuthPolicyInputs>;

const collection = new EdgeCollection("AuthPolicy", "auth-policies");

function body(inputs: AuthPolicyInputs): Props {
  return {
    name: inputs.name,
    primary: inputs.primary,
    // The swagger marks requireExtJwtSigner nullable and never omitted: null means none.
    secondary: {
      requireTotp: inputs.secondary.requireTotp,
      requireExtJwtSigner: inputs.secondary.requireExtJwtSigner ?? null,
    },
    tags: inputs.tags,
  };
}

function outputs(server: EdgeObject): Props {
  const primary = tagsOf(server.primary);
  const secondary = tagsOf(server.secondary);
  return {
    name: server.name,
    primary: {
      cert: tagsOf(primary.cert),
      extJwt: { ...tagsOf(primary.extJwt), allowedSigners: tagsOf(primary.extJwt).allowedSigners ?? [] },
      updb: tagsOf(primary.updb),
    },
    secondary: {
      requireTotp: secondary.requireTotp ?? false,
      ...(secondary.requireExtJwtSigner ? { requireExtJwtSigner: secondary.requireExtJwtSigner } : {}),
    },
    tags: tagsOf(server.tags),
  };
}

async function remove(ctx: ResourceContext, id: string, olds: Props) {
  try {
    await collection.delete(ctx, olds, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      throw new ProviderError(
        `${collection.label(olds)} (id ${id}) is still used by identities; give them another authPolicyId ` +
          `(or delete them) before deleting it. Controller said: ${err.serverMessage}`,
      );
    }
    throw err;
  }
}

export const authPolicy = {
  kind: "AuthPolicy",
  api: "edge" as const,
  description:
    "An OpenZiti auth policy: allowed primary authentication methods (cert, extJwt, updb) and secondary " +
    "requirements. Omitted fields take the controller's defaults. Deleting a policy that identities use fails.",
  inputs: AuthPolicyInputs,
  outputs: z.object({}),
  // A set: a real controller does not keep the order it was given.
  setProperties: ["primary.extJwt.allowedSigners"],
  ...putOperations(collection, body, outputs),
  ...collectionOperations(collection, (server) => outputs(server)),
  delete: remove,
} satisfies ResourceDefinition<AuthPolicyInputs>;
