// Event data queries for programs and scripts. The plain functions return Promises (for scripts, or
// inside `apply`); the `...Output` variants take Inputs and return Outputs, following Pulumi's
// `fooOutput` convention. Both run in the calling process: a dynamic provider has no invoke, and a query
// holds no state, so there is nothing for the engine to do.
import * as pulumi from "@pulumi/pulumi";
import type { DeepInput } from "./resource";
import type {
  GetTopTalkersArgs,
  GetTopTalkersResult,
  SearchAlertsArgs,
  SearchAlertsResult,
} from "./types.generated";

export type {
  GetTopTalkersArgs,
  GetTopTalkersResult,
  SearchAlertsArgs,
  SearchAlertsResult,
} from "./types.generated";
/** @deprecated Use `GetTopTalkersArgs` (Pulumi's name for the arguments of `getTopTalkers`). */
export type TopTalkersArgs = GetTopTalkersArgs;
/** @deprecated Use `GetTopTalkersResult` (Pulumi's name for the result of `getTopTalkers`). */
export type TopTalkersResult = GetTopTalkersResult;
/** One alert of `searchAlerts`. */
export type Alert = SearchAlertsResult["alerts"][number];

/** The provider's queries (search client), loaded at the first call, not with the SDK. */
const events = (): typeof import("../provider/functions/events") => require("../provider/functions/events");

/**
 * The sources that transmitted the most in a time window (default the last 24 h), each with its
 * addresses that received the most.
 *
 * ```ts
 * const { sources } = await frontdoor.getTopTalkers({ from: "now-1h", size: 5 });
 * ```
 */
export function getTopTalkers(args: GetTopTalkersArgs = {}): Promise<GetTopTalkersResult> {
  return events().getTopTalkers(args);
}

/** Alerts, newest first, optionally filtered by severity and event source type. */
export function searchAlerts(args: SearchAlertsArgs = {}): Promise<SearchAlertsResult> {
  return events().searchAlerts(args);
}

/** `getTopTalkers` with Input arguments, as an Output (secret when an argument is secret). */
export function getTopTalkersOutput(
  args: DeepInput<GetTopTalkersArgs> = {},
): pulumi.Output<GetTopTalkersResult> {
  return pulumi.output(args).apply((plain) => events().getTopTalkers(plain as GetTopTalkersArgs));
}

/** `searchAlerts` with Input arguments, as an Output (secret when an argument is secret). */
export function searchAlertsOutput(
  args: DeepInput<SearchAlertsArgs> = {},
): pulumi.Output<SearchAlertsResult> {
  return pulumi.output(args).apply((plain) => events().searchAlerts(plain as SearchAlertsArgs));
}
