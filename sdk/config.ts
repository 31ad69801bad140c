import { type Args, resourceClass } from "./resource";
import type { ConfigInputs } from "./types.generated";

export type { HealthCheckAction, HostV1Data, HostV2Data, InterceptV1Data } from "./types.generated";
export type ConfigArgs = Args<ConfigInputs>;

/**
 * An OpenZiti config (`frontdoor:index:Config`): data of a config type, attached to services through their
 * `configs`. Select the type by name (`configTypeName`, looked up on the controller) or by id
 * (`configTypeId`); a change of type replaces the config. intercept.v1, host.v1 and host.v2 data is checked
 * at preview, naming the property; other types' data by the controller against the type's schema.
 *
 * ```ts
 * const interceptData: frontdoor.InterceptV1Data = {
 *   protocols: ["tcp"],
 *   addresses: ["app.ziti"],
 *   portRanges: [{ low: 443, high: 443 }],
 * };
 * const intercept = new frontdoor.Config("app-intercept", {
 *   name: "app-intercept",
 *   configTypeName: "intercept.v1",
 *   data: interceptData,
 * });
 * ```
 */
export class Config extends resourceClass("Config") {}
