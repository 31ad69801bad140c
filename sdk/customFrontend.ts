import { type Args, resourceClass } from "./resource";
import type { CustomFrontendInputs } from "./types.generated";

export type CustomFrontendArgs = Args<CustomFrontendInputs>;

/**
 * A custom frontend (`frontdoor:index:CustomFrontend`): a hostname you own, served by the frontdoor.
 * Create waits until `dnsRecords` can be read (and, with `waitForActive`, until `status` is ACTIVE).
 * `dnsRecords.aRecord` (`name`, `ipAddresses`) and `dnsRecords.cnameRecords` (`name`, `value`) feed DNS
 * resources directly. Changing `hostname` replaces the frontend.
 *
 * ```ts
 * const web = new frontdoor.CustomFrontend("apps", {
 *   hostname: "apps.example.com",
 *   authProviderIds: [sso.id],
 * });
 * export const dnsRecords = web.dnsRecords;
 * ```
 */
export class CustomFrontend extends resourceClass("CustomFrontend") {}
