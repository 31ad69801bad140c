// AuthProvider: how a frontdoor authenticates inbound requests. `type` selects the schema of `data`.
import { z } from "zod";
import { type Props, type ResourceContext, type ResourceDefinition, sameValue } from "../resource";
import { frontdoorId, frontdoorName } from "./common";
import { FrontdoorCollection, type ServerObject } from "./frontdoorCollection";
import { collectionOperations, completeCreate } from "./operations";

export const OidcData = z
  .strictObject({
    issuer: z.url({ protocol: /^https?$/ }).describe("OpenID Connect issuer URL."),
    client_id: z.string().min(1).describe("OAuth2 client id registered at the issuer."),
    client_secret: z
      .string()
      .min(1)
      .meta({ secret: true })
      .describe("OAuth2 client secret (stored as a secret)."),
    scopes: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Scopes to request. Unset: ["openid"] when the provider creates the object, and not compared ' +
          "afterwards, so an object made elsewhere without scopes imports as it is.",
      ),
    supports_pkce: z.boolean().default(false).describe("Whether the issuer supports PKCE (default false)."),
  })
  .meta({ id: "OidcData", description: "Settings of an OIDC auth provider." });

export const ApiKeyData = z
  .strictObject({
    header_name: z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "must be an HTTP header name, e.g. x-api-key")
      .describe("Request header that carries the key, e.g. `x-api-key`."),
    api_key: z
      .string()
      .min(16)
      .meta({ secret: true })
      .describe("The key (at least 16 characters; a secret)."),
  })
  .meta({ id: "ApiKeyData", description: "Settings of an API_KEY auth provider." });

const common = {
  frontdoorId,
  name: frontdoorName("Name of the auth provider; unique within the frontdoor."),
  enabled: z.boolean().default(true).describe("Whether the provider is enabled (default true)."),
};

export const AuthProviderInputs = z.discriminatedUnion("type", [
  z.strictObject({ ...common, type: z.literal("OIDC").describe("Provider type."), data: OidcData }),
  z.strictObject({ ...common, type: z.literal("API_KEY").describe("Provider type."), data: ApiKeyData }),
]);
export type AuthProviderInputs = z.output<typeof AuthProviderInputs>;

const collection = new FrontdoorCollection("AuthProvider", "auth-providers");

function outputs(frontdoor: unknown, server: ServerObject): Props {
  return {
    frontdoorId: frontdoor,
    name: server.name,
    type: server.type,
    enabled: server.enabled,
    data: server.type === "OIDC" ? oidcAsStored(server.data as Props) : server.data,
  };
}

/**
 * An OIDC provider made elsewhere without scopes or PKCE flag has none and false. Stated in the state,
 * so an import snippet declares them explicitly instead of getting this provider's defaults.
 */
function oidcAsStored(data: Props): Props {
  return { ...data, scopes: data.scopes ?? [], supports_pkce: data.supports_pkce ?? false };
}

/** Scopes sent when the program leaves them unset: what the object has, else ["openid"]. */
const DEFAULT_SCOPES = ["openid"];

/** The data to send: OIDC scopes left unset keep the object's current ones (or get the default). */
function dataToSend(inputs: AuthProviderInputs, current?: Props): Props {
  if (inputs.type !== "OIDC" || inputs.data.scopes !== undefined) return inputs.data;
  const scopes = Array.isArray(current?.scopes) ? current.scopes : DEFAULT_SCOPES;
  return { ...inputs.data, scopes };
}

async function create(ctx: ResourceContext, inputs: AuthProviderInputs) {
  const { name, type, enabled } = inputs;
  const data = dataToSend(inputs);
  const created = await collection.create(ctx, inputs, { name, type, data });
  // The create request has no `enabled`; a provider declared disabled is switched off right after
  // (should that fail, the state says what the create made: enabled, and the next up switches it off).
  return completeCreate(
    collection.label(inputs),
    created.id,
    inputs,
    () => outputs(inputs.frontdoorId, created),
    async () => {
      if (created.enabled === enabled) return outputs(inputs.frontdoorId, created);
      return outputs(inputs.frontdoorId, await collection.patch(ctx, inputs, created.id, { enabled }));
    },
  );
}

async function update(ctx: ResourceContext, id: string, olds: Props, news: AuthProviderInputs) {
  const { name, type, enabled } = news;
  const data = dataToSend(news, type === olds.type ? (olds.data as Props) : undefined);
  const fullChange = type !== olds.type || !sameValue(data, olds.data);
  // Type or data: PUT the whole definition (data is replaced, never merged); otherwise PATCH the rest.
  let server = fullChange
    ? await collection.put(ctx, news, id, { name, type, data })
    : await collection.patch(ctx, news, id, { name });
  if (server.enabled !== enabled) server = await collection.patch(ctx, news, id, { enabled });
  return outputs(news.frontdoorId, server);
}

export const authProvider = {
  kind: "AuthProvider",
  api: "frontdoor" as const,
  description:
    "An auth provider of a frontdoor: how inbound requests are authenticated (OIDC or API key). " +
    "Updating it updates every custom frontend that uses it; deleting one that a custom frontend still uses fails.",
  inputs: AuthProviderInputs,
  outputs: z.object({
    secretValues: z
      .record(z.string(), z.string())
      .meta({ secret: true })
      .describe(
        "The secret leaves of `data` (`data.client_secret` or `data.api_key`), kept in a property of their " +
          "own so that a change of a non-secret field of `data` shows by name in diffs.",
      ),
  }),
  replaceOnChanges: ["frontdoorId"],
  serverDefaults: ["data.scopes"],
  secretOutputs: ["secretValues"],
  create,
  update,
  ...collectionOperations(collection, (server, state) => outputs(state.frontdoorId, server)),
} satisfies ResourceDefinition<AuthProviderInputs>;
