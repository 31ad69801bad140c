// Shared HTTP helpers of the Frontdoor mock: the API's error shape, JSON body parsing and the
// property validation that produces "property 'x' must be of type string"-style messages.
import type { MockRequest, MockResponse } from "../types";

/** An error answer in the Frontdoor API's shape `{error, message}`. */
export class FrontdoorError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }

  toResponse(): MockResponse {
    return { status: this.status, body: { error: this.error, message: this.message } };
  }
}

export const invalidRequest = (message: string) => new FrontdoorError(400, "invalid_request", message);
export const unauthorized = (message: string) => new FrontdoorError(401, "unauthorized", message);
export const notFound = (message: string) => new FrontdoorError(404, "not_found", message);
export const conflict = (message: string) => new FrontdoorError(409, "conflict", message);

export type JsonObject = Record<string, unknown>;

export const ok = (body: unknown, status = 200): MockResponse => ({ status, body });
export const noContent = (): MockResponse => ({ status: 204 });

/** The request body as a JSON object (400 when malformed or not an object). */
export function jsonBody(req: MockRequest): JsonObject {
  const text = req.body.toString("utf8");
  if (text.trim() === "") throw invalidRequest("request body is required");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest("request body is not valid JSON");
  }
  if (!isObject(value)) throw invalidRequest("request body must be a JSON object");
  return value;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type PropertyType = "string" | "boolean" | "string[]" | "object";

/** One property of a request body. `check` adds rules beyond the type; it returns a problem or undefined. */
export interface PropertyRule {
  type: PropertyType;
  required?: boolean;
  /** `null` is accepted (and means "unset") for optional properties when true. */
  nullable?: boolean;
  check?: (value: any) => string | undefined;
}

function hasType(value: unknown, type: PropertyType): boolean {
  switch (type) {
    case "string[]":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    case "object":
      return isObject(value);
    default:
      return typeof value === type;
  }
}

const typeName = (type: PropertyType) => (type === "string[]" ? "array of strings" : type);

/**
 * Validates `body` against `rules`: required properties, types, extra checks, and no properties
 * beyond the rules. `prefix` names nested objects in messages (e.g. "data.").
 */
export function validate(body: JsonObject, rules: Record<string, PropertyRule>, prefix = ""): void {
  for (const key of Object.keys(body)) {
    if (!(key in rules)) throw invalidRequest(`property '${prefix}${key}' is not allowed`);
  }
  for (const [key, rule] of Object.entries(rules)) {
    const value = body[key];
    const name = `${prefix}${key}`;
    if (value === undefined || (value === null && rule.nullable && !rule.required)) {
      if (rule.required) throw invalidRequest(`property '${name}' is required`);
      continue;
    }
    if (!hasType(value, rule.type)) {
      throw invalidRequest(`property '${name}' must be of type ${typeName(rule.type)}`);
    }
    const problem = rule.check?.(value);
    if (problem) throw invalidRequest(`property '${name}' ${problem}`);
  }
}

/** Makes every rule optional (for PATCH bodies: any subset). */
export function optional(rules: Record<string, PropertyRule>): Record<string, PropertyRule> {
  return Object.fromEntries(Object.entries(rules).map(([key, rule]) => [key, { ...rule, required: false }]));
}

export const nonEmpty = (value: string) => (value.trim() === "" ? "must not be empty" : undefined);
