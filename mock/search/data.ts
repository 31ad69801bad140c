// Generated event data for the search mock: firewall usage records and alerts spread over the 48 hours
// before a reference instant. A seeded generator makes every run produce the same documents, and the
// records are exposed so tests compute expected answers themselves rather than trusting the mock.

export interface FirewallSource {
  "@timestamp": string;
  fw: {
    source_id: string;
    saddr: string;
    daddr: string;
    dport: number;
    interface: string;
    direction: "inbound" | "outbound";
    usage: { circuit: { tx: number; rx: number } };
  };
}

export interface AlertSource {
  "@timestamp": string;
  event_source_type: string;
  severity: string;
  message: string;
  logs: string;
}

export interface StoredDocument<S> {
  index: string;
  id: string;
  source: S;
}

export const SEVERITIES = ["low", "medium", "high", "critical"];
export const EVENT_SOURCE_TYPES = ["identity", "edge-router", "service", "policy"];
const HOUR_MS = 3_600_000;
const SPAN_MS = 48 * HOUR_MS;

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const between = (random: () => number, low: number, high: number) =>
  low + Math.floor(random() * (high - low + 1));

/** Daily indices, as log shippers create them: `fw.events-2024.05.01`. */
function dailyIndex(prefix: string, timestampMs: number): string {
  return `${prefix}-${new Date(timestampMs).toISOString().slice(0, 10).replace(/-/g, ".")}`;
}

export function generateFirewallRecords(
  random: () => number,
  nowMs: number,
  count: number,
): StoredDocument<FirewallSource>[] {
  // Each source gets its own traffic scale and a few addresses, so totals differ clearly between them.
  const sources = Array.from({ length: 7 }, (_, i) => ({
    id: `fw-${String(i + 1).padStart(2, "0")}`,
    scale: 1 + i * 3,
    addresses: Array.from({ length: 3 + (i % 4) }, (_, j) => `10.${i + 1}.${j}.${between(random, 2, 250)}`),
  }));
  return Array.from({ length: count }, (_, n) => {
    const source = pick(random, sources);
    const at = nowMs - Math.floor(random() * SPAN_MS);
    return {
      index: dailyIndex("fw.events", at),
      id: `fw-${n + 1}`,
      source: {
        "@timestamp": new Date(at).toISOString(),
        fw: {
          source_id: source.id,
          saddr: pick(random, source.addresses),
          daddr: `172.16.${between(random, 0, 3)}.${between(random, 1, 254)}`,
          dport: pick(random, [22, 53, 443, 8443, 3389]),
          interface: pick(random, ["eth0", "eth1", "tun0"]),
          direction: random() < 0.5 ? "inbound" : "outbound",
          usage: {
            circuit: { tx: between(random, 100, 5000) * source.scale, rx: between(random, 50, 8000) },
          },
        },
      },
    };
  });
}

export function generateAlerts(
  random: () => number,
  nowMs: number,
  count: number,
): StoredDocument<AlertSource>[] {
  return Array.from({ length: count }, (_, n) => {
    const at = nowMs - Math.floor(random() * SPAN_MS);
    const type = pick(random, EVENT_SOURCE_TYPES);
    const severity = pick(random, SEVERITIES);
    return {
      index: dailyIndex("edge.alert", at),
      id: `alert-${n + 1}`,
      source: {
        "@timestamp": new Date(at).toISOString(),
        event_source_type: type,
        severity,
        message: `${severity} ${type} configuration problem #${n + 1}`,
        logs: `check ${type} ${between(random, 1, 40)}: policy evaluation reported ${severity}`,
      },
    };
  });
}
