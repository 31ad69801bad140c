// The subset of the Elasticsearch query DSL the event queries use, evaluated over in-memory documents:
// `bool.filter` with `range` (date math or ISO) and `term`, `match_all`, `terms` aggregations ordered by
// `_count`, `_key` or a `sum` sub-aggregation, nested aggregations, and `sum`. Anything else is refused
// with a 400, as a real server would, so a client bug shows up instead of being silently ignored.

/** An error answered in Elasticsearch's shape. */
export class SearchError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

type Doc = Record<string, unknown>;
type Json = Record<string, any>;

const bad = (reason: string, type = "parsing_exception") => new SearchError(400, type, reason);

/** A field's value: nested objects (`fw.usage.circuit.tx`) or a literal dotted key; `.keyword` maps to the field. */
export function fieldValue(doc: Doc, field: string): unknown {
  const name = field.endsWith(".keyword") ? field.slice(0, -".keyword".length) : field;
  if (name in doc) return doc[name];
  let value: unknown = doc;
  for (const part of name.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Doc)[part];
  }
  return value;
}

// ---- date math ----

const UNIT_MS: Record<string, number> = {
  w: 604_800_000,
  d: 86_400_000,
  h: 3_600_000,
  H: 3_600_000,
  m: 60_000,
  s: 1000,
};

function addUnits(date: Date, amount: number, unit: string): void {
  if (unit === "y") date.setUTCFullYear(date.getUTCFullYear() + amount);
  else if (unit === "M") date.setUTCMonth(date.getUTCMonth() + amount);
  else date.setTime(date.getTime() + amount * UNIT_MS[unit]);
}

function roundDown(date: Date, unit: string): void {
  const order = ["y", "M", "d", "h", "m", "s"];
  if (unit === "w") {
    roundDown(date, "d");
    date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7)); // weeks start on Monday
    return;
  }
  const level = order.indexOf(unit === "H" ? "h" : unit);
  if (level < 1) date.setUTCMonth(0);
  if (level < 2) date.setUTCDate(1);
  if (level < 3) date.setUTCHours(0);
  if (level < 4) date.setUTCMinutes(0);
  if (level < 5) date.setUTCSeconds(0);
  date.setUTCMilliseconds(0);
}

/**
 * `now`, `now-24h`, `now+1d/d` or an ISO 8601 date. Rounding follows Elasticsearch: `gte`/`lt` round down
 * to the start of the unit, `gt`/`lte` round up to its last millisecond.
 */
export function resolveTime(expr: unknown, nowMs: number, roundUp: boolean): number {
  if (typeof expr !== "string") throw bad(`failed to parse date field [${String(expr)}]`);
  const math = /^now((?:[+-]\d+[yMwdhHms])*)(?:\/([yMwdhHms]))?$/.exec(expr);
  if (math) {
    const date = new Date(nowMs);
    for (const [, sign, amount, unit] of math[1].matchAll(/([+-])(\d+)([yMwdhHms])/g)) {
      addUnits(date, (sign === "-" ? -1 : 1) * Number(amount), unit);
    }
    if (math[2]) {
      roundDown(date, math[2]);
      if (roundUp) {
        addUnits(date, 1, math[2]);
        date.setTime(date.getTime() - 1);
      }
    }
    return date.getTime();
  }
  const iso = /^\d{4}(-\d{2}(-\d{2}(T\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/.test(expr);
  const ms = Date.parse(expr.length === 4 ? `${expr}-01-01` : expr);
  if (!iso || Number.isNaN(ms)) {
    throw bad(`failed to parse date field [${expr}] with format [strict_date_optional_time]`);
  }
  return ms;
}

// ---- queries ----

function rangeMatches(clause: Json, doc: Doc, nowMs: number): boolean {
  const entries = Object.entries(clause);
  if (entries.length !== 1) throw bad("[range] query expects exactly one field");
  const [field, bounds] = entries[0] as [string, Json];
  if (bounds.format !== undefined && bounds.format !== "strict_date_optional_time") {
    throw bad(`mock supports only format strict_date_optional_time, got [${bounds.format}]`);
  }
  const raw = fieldValue(doc, field);
  if (raw === undefined) return false;
  const value = typeof raw === "number" ? raw : Date.parse(String(raw));
  const at = (key: string, roundUp: boolean) => resolveTime(bounds[key], nowMs, roundUp);
  if (bounds.gte !== undefined && value < at("gte", false)) return false;
  if (bounds.gt !== undefined && value <= at("gt", true)) return false;
  if (bounds.lte !== undefined && value > at("lte", true)) return false;
  if (bounds.lt !== undefined && value >= at("lt", false)) return false;
  return true;
}

function termMatches(clause: Json, doc: Doc): boolean {
  const entries = Object.entries(clause);
  if (entries.length !== 1) throw bad("[term] query expects exactly one field");
  const [field, spec] = entries[0];
  const expected = spec !== null && typeof spec === "object" ? (spec as Json).value : spec;
  return fieldValue(doc, field) === expected;
}

/** Whether `doc` matches `query` (undefined matches everything). */
export function matches(query: Json | undefined, doc: Doc, nowMs: number): boolean {
  if (query === undefined) return true;
  const [type, clause] = Object.entries(query)[0] ?? [];
  switch (type) {
    case "match_all":
      return true;
    case "range":
      return rangeMatches(clause, doc, nowMs);
    case "term":
      return termMatches(clause, doc);
    case "bool": {
      const unsupported = Object.keys(clause).filter((k) => !["filter", "must"].includes(k));
      if (unsupported.length) throw bad(`mock does not support bool.${unsupported.join(", bool.")}`);
      const all = [clause.filter ?? [], clause.must ?? []].flat();
      return all.every((q: Json) => matches(q, doc, nowMs));
    }
    default:
      throw bad(`unknown query [${type}]`);
  }
}

// ---- aggregations ----

function sum(docs: Doc[], field: string): number {
  return docs.reduce((total, doc) => total + (Number(fieldValue(doc, field)) || 0), 0);
}

function runAggregation(name: string, spec: Json, docs: Doc[]): Json {
  const { aggs, aggregations, ...kinds } = spec;
  const subAggs: Json | undefined = aggs ?? aggregations;
  const [kind, params] = Object.entries(kinds)[0] ?? [];
  if (kind === "sum") return { value: sum(docs, params.field) };
  if (kind !== "terms")
    throw bad(`unknown aggregation type [${kind}] in [${name}]`, "unknown_named_object_exception");
  // Keys keep their type: numeric fields give numeric keys, as in Elasticsearch.
  const groups = new Map<string | number, Doc[]>();
  for (const doc of docs) {
    const value = fieldValue(doc, params.field);
    if (value === undefined || value === null) continue;
    const key = typeof value === "number" ? value : String(value);
    const group = groups.get(key) ?? [];
    group.push(doc);
    groups.set(key, group);
  }
  const buckets = [...groups].map(([key, members]) => ({
    key,
    doc_count: members.length,
    ...runAggregations(subAggs, members),
  }));
  buckets.sort(bucketOrder(params.order, name, subAggs));
  const size = params.size ?? 10;
  const shown = buckets.slice(0, size);
  const other = buckets.slice(size).reduce((n, b) => n + b.doc_count, 0);
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets: shown };
}

type Bucket = Json & { key: string | number; doc_count: number };

/** Elasticsearch's default is `_count` desc; ties break on the key, ascending. */
function bucketOrder(order: Json | undefined, name: string, subAggs: Json | undefined) {
  const [by, direction] = Object.entries(order ?? { _count: "desc" })[0];
  if (by !== "_count" && by !== "_key" && !subAggs?.[by]?.sum) {
    throw bad(`Invalid aggregation order path [${by}] in [${name}]`, "aggregation_execution_exception");
  }
  const sign = direction === "asc" ? 1 : -1;
  const value = (b: Bucket) => (by === "_count" ? b.doc_count : by === "_key" ? b.key : b[by].value);
  return (a: Bucket, b: Bucket) => {
    const x = value(a);
    const y = value(b);
    if (x !== y) return (x < y ? -1 : 1) * sign;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };
}

export function runAggregations(aggs: Json | undefined, docs: Doc[]): Json {
  if (!aggs) return {};
  return Object.fromEntries(
    Object.entries(aggs).map(([name, spec]) => [name, runAggregation(name, spec, docs)]),
  );
}
