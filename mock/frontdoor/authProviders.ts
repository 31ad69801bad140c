// Auth providers: `{id, name, type, enabled, data}`; `data` must satisfy the schema of `type`.
// Types: OIDC (issuer URL, client_id, client_secret, scopes?, supports_pkce?) and API_KEY
// (header_name: an HTTP header token, api_key: at least 16 characters). Extra data properties are
// rejected. Names are unique within a frontdoor (409). Stored secrets are returned, as the real API does.
import { assertNameFree, listOrCreate, methodNotAllowed, type RequestContext, requireOne } from "./context";
import { frontendsUsing, touchFrontend } from "./customFrontends";
import {
  conflict,
  type JsonObject,
  jsonBody,
  noContent,
  nonEmpty,
  ok,
  optional,
  type PropertyRule,
  validate,
} from "./http";
import { type FrontdoorState, newId } from "./store";

const COLLECTION = "auth-providers";

function isUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? undefined : "must be an http(s) URL";
  } catch {
    return "must be a URL";
  }
}

// RFC 9110 field-name token characters.
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const DATA_SCHEMAS: Record<string, Record<string, PropertyRule>> = {
  OIDC: {
    issuer: { type: "string", required: true, check: isUrl },
    client_id: { type: "string", required: true, check: nonEmpty },
    client_secret: { type: "string", required: true, check: nonEmpty },
    scopes: { type: "string[]" },
    supports_pkce: { type: "boolean" },
  },
  API_KEY: {
    header_name: {
      type: "string",
      required: true,
      check: (value: string) => (HTTP_TOKEN.test(value) ? undefined : "must be an HTTP header name"),
    },
    api_key: {
      type: "string",
      required: true,
      check: (value: string) => (value.length >= 16 ? undefined : "must be at least 16 characters long"),
    },
  },
};

const BODY_RULES: Record<string, PropertyRule> = {
  name: { type: "string", required: true, check: nonEmpty },
  type: {
    type: "string",
    required: true,
    check: (value: string) =>
      value in DATA_SCHEMAS ? undefined : `must be one of ${Object.keys(DATA_SCHEMAS).join(", ")}`,
  },
  data: { type: "object", required: true },
  enabled: { type: "boolean" },
};

function validateData(type: string, data: JsonObject): void {
  validate(data, DATA_SCHEMAS[type], "data.");
}

const listItem = (record: JsonObject) => ({
  id: record.id,
  name: record.name,
  type: record.type,
  enabled: record.enabled,
});

export function handleAuthProviders(ctx: RequestContext) {
  const { req, fd, rest } = ctx;
  if (rest.length === 0) return listOrCreate(ctx, COLLECTION, listItem, () => create(fd, jsonBody(req)));
  const record = requireOne(ctx, COLLECTION, "auth provider");
  switch (req.method) {
    case "GET":
      return ok(record);
    case "PATCH":
      return ok(update(fd, record, jsonBody(req), optional(BODY_RULES)));
    case "PUT":
      return ok(update(fd, record, jsonBody(req), BODY_RULES));
    case "DELETE":
      remove(fd, record);
      return noContent();
    default:
      throw methodNotAllowed(req.method);
  }
}

function create(fd: FrontdoorState, body: JsonObject): JsonObject {
  validate(body, BODY_RULES);
  validateData(body.type as string, body.data as JsonObject);
  assertNameFree(fd, [COLLECTION], body.name as string);
  return fd.insert(COLLECTION, {
    id: newId(),
    name: body.name,
    type: body.type,
    enabled: body.enabled ?? true,
    data: body.data,
  });
}

function update(
  fd: FrontdoorState,
  record: JsonObject,
  body: JsonObject,
  rules: Record<string, PropertyRule>,
) {
  validate(body, rules);
  const next = { ...record, ...body };
  // A type change without new data is checked against the new type's schema too.
  if (body.type !== undefined || body.data !== undefined)
    validateData(next.type as string, next.data as JsonObject);
  if (body.name !== undefined) assertNameFree(fd, [COLLECTION], body.name as string, record.id as string);
  Object.assign(record, next);
  // "When a provider is updated, every custom frontend that has the provider configured is updated."
  for (const frontend of frontendsUsing(fd, record.id as string)) touchFrontend(frontend);
  return record;
}

function remove(fd: FrontdoorState, record: JsonObject): void {
  const users = frontendsUsing(fd, record.id as string);
  if (users.length > 0) {
    const hostnames = users.map((frontend) => `'${frontend.hostname}'`).join(", ");
    throw conflict(`auth provider '${record.name}' is used by custom frontend(s) ${hostnames}`);
  }
  fd.collection(COLLECTION).delete(record.id as string);
}
