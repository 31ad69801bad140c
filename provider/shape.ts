// Introspection of a resource's zod schemas through their JSON Schema form (z.toJSONSchema): which
// top-level properties exist, which paths are secret. Plain JSON is easier to walk than zod internals,
// and it is the same representation schema.json is generated from.
import { z } from "zod";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  secret?: boolean;
  [key: string]: unknown;
};

const cache = new WeakMap<z.ZodType, JsonSchema>();

/** The input-side JSON Schema of a zod schema (defaults are optional there), cached. */
export function jsonSchema(schema: z.ZodType): JsonSchema {
  let json = cache.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
    cache.set(schema, json);
  }
  return json;
}

/** Object members of a schema: the object itself, or each alternative of a (discriminated) union. */
export function variants(json: JsonSchema): JsonSchema[] {
  const alternatives = json.oneOf ?? json.anyOf;
  return alternatives ? alternatives.flatMap(variants) : [json];
}

/** Caches a derived value per schema: check and diff run for every resource on every `up`. */
function memo<T>(derive: (schema: z.ZodType) => T): (schema: z.ZodType) => T {
  const cached = new WeakMap<z.ZodType, T>();
  return (schema) => {
    if (!cached.has(schema)) cached.set(schema, derive(schema));
    return cached.get(schema)!;
  };
}

/** Top-level property names across all variants. */
export const propertyNames = memo((schema): string[] => {
  const names = new Set<string>();
  for (const v of variants(jsonSchema(schema))) for (const k of Object.keys(v.properties ?? {})) names.add(k);
  return [...names];
});

/** Follows a local `$ref` (`#/$defs/Name`, where zod puts schemas that have a meta id). */
export function deref(json: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = json.$ref;
  if (typeof ref !== "string") return json;
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  return defs[ref.replace("#/$defs/", "")] ?? json;
}

/** Dotted paths of properties marked `.meta({ secret: true })` (arrays step over their items). */
export const secretPaths = memo((schema): string[] => {
  const paths = new Set<string>();
  const root = jsonSchema(schema);
  const walk = (node: JsonSchema, prefix: string) => {
    const json = deref(node, root);
    if (json.secret && prefix) paths.add(prefix);
    for (const v of [...(json.oneOf ?? []), ...(json.anyOf ?? []), ...(json.allOf ?? [])]) walk(v, prefix);
    if (json.items) walk(json.items, prefix);
    for (const [key, child] of Object.entries(json.properties ?? {}))
      walk(child, prefix ? `${prefix}.${key}` : key);
  };
  walk(root, "");
  return [...paths].sort(); // sorted: the walk's order follows zod's JSON Schema cache, which depends on what converted the schema first
});

/** The values found at the given dotted paths of an object (arrays are searched element-wise). */
export function valuesAt(value: unknown, paths: string[]): unknown[] {
  const found: unknown[] = [];
  const visit = (v: unknown, keys: string[]) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, keys);
    } else if (keys.length === 0) {
      found.push(v);
    } else if (typeof v === "object") {
      visit((v as Record<string, unknown>)[keys[0]], keys.slice(1));
    }
  };
  for (const path of paths) visit(value, path.split("."));
  return found;
}
