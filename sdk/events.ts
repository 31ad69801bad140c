// Event data queries for programs and scripts. The plain functions return Promises (for scripts, or
// inside `apply`); the `...Output` variants take Inputs and return Outputs, following Pulumi's
// `fooOutput` convention. Both run in the calling process: a dynamic provider has no invoke, and a query
// holds no state, so there is nothing for the engine to do.
import * as pulumi from "@pulumi/pulumi";
import * as events from "../provider/functions/events";
import type { DeepInput } from "./resource";

export type {
  Alert,
  SearchAlertsArgs,
  SearchAlertsResult,
  TopTalkersArgs,
  TopTalkersResult,
} from "../provider/functions/events";

/**
 * The sources that transmitted the most in a time window (default the last 24 h), each with its
 * addresses that received the most.
 *
 * ```ts
 * const { sources } = await frontdoor.getTopTalkers({ from: "now-1h", size: 5 });
 * ```
 */
export function getTopTalkers(args: events.TopTalkersArgs = {}): Promise<events.TopTalkersResult> {
  return events.getTopTalkers(args);
}

/** Alerts, newest first, optionally filtered by severity and event source type. */
export function searchAlerts(args: events.SearchAlertsArgs = {}): Promise<events.SearchAlertsResult> {
  return events.searchAlerts(args);
}

/** `getTopTalkers` with Input arguments, as an Output (secret when an argument is secret). */
export function getTopTalkersOutput(
  args: DeepInput<events.TopTalkersArgs> = {},
): pulumi.Output<events.TopTalkersResult> {
  return pulumi.output(args).apply((plain) => events.getTopTalkers(plain as events.TopTalkersArgs));
}

/** `searchAlerts` with Input arguments, as an Output (secret when an argument is secret). */
export function searchAlertsOutput(
  args: DeepInput<events.SearchAlertsArgs> = {},
): pulumi.Output<events.SearchAlertsResult> {
  return pulumi.output(args).apply((plain) => events.searchAlerts(plain as events.SearchAlertsArgs));
}
