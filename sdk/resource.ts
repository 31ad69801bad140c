// Builds the SDK class of a resource from its kind: typed args and output properties from the plain types
// generated from its definition (types.generated.ts), the dynamic provider of its kind, and the type token
// `pulumi-nodejs:dynamic/frontdoor:<Kind>` (shown as frontdoor:<Kind>). The program loads no zod and no
// provider code beyond the tiny provider object: what the class needs at run time is generated data.
import * as pulumi from "@pulumi/pulumi";
import { dynamicProvider } from "../provider/dynamic";
import { expiryWarning } from "../provider/expiry";
import { forbiddenKeyFailures } from "../provider/forbiddenKeys";
import { programSettings } from "./settings";
import { KINDS, type Kind, type KindInfo, type KindTypes } from "./types.generated";

/** A value, or a Pulumi Input of it, at every level (a secret may sit deep inside an object). */
export type DeepInput<T> = T extends (infer E)[]
  ? pulumi.Input<DeepInput<E>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** `frontdoorId` may be left out: it defaults to the config `frontdoor:frontdoorId`. */
type ScopeOptional<T> = T extends { frontdoorId: unknown }
  ? Omit<T, "frontdoorId"> & { frontdoorId?: T["frontdoorId"] }
  : T;

/** Resource arguments: each property a DeepInput (distributed over union members). */
export type Args<T> = T extends unknown
  ? { [K in keyof ScopeOptional<T>]: DeepInput<ScopeOptional<T>[K]> }
  : never;

/** Every property of the resource's state, as an Output. */
export type OutputProperties<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

/** An instance of the resource class of kind K: a dynamic resource with every state key as an Output. */
export type ResourceInstance<K extends Kind> = pulumi.dynamic.Resource &
  OutputProperties<KindTypes[K]["state"]>;

export interface ResourceClass<K extends Kind> {
  new (
    name: string,
    args: Args<KindTypes[K]["inputs"]>,
    opts?: pulumi.CustomResourceOptions,
  ): ResourceInstance<K>;
  /**
   * An existing object as a resource of the program, read by the provider (the kind's `read`, as a refresh
   * does) and never created, updated or deleted by it: Pulumi's `Resource.get`. `id` is the object's id
   * (Frontdoor kinds: `<frontdoorId>/<id>`, or the plain id within `frontdoor:frontdoorId`).
   */
  get<T extends ResourceInstance<K>>(
    this: new (
      name: string,
      args: never,
      opts?: pulumi.CustomResourceOptions,
    ) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): T;
  /**
   * Whether `obj` is a resource of this kind, also when made by another copy of this package (it compares
   * the resource type, as Pulumi's generated classes do, not the prototype chain).
   */
  isInstance<T extends ResourceInstance<K>>(
    this: new (
      name: string,
      args: never,
      opts?: pulumi.CustomResourceOptions,
    ) => T,
    obj: unknown,
  ): obj is T;
}

export const MODULE = "frontdoor";

/** The resource type of a kind's dynamic resources: `pulumi-nodejs:dynamic/frontdoor:<Kind>`. */
export const resourceType = (kind: string) => `pulumi-nodejs:dynamic/${MODULE}:${kind}`;

export function resourceClass<K extends Kind>(kind: K): ResourceClass<K> {
  const info: KindInfo = KINDS[kind];
  const secretInputPaths = info.secretInputPaths.map((path) => path.split("."));
  const type = resourceType(kind);
  class FrontdoorResource extends pulumi.dynamic.Resource {
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
      // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the program calls it on (`Identity.get`), so `instanceof Identity` holds.
      const Class = this as unknown as new (
        name: string,
        args: Record<string, unknown>,
        opts?: pulumi.CustomResourceOptions,
      ) => FrontdoorResource;
      return new Class(name, {}, { ...opts, id });
    }

    static isInstance(obj: unknown): obj is FrontdoorResource {
      return (
        obj !== null && typeof obj === "object" && (obj as { __pulumiType?: unknown }).__pulumiType === type
      );
    }

    constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
      refuseForbiddenKeys(kind, name, args);
      // Output properties are registered for every key present in the props, so each one starts undefined.
      const props: Record<string, unknown> = Object.fromEntries(info.outputKeys.map((k) => [k, undefined]));
      Object.assign(props, secretInputPaths.reduce(secretAt, args));
      const secrets = [...(opts?.additionalSecretOutputs ?? []), ...info.secretOutputs];
      super(dynamicProvider(kind), name, props, { ...opts, additionalSecretOutputs: secrets }, MODULE, kind);
      if (info.expiry) warnNearExpiry(this, kind, name, info.expiry);
    }
  }
  return FrontdoorResource as unknown as ResourceClass<K>;
}

/** When this program run started (the module loads as the program starts): see provider/expiry.ts. */
const RUN_STARTED_AT = Date.now();

/**
 * A warning at preview and up for an object near or past its expiry, attached to the resource. The
 * expiry comes from the state (known in preview for existing objects), judged by the program's clock.
 */
function warnNearExpiry(
  resource: pulumi.Resource,
  kind: string,
  name: string,
  expiry: NonNullable<KindInfo["expiry"]>,
): void {
  const setting = programSettings().expiryWarningDays;
  const outputs = resource as unknown as Record<string, pulumi.Output<unknown>>;
  // Only outputs in the list: a plain `undefined` there leaves the whole list unknown at preview.
  const facts = expiry.issuedAt ? [outputs[expiry.at], outputs[expiry.issuedAt]] : [outputs[expiry.at]];
  pulumi.all(facts).apply(([expiresAt, issued]) => {
    const message = expiryWarning(expiry, {
      label: `${kind} "${name}"`,
      expiresAt,
      issuedAt: issued,
      setting,
      runStartedAt: RUN_STARTED_AT,
      now: Date.now(),
    });
    if (message) pulumi.log.warn(message, resource);
  });
}

/**
 * Marks the value at `path` secret, so a secret input given as a plain value is stored as a secret
 * too (inputs and outputs). Where a part of the path is an Output or a Promise, the part as a whole is
 * marked: what is inside cannot be reached before it resolves, and it holds the secret.
 */
export function secretAt(value: any, path: string[]): any {
  if (value === undefined || value === null) return value;
  if (path.length === 0 || pulumi.Output.isInstance(value) || typeof value?.then === "function")
    return pulumi.secret(value);
  if (Array.isArray(value)) return value.map((item) => secretAt(item, path));
  if (typeof value !== "object" || !(path[0] in value)) return value;
  return { ...value, [path[0]]: secretAt(value[path[0]], path.slice(1)) };
}

/**
 * `__proto__` and `constructor` keys in the known parts of the arguments: the provider refuses them at
 * check, but the transport may drop a `__proto__` key on the way there, so the program refuses first.
 */
function refuseForbiddenKeys(kind: string, name: string, args: Record<string, unknown>): void {
  const failures = forbiddenKeyFailures(knownPart(args));
  if (failures.length)
    throw new Error(`${kind} "${name}": ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
}

/** Plain data of a value, with Outputs and Promises left out (checked by the provider when resolved). */
function knownPart(value: any): unknown {
  if (pulumi.Output.isInstance(value) || typeof value?.then === "function") return undefined;
  if (Array.isArray(value)) return value.map(knownPart);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value));
  // defineProperty: assigning to a `__proto__` key would set the prototype (or do nothing) instead.
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, { value: knownPart(item), enumerable: true, writable: true });
  return out;
}
