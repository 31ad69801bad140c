// Field checks of request bodies. Each failure is a 400 COULD_NOT_VALIDATE whose cause names the
// field (dotted path), the reason and the offending value, as a controller reports them.
import { invalidField } from "./envelope";

export type Body = Record<string, unknown>;

interface Rule {
  required?: boolean;
  nullable?: boolean;
}

function isPlainObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown, field = "(root)"): Body {
  if (!isPlainObject(value)) throw invalidField(field, "must be of type object", value ?? null);
  return value;
}

function path(prefix: string, field: string): string {
  return prefix ? `${prefix}.${field}` : field;
}

/** Reads `body[field]`: undefined when absent (or null and nullable), 400 when required. */
function present(body: Body, field: string, prefix: string, rule: Rule): boolean {
  const value = body[field];
  if (value === undefined || (value === null && rule.nullable)) {
    if (rule.required) throw invalidField(path(prefix, field), "is required", null);
    return false;
  }
  return true;
}

export function str(body: Body, field: string, rule: Rule = {}, prefix = ""): string | undefined {
  if (!present(body, field, prefix, rule)) return undefined;
  const value = body[field];
  if (typeof value !== "string") throw invalidField(path(prefix, field), "must be of type string", value);
  if (rule.required && value === "") throw invalidField(path(prefix, field), "must not be empty", value);
  return value;
}

export function bool(body: Body, field: string, rule: Rule = {}, prefix = ""): boolean | undefined {
  if (!present(body, field, prefix, rule)) return undefined;
  const value = body[field];
  if (typeof value !== "boolean") throw invalidField(path(prefix, field), "must be of type boolean", value);
  return value;
}

export function int(
  body: Body,
  field: string,
  rule: Rule & { min?: number; max?: number } = {},
  prefix = "",
): number | undefined {
  if (!present(body, field, prefix, rule)) return undefined;
  const value = body[field];
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw invalidField(path(prefix, field), "must be of type integer", value);
  }
  if (rule.min !== undefined && value < rule.min) {
    throw invalidField(path(prefix, field), `must be greater than or equal to ${rule.min}`, value);
  }
  if (rule.max !== undefined && value > rule.max) {
    throw invalidField(path(prefix, field), `must be less than or equal to ${rule.max}`, value);
  }
  return value;
}

export function oneOf<T extends string>(
  body: Body,
  field: string,
  allowed: readonly T[],
  rule: Rule = {},
  prefix = "",
): T | undefined {
  const value = str(body, field, rule, prefix);
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) {
    throw invalidField(path(prefix, field), `must be one of ${JSON.stringify(allowed)}`, value);
  }
  return value as T;
}

export function stringList(
  body: Body,
  field: string,
  rule: Rule & { allowed?: readonly string[] } = {},
  prefix = "",
): string[] | undefined {
  if (!present(body, field, prefix, rule)) return undefined;
  const value = body[field];
  if (!Array.isArray(value)) throw invalidField(path(prefix, field), "must be of type array", value);
  value.forEach((item, i) => {
    if (typeof item !== "string") {
      throw invalidField(`${path(prefix, field)}.${i}`, "must be of type string", item);
    }
    if (rule.allowed && !rule.allowed.includes(item)) {
      throw invalidField(
        `${path(prefix, field)}.${i}`,
        `must be one of ${JSON.stringify(rule.allowed)}`,
        item,
      );
    }
  });
  return value as string[];
}

export function object(body: Body, field: string, rule: Rule = {}, prefix = ""): Body | undefined {
  if (!present(body, field, prefix, rule)) return undefined;
  return asObject(body[field], path(prefix, field));
}

/** A map whose values pass `check` (e.g. serviceHostingCosts). */
export function map<T>(
  body: Body,
  field: string,
  check: (entries: Body, key: string, prefix: string) => T | undefined,
  prefix = "",
): Record<string, T> | undefined {
  const entries = object(body, field, { nullable: true }, prefix);
  if (!entries) return undefined;
  const out: Record<string, T> = {};
  for (const key of Object.keys(entries)) {
    const value = check(entries, key, path(prefix, field));
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** `tags`/`appData`: any JSON object; unset or null means `{}`. */
export function tags(body: Body, field: string): Record<string, unknown> | undefined {
  return object(body, field, { nullable: true });
}
