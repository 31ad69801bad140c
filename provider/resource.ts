// The shared mechanism of every resource: a resource module supplies its zod schemas and plain async
// create/read/update/delete functions over plain data; this module turns them into the dynamic
// provider's check and diff with one set of rules (validation naming the property, set semantics,
// null-versus-empty, server defaults, replacement), so resources differ only in what is really theirs.
import type { z } from "zod";
import type { RawSettings } from "./config";
import type { EdgeClient } from "./http/edge";
import type { FrontdoorClient } from "./http/frontdoor";
import { registerSecret } from "./redact";
import { propertyNames, secretPaths, valuesAt } from "./shape";

export type Props = Record<string, unknown>;

/** What a resource's functions get to work with: settings and lazily created API clients. */
export interface ResourceContext {
  settings: RawSettings;
  frontdoor(): FrontdoorClient;
  edge(): EdgeClient;
}

export interface ResourceDefinition<I extends Props = Props, O extends Props = Props> {
  /** Type name: `AuthProvider` (schema token `frontdoor:index:AuthProvider`). */
  kind: string;
  /** Markdown description for schema.json and the README. */
  description: string;
  /** Which API the resource lives in (none: computed locally); frontdoor resources default `frontdoorId` from config. */
  api: "frontdoor" | "edge" | "none";
  /** Inputs, validated at check time (strict: unknown properties are errors). */
  inputs: z.ZodType<I, any>;
  /** Properties computed by the service (in addition to the inputs, which are outputs too). */
  outputs: z.ZodType<Props, any>;
  /** Inputs whose change replaces the object. */
  replaceOnChanges?: string[];
  /** Replace by deleting first (e.g. the name must stay unique while both would exist). */
  deleteBeforeReplace?: boolean;
  /** Array inputs whose order has no meaning (the server may sort them). */
  setProperties?: string[];
  /** Optional inputs the service fills in when unset: leaving them unset is not drift. */
  serverDefaults?: string[];
  /** Outputs stored as secrets as a whole (their top-level key), beyond secret inputs. */
  secretOutputs?: string[];
  /** Extra validation beyond the schema (parsing PEM, cross-field rules): failures name the property. */
  validate?(inputs: I): CheckFailure[];
  create(ctx: ResourceContext, inputs: I): Promise<{ id: string; outs: O }>;
  /**
   * Current state of the object, or undefined when it is gone. `state` holds the previous outputs
   * (refresh) or the program's inputs (import); values the API never returns are taken from it.
   */
  read(ctx: ResourceContext, id: string, state: Props): Promise<O | undefined>;
  update(ctx: ResourceContext, id: string, olds: Props, news: I): Promise<O>;
  delete(ctx: ResourceContext, id: string, olds: Props): Promise<void>;
  /** Ids of the existing objects (of `scope.frontdoorId` for Frontdoor kinds): for import snippets. */
  list?(ctx: ResourceContext, scope: Props): Promise<string[]>;
  /** Looks an object up by its unique name, to adopt it after an ambiguous create. */
  findExisting?(ctx: ResourceContext, inputs: I): Promise<{ id: string; outs: O } | undefined>;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

/** The engine's placeholder for a value not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Validates inputs; returns the normalised inputs (defaults applied) or the failures. */
export function checkInputs(
  def: ResourceDefinition,
  news: Props,
): { inputs: Props; failures: CheckFailure[] } {
  const unknownKeys = Object.keys(news).filter((k) => containsUnknown(news[k]));
  const result = def.inputs.safeParse(news);
  if (result.success) {
    const failures = def.validate?.(result.data) ?? [];
    for (const secret of valuesAt(result.data, secretPaths(def.inputs))) registerSecret(secret);
    return { inputs: failures.length ? news : result.data, failures };
  }
  const failures: CheckFailure[] = [];
  for (const issue of result.error.issues) {
    const path = issue.path.map(String);
    // A value that is not known yet (preview) cannot be judged; it is checked again during the update.
    if (path.length && unknownKeys.includes(path[0])) continue;
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
    for (const key of keys) {
      const property = [...path, ...(key ? [key] : [])].join(".") || "(inputs)";
      // The engine prints the property with the reason: the reason does not repeat it.
      failures.push({ property, reason: key ? `unknown property "${key}"` : issue.message });
    }
  }
  return { inputs: news, failures };
}

export interface DiffOutcome {
  changes: boolean;
  /** Changed input properties. */
  changed: string[];
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** Compares the stored outputs with the new inputs, property by property. */
export function diffInputs(def: ResourceDefinition, olds: Props, news: Props): DiffOutcome {
  const changed: string[] = [];
  for (const key of propertyNames(def.inputs)) {
    const next = news[key];
    if (containsUnknown(next)) {
      changed.push(key);
      continue;
    }
    if (next === undefined && def.serverDefaults?.includes(key)) continue;
    const isSet = def.setProperties?.includes(key) ?? false;
    if (!sameValue(olds[key], next, isSet)) changed.push(key);
  }
  const replaces = changed.filter((k) => def.replaceOnChanges?.includes(k));
  return {
    changes: changed.length > 0,
    changed,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && (def.deleteBeforeReplace ?? false),
  };
}

/** Deep equality where null, undefined, "", [] and {} are all "empty", and sets ignore order. */
export function sameValue(a: unknown, b: unknown, asSet = false): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const [x, y] = asSet ? [sortedCopy(a), sortedCopy(b)] : [a, b];
    return x.every((item, i) => sameValue(item, y[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return a === b;
}

function isEmpty(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    v === "" ||
    (Array.isArray(v) && v.length === 0) ||
    (isPlainObject(v) && Object.keys(v).length === 0)
  );
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function sortedCopy(values: unknown[]): unknown[] {
  return [...values].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
}

/**
 * Output values must survive protobuf Struct conversion: undefined, bigint and Buffer would make the
 * host fail AFTER the object was created (an orphan), Date and Map would silently become {}.
 */
export function toPlainData(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (Buffer.isBuffer(value)) return value.toString("base64");
  if (value instanceof Map) return toPlainData(Object.fromEntries(value));
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(toPlainData);
  if (typeof value === "object") {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toPlainData(v);
    return out;
  }
  return value;
}
