// The calls every Edge resource makes on its collection (`/identities`, `/cas`, ...), written once:
// get (404 = gone), create, put, patch, delete (404 = already gone), find by name (adoption after an
// ambiguous create), all naming the object in errors (`Identity "alice"`).
import { type EdgeObject, nameFilter } from "../http/edge";
import type { Props, ResourceContext } from "../resource";
import { completeCreate, markHeld, NamedCollection } from "./operations";

export class EdgeCollection extends NamedCollection {
  path(id?: string, ...rest: string[]): string {
    const parts = id === undefined ? [] : [id, ...rest];
    return ["", this.collection, ...parts.map(encodeURIComponent)].join("/");
  }

  get(ctx: ResourceContext, props: Props, id: string): Promise<EdgeObject | undefined> {
    return ctx.edge().get<EdgeObject>(this.path(id), this.label(props));
  }

  /** The object, which must exist (right after create or update). */
  async require(ctx: ResourceContext, props: Props, id: string): Promise<EdgeObject> {
    const found = await this.get(ctx, props, id);
    if (!found) throw new Error(`${this.label(props)} (id ${id}) no longer exists`);
    return found;
  }

  /** POST; the new id is remembered as held by this run at once (see markHeld). */
  async create(ctx: ResourceContext, props: Props, body: Props): Promise<string> {
    const id = await ctx.edge().create(this.path(), body, this.label(props));
    markHeld(this.kind, id);
    return id;
  }

  /**
   * POST, then the object's state from the controller (`finish`: read it back, or more, e.g. verify a
   * CA). The controller answers a create with an id only; should what follows fail, the state known
   * from the request body stands (see completeCreate), so the engine keeps the id.
   */
  async createAndRead<I extends Props>(
    ctx: ResourceContext,
    inputs: I,
    body: Props,
    toState: (server: EdgeObject, inputs: I) => Props,
    finish: (id: string) => Promise<EdgeObject> = (id) => this.require(ctx, inputs, id),
  ): Promise<{ id: string; outs: Props }> {
    const id = await this.create(ctx, inputs, body);
    return completeCreate(
      this.label(inputs),
      id,
      inputs,
      () => toState({ ...body, id }, inputs),
      async () => toState(await finish(id), inputs),
    );
  }

  put(ctx: ResourceContext, props: Props, id: string, body: Props): Promise<void> {
    return ctx.edge().put(this.path(id), body, this.label(props));
  }

  patch(ctx: ResourceContext, props: Props, id: string, body: Props): Promise<void> {
    return ctx.edge().patch(this.path(id), body, this.label(props));
  }

  delete(ctx: ResourceContext, props: Props, id: string): Promise<void> {
    return ctx.edge().delete(this.path(id), this.label(props));
  }

  /**
   * Ids of the collection's objects, except the ones the controller keeps for itself (system policies,
   * the default admin, the `default` auth policy): those cannot be deleted, so they are not adopted.
   */
  async listIds(ctx: ResourceContext, _scope: Props): Promise<string[]> {
    const items = await ctx.edge().list<EdgeObject>(this.path(), undefined, this.kind);
    const builtIn = (item: EdgeObject) =>
      item.isSystem === true || item.isDefaultAdmin === true || item.id === "default";
    return items.filter((item) => !builtIn(item)).map((item) => String(item.id));
  }

  /** Every object that matches a ZitiQL filter (all of them without one), all pages. */
  search(ctx: ResourceContext, filter: string | undefined): Promise<EdgeObject[]> {
    return ctx.edge().list<EdgeObject>(this.path(), filter, this.kind);
  }

  /** The object with this name (names are unique per collection), if any. */
  async findByName(ctx: ResourceContext, props: Props): Promise<EdgeObject | undefined> {
    const name = String(props.name);
    const items = await ctx.edge().list<EdgeObject>(this.path(), nameFilter(name), this.label(props));
    return items.find((item) => item.name === name);
  }
}

/**
 * Create and update of an Edge resource that sends its whole declared state: the controller answers a
 * create with an id only and an update (PUT) with nothing, so both read the object back
 * (`toState` gets the declared inputs too, for what the API never returns or spells differently).
 */
export function putOperations<I extends Props>(
  collection: EdgeCollection,
  body: (inputs: I) => Props,
  toState: (server: EdgeObject, inputs: I) => Props,
) {
  return {
    create: (ctx: ResourceContext, inputs: I) => collection.createAndRead(ctx, inputs, body(inputs), toState),
    async update(ctx: ResourceContext, id: string, _olds: Props, news: I) {
      await collection.put(ctx, news, id, body(news));
      return toState(await collection.require(ctx, news, id), news);
    },
  };
}

/** Drops undefined members, so request bodies only carry what was declared. */
export function defined(body: Props): Props {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** Edge tags and appData: user-defined values limited to strings, booleans and null. */
export function tagsOf(value: unknown): Props {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Props) : {};
}

/** Lists the controller answers with null when empty. */
export function listOf(value: unknown): string[] {
  return Array.isArray(value) ? (value as string[]) : [];
}
