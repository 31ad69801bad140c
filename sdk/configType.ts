import { type Args, resourceClass } from "./resource";
import type { ConfigTypeInputs } from "./types.generated";

export type ConfigTypeArgs = Args<ConfigTypeInputs>;

/**
 * An OpenZiti config type (`frontdoor:index:ConfigType`): a JSON schema that the data of configs of this
 * type must satisfy. The built-in types (intercept.v1, host.v1, host.v2) need no declaration.
 *
 * ```ts
 * const proxyType = new frontdoor.ConfigType("proxy-type", {
 *   name: "acme-proxy.v1",
 *   schema: {
 *     type: "object",
 *     properties: { upstream: { type: "string" } },
 *     required: ["upstream"],
 *   },
 * });
 * ```
 */
export class ConfigType extends resourceClass("ConfigType") {}
