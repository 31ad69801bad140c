// The shared mechanism of every resource: a resource module supplies its zod schemas and plain async
// create/read/update/delete functions over plain data; this module turns them into the dynamic
// provider's check and diff with one set of rules (validation naming the property, set semantics,
// null-versus-empty, server defaults, replacement), so resources differ only in what is really theirs.
import type { z } from "zod";
import type { RawSettings } from "./config";
import { type CheckFailure, forbiddenKeyFailures } from "./forbiddenKeys";
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
  /**
   * Optional inputs filled in for you when unset (by the service or at create): leaving them unset is
   * not drift. A dotted path (`data.scopes`) names a field one level inside an object input.
   */
  serverDefaults?: string[];
  /**
   * An object that expires: the output holding the expiry time (ISO 8601), what to call it in the
   * warning programs print near expiry, and how to renew it (added to the warning once it expired).
   * Long-lived objects warn `warningDays` ahead (frontdoor:expiryWarningDays overrides); enrollments
   * warn in their last `warningMinutes`, never in the run that issued them (`issuedAt`: the output
   * holding when, where the state has it). The rules: provider/expiry.ts.
   */
  expiry?: {
    at: string;
    what: string;
    warningDays?: number;
    warningMinutes?: number;
    issuedAt?: string;
    renewal?: string;
  };
  /** Outputs stored as secrets as a whole (their top-level key), beyond secret inputs. */
  secretOutputs?: string[];
  /**
   * Extra validation beyond the schema (parsing PEM, cross-field rules): failures name the property.
   * `olds` are the previous inputs (empty for a new object), e.g. to tolerate what was accepted before.
   */
  validate?(inputs: I, olds: Props): CheckFailure[];
  /**
   * Facts of the moment to keep with the checked inputs (keys outside the schema, so the diff never
   * compares them), e.g. when `check` ran: `up` and `preview` run check, a refresh does not.
   */
  checkStamp?(inputs: I, now: number): Props;
  /**
   * Inputs whose object must be replaced although they did not change (e.g. an expired token with
   * rotation). `news` carries the checkStamp of the run, so a refresh (no new check) rotates nothing.
   */
  replacementsDue?(olds: Props, news: Props): string[];
  /**
   * Inputs to update in place although they did not change (e.g. an expired enrollment to re-issue
   * with opt-in re-issuing). Like `replacementsDue`, it sees the checkStamp of the run.
   */
  updatesDue?(olds: Props, news: Props): string[];
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
  /**
   * The objects matching a filter (all without one), as `read` states them without earlier state: the
   * lookup functions (getIdentity, getIdentities, ...) are built on it and on `read`.
   */
  search?(ctx: ResourceContext, filter: string | undefined): Promise<{ id: string; outs: O }[]>;
  /**
   * Looks an object up by its unique name (or hostname), to adopt it after an ambiguous create or a
   * name clash. Quick: the adoption is decided on its state before anything else is done with it.
   */
  findExisting?(ctx: ResourceContext, inputs: I): Promise<{ id: string; outs: O } | undefined>;
  /**
   * For an adopted object, what create does after its POST (verify a CA, wait for a custom frontend):
   * returns the state. Without it, the state from findExisting stands.
   */
  adopt?(ctx: ResourceContext, id: string, inputs: I, outs: O): Promise<O>;
}

export type { CheckFailure } from "./forbiddenKeys";

/**
 * A copy of `props` without `key`. Written out because rest destructuring with a computed key
 * (`{ [key]: _, ...rest }`) takes a slow generic path in V8, and the provider does this on every call.
 */
export function omit(props: Props, key: string): Props {
  const out: Props = {};
  for (const k of Object.keys(props)) if (k !== key) out[k] = props[k];
  return out;
}

/** The engine's placeholder for a value not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Validates inputs; returns the properties the program gave, normalised (zod's output), with the check
 * stamp, or the failures. The defaults of properties left unset are not kept: the state would hold
 * each of them twice (inputs and outputs), and the engine writes the whole state after every step.
 * Create, update and diff fill them in (withDefaults).
 */
export function checkInputs(
  def: ResourceDefinition,
  news: Props,
  olds: Props = {},
): { inputs: Props; failures: CheckFailure[] } {
  const forbidden = forbiddenKeyFailures(news);
  if (forbidden.length) return { inputs: news, failures: forbidden };
  const result = def.inputs.safeParse(news);
  if (result.success) {
    const failures = def.validate?.(result.data, olds) ?? [];
    for (const secret of valuesAt(result.data, secretPaths(def.inputs))) registerSecret(secret);
    if (failures.length) return { inputs: news, failures };
    const parsed = result.data as Props;
    const inputs: Props = {};
    for (const key of Object.keys(news)) if (news[key] !== undefined) inputs[key] = parsed[key];
    if (def.checkStamp) Object.assign(inputs, def.checkStamp(result.data, Date.now()));
    return { inputs, failures };
  }
  const unknownKeys = Object.keys(news).filter((k) => containsUnknown(news[k]));
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

/**
 * The inputs with the schema's defaults filled in (zod's output for the schema's properties; other
 * keys, such as the check stamp, kept): what create and update send and what the diff compares, for
 * check stores only what the program gave. Inputs that do not parse (values not known yet, at
 * preview) are returned as they are.
 */
export function withDefaults(def: ResourceDefinition, props: Props): Props {
  const declared: Props = {};
  for (const key of propertyNames(def.inputs)) if (props[key] !== undefined) declared[key] = props[key];
  const result = def.inputs.safeParse(declared);
  return result.success ? { ...props, ...(result.data as Props) } : props;
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
  for (const rule of propertyRules(def)) {
    const { key } = rule;
    const next = news[key];
    if (containsUnknown(next)) {
      changed.push(key);
      continue;
    }
    if (next === undefined && rule.serverDefault) continue;
    const stored = withoutUnsetDefaults(rule.nestedDefaults, olds[key], next);
    if (!sameValue(stored, next, rule.isSet, rule.nestedSets)) changed.push(key);
  }
  const due = def.replacementsDue?.(olds, news) ?? [];
  for (const key of [...due, ...(def.updatesDue?.(olds, news) ?? [])])
    if (!changed.includes(key)) changed.push(key);
  const replaces = changed.filter((k) => def.replaceOnChanges?.includes(k) || due.includes(k));
  return {
    changes: changed.length > 0,
    changed,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && (def.deleteBeforeReplace ?? false),
  };
}

/** How the diff compares one input property, derived from the definition. */
interface PropertyRule {
  key: string;
  /** Unset in the program, it is the service's to fill in: not compared. */
  serverDefault: boolean;
  /** An array whose order has no meaning. */
  isSet: boolean;
  /** Set-valued arrays inside it (dotted, relative to it). */
  nestedSets: string[];
  /** Server-default fields inside it (relative to it). */
  nestedDefaults: string[];
}

/** Per definition, once: the diff runs for every resource of every `up`, the definition never changes. */
const rulesCache = new WeakMap<ResourceDefinition, PropertyRule[]>();

function propertyRules(def: ResourceDefinition): PropertyRule[] {
  let rules = rulesCache.get(def);
  if (!rules) {
    const below = (paths: string[] | undefined, key: string) =>
      (paths ?? []).filter((p) => p.startsWith(`${key}.`)).map((p) => p.slice(key.length + 1));
    rules = propertyNames(def.inputs).map((key) => ({
      key,
      serverDefault: def.serverDefaults?.includes(key) ?? false,
      isSet: def.setProperties?.includes(key) ?? false,
      nestedSets: below(def.setProperties, key),
      nestedDefaults: below(def.serverDefaults, key),
    }));
    rulesCache.set(def, rules);
  }
  return rules;
}

/** The stored value without the nested server-default `fields` that `next` leaves unset. */
function withoutUnsetDefaults(fields: string[], stored: unknown, next: unknown): unknown {
  if (fields.length === 0 || !isPlainObject(stored) || !isPlainObject(next)) return stored;
  const unset = fields.filter((field) => next[field] === undefined);
  if (unset.length === 0) return stored;
  const copy = { ...stored };
  for (const field of unset) delete copy[field];
  return copy;
}

/**
 * Deep equality where null, undefined, "", [] and {} are all "empty", and sets ignore order: the value
 * itself when `asSet`, and the arrays at `setPaths` (dotted, relative to it) inside it.
 */
export function sameValue(a: unknown, b: unknown, asSet = false, setPaths: string[] = []): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const [x, y] = asSet ? [sortedCopy(a), sortedCopy(b)] : [a, b];
    return x.every((item, i) => sameValue(item, y[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    // Every key of either side, without building a set of them (the diff runs for every resource).
    for (const k of Object.keys(a)) if (!sameAt(a, b, k, setPaths)) return false;
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k) && !sameAt(a, b, k, setPaths)) return false;
    return true;
  }
  return a === b;
}

function sameAt(a: Props, b: Props, k: string, setPaths: string[]): boolean {
  if (setPaths.length === 0) return sameValue(a[k], b[k]);
  const below = setPaths.filter((p) => p.startsWith(`${k}.`)).map((p) => p.slice(k.length + 1));
  return sameValue(a[k], b[k], setPaths.includes(k), below);
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
 * Copy on write: a value that is plain data already is returned as it is (the same object), and only
 * the objects and arrays on the way to a value that needs converting are copied. Every answer of
 * every call passes here, and most are plain JSON from the API: a deep copy of each was the largest
 * allocation left in the CRUD profile.
 */
export function toPlainData(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (Buffer.isBuffer(value)) return value.toString("base64");
  if (value instanceof Map) return toPlainData(Object.fromEntries(value));
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const plain = item === undefined ? undefined : toPlainData(item);
      if (out === undefined && (item === undefined || plain !== item)) out = value.slice(0, i);
      if (out !== undefined && item !== undefined) out.push(plain);
    }
    return out ?? value;
  }
  if (typeof value === "object") {
    const source = value as Props;
    const keys = Object.keys(source);
    let out: Props | undefined;
    for (let i = 0; i < keys.length; i++) {
      const v = source[keys[i]];
      const plain = v === undefined ? undefined : toPlainData(v);
      if (out === undefined && (v === undefined || plain !== v)) {
        out = {};
        for (let j = 0; j < i; j++) out[keys[j]] = source[keys[j]];
      }
      if (out !== undefined && v !== undefined) out[keys[i]] = plain;
    }
    return out ?? value;
  }
  return value;
}
