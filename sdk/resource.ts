// Builds the SDK class of a resource from its definition: typed args from the input schema, typed
// output properties from the input and output schemas, the dynamic provider of its kind, and the
// type token `pulumi-nodejs:dynamic/frontdoor:<Kind>` (shown as frontdoor:<Kind>).
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { dynamicProvider } from "../provider/dynamic";
import type { ResourceDefinition } from "../provider/resource";
import { propertyNames } from "../provider/shape";

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

type Union<T> = T extends unknown ? keyof T : never;
type StateOf<S extends z.ZodType, O extends z.ZodType> = {
  [K in Union<z.output<S>>]: z.output<S>[K];
} & z.output<O>;

export type ResourceClass<S extends z.ZodType, O extends z.ZodType> = new (
  name: string,
  args: Args<z.input<S>>,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource & OutputProperties<StateOf<S, O>>;

export const MODULE = "frontdoor";

export function resourceClass<S extends z.ZodType, O extends z.ZodType>(
  def: ResourceDefinition<any, any> & { inputs: S; outputs: O },
): ResourceClass<S, O> {
  // Output properties are registered for every key present in the props, so each one starts undefined.
  const outputKeys = [...propertyNames(def.inputs), ...propertyNames(def.outputs)];
  class FrontdoorResource extends pulumi.dynamic.Resource {
    constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
      const props: Record<string, unknown> = Object.fromEntries(outputKeys.map((k) => [k, undefined]));
      Object.assign(props, args);
      const secrets = [...(opts?.additionalSecretOutputs ?? []), ...(def.secretOutputs ?? [])];
      super(
        dynamicProvider(def.kind),
        name,
        props,
        { ...opts, additionalSecretOutputs: secrets },
        MODULE,
        def.kind,
      );
    }
  }
  return FrontdoorResource as unknown as ResourceClass<S, O>;
}
