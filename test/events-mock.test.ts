// The search mock itself, over raw HTTP: it must behave like Elasticsearch where the event queries
// depend on it (auth, index patterns, date math, aggregations, errors), or the client tests prove little.
import * as assert from "node:assert/strict";
import { request } from "undici";
import { resolveTime } from "../mock/search/query";
import { type MockServer, startMockServer } from "../mock/server";

const NOW = Date.parse("2024-05-10T12:34:56.789Z");
const HOUR = 3_600_000;

describe("search mock", () => {
  let mock: MockServer;
  let auth: string;

  before(async () => {
    mock = await startMockServer({ search: { now: NOW, firewallRecordCount: 200, alertCount: 40 } });
    const { searchUsername, searchPassword } = mock.credentials;
    auth = `Basic ${Buffer.from(`${searchUsername}:${searchPassword}`).toString("base64")}`;
  });
  after(() => mock.close());

  async function search(index: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await request(`${mock.url}/${index}/_search`, {
      method: "GET",
      headers: { authorization: auth, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
  }

  it("refuses missing or wrong credentials with a security_exception", async () => {
    const missing = await search("fw.events*", {}, { authorization: "" });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.type, "security_exception");
    assert.match(String(missing.headers["www-authenticate"]), /^Basic/);
    const wrong = await search(
      "fw.events*",
      {},
      { authorization: `Basic ${Buffer.from("elastic:nope").toString("base64")}` },
    );
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.error.reason, /unable to authenticate user \[elastic\]/);
  });

  it("matches index patterns with * and commas; a missing concrete index is a 404", async () => {
    const total = (r: { body: any }) => r.body.hits.total.value;
    assert.equal(total(await search("fw.events*", { size: 0 })), 200);
    assert.equal(total(await search("edge.alert*", { size: 0 })), 40);
    assert.equal(total(await search("fw.events*,edge.alert*", { size: 0 })), 240);
    assert.equal(total(await search("nothing*", { size: 0 })), 0);
    const day = mock.search.firewallRecords[0].index;
    const perDay = mock.search.firewallRecords.filter((r) => r.index === day).length;
    assert.equal(total(await search(day, { size: 0 })), perDay);
    const missing = await search("fw.nope", {});
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, "index_not_found_exception");
  });

  it("filters on @timestamp ranges and keyword terms, and returns hits newest first", async () => {
    const res = await search("edge.alert*", {
      size: 100,
      query: {
        bool: {
          filter: [
            { range: { "@timestamp": { gte: "now-12h", lte: "now", format: "strict_date_optional_time" } } },
            { term: { "severity.keyword": "low" } },
          ],
        },
      },
    });
    const expected = mock.search.alerts.filter(
      (a) => a.source.severity === "low" && Date.parse(a.source["@timestamp"]) >= NOW - 12 * HOUR,
    );
    assert.ok(expected.length > 0);
    assert.equal(res.body.hits.total.value, expected.length);
    const times = res.body.hits.hits.map((h: any) => Date.parse(h._source["@timestamp"]));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
  });

  it("resolves date math like Elasticsearch, rounding by the bound", () => {
    assert.equal(resolveTime("now", NOW, false), NOW);
    assert.equal(resolveTime("now-24h", NOW, false), NOW - 24 * HOUR);
    assert.equal(resolveTime("now-1d/d", NOW, false), Date.parse("2024-05-09T00:00:00Z"));
    assert.equal(resolveTime("now-1d/d", NOW, true), Date.parse("2024-05-09T23:59:59.999Z"));
    assert.equal(resolveTime("now+1M-2w", NOW, false), Date.parse("2024-05-27T12:34:56.789Z"));
    assert.equal(resolveTime("2024-05-01T10:00:00Z", NOW, false), Date.parse("2024-05-01T10:00:00Z"));
    assert.throws(() => resolveTime("yesterday", NOW, false), /failed to parse date field/);
  });

  it("orders terms buckets by a sum sub-aggregation, with sum_other_doc_count", async () => {
    const res = await search("fw.events*", {
      size: 0,
      aggs: {
        by_port: {
          terms: { field: "fw.dport", size: 2, order: { rx: "asc" } },
          aggs: { rx: { sum: { field: "fw.usage.circuit.rx" } } },
        },
      },
    });
    const totals = new Map<number, number>();
    for (const { source } of mock.search.firewallRecords) {
      totals.set(source.fw.dport, (totals.get(source.fw.dport) ?? 0) + source.fw.usage.circuit.rx);
    }
    const smallest = [...totals].sort((a, b) => a[1] - b[1]).slice(0, 2);
    const agg = res.body.aggregations.by_port;
    assert.deepEqual(
      agg.buckets.map((b: any) => [b.key, b.rx.value]),
      smallest,
    );
    assert.equal(
      agg.sum_other_doc_count + agg.buckets.reduce((n: number, b: any) => n + b.doc_count, 0),
      200,
    );
  });

  it("answers 400/406 for what it does not understand", async () => {
    assert.equal((await search("fw.events*", { query: { fuzzy: {} } })).body.error.type, "parsing_exception");
    assert.equal((await search("fw.events*", { size: 10_001 })).status, 400);
    assert.equal((await search("fw.events*", { bogus: 1 })).status, 400);
    const bad = await search("fw.events*", {
      aggs: { a: { terms: { field: "fw.saddr", order: { nope: "desc" } } } },
    });
    assert.equal(bad.status, 400);
    assert.equal((await search("fw.events*", {}, { "content-type": "text/plain" })).status, 406);
  });

  it("generates the same data for the same seed", async () => {
    const again = await startMockServer({ search: { now: NOW, firewallRecordCount: 200, alertCount: 40 } });
    try {
      assert.deepEqual(again.search.firewallRecords, mock.search.firewallRecords);
      assert.deepEqual(again.search.alerts, mock.search.alerts);
    } finally {
      await again.close();
    }
  });
});
