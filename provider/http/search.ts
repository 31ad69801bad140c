// The event search client: `GET {searchUrl}/<index pattern>/_search` with a JSON body and HTTP Basic
// credentials (Elasticsearch/OpenSearch query DSL). It is a thin layer over HttpClient so searches get
// the same retries, CA bundle handling and redacted errors as the management APIs; a vendor search
// client would add a dependency and, for Elasticsearch's, send POST and its own media type instead.
import { assertValidSettings, type RawSettings, required, transportSettings } from "../config";
import { registerSecret } from "../redact";
import { HttpClient } from "./client";
import { ApiError } from "./errors";
import { basicAuth } from "./frontdoorAuth";

/** Explicit connection arguments; each one overrides the config/environment setting of the same name. */
export interface SearchConnection {
  searchUrl?: string;
  searchUsername?: string;
  searchPassword?: string;
}

/** The parts of a search answer the queries read (Elasticsearch response shape). */
export interface SearchResponse<S = Record<string, unknown>> {
  hits: {
    total?: { value: number; relation?: string } | number;
    hits: { _index: string; _id: string; _source: S }[];
  };
  aggregations?: Record<string, unknown>;
}

export class SearchClient {
  readonly http: HttpClient;

  constructor(settings: RawSettings, connection: SearchConnection = {}) {
    const merged: RawSettings = { ...settings, ...definedOnly(connection) };
    registerSecret(merged.searchPassword);
    assertValidSettings(merged);
    const baseUrl = required(merged, "searchUrl", "Event queries");
    const username = required(merged, "searchUsername", "Event queries");
    const password = required(merged, "searchPassword", "Event queries");
    this.http = new HttpClient(
      {
        baseUrl,
        apiName: "Event search",
        ...transportSettings(merged),
        connections: 4,
      },
      basicAuth(username, password),
      searchError,
    );
  }

  /** Runs one query against an index pattern such as `fw.events*` (commas separate several). */
  async search<S = Record<string, unknown>>(
    index: string,
    body: Record<string, unknown>,
  ): Promise<SearchResponse<S>> {
    // `*` and `,` stay literal: they are the index-pattern syntax, not data.
    const path = `/${encodeURIComponent(index).replace(/%2C/gi, ",")}/_search`;
    try {
      const res = await this.http.request<SearchResponse<S>>({
        method: "GET",
        path,
        body,
        contentType: "application/json",
        resource: `Event search on "${index}"`,
      });
      return res.body;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        throw new ApiError({
          ...err,
          serverMessage: `${err.serverMessage} (check frontdoor:searchUsername and frontdoor:searchPassword, or FRONTDOOR_SEARCH_USERNAME / FRONTDOOR_SEARCH_PASSWORD)`,
        });
      }
      throw err;
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

function definedOnly(connection: SearchConnection): RawSettings {
  return Object.fromEntries(Object.entries(connection).filter(([, v]) => v !== undefined && v !== ""));
}

/** Elasticsearch errors: `{error: {type, reason, root_cause}, status}`; some proxies send `{error: "text"}`. */
function searchError(body: unknown): { code?: string; message?: string } {
  if (!body || typeof body !== "object") return {};
  const error = (body as { error?: unknown }).error;
  if (typeof error === "string") return { message: error };
  if (error && typeof error === "object") {
    const e = error as { type?: unknown; reason?: unknown };
    return {
      code: typeof e.type === "string" ? e.type : undefined,
      message: typeof e.reason === "string" ? e.reason : undefined,
    };
  }
  return {};
}
