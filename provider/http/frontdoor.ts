// The Frontdoor management API client: every path is under /frontdoor/{frontdoorId}; errors are
// `{error, message}`; lists come in pages `{content, pageable, totalElements, totalPages}`.
import { assertValidSettings, type RawSettings, required, transportSettings } from "../config";
import type { AuthScheme, RequestOptions } from "./client";
import { HttpClient } from "./client";
import {
  bearerAuth,
  ClientCredentialsAuth,
  type ClientOptions,
  missingCredentials,
  usernameTokenAuth,
} from "./frontdoorAuth";

export interface Page<T> {
  content: T[];
  pageable?: { pageNumber: number; pageSize: number };
  totalElements: number;
  totalPages: number;
}

const PAGE_SIZE = 100;

export class FrontdoorClient {
  readonly http: HttpClient;

  constructor(settings: RawSettings, auth?: AuthScheme) {
    assertValidSettings(settings);
    const baseUrl = required(settings, "apiUrl", "The Frontdoor API");
    const options = transportSettings(settings);
    this.http = new HttpClient(
      { ...options, baseUrl, apiName: "Frontdoor API" },
      auth ?? frontdoorAuth(settings, options),
      frontdoorError,
    );
  }

  /** Path of a collection (or an object in it) of one frontdoor. */
  static path(frontdoorId: string, collection: string, ...rest: string[]): string {
    let path = `/frontdoor/${encodeURIComponent(frontdoorId)}/${encodeURIComponent(collection)}`;
    for (const part of rest) path += `/${encodeURIComponent(part)}`;
    return path;
  }

  async call<T>(opts: RequestOptions): Promise<T> {
    return (await this.http.request<T>(opts)).body;
  }

  /** GET that answers undefined for 404 (the object is gone). */
  async find<T>(path: string, resource: string): Promise<T | undefined> {
    const res = await this.http.request<T>({ method: "GET", path, resource, accept: [404] });
    return res.status === 404 ? undefined : res.body;
  }

  /** Every item of a paged list; `query` adds parameters to each page's request (e.g. `sort`). */
  async listAll<T>(path: string, resource: string, query: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    for (let page = 0; ; page++) {
      const body = await this.call<Page<T>>({
        method: "GET",
        path,
        query: { ...query, page, size: PAGE_SIZE },
        resource,
      });
      items.push(...(body.content ?? []));
      if (page + 1 >= (body.totalPages ?? 1) || (body.content ?? []).length === 0) return items;
    }
  }
}

function frontdoorAuth(settings: RawSettings, options: ClientOptions): AuthScheme {
  if (settings.token && settings.username) return usernameTokenAuth(settings.username, settings.token);
  if (settings.token) return bearerAuth(settings.token);
  if (settings.clientId && settings.clientSecret && settings.tokenUrl) {
    return new ClientCredentialsAuth(settings.tokenUrl, settings.clientId, settings.clientSecret, options);
  }
  return missingCredentials();
}

function frontdoorError(body: unknown): { code?: string; message?: string } {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    return {
      code: typeof b.error === "string" ? b.error : undefined,
      message: typeof b.message === "string" ? b.message : undefined,
    };
  }
  return { message: typeof body === "string" && body ? body : undefined };
}
