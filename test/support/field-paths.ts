// The settable input fields of every Edge kind, generated from the resource definitions' zod
// schemas (so a field added to a kind is a field the matrix must cover): one path per leaf, with
// `[]` for the items of a list and `{}` for the values of a map (`primary.updb.maxAttempts`,
// `serviceHostingCosts{}`, `data.terminators[].portChecks[].actions[].trigger`). Variants are kept
// apart: each posture check type, each enrollment method, each typed config type's data.
import type { z } from "zod";
import type { Props } from "../../provider/resource";
import { resourceDefinitions } from "../../provider/resources/all";
import { TYPED_DATA } from "../../provider/resources/configData";

type Def = { type: string; [key: string]: any };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** The schema inside optional/default/nullable/pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (["optional", "default", "prefault", "nullable", "readonly", "catch"].includes(def.type))
      current = def.innerType;
    else if (def.type === "pipe") current = def.in;
    else return current;
  }
}

/** The leaf paths of a schema, `prefix` first. */
export function leafPaths(schema: z.ZodType, prefix = ""): string[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  switch (def.type) {
    case "object":
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, child]) =>
        leafPaths(child, join(key)),
      );
    case "array":
      return leafPaths(def.element, `${prefix}[]`);
    case "record":
      return leafPaths(def.valueType, `${prefix}{}`);
    case "union":
      // Union of objects (an enrollment's methods): each option's fields; of scalars: one leaf.
      return [...new Set((def.options as z.ZodType[]).flatMap((o) => leafPaths(o, prefix)))];
    default:
      return [prefix];
  }
}

/** The paths a value sets, by the same rules (only where the schema expects an object, list or map). */
export function setPaths(schema: z.ZodType, value: unknown, prefix = ""): string[] {
  if (value === undefined) return [];
  const inner = unwrap(schema);
  const def = defOf(inner);
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  if (def.type === "object" && value && typeof value === "object") {
    const shape = def.shape as Record<string, z.ZodType>;
    return Object.entries(value as Props).flatMap(([key, v]) =>
      shape[key] ? setPaths(shape[key], v, join(key)) : [join(key)],
    );
  }
  if (def.type === "array" && Array.isArray(value))
    return value.flatMap((item) => setPaths(def.element, item, `${prefix}[]`));
  if (def.type === "record" && value && typeof value === "object")
    return Object.values(value as Props).flatMap((v) => setPaths(def.valueType, v, `${prefix}{}`));
  if (def.type === "union") {
    const option = (def.options as z.ZodType[]).find((o) => o.safeParse(value).success);
    return option ? setPaths(option, value, prefix) : [prefix];
  }
  return [prefix];
}

/** A kind, or one variant of it (`PostureCheck:MFA`, `Config:host.v2`), with its input schema. */
export interface Variant {
  kind: string;
  variant: string;
  schema: z.ZodType;
}

/** Every Edge kind's variants: posture check types apart, and each typed config type's data. */
export function edgeVariants(): Variant[] {
  return resourceDefinitions
    .filter((d) => d.api === "edge")
    .flatMap((d): Variant[] => {
      const def = defOf(d.inputs);
      if (def.type === "union" && def.discriminator) {
        return (def.options as z.ZodType[]).map((option) => {
          const literal = defOf(defOf(option).shape[def.discriminator]);
          return { kind: d.kind, variant: `${d.kind}:${literal.values[0]}`, schema: option };
        });
      }
      if (d.kind === "Config") {
        // `data` is open in the schema; its typed form per config type is what the matrix covers.
        const shape = def.shape as Record<string, z.ZodType>;
        return Object.entries(TYPED_DATA).map(([type, data]) => ({
          kind: d.kind,
          variant: `Config:${type}`,
          schema: { _zod: { def: { type: "object", shape: { ...shape, data } } } } as unknown as z.ZodType,
        }));
      }
      return [{ kind: d.kind, variant: d.kind, schema: d.inputs }];
    });
}

/** The top-level input fields of a variant. */
export function topLevelFields(variant: Variant): string[] {
  return Object.keys(defOf(unwrap(variant.schema)).shape);
}

/** The default zod fills in for a top-level field, or undefined when it has none. */
export function defaultOf(variant: Variant, field: string): unknown {
  const schema = defOf(unwrap(variant.schema)).shape[field] as z.ZodType;
  const parsed = schema.safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}
