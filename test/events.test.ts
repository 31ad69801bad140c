// Event queries end to end: the SDK functions against the mock's `_search` over real HTTP. Expected
// answers are computed here from the mock's generated records, not taken from the mock's aggregations.
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import type { FirewallSource, StoredDocument } from "../mock/search";
import { type MockServer, startMockServer } from "../mock/server";
import { getTopTalkers, getTopTalkersOutput, searchAlerts, searchAlertsOutput } from "../sdk/events";

const NOW = Date.parse("2024-05-10T12:00:00Z");
const HOUR = 3_600_000;
const ENV = ["FRONTDOOR_SEARCH_URL", "FRONTDOOR_SEARCH_USERNAME", "FRONTDOOR_SEARCH_PASSWORD"];

/** Top talkers computed directly from the records: the same contract, implemented a second time. */
function expectedTopTalkers(
  records: StoredDocument<FirewallSource>[],
  fromMs: number,
  toMs: number,
  size: number,
  perSource: number,
) {
  const inWindow = records
    .map((r) => r.source)
    .filter((s) => Date.parse(s["@timestamp"]) >= fromMs && Date.parse(s["@timestamp"]) <= toMs);
  const topBy = (totals: Map<string, number>, n: number) =>
    [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n);
  const add = (totals: Map<string, number>, key: string, value: number) =>
    totals.set(key, (totals.get(key) ?? 0) + value);
  const tx = new Map<string, number>();
  for (const s of inWindow) add(tx, s.fw.source_id, s.fw.usage.circuit.tx);
  return topBy(tx, size).map(([sourceId, totalTx]) => {
    const rx = new Map<string, number>();
    for (const s of inWindow.filter((s) => s.fw.source_id === sourceId))
      add(rx, s.fw.saddr, s.fw.usage.circuit.rx);
    return {
      sourceId,
      totalTx,
      addresses: topBy(rx, perSource).map(([address, totalRx]) => ({ address, totalRx })),
    };
  });
}

function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

describe("event queries", () => {
  let mock: MockServer;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    mock = await startMockServer({ search: { now: NOW } });
    for (const name of ENV) saved[name] = process.env[name];
    process.env.FRONTDOOR_SEARCH_URL = mock.url;
    process.env.FRONTDOOR_SEARCH_USERNAME = mock.credentials.searchUsername;
    process.env.FRONTDOOR_SEARCH_PASSWORD = mock.credentials.searchPassword;
  });

  after(async () => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await mock.close();
  });

  const lastRequest = () => mock.search.requests.at(-1)!;

  describe("getTopTalkers", () => {
    it("sends the contract's query: GET fw.events*, JSON body, time filter, size 0, ordered terms", async () => {
      await getTopTalkers({ size: 4, addressesPerSource: 2 });
      const sent = lastRequest();
      assert.equal(sent.method, "GET");
      assert.equal(sent.index, "fw.events*");
      assert.equal(sent.contentType, "application/json");
      assert.deepEqual(sent.body, {
        size: 0,
        query: {
          bool: {
            filter: [
              {
                range: { "@timestamp": { gte: "now-24h", lte: "now", format: "strict_date_optional_time" } },
              },
            ],
          },
        },
        aggs: {
          sources: {
            terms: { field: "fw.source_id.keyword", size: 4, order: { total_tx: "desc" } },
            aggs: {
              total_tx: { sum: { field: "fw.usage.circuit.tx" } },
              addresses: {
                terms: { field: "fw.saddr.keyword", size: 2, order: { total_rx: "desc" } },
                aggs: { total_rx: { sum: { field: "fw.usage.circuit.rx" } } },
              },
            },
          },
        },
      });
    });

    it("answers the totals of the last 24 h, computed independently from the records", async () => {
      const result = await getTopTalkers({ size: 3, addressesPerSource: 2 });
      const expected = expectedTopTalkers(mock.search.firewallRecords, NOW - 24 * HOUR, NOW, 3, 2);
      assert.equal(expected.length, 3);
      assert.deepEqual(result.sources, expected);
    });

    it("excludes records outside the time window", async () => {
      const records = mock.search.firewallRecords;
      const old = records.filter((r) => Date.parse(r.source["@timestamp"]) < NOW - 24 * HOUR);
      assert.ok(old.length > 50, "the generated data has records older than 24 h");
      const day = await getTopTalkers({ size: 20 });
      const twoDays = await getTopTalkers({ from: "now-48h", size: 20 });
      const total = (r: typeof day) => r.sources.reduce((n, s) => n + s.totalTx, 0);
      const allTx = records.reduce((n, r) => n + r.source.fw.usage.circuit.tx, 0);
      const oldTx = old.reduce((n, r) => n + r.source.fw.usage.circuit.tx, 0);
      assert.equal(total(twoDays), allTx);
      assert.equal(total(day), allTx - oldTx);
    });

    it("accepts ISO 8601 bounds", async () => {
      const from = "2024-05-09T00:00:00Z";
      const to = "2024-05-09T06:00:00.000Z";
      const result = await getTopTalkers({ from, to, size: 10, addressesPerSource: 10 });
      assert.deepEqual(lastRequest().body.query.bool.filter[0].range["@timestamp"], {
        gte: from,
        lte: to,
        format: "strict_date_optional_time",
      });
      const expected = expectedTopTalkers(
        mock.search.firewallRecords,
        Date.parse(from),
        Date.parse(to),
        10,
        10,
      );
      assert.ok(expected.length > 0);
      assert.deepEqual(result.sources, expected);
    });

    it("rejects invalid arguments, naming them, without sending a request", async () => {
      const before = mock.search.requests.length;
      await assert.rejects(
        getTopTalkers({ size: 0 }),
        /getTopTalkers: size must be an integer from 1 to 10000 \(got 0\)/,
      );
      await assert.rejects(
        getTopTalkers({ addressesPerSource: 10_001 }),
        /addressesPerSource must be an integer/,
      );
      await assert.rejects(
        getTopTalkers({ from: "yesterday" }),
        /from must be an ISO 8601 date\/time .*"yesterday"/,
      );
      await assert.rejects(getTopTalkers({ to: "2024-13-45" }), /to must be an ISO 8601/);
      assert.equal(mock.search.requests.length, before);
    });

    it("has an Output variant taking Inputs", async () => {
      const result = await resolved(getTopTalkersOutput({ size: pulumi.output(2), addressesPerSource: 1 }));
      assert.deepEqual(
        result.sources,
        expectedTopTalkers(mock.search.firewallRecords, NOW - 24 * HOUR, NOW, 2, 1),
      );
    });
  });

  describe("searchAlerts", () => {
    it("queries edge.alert* with keyword term filters, newest first", async () => {
      const result = await searchAlerts({ severity: "high", eventSourceType: "identity", size: 5 });
      const sent = lastRequest();
      assert.equal(sent.method, "GET");
      assert.equal(sent.index, "edge.alert*");
      assert.deepEqual(sent.body.query.bool.filter, [
        { range: { "@timestamp": { gte: "now-24h", lte: "now", format: "strict_date_optional_time" } } },
        { term: { "severity.keyword": "high" } },
        { term: { "event_source_type.keyword": "identity" } },
      ]);
      assert.equal(sent.body.size, 5);
      const expected = mock.search.alerts
        .filter((a) => a.source.severity === "high" && a.source.event_source_type === "identity")
        .filter((a) => Date.parse(a.source["@timestamp"]) >= NOW - 24 * HOUR)
        .sort((a, b) => Date.parse(b.source["@timestamp"]) - Date.parse(a.source["@timestamp"]));
      assert.ok(expected.length > 0);
      assert.equal(result.total, expected.length);
      assert.deepEqual(
        result.alerts.map((a) => a.id),
        expected.slice(0, 5).map((a) => a.id),
      );
      const first = result.alerts[0];
      const source = expected[0].source;
      assert.deepEqual(first, {
        id: expected[0].id,
        timestamp: source["@timestamp"],
        eventSourceType: source.event_source_type,
        severity: source.severity,
        message: source.message,
        logs: source.logs,
      });
    });

    it("limits to size and honours another index", async () => {
      const recent = await searchAlerts({ size: 3 });
      assert.equal(recent.alerts.length, 3);
      const inWindow = mock.search.alerts.filter(
        (a) => Date.parse(a.source["@timestamp"]) >= NOW - 24 * HOUR,
      );
      assert.equal(recent.total, inWindow.length);
      const elsewhere = await searchAlerts({ index: "fw.events*", size: 1 });
      assert.equal(lastRequest().index, "fw.events*");
      assert.equal(elsewhere.alerts[0].severity, undefined, "firewall records carry no alert fields");
    });

    it("has an Output variant", async () => {
      const result = await resolved(searchAlertsOutput({ severity: pulumi.output("critical"), size: 100 }));
      assert.ok(result.alerts.length > 0);
      assert.ok(result.alerts.every((a) => a.severity === "critical"));
    });
  });

  describe("connection", () => {
    it("explains a 401 without revealing the password", async () => {
      const wrong = "not-the-password-1234";
      await assert.rejects(getTopTalkers({ searchPassword: wrong }), (err: Error) => {
        assert.match(err.message, /HTTP 401 security_exception/);
        assert.match(err.message, /unable to authenticate user \[elastic\]/);
        assert.match(err.message, /frontdoor:searchPassword/);
        assert.ok(!err.message.includes(wrong));
        assert.ok(!err.message.includes(mock.credentials.searchPassword));
        return true;
      });
    });

    it("takes explicit connection arguments over the environment", async () => {
      const url = process.env.FRONTDOOR_SEARCH_URL;
      process.env.FRONTDOOR_SEARCH_URL = "http://127.0.0.1:9";
      try {
        const result = await searchAlerts({
          searchUrl: mock.url,
          searchUsername: mock.credentials.searchUsername,
          searchPassword: mock.credentials.searchPassword,
          size: 1,
        });
        assert.equal(result.alerts.length, 1);
      } finally {
        process.env.FRONTDOOR_SEARCH_URL = url;
      }
    });

    it("names the setting and its environment variable when the URL is missing", async () => {
      const url = process.env.FRONTDOOR_SEARCH_URL;
      delete process.env.FRONTDOOR_SEARCH_URL;
      try {
        await assert.rejects(searchAlerts(), /frontdoor:searchUrl .*FRONTDOOR_SEARCH_URL/);
      } finally {
        process.env.FRONTDOOR_SEARCH_URL = url;
      }
    });
  });
});
