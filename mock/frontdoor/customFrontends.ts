// Custom frontends and their state machine, computed lazily from timestamps (no timers):
// NEW for `customFrontendReadyAfterMs`, then PENDING; ACTIVE `customFrontendActiveAfterMs` after
// becoming PENDING (never by default: then only `setCustomFrontendStatus` makes it ACTIVE).
// PATCH (authProviderIds only) puts the frontend back to PENDING. DNS records answer 400 while NEW.
import { createHash } from "node:crypto";
import { type FrontdoorMockOptions, methodNotAllowed, type RequestContext } from "./context";
import {
  conflict,
  invalidRequest,
  type JsonObject,
  jsonBody,
  noContent,
  ok,
  type PropertyRule,
  validate,
} from "./http";
import { pageOf } from "./paging";
import { type FrontdoorState, newId, nowIso } from "./store";

const COLLECTION = "custom-frontends";
export const DEFAULT_READY_AFTER_MS = 500;

export type CustomFrontendStatus = "NEW" | "PENDING" | "ACTIVE";
export const CUSTOM_FRONTEND_STATUSES: readonly CustomFrontendStatus[] = ["NEW", "PENDING", "ACTIVE"];

/** The status a frontend was put in, and when; the current status is derived from it on each read. */
interface StatusAnchor {
  status: CustomFrontendStatus;
  sinceMs: number;
}
const anchors = new WeakMap<JsonObject, StatusAnchor>();

export function currentStatus(record: JsonObject, options: FrontdoorMockOptions): CustomFrontendStatus {
  const anchor = anchors.get(record) ?? { status: "PENDING", sinceMs: 0 };
  const now = Date.now();
  let { status, sinceMs } = anchor;
  if (status === "NEW") {
    const readyAt = sinceMs + (options.customFrontendReadyAfterMs ?? DEFAULT_READY_AFTER_MS);
    if (now < readyAt) return "NEW";
    status = "PENDING";
    sinceMs = readyAt;
  }
  const activeAfter = options.customFrontendActiveAfterMs;
  if (status === "PENDING" && activeAfter !== undefined && now >= sinceMs + activeAfter) return "ACTIVE";
  return status;
}

export function setStatus(record: JsonObject, status: CustomFrontendStatus): void {
  anchors.set(record, { status, sinceMs: Date.now() });
}

/** Frontends of `fd` that have the auth provider configured. */
export function frontendsUsing(fd: FrontdoorState, authProviderId: string): JsonObject[] {
  return [...fd.collection(COLLECTION).values()].filter(
    (frontend) =>
      Array.isArray(frontend.authProviderIds) && frontend.authProviderIds.includes(authProviderId),
  );
}

/** Records that the platform re-applied the frontend's configuration. */
export function touchFrontend(record: JsonObject): void {
  record.updatedAt = nowIso();
}

// A DNS name: at least two labels of letters, digits and inner hyphens, at most 63 chars each.
const DNS_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
function dnsNameProblem(value: string): string | undefined {
  const labels = value.split(".");
  const valid = value.length <= 253 && labels.length >= 2 && labels.every((label) => DNS_LABEL.test(label));
  return valid ? undefined : "must be a valid DNS name";
}

function checkAuthProviderIds(fd: FrontdoorState, ids: string[]): void {
  for (const id of ids) {
    if (!fd.collection("auth-providers").has(id)) {
      throw invalidRequest(`property 'authProviderIds' references unknown auth provider '${id}'`);
    }
  }
}

const CREATE_RULES: Record<string, PropertyRule> = {
  hostname: { type: "string", required: true, check: dnsNameProblem },
  authProviderIds: { type: "string[]" },
  frontendId: { type: "string" },
};
const PATCH_RULES: Record<string, PropertyRule> = { authProviderIds: { type: "string[]", required: true } };

/** The GET view: the spec's fields plus frontdoorId, domainName and authProviderIds (to make drift visible). */
export function view(record: JsonObject, options: FrontdoorMockOptions): JsonObject {
  return { ...record, status: currentStatus(record, options) };
}

export function handleCustomFrontends(ctx: RequestContext) {
  const { req, fd, rest, options } = ctx;
  if (rest.length === 0) {
    if (req.method === "GET") {
      // Listing is "not shown" in the API description: a service may well not have it.
      if (options.listCustomFrontends === false) throw methodNotAllowed(req.method);
      const items = [...fd.collection(COLLECTION).values()].map((record) => view(record, options));
      return ok(pageOf(items, req.query, "hostname"));
    }
    if (req.method === "POST") return ok(create(fd, jsonBody(req)), 201);
    throw methodNotAllowed(req.method);
  }
  const record = fd.require(COLLECTION, rest[0], "custom frontend");
  if (rest.length === 2 && rest[1] === "dns-records") {
    if (req.method !== "GET") throw methodNotAllowed(req.method);
    return ok(dnsRecords(fd, record, options));
  }
  if (rest.length !== 1) throw invalidRequest(`unknown path ${req.path}`);
  switch (req.method) {
    case "GET":
      return ok(view(record, options));
    case "PATCH":
      return ok(patch(fd, record, jsonBody(req)));
    case "DELETE":
      fd.collection(COLLECTION).delete(record.id as string);
      return noContent();
    default:
      throw methodNotAllowed(req.method);
  }
}

function create(fd: FrontdoorState, body: JsonObject): JsonObject {
  validate(body, CREATE_RULES);
  const hostname = body.hostname as string;
  const authProviderIds = (body.authProviderIds as string[] | undefined) ?? [];
  checkAuthProviderIds(fd, authProviderIds);
  for (const other of fd.collection(COLLECTION).values()) {
    if (String(other.hostname).toLowerCase() === hostname.toLowerCase()) {
      throw conflict(`a custom frontend for hostname '${hostname}' already exists`);
    }
  }
  const now = nowIso();
  const record = fd.insert(COLLECTION, {
    id: newId(),
    hostname,
    frontendId: (body.frontendId as string | undefined) ?? `fe-${newId().slice(0, 8)}`,
    frontdoorId: fd.id,
    domainName: hostname,
    authProviderIds,
    createdAt: now,
    updatedAt: now,
  });
  setStatus(record, "NEW");
  return { id: record.id, frontdoorId: fd.id, status: "NEW", domainName: record.domainName };
}

function patch(fd: FrontdoorState, record: JsonObject, body: JsonObject): JsonObject {
  for (const key of Object.keys(body)) {
    if (key !== "authProviderIds")
      throw invalidRequest(`property '${key}' cannot be changed; only authProviderIds`);
  }
  validate(body, PATCH_RULES);
  checkAuthProviderIds(fd, body.authProviderIds as string[]);
  record.authProviderIds = body.authProviderIds;
  touchFrontend(record);
  setStatus(record, "PENDING");
  return {
    id: record.id,
    frontdoorId: fd.id,
    status: "PENDING",
    domainName: record.domainName,
    authProviderIds: record.authProviderIds,
  };
}

function dnsRecords(fd: FrontdoorState, record: JsonObject, options: FrontdoorMockOptions): JsonObject {
  if (currentStatus(record, options) === "NEW") throw invalidRequest("infrastructure not ready");
  // Stable per frontend, from the documentation range 192.0.2.0/24 (RFC 5737), so nothing routable.
  const digest = createHash("sha256").update(String(record.id)).digest();
  const hostname = String(record.domainName);
  return {
    frontdoorId: fd.id,
    customFrontendId: record.id,
    domainName: hostname,
    aRecord: {
      name: `*.${hostname}`,
      ipAddress: [`192.0.2.${1 + (digest[0] % 127)}`, `192.0.2.${128 + (digest[1] % 126)}`],
    },
    cnameRecords: [
      {
        name: `_acme-challenge.${hostname}`,
        value: `_${digest.subarray(2, 18).toString("hex")}.validation.frontdoor-mock.example`,
      },
    ],
  };
}
