// `GET /version` (no session) and, in cluster mode, `GET /controllers`: what a controller says about itself
// and its cluster. The shapes are the real v1.6.0 cluster's (docs/guides/mock-and-harness.md#cluster-mode).
import type { MockRequest, MockResponse } from "../types";
import { CLIENT_BASE_PATH } from "./client-api";
import { BASE_PATH, ok } from "./envelope";
import { type Route, route } from "./routes";

/** The filterable fields the real cluster reports for `/controllers`. */
const CONTROLLER_FILTERABLE_FIELDS = [
  "id",
  "updatedAt",
  "tags",
  "ctrlAddress",
  "certPem",
  "isOnline",
  "lastJoinedAt",
  "createdAt",
  "isSystem",
  "name",
  "fingerprint",
];

/**
 * The release and capabilities; each API's base URL names the node asked (its Host), as each real node
 * names only itself. `edge-oidc` is listed with the `OIDC_AUTH` capability only.
 */
export function versionResponse(req: MockRequest, capabilities: string[], release: string): MockResponse {
  const host = req.headers.host;
  const origin = `https://${(Array.isArray(host) ? host[0] : host) ?? "127.0.0.1"}`;
  const api = (path: string) => ({ v1: { apiBaseUrls: [`${origin}${path}`], path, version: "v1" } });
  const oidc = capabilities.includes("OIDC_AUTH")
    ? { "edge-oidc": { v1: { apiBaseUrls: [origin], path: "/oidc", version: "v1" } } }
    : {};
  return ok({
    apiVersions: {
      edge: api(CLIENT_BASE_PATH),
      "edge-client": api(CLIENT_BASE_PATH),
      "edge-management": api(BASE_PATH),
      ...oidc,
    },
    buildDate: "2025-06-01 00:00:00",
    capabilities: [...capabilities],
    revision: "mock",
    runtimeVersion: process.version,
    version: release,
  });
}

/** `GET /controllers` (an admin's session): the cluster's nodes, one page. */
export function controllersRoute(list: () => Record<string, unknown>[]): Route {
  return route("GET", "/controllers", "full", () => {
    const data = list();
    return ok(data, {
      filterableFields: CONTROLLER_FILTERABLE_FIELDS,
      pagination: { limit: data.length, offset: 0, totalCount: data.length },
    });
  });
}
