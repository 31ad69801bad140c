import type { z } from "zod";
import { type ConfigInputs, config } from "../provider/resources/config";
import type {
  HostV1Data as HostV1,
  HostV2Data as HostV2,
  InterceptV1Data as InterceptV1,
} from "../provider/resources/configData";
import { type Args, resourceClass } from "./resource";

export type ConfigArgs = Args<z.input<typeof ConfigInputs>>;
/** `data` of an intercept.v1 config (checked at preview). */
export type InterceptV1Data = z.input<typeof InterceptV1>;
/** `data` of a host.v1 config (checked at preview). */
export type HostV1Data = z.input<typeof HostV1>;
/** `data` of a host.v2 config (checked at preview). */
export type HostV2Data = z.input<typeof HostV2>;

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
export class Config extends resourceClass(config) {}
