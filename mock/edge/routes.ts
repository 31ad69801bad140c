// The route table of the edge mock: each resource module contributes routes; index.ts matches
// them, authenticates the caller and turns thrown ApiErrors into error envelopes.
import type { MockRequest, MockResponse } from "../types";
import type { ApiSession } from "./state";

/**
 * `public`: no session (authenticate). `partial`: a session whose MFA is still pending will do
 * (finishing MFA, reading or ending the session). `full`: an admin's session with MFA complete if
 * required. `client`: the same for any identity (the client API).
 */
export type Access = "public" | "partial" | "full" | "client";

export interface RouteContext {
  req: MockRequest;
  params: Record<string, string>;
  /** Parsed JSON body, the text of a text/plain body, or undefined when empty. */
  body: unknown;
  /** The caller's API session (absent on public routes). */
  session?: ApiSession;
  /** `https://<host>`, the controller address put into enrollment JWTs. */
  issuer: string;
}

export interface Route {
  method: string;
  /** Template below the base path, e.g. `/identities/{id}`. */
  template: string;
  access: Access;
  handle(ctx: RouteContext): MockResponse;
}

export function route(
  method: string,
  template: string,
  access: Access,
  handle: (ctx: RouteContext) => MockResponse,
): Route {
  return { method, template, access, handle };
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Finds the route for a path below the base path; `methodMismatch` when only the verb is wrong. */
export function matchRoute(
  routes: Route[],
  method: string,
  subPath: string,
): RouteMatch | "methodMismatch" | undefined {
  const parts = subPath.split("/").slice(1);
  let pathMatched = false;
  for (const candidate of routes) {
    const segments = candidate.template.split("/").slice(1);
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = segments.every((segment, i) => {
      if (segment.startsWith("{")) {
        params[segment.slice(1, -1)] = decodeURIComponent(parts[i]);
        return parts[i] !== "";
      }
      return segment === parts[i];
    });
    if (!matches) continue;
    if (candidate.method !== method) {
      pathMatched = true;
      continue;
    }
    return { route: candidate, params };
  }
  return pathMatched ? "methodMismatch" : undefined;
}
