// The read, delete, list and adoption-by-name that every API-backed resource has, written once over
// its collection (Frontdoor or Edge), and what makes a create transactional as the engine sees it.
// A resource supplies how a server object becomes its state.
import { PartialFailureError } from "../http/errors";
import type { Props, ResourceContext } from "../resource";

export type ServerObject = Props & { id: string };

/** A collection of one resource kind, and how errors name its objects: `AuthProvider "corp-sso"`. */
export class NamedCollection {
  constructor(
    readonly kind: string,
    readonly collection: string,
  ) {}

  label(props: Props): string {
    return typeof props.name === "string" ? `${this.kind} "${props.name}"` : this.kind;
  }
}

/** What FrontdoorCollection and EdgeCollection both offer. */
export interface Collection {
  get(ctx: ResourceContext, props: Props, id: string): Promise<ServerObject | undefined>;
  delete(ctx: ResourceContext, props: Props, id: string): Promise<void>;
  listIds(ctx: ResourceContext, scope: Props): Promise<string[]>;
  findByName(ctx: ResourceContext, props: Props): Promise<ServerObject | undefined>;
  /** Objects matching a filter in the API's query language (Edge: ZitiQL); not every API has one. */
  search?(ctx: ResourceContext, filter: string | undefined): Promise<ServerObject[]>;
}

/** `toState(server, state)`: the resource's state from the server object; `state` fills what the API never returns. */
export function collectionOperations(
  collection: Collection,
  toState: (server: ServerObject, state: Props) => Props,
) {
  return {
    async read(ctx: ResourceContext, id: string, state: Props) {
      const server = await collection.get(ctx, state, id);
      return server && toState(server, state);
    },
    delete: (ctx: ResourceContext, id: string, olds: Props) => collection.delete(ctx, olds, id),
    list: (ctx: ResourceContext, scope: Props) => collection.listIds(ctx, scope),
    async findExisting(ctx: ResourceContext, inputs: Props) {
      const server = await collection.findByName(ctx, inputs);
      return server && { id: server.id, outs: toState(server, inputs) };
    },
    // Lookups (provider/functions/lookups.ts): the same state as read gives, with no earlier state.
    search: collection.search
      ? async (ctx: ResourceContext, filter: string | undefined) =>
          (await collection.search!(ctx, filter)).map((server) => ({
            id: server.id,
            outs: toState(server, {}),
          }))
      : undefined,
  };
}

/**
 * What follows a create's POST (reading the object back, waiting for it, verifying it). Once the
 * server has the object its id must reach the engine: a failure here becomes a PartialFailureError
 * carrying the id and the state known without that step (`known`: built from the inputs and the
 * create's answer; the inputs alone should building it fail), so the engine keeps the object in the
 * state instead of leaving an orphan that blocks the name on the next run.
 */
export async function completeCreate<O extends Props>(
  label: string,
  id: string,
  inputs: Props,
  known: () => Props,
  finish: () => Promise<O>,
): Promise<{ id: string; outs: O }> {
  try {
    return { id, outs: await finish() };
  } catch (err) {
    throw partialFailure(label, id, inputs, known, err);
  }
}

/** The error for an object that exists although its create (adoption, update) did not finish. */
export function partialFailure(
  label: string,
  id: string,
  inputs: Props,
  known: () => Props,
  err: unknown,
  operation: "create" | "update" = "create",
): PartialFailureError {
  if (err instanceof PartialFailureError) return err;
  let properties: Props;
  try {
    properties = known();
  } catch {
    properties = { ...inputs };
  }
  const why = err instanceof Error ? err.message : String(err);
  return new PartialFailureError(
    `${label} (id ${id}) exists, but its ${operation} did not complete: ${why}. It is kept in the state: ` +
      "the next up completes it, a refresh reads it.",
    id,
    properties,
  );
}

/**
 * Objects this provider process created or was told about (diff, read, update, delete) in this run,
 * by kind. A create that meets a name clash never adopts one of them: it belongs to another resource
 * of the deployment (e.g. two resources declaring the same name, created at the same time).
 */
const held = new Set<string>();

export function markHeld(kind: string, id: string): void {
  held.add(`${kind}\u0000${id}`);
}

export function releaseHeld(kind: string, id: string): void {
  held.delete(`${kind}\u0000${id}`);
}

export function isHeld(kind: string, id: string): boolean {
  return held.has(`${kind}\u0000${id}`);
}
