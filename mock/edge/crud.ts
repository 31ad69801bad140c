// What every edge collection answers the same way: the six routes (list, create, detail, PATCH, PUT,
// DELETE) below its path, a listed page of rendered records, a detail, a plain delete, and the fields
// each rendered record starts with. A resource module gives only what is its own (how it reads and
// checks a body, what a delete also removes, its links and fields).
import type { MockResponse } from "../types";
import { empty, ok, selfLink } from "./envelope";
import { listQuery } from "./query";
import { type Route, type RouteContext, route } from "./routes";
import type { BaseRecord, Collection } from "./store";

type Handler = (ctx: RouteContext) => MockResponse;

export interface CollectionHandlers<T extends BaseRecord> {
  render(record: T): Record<string, unknown>;
  create: Handler;
  patch: Handler;
  put: Handler;
  /** Default: the record is removed (404 when there is none). */
  remove?: Handler;
  /** Default: a page of rendered records (filter, sort and paging from the query). */
  list?: Handler;
}

/** The collection's six routes, all for an admin's full session. */
export function collectionRoutes<T extends BaseRecord>(
  collection: Collection<T>,
  handlers: CollectionHandlers<T>,
): Route[] {
  const base = `/${collection.name}`;
  const item = `${base}/{id}`;
  return [
    route("GET", base, "full", handlers.list ?? ((ctx) => listPage(collection, ctx, handlers.render))),
    route("POST", base, "full", handlers.create),
    route("GET", item, "full", (ctx) => ok(handlers.render(collection.require(ctx.params.id)))),
    route("PATCH", item, "full", handlers.patch),
    route("PUT", item, "full", handlers.put),
    route("DELETE", item, "full", handlers.remove ?? ((ctx) => removeRecord(collection, ctx))),
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
