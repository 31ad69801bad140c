// The read, delete, list and adoption-by-name that every API-backed resource has, written once over
// its collection (Frontdoor or Edge). A resource supplies how a server object becomes its state.
import type { Props, ResourceContext } from "../resource";

export type ServerObject = Props & { id: string };

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
