// Event report as a Pulumi program: the stack outputs are the top talkers of the last 24 h and the
// most recent alerts. The search service address and credentials come from stack config
// (frontdoor:searchUrl, frontdoor:searchUsername, frontdoor:searchPassword as a secret) or the
// FRONTDOOR_SEARCH_* environment variables. Queries run on every preview and update, so the outputs
// are a snapshot of the time of the last `pulumi up`.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const window = config.get("window") ?? "now-24h";

const talkers = frontdoor.getTopTalkersOutput({ from: window, size: 5, addressesPerSource: 3 });
const alerts = frontdoor.searchAlertsOutput({
  from: window,
  size: 10,
  severity: config.get("severity"),
});

export const topTalkers = talkers.sources;
export const alertCount = alerts.total;
export const recentAlerts = alerts.alerts.apply((list) =>
  list.map((a) => `${a.timestamp} ${a.severity} ${a.eventSourceType}: ${a.message}`),
);
