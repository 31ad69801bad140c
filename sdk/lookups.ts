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
import type { DeepInput } from "./resource";
import { programSettings } from "./settings";
import { KINDS, type Kind, type KindTypes, type ListArgs, type LookupArgs } from "./types.generated";

export type { ListArgs, LookupArgs } from "./types.generated";

/** What a lookup of a kind answers: the id and the state its resource shows as outputs. */
export type LookupResult<K extends Kind> = { id: string } & KindTypes[K]["state"];

export interface Lookups<R> {
  get(args: LookupArgs): Promise<R>;
  getOutput(args: DeepInput<LookupArgs>): pulumi.Output<R>;
  list(args?: ListArgs): Promise<{ items: R[] }>;
  listOutput(args?: DeepInput<ListArgs>): pulumi.Output<{ items: R[] }>;
}

/** The provider's lookups (HTTP client, validation), loaded at the first call, not with the SDK. */
const impl = (): typeof import("../provider/functions/lookups") => require("../provider/functions/lookups");

/** The four lookup functions of a kind. */
function lookups<K extends Kind & import("../provider/functions/lookups").LookupKind>(
  kind: K,
): Lookups<LookupResult<K>> {
  type R = LookupResult<K>;
  const secrets = KINDS[kind].lookupSecrets as readonly string[];
  const holdsSecret = (item: object) => secrets.some((key) => (item as Record<string, unknown>)[key] != null);
  /** The value as an Output, secret when one of its objects holds a secret value. */
  const guarded = <T>(value: Promise<T>, items: (value: T) => object[]) =>
    pulumi
      .output(value)
      .apply((v) => (items(v as T).some(holdsSecret) ? pulumi.secret(v) : v)) as pulumi.Output<T>;
  const get = (args: LookupArgs) => impl().lookup(kind, args, programSettings()) as unknown as Promise<R>;
  const getList = (args: ListArgs = {}) =>
    impl().list(kind, args, programSettings()) as unknown as Promise<{ items: R[] }>;
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
} = lookups("Identity");

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
} = lookups("AuthPolicy");

/** Edge router policies. */
export const {
  get: getEdgeRouterPolicy,
  getOutput: getEdgeRouterPolicyOutput,
  list: getEdgeRouterPolicies,
  listOutput: getEdgeRouterPoliciesOutput,
} = lookups("EdgeRouterPolicy");

/** Certificate authorities (`verificationToken` is a secret). */
export const { get: getCa, getOutput: getCaOutput, list: getCas, listOutput: getCasOutput } = lookups("Ca");

/** Edge routers (`enrollmentJwt` and `enrollmentToken` are secrets). */
export const {
  get: getEdgeRouter,
  getOutput: getEdgeRouterOutput,
  list: getEdgeRouters,
  listOutput: getEdgeRoutersOutput,
} = lookups("EdgeRouter");

/** External JWT signers, e.g. for an AuthPolicy's `allowedSigners`. */
export const {
  get: getExternalJwtSigner,
  getOutput: getExternalJwtSignerOutput,
  list: getExternalJwtSigners,
  listOutput: getExternalJwtSignersOutput,
} = lookups("ExternalJwtSigner");

/** Posture checks (every typeId; the fields of the check's type are set). */
export const {
  get: getPostureCheck,
  getOutput: getPostureCheckOutput,
  list: getPostureChecks,
  listOutput: getPostureChecksOutput,
} = lookups("PostureCheck");

/** Services. */
export const {
  get: getService,
  getOutput: getServiceOutput,
  list: getServices,
  listOutput: getServicesOutput,
} = lookups("Service");

/** Service policies (Dial and Bind). */
export const {
  get: getServicePolicy,
  getOutput: getServicePolicyOutput,
  list: getServicePolicies,
  listOutput: getServicePoliciesOutput,
} = lookups("ServicePolicy");

/** Service edge router policies. */
export const {
  get: getServiceEdgeRouterPolicy,
  getOutput: getServiceEdgeRouterPolicyOutput,
  list: getServiceEdgeRouterPolicies,
  listOutput: getServiceEdgeRouterPoliciesOutput,
} = lookups("ServiceEdgeRouterPolicy");

/** Configs. */
export const {
  get: getConfig,
  getOutput: getConfigOutput,
  list: getConfigs,
  listOutput: getConfigsOutput,
} = lookups("Config");

/** Config types, e.g. the built-in `intercept.v1`: `getConfigType({ name: "intercept.v1" })`. */
export const {
  get: getConfigType,
  getOutput: getConfigTypeOutput,
  list: getConfigTypes,
  listOutput: getConfigTypesOutput,
} = lookups("ConfigType");
