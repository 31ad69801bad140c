// Lookups of existing Edge objects for programs, one set per Edge kind, all built by `lookups` below:
//   getIdentity({ id } | { name })      -> Promise of the identity (an error when there is none)
//   getIdentityOutput({ id } | { name }) -> the same as an Output, taking Inputs
//   getIdentities({ filter })           -> Promise of { items } (ZitiQL, all pages; none: [])
//   getIdentitiesOutput({ filter })     -> the same as an Output
// A result has the shape of the kind's resource outputs, with the id. The lookups run in the program
// (a dynamic provider has no invoke), with the settings of the stack config `frontdoor:*`, else the
// environment, read at each call. The plain functions answer plain values, as Pulumi's plain invokes do;
// the Output variants mark the result secret when it holds a secret (e.g. an enrollment JWT).
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import {
  type ListArgs,
  type LookupArgs,
  type LookupKind,
  list,
  lookup,
  secretKeys,
} from "../provider/functions/lookups";
import type { ResourceDefinition } from "../provider/resource";
import { authPolicy } from "../provider/resources/authPolicy";
import { ca } from "../provider/resources/ca";
import { config } from "../provider/resources/config";
import { configType } from "../provider/resources/configType";
import { edgeRouter } from "../provider/resources/edgeRouter";
import { edgeRouterPolicy } from "../provider/resources/edgeRouterPolicy";
import { externalJwtSigner } from "../provider/resources/externalJwtSigner";
import { identity } from "../provider/resources/identity";
import { postureCheck } from "../provider/resources/postureCheck";
import { service } from "../provider/resources/service";
import { serviceEdgeRouterPolicy } from "../provider/resources/serviceEdgeRouterPolicy";
import { servicePolicy } from "../provider/resources/servicePolicy";
import type { DeepInput, StateOf } from "./resource";
import { programSettings } from "./settings";

export type { ListArgs, LookupArgs } from "../provider/functions/lookups";

type Definition = ResourceDefinition<any, any> & { inputs: z.ZodType; outputs: z.ZodType };
/** Without index signatures (an empty zod object's output has one), so Outputs of it lift each property. */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** What a lookup of a kind answers: the id and the state its resource shows as outputs. */
export type LookupResult<D extends Definition> = Known<{ id: string } & StateOf<D["inputs"], D["outputs"]>>;

export interface Lookups<R> {
  get(args: LookupArgs): Promise<R>;
  getOutput(args: DeepInput<LookupArgs>): pulumi.Output<R>;
  list(args?: ListArgs): Promise<{ items: R[] }>;
  listOutput(args?: DeepInput<ListArgs>): pulumi.Output<{ items: R[] }>;
}

/** The four lookup functions of a kind. */
function lookups<D extends Definition>(def: D): Lookups<LookupResult<D>> {
  type R = LookupResult<D>;
  const kind = def.kind as LookupKind;
  const secrets = secretKeys(def);
  const holdsSecret = (item: Record<string, unknown>) =>
    secrets.some((key) => item[key] !== null && item[key] !== undefined);
  /** The value as an Output, secret when one of its objects holds a secret value. */
  const guarded = <T>(value: Promise<T>, items: (value: T) => Record<string, unknown>[]) =>
    pulumi
      .output(value)
      .apply((v) => (items(v as T).some(holdsSecret) ? pulumi.secret(v) : v)) as pulumi.Output<T>;
  const get = (args: LookupArgs) => lookup(kind, args, programSettings()) as Promise<R>;
  const getList = (args: ListArgs = {}) => list(kind, args, programSettings()) as Promise<{ items: R[] }>;
  return {
    get,
    getOutput: (args) => pulumi.output(args).apply((plain) => guarded(get(plain as LookupArgs), (r) => [r])),
    list: getList,
    listOutput: (args = {}) =>
      pulumi.output(args).apply((plain) => guarded(getList(plain as ListArgs), (r) => r.items)),
  };
}

/**
 * Identities: `getIdentity({ name: "alice" })`, `getIdentities({ filter: 'anyOf(roleAttributes) = "ops"' })`.
 * `enrollmentJwt` and `enrollmentToken` are secrets.
 */
export const {
  get: getIdentity,
  getOutput: getIdentityOutput,
  list: getIdentities,
  listOutput: getIdentitiesOutput,
} = lookups(identity);

/**
 * Auth policies, e.g. the controller's own: `getAuthPolicyOutput({ id: "default" })`.
 *
 * ```ts
 * const byDefault = frontdoor.getAuthPolicyOutput({ id: "default" });
 * new frontdoor.Identity("bob", { name: "bob", authPolicyId: byDefault.id });
 * ```
 */
export const {
  get: getAuthPolicy,
  getOutput: getAuthPolicyOutput,
  list: getAuthPolicies,
  listOutput: getAuthPoliciesOutput,
} = lookups(authPolicy);

/** Edge router policies. */
export const {
  get: getEdgeRouterPolicy,
  getOutput: getEdgeRouterPolicyOutput,
  list: getEdgeRouterPolicies,
  listOutput: getEdgeRouterPoliciesOutput,
} = lookups(edgeRouterPolicy);

/** Certificate authorities (`verificationToken` is a secret). */
export const { get: getCa, getOutput: getCaOutput, list: getCas, listOutput: getCasOutput } = lookups(ca);

/** Edge routers (`enrollmentJwt` and `enrollmentToken` are secrets). */
export const {
  get: getEdgeRouter,
  getOutput: getEdgeRouterOutput,
  list: getEdgeRouters,
  listOutput: getEdgeRoutersOutput,
} = lookups(edgeRouter);

/** External JWT signers, e.g. for an AuthPolicy's `allowedSigners`. */
export const {
  get: getExternalJwtSigner,
  getOutput: getExternalJwtSignerOutput,
  list: getExternalJwtSigners,
  listOutput: getExternalJwtSignersOutput,
} = lookups(externalJwtSigner);

/** Posture checks (every typeId; the fields of the check's type are set). */
export const {
  get: getPostureCheck,
  getOutput: getPostureCheckOutput,
  list: getPostureChecks,
  listOutput: getPostureChecksOutput,
} = lookups(postureCheck);

/** Services. */
export const {
  get: getService,
  getOutput: getServiceOutput,
  list: getServices,
  listOutput: getServicesOutput,
} = lookups(service);

/** Service policies (Dial and Bind). */
export const {
  get: getServicePolicy,
  getOutput: getServicePolicyOutput,
  list: getServicePolicies,
  listOutput: getServicePoliciesOutput,
} = lookups(servicePolicy);

/** Service edge router policies. */
export const {
  get: getServiceEdgeRouterPolicy,
  getOutput: getServiceEdgeRouterPolicyOutput,
  list: getServiceEdgeRouterPolicies,
  listOutput: getServiceEdgeRouterPoliciesOutput,
} = lookups(serviceEdgeRouterPolicy);

/** Configs. */
export const {
  get: getConfig,
  getOutput: getConfigOutput,
  list: getConfigs,
  listOutput: getConfigsOutput,
} = lookups(config);

/** Config types, e.g. the built-in `intercept.v1`: `getConfigType({ name: "intercept.v1" })`. */
export const {
  get: getConfigType,
  getOutput: getConfigTypeOutput,
  list: getConfigTypes,
  listOutput: getConfigTypesOutput,
} = lookups(configType);
