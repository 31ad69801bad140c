// Lookups of existing Edge and Frontdoor objects for programs, one set per kind, built by `lookups` below:
//   getIdentity({ id } | { name })      -> Promise of the identity (an error when there is none)
//   getIdentityOutput({ id } | { name }) -> the same as an Output, taking Inputs
//   getIdentities({ filter })           -> Promise of { items } (ZitiQL, all pages; none: [])
//   getIdentitiesOutput({ filter })     -> the same as an Output
// Frontdoor kinds take `frontdoorId` (default: the config) and `name` (CustomFrontend: `hostname`) or `id`;
// their lists take `sort` instead of `filter`. A result has the shape of the kind's resource outputs,
// with the id. The lookups run in the program (a dynamic provider has no invoke), with the settings of the stack config `frontdoor:*`, else the
// environment, read at each call. The plain functions answer plain values, as Pulumi's plain invokes do;
// the Output variants mark the result secret when it holds a secret (e.g. an enrollment JWT).
import * as pulumi from "@pulumi/pulumi";
import type { DeepInput } from "./resource";
import { programSettings } from "./settings";
import type { GetIdentitiesArgs, GetIdentityArgs } from "./types.generated";
import { KINDS, type Kind, type KindTypes, type LookupTypes } from "./types.generated";

// Each lookup's own arguments and result types, named as Pulumi's SDKs name them (`getX`: `GetXArgs`, `GetXResult`).
export type {
  GetAuthPoliciesArgs,
  GetAuthPoliciesResult,
  GetAuthPolicyArgs,
  GetAuthPolicyResult,
  GetAuthProviderArgs,
  GetAuthProviderResult,
  GetAuthProvidersArgs,
  GetAuthProvidersResult,
  GetCaArgs,
  GetCaResult,
  GetCasArgs,
  GetCasResult,
  GetCertificateRequestTokenArgs,
  GetCertificateRequestTokenResult,
  GetCertificateRequestTokensArgs,
  GetCertificateRequestTokensResult,
  GetClientCertificateArgs,
  GetClientCertificateResult,
  GetClientCertificatesArgs,
  GetClientCertificatesResult,
  GetConfigArgs,
  GetConfigResult,
  GetConfigsArgs,
  GetConfigsResult,
  GetConfigTypeArgs,
  GetConfigTypeResult,
  GetConfigTypesArgs,
  GetConfigTypesResult,
  GetCustomFrontendArgs,
  GetCustomFrontendResult,
  GetCustomFrontendsArgs,
  GetCustomFrontendsResult,
  GetEdgeRouterArgs,
  GetEdgeRouterPoliciesArgs,
  GetEdgeRouterPoliciesResult,
  GetEdgeRouterPolicyArgs,
  GetEdgeRouterPolicyResult,
  GetEdgeRouterResult,
  GetEdgeRoutersArgs,
  GetEdgeRoutersResult,
  GetExternalJwtSignerArgs,
  GetExternalJwtSignerResult,
  GetExternalJwtSignersArgs,
  GetExternalJwtSignersResult,
  GetIdentitiesArgs,
  GetIdentitiesResult,
  GetIdentityArgs,
  GetIdentityResult,
  GetPostureCheckArgs,
  GetPostureCheckResult,
  GetPostureChecksArgs,
  GetPostureChecksResult,
  GetServiceArgs,
  GetServiceEdgeRouterPoliciesArgs,
  GetServiceEdgeRouterPoliciesResult,
  GetServiceEdgeRouterPolicyArgs,
  GetServiceEdgeRouterPolicyResult,
  GetServicePoliciesArgs,
  GetServicePoliciesResult,
  GetServicePolicyArgs,
  GetServicePolicyResult,
  GetServiceResult,
  GetServicesArgs,
  GetServicesResult,
} from "./types.generated";

/**
 * @deprecated Use the arguments type of the lookup, e.g. `GetIdentityArgs` or `GetServiceArgs` (the
 * same shape: `id` or `name`).
 */
export type LookupArgs = GetIdentityArgs;
/** @deprecated Use the arguments type of the list lookup, e.g. `GetIdentitiesArgs` (the same shape: `filter`). */
export type ListArgs = GetIdentitiesArgs;

/** What a lookup of a kind answers: the id and the state its resource shows as outputs. */
export type LookupResult<K extends Kind> = { id: string } & KindTypes[K]["state"];

/** The four lookup functions of a kind, typed with its `Get<Kind>Args`, `Get<Kind>Result`, ... */
export interface Lookups<T extends LookupTypes[keyof LookupTypes]> {
  get(args: T["args"]): Promise<T["result"]>;
  getOutput(args: DeepInput<T["args"]>): pulumi.Output<T["result"]>;
  list(args?: T["listArgs"]): Promise<T["listResult"]>;
  listOutput(args?: DeepInput<T["listArgs"]>): pulumi.Output<T["listResult"]>;
}

/** How a kind's objects are found: the Edge lookups or the Frontdoor ones (provider/functions/). */
interface Finder {
  lookup(kind: string, args: unknown, settings: ReturnType<typeof programSettings>): Promise<unknown>;
  list(kind: string, args: unknown, settings: ReturnType<typeof programSettings>): Promise<unknown>;
}

/** The provider's lookups (HTTP client, validation), loaded at the first call, not with the SDK. */
const edgeFinder = (): Finder => require("../provider/functions/lookups");
const frontdoorFinder = (): Finder => {
  const fd: typeof import("../provider/functions/frontdoorLookups") = require("../provider/functions/frontdoorLookups");
  return {
    lookup: (kind, args, settings) => fd.lookupFrontdoor(kind as never, args as never, settings),
    list: (kind, args, settings) => fd.listFrontdoor(kind as never, args as never, settings),
  };
};

/** The four lookup functions of a kind. */
function lookups<K extends keyof LookupTypes>(
  kind: K,
  impl: () => Finder = edgeFinder,
): Lookups<LookupTypes[K]> {
  type T = LookupTypes[K];
  const secrets = KINDS[kind].lookupSecrets as readonly string[];
  const holdsSecret = (item: object) => secrets.some((key) => (item as Record<string, unknown>)[key] != null);
  /** The value as an Output, secret when one of its objects holds a secret value. */
  const guarded = <V>(value: Promise<V>, items: (value: V) => object[]) =>
    pulumi
      .output(value)
      .apply((v) => (items(v as V).some(holdsSecret) ? pulumi.secret(v) : v)) as pulumi.Output<V>;
  const get = (args: T["args"]) =>
    impl().lookup(kind, args, programSettings()) as unknown as Promise<T["result"]>;
  const getList = (args: T["listArgs"] = {}) =>
    impl().list(kind, args, programSettings()) as unknown as Promise<T["listResult"]>;
  return {
    get,
    getOutput: (args) => pulumi.output(args).apply((plain) => guarded(get(plain as T["args"]), (r) => [r])),
    list: getList,
    listOutput: (args) =>
      pulumi
        .output((args ?? {}) as pulumi.Input<object>)
        .apply((plain) => guarded(getList(plain as T["listArgs"]), (r) => r.items)),
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

/**
 * Auth providers of a frontdoor (the config `frontdoor:frontdoorId` unless `frontdoorId` is given):
 * `getAuthProvider({ name: "corp-sso" })`, `getAuthProviders({ sort: "name,desc" })`. `data` holds the
 * secret `client_secret` or `api_key`.
 */
export const {
  get: getAuthProvider,
  getOutput: getAuthProviderOutput,
  list: getAuthProviders,
  listOutput: getAuthProvidersOutput,
} = lookups("AuthProvider", frontdoorFinder);

/** Client certificates of a frontdoor, by id or name, or all of them (every page, sorted by `sort`). */
export const {
  get: getClientCertificate,
  getOutput: getClientCertificateOutput,
  list: getClientCertificates,
  listOutput: getClientCertificatesOutput,
} = lookups("ClientCertificate", frontdoorFinder);

/** Certificate request tokens of a frontdoor (`token` is a secret). */
export const {
  get: getCertificateRequestToken,
  getOutput: getCertificateRequestTokenOutput,
  list: getCertificateRequestTokens,
  listOutput: getCertificateRequestTokensOutput,
} = lookups("CertificateRequestToken", frontdoorFinder);

/** Custom frontends of a frontdoor, by id or hostname: `getCustomFrontend({ hostname: "app.example.com" })`. */
export const {
  get: getCustomFrontend,
  getOutput: getCustomFrontendOutput,
  list: getCustomFrontends,
  listOutput: getCustomFrontendsOutput,
} = lookups("CustomFrontend", frontdoorFinder);
