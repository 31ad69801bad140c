// Lookups of existing Edge objects: by id, by name, or every object matching a ZitiQL filter (all
// pages), for every Edge kind, with one mechanism. A lookup answers the state that the kind's own `read`
// gives (the resource module's server-to-state mapping, with no earlier state), plus the id: what a
// resource of that kind shows as its outputs. So a program can use the `default` auth policy, objects
// made in the console or by other stacks, exactly as it uses its own resources.
import { z } from "zod";
import type { RawSettings } from "../config";
import { EdgeClient, nameFilter } from "../http/edge";
import { ProviderError } from "../http/errors";
import { registerSecret } from "../redact";
import { type Props, type ResourceContext, type ResourceDefinition, toPlainData } from "../resource";
import { resourceDefinition } from "../resources";
import { objectId } from "../resources/common";
import { SECRET_VALUES } from "../secretValues";
import { secretPaths } from "../shape";
import { parseArgs } from "./args";
import type { FunctionDefinition } from "./index";

/** The Edge kinds with lookups (every Edge kind the provider manages). */
export const LOOKUP_KINDS = [
  "Identity",
  "AuthPolicy",
  "EdgeRouterPolicy",
  "Ca",
  "EdgeRouter",
  "ExternalJwtSigner",
  "PostureCheck",
  "Service",
  "ServicePolicy",
  "ServiceEdgeRouterPolicy",
  "Config",
  "ConfigType",
] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

export const LookupArgs = z
  .strictObject({
    id: objectId.optional().describe("Id of the object. Give this or name."),
    name: z.string().min(1).optional().describe("Name of the object (names are unique). Give this or id."),
  })
  .superRefine((args, ctx) => {
    if ((args.id === undefined) === (args.name === undefined))
      ctx.addIssue({ code: "custom", path: ["id"], message: "give exactly one of id and name" });
  });
export type LookupArgs = z.input<typeof LookupArgs>;

export const ListArgs = z.strictObject({
  filter: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A ZitiQL filter, e.g. `anyOf(roleAttributes) = "employees"` or `name contains "web"`; without one, ' +
        "every object. All pages are read.",
    ),
});
export type ListArgs = z.input<typeof ListArgs>;

/** `getIdentity`, `getAuthPolicy`, ... */
export const lookupName = (kind: string) => `get${kind}`;
/** `getIdentities`, `getAuthPolicies`, `getCas`, ... */
export const listName = (kind: string) => `get${kind.replace(/y$/, "ie")}s`;

/**
 * Keys of a lookup result that are or hold a secret: the kind's secret outputs and the top-level key of
 * each secret input (`data` for an auth provider's `data.client_secret`). A lookup answers the secret
 * leaves in place, so the resource's `secretValues` (its stored form of them) is not one of its keys.
 */
export function secretKeys(def: ResourceDefinition): string[] {
  const inputs = secretPaths(def.inputs).map((path) => path.split(".")[0]);
  return [...new Set([...(def.secretOutputs ?? []), ...inputs])].filter((key) => key !== SECRET_VALUES);
}

/** Keys secret as a whole (nested secret leaves are marked by the input schemas they come from). */
function wholeSecretKeys(def: ResourceDefinition): string[] {
  const inputs = secretPaths(def.inputs).filter((path) => !path.includes("."));
  return [...(def.secretOutputs ?? []), ...inputs].filter((key) => key !== SECRET_VALUES);
}

function definition(kind: LookupKind): ResourceDefinition & Required<Pick<ResourceDefinition, "search">> {
  const def = resourceDefinition(kind);
  if (!def.search) throw new ProviderError(`${kind} has no lookups`);
  return def as ResourceDefinition & Required<Pick<ResourceDefinition, "search">>;
}

/** The id and state of one object, as plain data; its secret values registered for redaction. */
export function lookupResult(def: ResourceDefinition, id: string, outs: Props): Props {
  for (const key of def.secretOutputs ?? []) registerSecret(outs[key]);
  for (const path of secretPaths(def.inputs)) registerSecret(valueAt(outs, path.split(".")));
  return { id, ...(toPlainData(outs) as Props) };
}

function valueAt(value: unknown, keys: string[]): unknown {
  for (const key of keys) value = value && typeof value === "object" ? (value as Props)[key] : undefined;
  return value;
}

/** One object by id or by name; fails naming the kind and the id or name when there is none. */
export async function lookup(kind: LookupKind, input: LookupArgs, settings: RawSettings): Promise<Props> {
  const fn = lookupName(kind);
  const args = parseArgs(fn, LookupArgs, input ?? {});
  const def = definition(kind);
  return withEdge(settings, async (ctx) => {
    if (args.id !== undefined) {
      const outs = await def.read(ctx, args.id, {});
      if (!outs) throw new ProviderError(`${fn}: there is no ${kind} with id "${args.id}"`);
      return lookupResult(def, args.id, outs);
    }
    const name = args.name!;
    const found = (await def.search(ctx, nameFilter(name))).find((item) => item.outs.name === name);
    if (!found) throw new ProviderError(`${fn}: there is no ${kind} named "${name}"`);
    return lookupResult(def, found.id, found.outs);
  });
}

/** Every object matching the filter (all pages); none is an empty list, not an error. */
export async function list(
  kind: LookupKind,
  input: ListArgs,
  settings: RawSettings,
): Promise<{ items: Props[] }> {
  const args = parseArgs(listName(kind), ListArgs, input ?? {});
  const def = definition(kind);
  return withEdge(settings, async (ctx) => ({
    items: (await def.search(ctx, args.filter)).map(({ id, outs }) => lookupResult(def, id, outs)),
  }));
}

/**
 * One Edge client (one login) shared by the lookups that run at the same time, as a program's lookups
 * do: made by the first, closed when the last one ends, so no connection outlives them. Settings are
 * read by the caller at run time (stack config, then environment), never kept beyond the calls.
 */
let shared: { key: string; client: EdgeClient; users: number } | undefined;

async function withEdge<T>(settings: RawSettings, work: (ctx: ResourceContext) => Promise<T>): Promise<T> {
  const key = JSON.stringify(settings);
  const entry = shared?.key === key ? shared : { key, client: new EdgeClient(settings), users: 0 };
  if (!shared) shared = entry;
  entry.users++;
  const ctx: ResourceContext = {
    settings,
    edge: () => entry.client,
    frontdoor: () => {
      throw new ProviderError("Edge lookups do not use the Frontdoor API");
    },
  };
  try {
    return await work(ctx);
  } finally {
    if (--entry.users === 0) {
      if (shared === entry) shared = undefined;
      await entry.client.close();
    }
  }
}

/**
 * The lookup result's shape for schema.json: the id, the inputs and the outputs of the kind. A kind
 * whose inputs are a union (PostureCheck: one shape per typeId) has all members' fields, as its
 * resource does.
 */
export function stateSchema(def: ResourceDefinition): z.ZodObject {
  const members = def.inputs instanceof z.ZodObject ? [def.inputs] : unionMembers(def.inputs);
  const shape: Record<string, z.ZodType> = {};
  for (const key of new Set(members.flatMap((m) => Object.keys(m.shape)))) {
    const holders = members.filter((m) => key in m.shape);
    const schemas = [...new Set(holders.map((m) => m.shape[key] as z.ZodType))];
    const schema =
      schemas.length === 1
        ? schemas[0]
        : (mergedObject(schemas, `${def.kind}LookupResult${key[0].toUpperCase()}${key.slice(1)}`) ??
          z.union(schemas as [z.ZodType, z.ZodType]));
    shape[key] = holders.length === members.length ? schema : schema.optional();
  }
  Object.assign(shape, def.outputs instanceof z.ZodObject ? def.outputs.shape : {});
  delete shape[SECRET_VALUES];
  // Secret outputs are marked in the schema too (the resource's secretOutputs are outside its zod shapes).
  for (const key of wholeSecretKeys(def))
    if (shape[key]) shape[key] = shape[key].meta({ ...shape[key].meta(), secret: true });
  return z
    .object({ id: z.string().describe("Id of the object."), ...shape })
    .meta({ id: `${def.kind}LookupResult`, description: `An existing ${def.kind}: its id and state.` });
}

/**
 * The object schemas one key has in the members (an auth provider's `data`: OidcData for OIDC,
 * ApiKeyData for API_KEY) as one object with the fields of all of them, every field optional and its
 * own marks kept (`client_secret`, `api_key` secret). A union of objects in a function's result lets
 * the YAML program read none of its fields (`${found.data.client_secret}` is refused) and gives the
 * typed SDKs no field to read; one object lets every language read the fields the answer has. Not all
 * objects: undefined (the caller keeps the union).
 */
function mergedObject(schemas: z.ZodType[], id: string): z.ZodObject | undefined {
  if (!schemas.every((s) => s instanceof z.ZodObject)) return undefined;
  const objects = schemas as z.ZodObject[];
  const fields = new Map<string, z.ZodType[]>();
  for (const o of objects)
    for (const [name, field] of Object.entries(o.shape))
      fields.set(name, [...new Set([...(fields.get(name) ?? []), withoutDefault(field as z.ZodType)])]);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, alternatives] of fields)
    shape[name] = (
      alternatives.length === 1 ? alternatives[0] : z.union(alternatives as [z.ZodType, z.ZodType])
    ).optional();
  const descriptions = objects.map((o) => o.description).filter(Boolean);
  return z.object(shape).meta({
    id,
    description: `${descriptions.join(" Or: ")} (The fields of every variant in one object: those of the object's own are set.)`,
  });
}

/**
 * A field without its default, its description and marks kept: in a result that merges variants a
 * default would be the variant's (an OIDC provider's supports_pkce), and the generated SDKs would fill
 * it in for every variant (an API key too).
 */
function withoutDefault(field: z.ZodType): z.ZodType {
  if (!(field instanceof z.ZodDefault)) return field;
  const inner = field.unwrap() as z.ZodType;
  return inner.meta({ ...inner.meta(), ...field.meta() });
}

function unionMembers(schema: z.ZodType): z.ZodObject[] {
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(unionMembers);
  if (schema instanceof z.ZodObject) return [schema];
  throw new ProviderError("lookup results need object inputs");
}

export const lookupFunctions: FunctionDefinition[] = LOOKUP_KINDS.flatMap((kind) => {
  const def = definition(kind);
  const state = stateSchema(def);
  const secrets = secretKeys(def);
  const secretNote = secrets.length
    ? ` Secret fields (${secrets.map((k) => `\`${k}\``).join(", ")}): the \`...Output\` variant marks the result secret when one is set.`
    : "";
  return [
    {
      name: lookupName(kind),
      description:
        `Looks up an existing ${kind} by id or by name (objects made outside this program: the console, another ` +
        `stack, the controller's defaults). Answers what the ${kind} resource shows as its outputs, with the id. ` +
        `No such object: an error naming the kind and the id or name.${secretNote}`,
      inputs: LookupArgs,
      outputs: state,
      run: (args, settings) => lookup(kind, args as LookupArgs, settings),
    },
    {
      name: listName(kind),
      description:
        `Every ${kind} matching a ZitiQL filter (all pages read), each as \`${lookupName(kind)}\` answers it; ` +
        `none: an empty \`items\`.${secretNote}`,
      inputs: ListArgs,
      outputs: z.object({ items: z.array(state).describe(`The matching ${kind} objects.`) }),
      run: (args, settings) => list(kind, args as ListArgs, settings),
    },
  ];
});
