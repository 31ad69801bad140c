// What exists on the APIs: every listable object of the chosen kinds, read into the provider's state
// shape. Shared by the import generator and the audit (unmanaged objects, expiry), so both see the
// same objects, with the controller's built-ins left out by each kind's list.
import { ListUnavailableError } from "../http/errors";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { resourceDefinitions } from "../resources/all";

export interface ExistingObject {
  def: ResourceDefinition;
  id: string;
  state: Props;
}

export interface Inventory {
  objects: ExistingObject[];
  /** Kinds that could not be listed (a list endpoint the server lacks), with the reason. */
  unlisted: { kind: string; reason: string }[];
}

export interface InventoryOptions {
  /** Kinds to list (default: every kind that can be listed); a named kind that cannot be listed fails. */
  kinds?: string[];
  /** Frontdoor whose objects are listed; without one, Frontdoor kinds are left out. */
  frontdoorId?: string;
  /** Ids to skip before reading them. */
  skipIds?: Set<string>;
}

export async function listExisting(ctx: ResourceContext, options: InventoryOptions): Promise<Inventory> {
  const scope = { frontdoorId: options.frontdoorId ?? ctx.settings.frontdoorId };
  const inventory: Inventory = { objects: [], unlisted: [] };
  for (const def of resourceDefinitions) {
    if (!def.list || (options.kinds && !options.kinds.includes(def.kind))) continue;
    if (def.api === "frontdoor" && !scope.frontdoorId) continue;
    let ids: string[];
    try {
      ids = await def.list(ctx, scope);
    } catch (err) {
      // A list the API does not document and the server lacks: asked for by kind, that is an error;
      // otherwise the caller says which kind was left out.
      if (!(err instanceof ListUnavailableError) || options.kinds) throw err;
      inventory.unlisted.push({ kind: def.kind, reason: err.message.replace(/\n/g, " ") });
      continue;
    }
    for (const id of ids) {
      if (options.skipIds?.has(id)) continue;
      const state = await def.read(ctx, id, scope);
      if (state) inventory.objects.push({ def, id, state });
    }
  }
  return inventory;
}

/** Ids of the resources in a state file: `pulumi stack export` output or the engine harness's state. */
export function idsInState(document: unknown): Set<string> {
  const doc = document as { deployment?: { resources?: unknown[] }; resources?: unknown[] };
  const resources = doc?.deployment?.resources ?? doc?.resources;
  if (!Array.isArray(resources))
    throw new Error("not a stack state: expected `pulumi stack export` output or a harness state file");
  const ids = new Set<string>();
  for (const r of resources as { id?: unknown }[]) if (typeof r?.id === "string" && r.id) ids.add(r.id);
  return ids;
}

/** A name pattern with `*` (any text) and `?` (one character). */
export function globPattern(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}
