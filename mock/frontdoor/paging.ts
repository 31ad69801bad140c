// The Frontdoor list envelope (Spring-style): `page` zero-based, `size` default 20 clamped to 1..100,
// `sort=<field>[,asc|desc]` (repeatable; default direction asc). Without `sort`, lists are sorted by
// each collection's default field (name, or hostname for custom frontends), ascending; ties by id.
import { invalidRequest, type JsonObject } from "./http";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListEnvelope {
  content: JsonObject[];
  pageable: { pageNumber: number; pageSize: number };
  totalElements: number;
  totalPages: number;
}

function integerParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw)) throw invalidRequest(`query parameter '${name}' must be an integer`);
  return Number(raw);
}

interface SortKey {
  field: string;
  descending: boolean;
}

function sortKeys(query: URLSearchParams, defaultField: string, items: JsonObject[]): SortKey[] {
  const specs = query.getAll("sort").filter((spec) => spec !== "");
  if (specs.length === 0) return [{ field: defaultField, descending: false }];
  return specs.map((spec) => {
    const [field, direction = "asc", ...rest] = spec.split(",");
    const lower = direction.toLowerCase();
    if (rest.length > 0 || (lower !== "asc" && lower !== "desc")) {
      throw invalidRequest(`query parameter 'sort' must look like '<field>,<asc|desc>', got '${spec}'`);
    }
    const known = field === defaultField || field === "id" || items.some((item) => field in item);
    if (!known) throw invalidRequest(`query parameter 'sort' names unknown property '${field}'`);
    return { field, descending: lower === "desc" };
  });
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

/** Sorts and pages `items` (already shaped as list items) according to the query. */
export function pageOf(items: JsonObject[], query: URLSearchParams, defaultSortField: string): ListEnvelope {
  const page = integerParam(query, "page", 0);
  if (page < 0) throw invalidRequest("query parameter 'page' must not be negative");
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, integerParam(query, "size", DEFAULT_PAGE_SIZE)));
  const keys = sortKeys(query, defaultSortField, items);
  const sorted = [...items].sort((a, b) => {
    for (const key of keys) {
      const order = compareValues(a[key.field], b[key.field]);
      if (order !== 0) return key.descending ? -order : order;
    }
    return compareValues(a.id, b.id);
  });
  return {
    content: sorted.slice(page * size, page * size + size),
    pageable: { pageNumber: page, pageSize: size },
    totalElements: sorted.length,
    totalPages: Math.ceil(sorted.length / size),
  };
}
