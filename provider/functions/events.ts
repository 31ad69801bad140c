// Event data queries: top talkers (firewall usage) and alerts. Each query validates its arguments,
// builds the search body of the contract (DESIGN.md section 6), sends it and turns the Elasticsearch
// answer into a small typed result. The SDK wraps these as plain async functions and as
// Output-returning variants.
import { z } from "zod";
import { type RawSettings, readSettings } from "../config";
import { ProviderError } from "../http/errors";
import { SearchClient, type SearchConnection, type SearchResponse } from "../http/search";
import type { FunctionDefinition } from "./index";

export const FIREWALL_INDEX = "fw.events*";
/**
 * The contract's alert example names an alerts index in its prose but requests the firewall index
 * pattern; alert fields (`event_source_type`, `severity`, ...) belong to the alerts index, so that is the
 * default, and `index` overrides it for deployments that store alerts elsewhere.
 */
export const ALERT_INDEX = "edge.alert*";
/** Elasticsearch's default `index.max_result_window`: larger `size` values are refused by the server. */
export const MAX_SIZE = 10_000;

// Date math as Elasticsearch accepts it relative to now (`now`, `now-24h`, `now-7d/d`), or an ISO 8601
// date/time (`strict_date_optional_time`).
const DATE_MATH = /^now(?:[+-]\d+[yMwdhHms])*(?:\/[yMwdhHms])?$/;
const ISO_DATE =
  /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}(?::\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

function isTime(value: string): boolean {
  return DATE_MATH.test(value) || (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)));
}

const time = (description: string, fallback: string) =>
  z
    .string()
    .refine(isTime, {
      message: "must be an ISO 8601 date/time (2024-05-01T12:00:00Z) or date math (now, now-24h, now-7d/d)",
    })
    .default(fallback)
    .describe(description);

const size = (description: string, fallback: number) =>
  z
    .number()
    .int({ message: `must be an integer from 1 to ${MAX_SIZE}` })
    .min(1, { message: `must be an integer from 1 to ${MAX_SIZE}` })
    .max(MAX_SIZE, { message: `must be an integer from 1 to ${MAX_SIZE}` })
    .default(fallback)
    .describe(description);

const ConnectionArgs = {
  searchUrl: z
    .string()
    .optional()
    .describe("Search service base URL; default: config frontdoor:searchUrl / FRONTDOOR_SEARCH_URL."),
  searchUsername: z
    .string()
    .optional()
    .describe("Search username; default: config frontdoor:searchUsername / FRONTDOOR_SEARCH_USERNAME."),
  searchPassword: z
    .string()
    .optional()
    .meta({ secret: true })
    .describe("Search password; default: config frontdoor:searchPassword / FRONTDOOR_SEARCH_PASSWORD."),
};

const TimeArgs = {
  from: time("Start of the time window (inclusive): ISO 8601 or date math. Default now-24h.", "now-24h"),
  to: time("End of the time window (inclusive): ISO 8601 or date math. Default now.", "now"),
};

export const TopTalkersArgs = z.object({
  ...TimeArgs,
  size: size("How many sources (firewalls) to return, by transmitted bytes. Default 10.", 10),
  addressesPerSource: size(
    "How many source addresses to return per source, by received bytes. Default 5.",
    5,
  ),
  index: z.string().min(1).default(FIREWALL_INDEX).describe(`Index pattern. Default ${FIREWALL_INDEX}.`),
  ...ConnectionArgs,
});

export const TopTalkersResult = z.object({
  sources: z
    .array(
      z.object({
        sourceId: z.string().describe("Firewall source id (fw.source_id)."),
        totalTx: z.number().describe("Sum of fw.usage.circuit.tx in the window."),
        addresses: z.array(
          z.object({
            address: z.string().describe("Source address (fw.saddr)."),
            totalRx: z.number().describe("Sum of fw.usage.circuit.rx for this address."),
          }),
        ),
      }),
    )
    .describe("Sources ordered by totalTx, largest first; addresses ordered by totalRx."),
});

export const SearchAlertsArgs = z.object({
  ...TimeArgs,
  severity: z.string().min(1).optional().describe("Only alerts of this severity (exact match)."),
  eventSourceType: z
    .string()
    .min(1)
    .optional()
    .describe("Only alerts of this event source type (exact match)."),
  size: size("How many alerts to return, newest first. Default 100.", 100),
  index: z
    .string()
    .min(1)
    .default(ALERT_INDEX)
    .describe(
      `Index pattern. Default ${ALERT_INDEX} (the contract is ambiguous: docs/guides/event-queries.md#why-alerts-default-to-edgealert).`,
    ),
  ...ConnectionArgs,
});

export const Alert = z.object({
  id: z.string().describe("Document id."),
  timestamp: z.string().describe("@timestamp of the alert."),
  eventSourceType: z.string().optional(),
  severity: z.string().optional(),
  message: z.string().optional(),
  logs: z.string().optional().describe("The alert's logs; JSON text when the record holds structured data."),
});

export const SearchAlertsResult = z.object({
  total: z.number().describe("Alerts matching the filters (may exceed the number returned)."),
  alerts: z.array(Alert).describe("Newest first."),
});

export type TopTalkersArgs = z.input<typeof TopTalkersArgs>;
export type TopTalkersResult = z.output<typeof TopTalkersResult>;
export type SearchAlertsArgs = z.input<typeof SearchAlertsArgs>;
export type SearchAlertsResult = z.output<typeof SearchAlertsResult>;
export type Alert = z.output<typeof Alert>;

/** Parses arguments, failing with the argument's name: `getTopTalkers: size must be ...`. */
function parseArgs<S extends z.ZodType>(fn: string, schema: S, args: unknown): z.output<S> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join(".") || "arguments";
    const given = issue.path.reduce<any>((value, key) => value?.[key as string], args);
    const shown =
      name.startsWith("searchPassword") || given === undefined ? "" : ` (got ${JSON.stringify(given)})`;
    return `${name} ${issue.message}${shown}`;
  });
  throw new ProviderError(`${fn}: ${problems.join("; ")}`);
}

const timeFilter = (from: string, to: string) => ({
  range: { "@timestamp": { gte: from, lte: to, format: "strict_date_optional_time" } },
});

export function topTalkersQuery(args: z.output<typeof TopTalkersArgs>): Record<string, unknown> {
  return {
    size: 0,
    query: { bool: { filter: [timeFilter(args.from, args.to)] } },
    aggs: {
      sources: {
        terms: { field: "fw.source_id.keyword", size: args.size, order: { total_tx: "desc" } },
        aggs: {
          total_tx: { sum: { field: "fw.usage.circuit.tx" } },
          addresses: {
            terms: { field: "fw.saddr.keyword", size: args.addressesPerSource, order: { total_rx: "desc" } },
            aggs: { total_rx: { sum: { field: "fw.usage.circuit.rx" } } },
          },
        },
      },
    },
  };
}

export function alertsQuery(args: z.output<typeof SearchAlertsArgs>): Record<string, unknown> {
  const filter: unknown[] = [timeFilter(args.from, args.to)];
  if (args.severity) filter.push({ term: { "severity.keyword": args.severity } });
  if (args.eventSourceType) filter.push({ term: { "event_source_type.keyword": args.eventSourceType } });
  return {
    size: args.size,
    track_total_hits: true,
    sort: [{ "@timestamp": { order: "desc" } }],
    query: { bool: { filter } },
  };
}

interface Bucket {
  key: string | number;
  doc_count: number;
  [sub: string]: unknown;
}

function buckets(agg: unknown): Bucket[] {
  return ((agg as { buckets?: Bucket[] } | undefined)?.buckets ?? []) as Bucket[];
}

function sumOf(bucket: Bucket, name: string): number {
  return (bucket[name] as { value?: number | null } | undefined)?.value ?? 0;
}

export function topTalkersResult(response: SearchResponse): TopTalkersResult {
  return {
    sources: buckets(response.aggregations?.sources).map((source) => ({
      sourceId: String(source.key),
      totalTx: sumOf(source, "total_tx"),
      addresses: buckets(source.addresses).map((address) => ({
        address: String(address.key),
        totalRx: sumOf(address, "total_rx"),
      })),
    })),
  };
}

export function alertsResult(response: SearchResponse): SearchAlertsResult {
  const total = response.hits.total;
  const text = (v: unknown) =>
    v === undefined || v === null ? undefined : typeof v === "string" ? v : JSON.stringify(v);
  const alerts = response.hits.hits.map((hit) => {
    const s = hit._source as Record<string, unknown>;
    return {
      id: hit._id,
      timestamp: String(s["@timestamp"] ?? ""),
      eventSourceType: text(s.event_source_type),
      severity: text(s.severity),
      message: text(s.message),
      logs: text(s.logs),
    };
  });
  return { total: typeof total === "number" ? total : (total?.value ?? alerts.length), alerts };
}

/** Settings from stack config (inside a Pulumi program) or the environment (plain scripts). */
function programSettings(): RawSettings {
  // runtime.getConfig answers undefined outside a Pulumi program, so environment variables apply there.
  const { runtime } = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  return readSettings((key) => runtime.getConfig(key));
}

async function withClient<T>(
  settings: RawSettings,
  connection: SearchConnection,
  use: (c: SearchClient) => Promise<T>,
): Promise<T> {
  const client = new SearchClient(settings, connection);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/**
 * A search function: its arguments parsed (failing with their names), one query, the response shaped.
 * `settings`: the plugin's configured ones; by default, the program's (see programSettings).
 */
function searchFunction<S extends z.ZodType<SearchConnection & { index: string }>, T>(
  name: string,
  schema: S,
  query: (args: z.output<S>) => Record<string, unknown>,
  shape: (response: SearchResponse) => T,
) {
  return async (args?: z.input<S>, settings: RawSettings = programSettings()): Promise<T> => {
    const parsed = parseArgs(name, schema, args ?? {});
    return shape(await withClient(settings, parsed, (c) => c.search(parsed.index, query(parsed))));
  };
}

export const getTopTalkers: (args?: TopTalkersArgs, settings?: RawSettings) => Promise<TopTalkersResult> =
  searchFunction("getTopTalkers", TopTalkersArgs, topTalkersQuery, topTalkersResult);

export const searchAlerts: (args?: SearchAlertsArgs, settings?: RawSettings) => Promise<SearchAlertsResult> =
  searchFunction("searchAlerts", SearchAlertsArgs, alertsQuery, alertsResult);

export const eventFunctions: FunctionDefinition[] = [
  {
    name: "getTopTalkers",
    description:
      "Top talkers of the firewall usage events: the sources that transmitted the most (sum of fw.usage.circuit.tx) in a time window, each with its source addresses that received the most (sum of fw.usage.circuit.rx).",
    inputs: TopTalkersArgs,
    outputs: TopTalkersResult,
    run: (args, settings) => getTopTalkers(args as TopTalkersArgs, settings),
  },
  {
    name: "searchAlerts",
    description:
      "Recent alerts about potential configuration problems, newest first, optionally filtered by severity and event source type.",
    inputs: SearchAlertsArgs,
    outputs: SearchAlertsResult,
    run: (args, settings) => searchAlerts(args as SearchAlertsArgs, settings),
  },
];
