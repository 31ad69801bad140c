// The resources a policy pack sees, in the terms our rules read them. A resource of this package
// reaches a policy in one of two shapes:
// - the provider plugin's: type `frontdoor:index:<Kind>`, props = its inputs (or its state);
// - the dynamic provider's: type `pulumi-nodejs:dynamic/frontdoor:<Kind>` (sdk/resource.ts gives
//   `pulumi.dynamic.Resource` the module `frontdoor` and the kind as its type), props = its inputs plus
//   `__provider`, the serialized provider (`require(".../provider/kinds/<Kind>.js")`, provider/dynamic.ts).
//   A dynamic resource without module and type (`pulumi-nodejs:dynamic:Resource`) is someone else's:
//   ours always have both, so the type token alone tells them apart and `__provider` is never read.
//
// @pulumi/policy hands props behind proxies: one throws on reading a value that is unknown in a preview
// (the whole policy is then skipped, with an advisory note: a guardrail that fails open), one unwraps
// secrets. Our rules must go on with what is known (an `@<id>` of an object not created yet is unknown,
// yet the access it grants is the point), so `plain` takes the values from behind the proxies and turns
// every unknown into UNKNOWN_VALUE: a symbol, not a string, so no rule can compare it as the engine's
// marker string (a program that writes the marker as a literal gets an unknown, judged as one).
// The marker strings are read here, and nowhere else in the rules.

/** A resource of this package as the rules read it. */
export interface PolicyResource {
  kind: string;
  /** The Pulumi resource name (the last part of the URN). */
  name: string;
  urn: string;
  /** Plain data: secrets unwrapped, unknown values replaced by UNKNOWN_VALUE. */
  props: Record<string, any>;
  /** Property -> the URNs its value was computed from (stack rules only; empty otherwise). */
  propertyDependencies: Record<string, string[]>;
  dependencies: string[];
}

/** What @pulumi/policy passes for one resource (resource and stack validations share these fields). */
export interface AnalyzedResource {
  type: string;
  urn: string;
  name: string;
  props: Record<string, any>;
  dependencies?: { urn: string }[];
  propertyDependencies?: Record<string, { urn: string }[]>;
}

/** The kind (`Identity`, ...) of a resource of this package from its type token; undefined otherwise. */
export function kindOf(type: string): string | undefined {
  return /^(?:frontdoor:index|pulumi-nodejs:dynamic\/frontdoor):([A-Z]\w*)$/.exec(type)?.[1];
}

/** A value unknown in the preview, as the rules read it. */
export const UNKNOWN_VALUE: unique symbol = Symbol("unknown in the preview");
export type Unknown = typeof UNKNOWN_VALUE;

/** Whether a value (not its elements) is unknown. */
export const isUnknown = (value: unknown): value is Unknown => value === UNKNOWN_VALUE;

// Pulumi's sentinels for a value unknown in a preview, one per type (@pulumi/policy's proxy.ts).
const UNKNOWN_SENTINELS = new Set([
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9", // string
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
  "030794c1-ac77-496b-92df-f27374a8bd58", // asset
  "e48ece36-62e2-4504-bad9-02848725956a", // archive
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
]);

// The keys @pulumi/policy's proxies answer to (its proxy.ts): "is this a proxy" and "what is behind it".
const IS_PROXY = "__isSpecialProxy";
const PROXY_TARGET = "__getSpecialProxyTarget";

/** A value as plain data: proxies looked behind, secrets unwrapped, unknowns as UNKNOWN_VALUE. */
export function plain(value: unknown): any {
  let v: any = value;
  while (v !== null && typeof v === "object" && v[IS_PROXY] === true) v = v[PROXY_TARGET];
  if (typeof v === "string") return UNKNOWN_SENTINELS.has(v) ? UNKNOWN_VALUE : v;
  if (v === null || typeof v !== "object") return v;
  // @pulumi/policy's Secret: a class instance holding the value (the stack validations' props).
  if (v.constructor?.name === "Secret" && "value" in v) return plain(v.value);
  if (Array.isArray(v)) return v.map(plain);
  return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, plain(item)]));
}

/** The resource as the rules read it, or undefined when it is not one of this package. */
export function policyResource(r: AnalyzedResource): PolicyResource | undefined {
  const kind = kindOf(r.type);
  if (!kind) return undefined;
  const urns = (list: { urn: string }[] | undefined) => (list ?? []).map((d) => d.urn);
  return {
    kind,
    name: r.name,
    urn: r.urn,
    props: plain(r.props) ?? {},
    dependencies: urns(r.dependencies),
    propertyDependencies: Object.fromEntries(
      Object.entries(r.propertyDependencies ?? {}).map(([k, list]) => [k, urns(list)]),
    ),
  };
}

/** Whether a value is known (not UNKNOWN_VALUE, and for a list or an object, none of its members). */
export function known(value: unknown): boolean {
  if (isUnknown(value)) return false;
  if (Array.isArray(value)) return value.every(known);
  if (value !== null && typeof value === "object") return Object.values(value).every(known);
  return true;
}
