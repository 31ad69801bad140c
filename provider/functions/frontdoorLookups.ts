// Lookups of existing Frontdoor objects: one by id or by its unique name (a custom frontend's hostname),
// or every object of a frontdoor, every page read and in the order `sort` asks the API for. Built on the
// Edge lookups' mechanism (lookups.ts: argument parsing, the result as the kind's `read` states it, its
// secrets registered for redaction, the result schema): only where the objects come from differs. The
// Frontdoor list items are partial (an auth provider's list item has no `data`, a client certificate's
// no `value`), so each object found is read by id, as a refresh reads it.
import { z } from "zod";
import type { RawSettings } from "../config";
import { ProviderError } from "../http/errors";
import { FrontdoorClient } from "../http/frontdoor";
import type { Props, ResourceContext } from "../resource";
import { resourceDefinition } from "../resources";
import { frontdoorId, objectId } from "../resources/common";
import { listFrontends } from "../resources/customFrontend";
import { parseArgs } from "./args";
import type { FunctionDefinition } from "./index";
import { listName, lookupName, lookupResult, stateSchema } from "./lookups";

/** The Frontdoor kinds with lookups, each with the collection it lives in and its unique key. */
export const FRONTDOOR_LOOKUPS = {
  AuthProvider: { collection: "auth-providers", key: "name" },
  ClientCertificate: { collection: "client-certificates", key: "name" },
  CertificateRequestToken: { collection: "certificate-request-tokens", key: "name" },
  CustomFrontend: { collection: "custom-frontends", key: "hostname" },
} as const;
export type FrontdoorLookupKind = keyof typeof FRONTDOOR_LOOKUPS;
export const FRONTDOOR_LOOKUP_KINDS = Object.keys(FRONTDOOR_LOOKUPS) as FrontdoorLookupKind[];

const lookupFrontdoorId = frontdoorId
  .optional()
  .describe("Frontdoor whose objects are looked up (default: config frontdoor:frontdoorId).");

/** The arguments parsed, the frontdoor defaulted from the settings; none at all: an error naming it. */
function parsed<S extends z.ZodType>(fn: string, schema: S, input: Props, settings: RawSettings): Props {
  const args = parseArgs(fn, schema, { frontdoorId: settings.frontdoorId, ...input }) as Props;
  if (args.frontdoorId === undefined)
    throw new ProviderError(
      `${fn}: frontdoorId: required: set frontdoorId or the config frontdoor:frontdoorId`,
    );
  return args;
}

/** `<field>,<asc|desc>`: the form of the list operations' `sort` in the Frontdoor API description. */
const SORT = /^[A-Za-z_][A-Za-z0-9_.]*,(asc|desc)$/;

/** The arguments of the lookup of one object by id or by `key`: built once, at module load. */
function lookupArgsOf(key: "name" | "hostname") {
  const what =
    key === "name" ? "Name of the object (unique within the frontdoor)" : "Hostname of the frontend";
  return z
    .strictObject({
      frontdoorId: lookupFrontdoorId,
      id: objectId.optional().describe(`Id of the object. Give this or ${key}.`),
      [key]: z.string().min(1).optional().describe(`${what}. Give this or id.`),
    })
    .superRefine((args: Props, ctx) => {
      if ((args.id === undefined) === (args[key] === undefined))
        ctx.addIssue({ code: "custom", path: ["id"], message: `give exactly one of id and ${key}` });
    });
}

const LOOKUP_ARGS = { name: lookupArgsOf("name"), hostname: lookupArgsOf("hostname") };
const lookupArgs = (key: "name" | "hostname") => LOOKUP_ARGS[key];

export const FrontdoorListArgs = z.strictObject({
  frontdoorId: lookupFrontdoorId,
  sort: z
    .string()
    .regex(SORT, "must look like <field>,<asc|desc>, e.g. name,desc")
    .optional()
    .describe(
      "Order of the items, sent to the API as its `sort` query parameter: `<field>,<asc|desc>`, e.g. " +
        "`name,desc`. Without it, the API's own order. All pages are read.",
    ),
});
export type FrontdoorListArgs = z.input<typeof FrontdoorListArgs>;

/** A Frontdoor client for the calls of one lookup, closed when it ends. */
async function withFrontdoor<T>(
  settings: RawSettings,
  work: (ctx: ResourceContext) => Promise<T>,
): Promise<T> {
  const client = new FrontdoorClient(settings);
  const ctx: ResourceContext = {
    settings,
    frontdoor: () => client,
    edge: () => {
      throw new ProviderError("Frontdoor lookups do not use the Edge API");
    },
  };
  try {
    return await work(ctx);
  } finally {
    await client.http.close();
  }
}

/**
 * The list items of the kind's collection in the frontdoor, every page, sorted as asked. Custom
 * frontends through the resource's own list, which the description does not show: a service without it
 * fails saying so, and that a lookup by id still works.
 */
function listItems(ctx: ResourceContext, kind: FrontdoorLookupKind, fd: string, fn: string, sort?: string) {
  const query: Record<string, string> = sort ? { sort } : {};
  if (kind === "CustomFrontend")
    return listFrontends(
      ctx,
      { frontdoorId: fd },
      `${fn} needs the list`,
      query,
      "Look one up by id instead.",
    );
  const path = FrontdoorClient.path(fd, FRONTDOOR_LOOKUPS[kind].collection);
  return ctx.frontdoor().listAll<Props & { id: string }>(path, kind, query);
}

/** The object's state as `read` gives it (the import's earlier state: only the frontdoor). */
async function readOne(ctx: ResourceContext, kind: FrontdoorLookupKind, fd: string, id: string, fn: string) {
  const def = resourceDefinition(kind);
  const outs = await def.read(ctx, id, { frontdoorId: fd });
  if (!outs) throw new ProviderError(`${fn}: there is no ${kind} with id "${id}" in frontdoor "${fd}"`);
  return lookupResult(def, id, outs);
}

/** One object by id, or by its unique key: exactly one match, else an error naming the count. */
export async function lookupFrontdoor(kind: FrontdoorLookupKind, input: Props, settings: RawSettings) {
  const fn = lookupName(kind);
  const { key } = FRONTDOOR_LOOKUPS[kind];
  const args = parsed(fn, lookupArgs(key), input, settings);
  const fd = String(args.frontdoorId);
  return withFrontdoor(settings, async (ctx) => {
    if (args.id !== undefined) return readOne(ctx, kind, fd, String(args.id), fn);
    const wanted = String(args[key]);
    const matches = (await listItems(ctx, kind, fd, fn)).filter((item) => sameKey(key, item, wanted));
    if (matches.length !== 1) {
      const ids = matches.length ? ` (ids ${matches.map((m) => m.id).join(", ")}); look it up by id` : "";
      throw new ProviderError(
        `${fn}: ${matches.length} ${kind} objects have ${key} "${wanted}" in frontdoor "${fd}", expected exactly one${ids}`,
      );
    }
    return readOne(ctx, kind, fd, matches[0].id, fn);
  });
}

/** Hostnames compare without case (DNS); names exactly. A frontend's list item may show only domainName. */
function sameKey(key: string, item: Props, wanted: string): boolean {
  if (key !== "hostname") return item[key] === wanted;
  return String(item.hostname ?? item.domainName).toLowerCase() === wanted.toLowerCase();
}

/** Every object of the frontdoor (all pages, in the `sort` order), each read by id; none: an empty list. */
export async function listFrontdoor(kind: FrontdoorLookupKind, input: Props, settings: RawSettings) {
  const fn = listName(kind);
  const args = parsed(fn, FrontdoorListArgs, input, settings);
  const fd = String(args.frontdoorId);
  return withFrontdoor(settings, async (ctx) => {
    const items = await listItems(ctx, kind, fd, fn, args.sort as string | undefined);
    const read: Props[] = [];
    for (const item of items) read.push(await readOne(ctx, kind, fd, item.id, fn));
    return { items: read };
  });
}

export const frontdoorLookupFunctions: FunctionDefinition[] = FRONTDOOR_LOOKUP_KINDS.flatMap((kind) => {
  const def = resourceDefinition(kind);
  const state = stateSchema(def);
  const { key } = FRONTDOOR_LOOKUPS[kind];
  return [
    {
      name: lookupName(kind),
      description:
        `Looks up an existing ${kind} of a frontdoor by id or by ${key} (objects made outside this program: the ` +
        `console, another stack). Answers what the ${kind} resource shows as its outputs, with the id. Not exactly ` +
        `one object of that ${key}: an error naming the kind, the ${key} and the count.`,
      inputs: lookupArgs(key),
      outputs: state,
      run: (args, settings) => lookupFrontdoor(kind, args as Props, settings),
    },
    {
      name: listName(kind),
      description:
        `Every ${kind} of a frontdoor (all pages read, in the order of \`sort\`), each as \`${lookupName(kind)}\` ` +
        "answers it; none: an empty `items`.",
      inputs: FrontdoorListArgs,
      outputs: z.object({ items: z.array(state).describe(`The ${kind} objects.`) }),
      run: (args, settings) => listFrontdoor(kind, args as Props, settings),
    },
  ];
});
