// What every edge collection answers the same way: the six routes (list, create, detail, PATCH, PUT,
// DELETE) below its path, a listed page of rendered records, a detail, a plain delete, and the fields
// each rendered record starts with. A resource module gives only what is its own (how it reads and
// checks a body, what a delete also removes, its links and fields).
import type { MockResponse } from "../types";
import { empty, ok, selfLink } from "./envelope";
import { listQuery } from "./query";
import { type Route, type RouteContext, route } from "./routes";
import type { BaseRecord, Collection } from "./store";
import { asObject, type Body, str } from "./validate";

type Handler = (ctx: RouteContext) => MockResponse;

/** What a resource module gives for its collection (its methods are called as routes). */
export interface CollectionResource {
  /** POST with a JSON object body. */
  create(body: Body, ctx: RouteContext): MockResponse;
  update(ctx: RouteContext, mode: "patch" | "put"): MockResponse;
  /** Default: the record is removed (404 when there is none). */
  remove?: Handler;
  /** Default: a page of rendered records (filter, sort and paging from the query). */
  list?: Handler;
}

/** The collection's six routes and the resource's `more`, all for an admin's full session. */
export function collectionRoutes<T extends BaseRecord>(
  collection: Collection<T>,
  resource: CollectionResource,
  render: (record: T) => Record<string, unknown>,
  ...more: Route[]
): Route[] {
  const base = `/${collection.name}`;
  const item = `${base}/{id}`;
  return [
    route("GET", base, "full", (ctx) =>
      resource.list ? resource.list(ctx) : listPage(collection, ctx, render),
    ),
    route("POST", base, "full", (ctx) => resource.create(asObject(ctx.body), ctx)),
    route("GET", item, "full", (ctx) => ok(render(collection.require(ctx.params.id)))),
    route("PATCH", item, "full", (ctx) => resource.update(ctx, "patch")),
    route("PUT", item, "full", (ctx) => resource.update(ctx, "put")),
    route("DELETE", item, "full", (ctx) =>
      resource.remove ? resource.remove(ctx) : removeRecord(collection, ctx),
    ),
    ...more,
  ];
}

/** One page of `records` (all of the collection by default), each rendered. */
export function listPage<T extends BaseRecord>(
  collection: Collection<T>,
  ctx: RouteContext,
  render: (record: T) => Record<string, unknown>,
  records?: T[],
): MockResponse {
  const page = listQuery(collection, ctx.req.query, records);
  return ok(page.items.map(render), page.meta);
}

export function removeRecord<T extends BaseRecord>(
  collection: Collection<T>,
  ctx: RouteContext,
): MockResponse {
  collection.delete(collection.require(ctx.params.id).id);
  return empty();
}

/** The fields a rendered record starts with: id, times, `_links` (self and `links`), tags. */
export function recordHead(
  collectionPath: string,
  record: BaseRecord,
  links: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: record.id,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    _links: { ...selfLink(collectionPath, record.id), ...links },
    tags: record.tags ?? {},
  };
}

type Fields<T extends BaseRecord> = Omit<T, "id" | "createdAt" | "updatedAt">;

/**
 * PUT that replaces every field: `read` takes them all from the body (and what the old record keeps),
 * `check` may refuse them; the name must still be unique.
 */
export function replaceRecord<T extends BaseRecord & { name: string }>(
  collection: Collection<T>,
  ctx: RouteContext,
  read: (body: Body, old: T) => Fields<T>,
  check: (fields: Fields<T>) => void = () => {},
): MockResponse {
  const old = collection.require(ctx.params.id);
  const fields = read(asObject(ctx.body), old);
  check(fields);
  collection.assertUniqueName(fields.name, old.id);
  collection.replace(old.id, fields);
  return empty();
}

/**
 * PATCH that changes only what was sent: the name (still unique) and what `read` takes from the
 * body; `check` sees the changes beside the stored record.
 */
export function patchRecord<T extends BaseRecord & { name: string }>(
  collection: Collection<T>,
  ctx: RouteContext,
  read: (body: Body, stored: T) => Partial<T>,
  check: (changes: Partial<T>, stored: T) => void = () => {},
): MockResponse {
  const { stored, body, name } = updateTarget(collection, ctx, "patch");
  const changes: Partial<T> = {};
  if (name !== undefined) changes.name = name as T["name"];
  Object.assign(changes, read(body, stored));
  check(changes, stored);
  collection.update(stored.id, changes);
  return empty();
}

/** The named fields of a record, as they are (for the parts of a render that copy fields through). */
export function pick<T extends object, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = record[key];
  return out;
}

/** The `name` a PUT (`required`) or PATCH sent, checked to be unique beside the record `id`. */
export function sentName<T extends BaseRecord>(
  collection: Collection<T>,
  body: Body,
  id: string,
  required: boolean,
): string | undefined {
  const name = str(body, "name", { required, nullable: !required });
  if (name !== undefined) collection.assertUniqueName(name, id);
  return name;
}

/** What a PUT or PATCH names: the stored record, the body, and the name sent (required on PUT, unique). */
export function updateTarget<T extends BaseRecord>(
  collection: Collection<T>,
  ctx: RouteContext,
  mode: "patch" | "put",
): { stored: T; body: Body; name: string | undefined } {
  const stored = collection.require(ctx.params.id);
  const body = asObject(ctx.body);
  return { stored, body, name: sentName(collection, body, stored.id, mode === "put") };
}
