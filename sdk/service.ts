import { type Args, resourceClass } from "./resource";
import type { ServiceInputs } from "./types.generated";

export type ServiceArgs = Args<ServiceInputs>;

/**
 * An OpenZiti service (`frontdoor:index:Service`): what identities dial or bind, selected by service
 * policies through its `roleAttributes` (a set). `configs` holds the ids of its configs (at most one per
 * config type). `encryptionRequired` (default true) is fixed at creation: a change replaces the service.
 *
 * ```ts
 * const app = new frontdoor.Service("app", {
 *   name: "app",
 *   roleAttributes: ["app"],
 *   configs: [intercept.id, host.id],
 * });
 * ```
 */
export class Service extends resourceClass("Service") {}
