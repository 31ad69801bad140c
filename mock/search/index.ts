// The event search mock: `GET|POST /<index patterns>/_search` with HTTP Basic credentials, over
// generated firewall usage records (`fw.events-YYYY.MM.DD`) and alerts (`edge.alert-YYYY.MM.DD`).
// Answers and errors follow Elasticsearch's shapes. Every request body is kept in `requests`, so tests
// can check what a client sent against the query contract.

import { seededRandom } from "../random";
import type { MockApi, MockRequest, MockResponse } from "../types";
import {
  type AlertSource,
  type FirewallSource,
  generateAlerts,
  generateFirewallRecords,
  type StoredDocument,
} from "./data";
import { matches, runAggregations, SearchError } from "./query";

export type { AlertSource, FirewallSource, StoredDocument } from "./data";
export { EVENT_SOURCE_TYPES, SEVERITIES } from "./data";

export interface SearchMockOptions {
  username: string;
  password: string;
  /** Seed of the generated data (default 20240501). */
  seed?: number;
  /**
   * A fixed "now" (ms or ISO) for generation and for `now` in queries, so tests are exact. Without it the
   * data is generated relative to start-up and `now` follows the clock.
   */
  now?: number | string;
  firewallRecordCount?: number;
  alertCount?: number;
}

export interface CapturedSearch {
  method: string;
  path: string;
  /** The index patterns from the path, as sent (after URL decoding). */
  index: string;
  contentType?: string;
  /** The parsed JSON body (undefined when empty or not JSON). */
  body?: any;
}

/** Elasticsearch's default `index.max_result_window`. */
const MAX_RESULT_WINDOW = 10_000;
const ALLOWED_KEYS = ["query", "size", "from", "sort", "aggs", "aggregations", "track_total_hits", "_source"];

export class SearchMock implements MockApi {
  readonly firewallRecords: StoredDocument<FirewallSource>[];
  readonly alerts: StoredDocument<AlertSource>[];
  /** Every request that passed authentication, oldest first. */
  readonly requests: CapturedSearch[] = [];
  private readonly fixedNow?: number;

  constructor(readonly options: SearchMockOptions) {
    this.fixedNow = options.now === undefined ? undefined : new Date(options.now).getTime();
    const start = this.fixedNow ?? Date.now();
    const random = seededRandom(options.seed ?? 20240501);
    this.firewallRecords = generateFirewallRecords(random, start, options.firewallRecordCount ?? 600);
    this.alerts = generateAlerts(random, start, options.alertCount ?? 120);
  }

  /** The instant `now` means in queries. */
  now(): number {
    return this.fixedNow ?? Date.now();
  }

  handle(req: MockRequest): MockResponse | undefined {
    const route = /^\/(?:([^/]+)\/)?_search$/.exec(req.path);
    if (!route) return undefined;
    try {
      this.authenticate(req);
      if (req.method !== "GET" && req.method !== "POST") {
        return {
          status: 405,
          body: {
            error: `Incorrect HTTP method for uri [${req.path}] and method [${req.method}], allowed: [POST, GET]`,
            status: 405,
          },
        };
      }
      const index = decodeURIComponent(route[1] ?? "_all");
      const body = this.parseBody(req);
      this.requests.push({
        method: req.method,
        path: req.path,
        index,
        contentType: req.headers["content-type"],
        body,
      });
      return { status: 200, body: this.search(index, body ?? {}) };
    } catch (error) {
      if (!(error instanceof SearchError)) throw error;
      return errorResponse(error, req.path);
    }
  }

  private authenticate(req: MockRequest): void {
    const header = req.headers.authorization ?? "";
    const match = /^Basic (.+)$/i.exec(header);
    const [user, ...rest] = match ? Buffer.from(match[1], "base64").toString("utf8").split(":") : [];
    if (user === this.options.username && rest.join(":") === this.options.password) return;
    const reason = user
      ? `unable to authenticate user [${user}] for REST request [${req.path}]`
      : `missing authentication credentials for REST request [${req.path}]`;
    throw new SearchError(401, "security_exception", reason);
  }

  private parseBody(req: MockRequest): Record<string, any> | undefined {
    if (req.body.length === 0) return undefined;
    const type = req.headers["content-type"] ?? "";
    if (!/^application\/(json|vnd\.elasticsearch\+json)\b/.test(type)) {
      throw new SearchError(406, "", `Content-Type header [${type}] is not supported`);
    }
    let body: unknown;
    try {
      body = JSON.parse(req.body.toString("utf8"));
    } catch {
      throw new SearchError(400, "parsing_exception", "request body is not valid JSON");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new SearchError(400, "parsing_exception", "request body must be a JSON object");
    }
    const unknown = Object.keys(body).find((key) => !ALLOWED_KEYS.includes(key));
    if (unknown)
      throw new SearchError(400, "parsing_exception", `Unknown key for a START_OBJECT in [${unknown}].`);
    return body as Record<string, any>;
  }

  private documents(patterns: string): StoredDocument<Record<string, any>>[] {
    const all: StoredDocument<Record<string, any>>[] = [...this.firewallRecords, ...this.alerts];
    if (patterns === "_all" || patterns === "*") return all;
    const selected = new Set<StoredDocument<Record<string, any>>>();
    for (const pattern of patterns.split(",")) {
      const regex = new RegExp(`^${pattern.split("*").map(escapeRegex).join(".*")}$`);
      const found = all.filter((doc) => regex.test(doc.index));
      // A concrete index that does not exist is an error; a wildcard matching nothing is not.
      if (!pattern.includes("*") && found.length === 0) {
        throw new SearchError(404, "index_not_found_exception", `no such index [${pattern}]`);
      }
      for (const doc of found) selected.add(doc);
    }
    return [...selected];
  }

  private search(patterns: string, body: Record<string, any>) {
    const size = body.size ?? 10;
    const from = body.from ?? 0;
    if (!Number.isInteger(size) || size < 0 || !Number.isInteger(from) || from < 0) {
      throw new SearchError(
        400,
        "illegal_argument_exception",
        "[size] and [from] must be non-negative integers",
      );
    }
    if (from + size > MAX_RESULT_WINDOW) {
      throw new SearchError(
        400,
        "illegal_argument_exception",
        `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${from + size}].`,
      );
    }
    const now = this.now();
    const hits = this.documents(patterns).filter((doc) => matches(body.query, doc.source, now));
    hits.sort(timestampOrder(body.sort));
    return {
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: {
        total: { value: hits.length, relation: "eq" },
        max_score: null,
        hits: hits.slice(from, from + size).map((doc) => ({
          _index: doc.index,
          _id: doc.id,
          _score: null,
          _source: doc.source,
        })),
      },
      ...(body.aggs || body.aggregations
        ? {
            aggregations: runAggregations(
              body.aggs ?? body.aggregations,
              hits.map((doc) => doc.source),
            ),
          }
        : {}),
    };
  }
}

/** Hits come newest first unless the query sorts `@timestamp` ascending (the only sort field served). */
function timestampOrder(sort: unknown) {
  let direction = "desc";
  for (const entry of [sort ?? []].flat()) {
    const [field, spec] =
      typeof entry === "string" ? [entry, "asc"] : (Object.entries(entry as object)[0] ?? []);
    if (field !== "@timestamp")
      throw new SearchError(400, "parsing_exception", `mock sorts only on @timestamp, got [${field}]`);
    direction = typeof spec === "string" ? spec : ((spec as { order?: string }).order ?? "asc");
  }
  const sign = direction === "asc" ? 1 : -1;
  const at = (doc: StoredDocument<Record<string, any>>) => Date.parse(doc.source["@timestamp"]);
  return (a: StoredDocument<Record<string, any>>, b: StoredDocument<Record<string, any>>) =>
    sign * (at(a) - at(b));
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

function errorResponse(error: SearchError, path: string): MockResponse {
  if (error.status === 406) return { status: 406, body: { error: error.reason, status: 406 } };
  const cause = { type: error.type, reason: error.reason };
  const headers: Record<string, string> =
    error.status === 401 ? { "www-authenticate": 'Basic realm="security", charset="UTF-8"' } : {};
  const extra =
    error.type === "index_not_found_exception"
      ? { "resource.type": "index_or_alias", index: path.split("/")[1] }
      : {};
  return {
    status: error.status,
    headers,
    body: { error: { root_cause: [{ ...cause, ...extra }], ...cause, ...extra }, status: error.status },
  };
}
