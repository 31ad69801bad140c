// The event queries against a scripted search server (test/support/scriptedServer.ts on 127.0.0.1):
// what the mock never answers on purpose. The mock sorts newest first and counts every hit whatever the
// query asks; Elasticsearch does neither (search API reference: hits come by `_score` unless `sort`
// says otherwise; `hits.total` is exact only up to 10,000 unless `track_total_hits` is true). Answers in
// the shapes Elasticsearch documents: `hits.total` as `{value, relation}` (7.0+), as a number (6.x, or
// `rest_total_hits_as_int`), or absent (`track_total_hits: false`); `_source` fields null, missing or
// structured. And the argument errors: a value that is not an object, several problems, a password.
import assert from "node:assert/strict";
import { z } from "zod";
import { getTopTalkers, searchAlerts } from "../provider/functions/events";
import { type ScriptedServer, startScriptedServer } from "./support/scriptedServer";

const PASSWORD = "events-answers-password-5521";

describe("event queries: the search server's answers and the argument errors", () => {
  let server: ScriptedServer;
  const settings = () => ({ searchUrl: server.url, searchUsername: "reader", searchPassword: PASSWORD });
  const answer = (body: unknown) =>
    server.script.push({
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const hit = (id: string, source: Record<string, unknown>) => ({
    _index: "edge.alert-1",
    _id: id,
    _source: source,
  });

  before(async () => {
    server = await startScriptedServer();
  });
  after(async () => {
    await server?.close();
  });

  it("searchAlerts asks for the exact total and sorts by @timestamp, newest first", async () => {
    answer({ hits: { total: { value: 0, relation: "eq" }, hits: [] } });
    await searchAlerts({}, settings());
    const body = JSON.parse(server.seen.at(-1)!.body);
    assert.equal(body.track_total_hits, true);
    assert.deepEqual(body.sort, [{ "@timestamp": { order: "desc" } }]);
  });

  it("searchAlerts reads each documented total: an object, a number, none (then the hits counted)", async () => {
    answer({ hits: { total: { value: 12_345, relation: "eq" }, hits: [hit("a", { "@timestamp": "t" })] } });
    assert.equal((await searchAlerts({}, settings())).total, 12_345);
    answer({ hits: { total: 7, hits: [hit("a", { "@timestamp": "t" })] } });
    assert.equal((await searchAlerts({}, settings())).total, 7);
    answer({ hits: { hits: [hit("a", { "@timestamp": "t" }), hit("b", { "@timestamp": "t" })] } });
    assert.equal((await searchAlerts({}, settings())).total, 2);
  });

  it("searchAlerts: a null field is absent, structured logs are JSON text, no @timestamp is empty text", async () => {
    answer({
      hits: {
        total: { value: 1, relation: "eq" },
        hits: [
          hit("n1", { severity: null, event_source_type: "identity", logs: { lines: ["a", "b"], n: 2 } }),
        ],
      },
    });
    const { alerts } = await searchAlerts({}, settings());
    assert.equal(alerts.length, 1);
    const [alert] = alerts;
    assert.equal(alert.id, "n1");
    assert.equal(alert.timestamp, "");
    assert.equal(alert.severity, undefined);
    assert.equal(alert.message, undefined);
    assert.equal(alert.eventSourceType, "identity");
    assert.deepEqual(JSON.parse(alert.logs!), { lines: ["a", "b"], n: 2 });
  });

  it("arguments that are not an object are refused as `arguments`, quoting what was given", async () => {
    const before = server.seen.length;
    const err = await getTopTalkers("top" as any, settings()).catch((e) => e);
    const expected = z.object({}).safeParse("top").error!.issues[0].message;
    assert.equal(err.message, `getTopTalkers: arguments ${expected} (got "top")`);
    assert.equal(server.seen.length, before, "no request sent");
  });

  it("several bad arguments are named in one message, each with what was given", async () => {
    const err = await getTopTalkers({ size: 0, addressesPerSource: 10_001 }, settings()).catch((e) => e);
    assert.equal(
      err.message,
      "getTopTalkers: size must be an integer from 1 to 10000 (got 0); addressesPerSource must be an integer from 1 to 10000 (got 10001)",
    );
  });

  it("a bad searchPassword is named, its value never quoted", async () => {
    const given = 990_077_331;
    const err = await searchAlerts({ searchPassword: given as any }, settings()).catch((e) => e);
    const expected = z.string().safeParse(given).error!.issues[0].message;
    assert.equal(err.message, `searchAlerts: searchPassword ${expected}`);
    assert.ok(!err.message.includes(String(given)));
  });
});
