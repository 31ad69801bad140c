// The provider's client of an OpenZiti HA controller cluster (provider/http/cluster.ts) against a
// scripted 3-node cluster on 127.0.0.1 that answers as the real v1.6 nodes do (cluster-facts.md):
// settings, discovery, one node per process, failover with a login per node, an election waited
// through, ambiguous creates settled by a lookup (no duplicate, no orphan), no false drift after a
// move, and errors that name the cluster's state without secrets. Every test asserts the requests
// each node received.
import assert from "node:assert/strict";
import { issueCertificate } from "../mock/edge/pki";
import { edgeUrlSettings, settingProblems } from "../provider/config";
import { compareTimes, managementUrls } from "../provider/http/cluster";
import { EdgeClient } from "../provider/http/edge";
import { ApiError } from "../provider/http/errors";
import { debugging, restoreDebug, setDebug } from "../provider/log";
import { DIALING_DEAD_LEADER, FakeCluster, json, NO_LEADER, TIMED_OUT } from "./support/edgeClusterFake";
import { configureFor, createChecked, engine } from "./support/engine";
import { startScriptedServer } from "./support/scriptedServer";
import { captureStderr } from "./support/stderr";

const PASSWORD = "cluster-admin-password-7";
const SERVICE = "Service";

describe("Edge HA cluster client (scripted 3-node cluster)", () => {
  let cluster: FakeCluster;
  let clients: EdgeClient[];
  beforeEach(async () => {
    cluster = await FakeCluster.start();
    clients = [];
  });
  afterEach(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await cluster.close();
  });

  function settings(urls = cluster.nodes.map((n) => n.url), extra: Record<string, string> = {}) {
    // A short budget: a client that waited for what never comes fails the test by its answer, not by mocha's timeout.
    const budget = { retryTimeoutSeconds: "5" };
    return { edgeUrls: urls.join(","), edgeUsername: "admin", edgePassword: PASSWORD, ...budget, ...extra };
  }
  function client(s: Record<string, string> = settings()): EdgeClient {
    const c = new EdgeClient(s);
    clients.push(c);
    return c;
  }
  const [n1, n2, n3] = [0, 1, 2];
  const requests = (i: number) => cluster.requests(cluster.nodes[i]);

  it("discovers the other nodes after the first login and keeps to one node", async () => {
    const edge = client(settings([cluster.nodes[n1].url]));
    const id = await edge.create("/services", { name: "s1" }, 'Service "s1"');
    assert.equal((await edge.get<{ name: string }>(`/services/${id}`, "s"))?.name, "s1");
    assert.deepEqual(await edge.list("/services", 'name = "s1"', "s"), [
      (await edge.get(`/services/${id}`, "s"))!,
    ]);
    assert.deepEqual(
      edge.cluster?.nodes.map((n) => n.url),
      cluster.nodes.map((n) => n.url),
    );
    assert.deepEqual(requests(n1), [
      "POST /authenticate",
      "GET /controllers",
      "POST /services",
      `GET /services/${id}`,
      "GET /services",
      `GET /services/${id}`,
    ]);
    assert.deepEqual([requests(n2), requests(n3)], [[], []]);
  });

  it("moves to the next node when its node is killed, with a login there, and back with the old session", async () => {
    const edge = client();
    await edge.get("/services/x", "s");
    await cluster.kill(cluster.nodes[n1]);
    await edge.get("/services/x", "s");
    assert.deepEqual(requests(n2), ["POST /authenticate", "GET /services/x"]);
    // Node 2 answers as a proxy in front of a dead node would: the client moves on at once (no retry
    // on that node), logs in on node 3; node 3 fails alike: back to node 2 with its session.
    cluster.nodes[n2].server.script.push(json(502, "bad gateway"));
    cluster.nodes[n3].server.script.push(json(200, { data: { token: "session-ctrl3-1-0123456789abcdef" } }));
    cluster.nodes[n3].tokens.add("session-ctrl3-1-0123456789abcdef");
    cluster.nodes[n3].server.script.push(json(504, "gateway timeout"));
    const found = await edge.get("/services/y", "s");
    assert.equal(found, undefined);
    assert.deepEqual(requests(n2), [
      "POST /authenticate",
      "GET /services/x",
      "GET /services/y",
      "GET /services/y",
    ]);
    assert.deepEqual(requests(n3), ["POST /authenticate", "GET /services/y"]);
    assert.equal(requests(n1).filter((r) => r === "POST /authenticate").length, 1);
  });

  it("requests failing together on a killed node move once, to the same next node", async () => {
    const edge = client();
    await edge.get("/services/x", "s");
    await cluster.kill(cluster.nodes[n1]);
    await Promise.all([
      edge.get("/services/a", "s"),
      edge.get("/services/b", "s"),
      edge.get("/services/c", "s"),
    ]);
    assert.deepEqual(requests(n2).sort(), [
      "GET /services/a",
      "GET /services/b",
      "GET /services/c",
      "POST /authenticate",
    ]);
    assert.deepEqual(requests(n3), []);
  });

  it("waits through an election: writes answered 500 'error dialing peer' and 503 CLUSTER_NO_LEADER are sent again", async () => {
    const edge = client();
    await edge.get("/services/x", "s");
    cluster.leader = undefined;
    cluster.leaderless = [DIALING_DEAD_LEADER, NO_LEADER, NO_LEADER, DIALING_DEAD_LEADER];
    const id = await edge.create("/services", { name: "during-election" }, "s");
    assert.equal(id, `${cluster.prefix}-svc-1`);
    assert.equal(cluster.view(cluster.leader!).size, 1);
    const posts = cluster.nodes.map((_, i) => requests(i).filter((r) => r === "POST /services").length);
    assert.deepEqual(posts, [2, 2, 1]);
  });

  it("a create whose node died in flight is ambiguous: the engine's lookup on the next node adopts it (no duplicate, no orphan)", async () => {
    await configureFor(providerConfig(settings()));
    const first = cluster.nodes[n1];
    const answer = first.server.respond!;
    // The node commits the create, then dies before answering (the leader took it).
    first.server.respond = (request) => {
      if (request.method !== "POST" || !request.url.endsWith("/services")) return answer(request);
      answer(request);
      void cluster.kill(first);
      return { status: 0, reset: true };
    };
    const made = await createChecked(SERVICE, { name: "in-flight" });
    assert.equal(made.id, `${cluster.prefix}-svc-1`);
    assert.equal(made.outs.name, "in-flight");
    assert.equal(cluster.view(cluster.nodes[n2]).size, 1);
    assert.deepEqual(requests(n2), ["POST /authenticate", "GET /services"]);
  });

  it("a create answered 500 'timed out' (committed by the leader) is settled by the lookup, not sent again", async () => {
    await configureFor(providerConfig(settings()));
    cluster.leader = undefined;
    cluster.leaderless = [TIMED_OUT];
    // The real cluster committed it although it answered 500 "timed out".
    const first = cluster.nodes[n1];
    const answer = first.server.respond!;
    first.server.respond = (request) => {
      if (request.method !== "POST" || !request.url.endsWith("/services")) return answer(request);
      cluster.leaderless = [];
      answer(request);
      return TIMED_OUT;
    };
    const made = await createChecked(SERVICE, { name: "timed-out" });
    assert.equal(made.id, `${cluster.prefix}-svc-1`);
    assert.equal(cluster.view(cluster.leader!).size, 1);
    const posts = cluster.nodes.flatMap((_, i) => requests(i).filter((r) => r === "POST /services"));
    assert.equal(posts.length, 1);
  });

  it("after a move, reads of what this process wrote wait until the new node caught up (no false drift)", async () => {
    await configureFor(providerConfig(settings()));
    const made = await createChecked(SERVICE, { name: "lagging" });
    const follower = cluster.nodes[n2];
    follower.applied = 0;
    follower.lagReads = 2;
    await cluster.kill(cluster.nodes[n1]);
    const read = await engine.read(SERVICE, made.id, made.outs);
    assert.equal(read.id, made.id);
    assert.deepEqual(requests(n2), [
      "POST /authenticate",
      `GET /services/${made.id}`,
      `GET /services/${made.id}`,
      `GET /services/${made.id}`,
    ]);
  });

  it("after a move, an older version of an object this process updated is read again until the node caught up", async () => {
    const edge = client();
    const id = await edge.create("/services", { name: "v1", roleAttributes: ["a"] }, "s");
    await edge.get(`/services/${id}`, "s");
    const follower = cluster.nodes[n2];
    await edge.get("/services/none", "s"); // the follower applies the create only
    follower.applied = 1;
    await edge.patch(`/services/${id}`, { roleAttributes: ["b"] }, "s");
    follower.lagReads = 1;
    await cluster.kill(cluster.nodes[n1]);
    const read = await edge.get<{ roleAttributes: string[] }>(`/services/${id}`, "s");
    assert.deepEqual(read?.roleAttributes, ["b"]);
    assert.deepEqual(requests(n2), ["POST /authenticate", `GET /services/${id}`, `GET /services/${id}`]);
  });

  it("a 404 of an object this process did not write is reported at once, also after a move", async () => {
    const edge = client();
    await edge.get("/services/x", "s");
    await cluster.kill(cluster.nodes[n1]);
    cluster.nodes[n2].lagReads = 5;
    assert.equal(await edge.get(`/services/${cluster.prefix}-svc-9`, "s"), undefined);
    assert.deepEqual(requests(n2), ["POST /authenticate", `GET /services/${cluster.prefix}-svc-9`]);
  });

  it("reads an unchanged object once after a move, and a deleted one's 404 at once", async () => {
    const edge = client();
    const kept = await edge.create("/services", { name: "kept" }, "s");
    await edge.get(`/services/${kept}`, "s");
    const gone = await edge.create("/services", { name: "gone" }, "s");
    await edge.delete(`/services/${gone}`, "s");
    await cluster.kill(cluster.nodes[n1]);
    assert.equal((await edge.get<{ name: string }>(`/services/${kept}`, "s"))?.name, "kept");
    assert.equal(await edge.get(`/services/${gone}`, "s"), undefined);
    assert.deepEqual(requests(n2), ["POST /authenticate", `GET /services/${kept}`, `GET /services/${gone}`]);
  });

  it("reports at once an object it wrote that was deleted elsewhere, on the node that took the write", async () => {
    const edge = client();
    const id = await edge.create("/services", { name: "deleted-elsewhere" }, "s");
    const other = client(settings([cluster.nodes[n2].url]));
    await other.delete(`/services/${id}`, "s");
    assert.equal(await edge.get(`/services/${id}`, "s"), undefined);
    assert.deepEqual(requests(n1).slice(-2), ["POST /services", `GET /services/${id}`]);
  });

  it("names a cluster whose nodes all answer 503 without saying why as not answering", async () => {
    const edge = client(settings(undefined, { retryTimeoutSeconds: "0.3" }));
    await edge.get("/services/x", "s");
    for (const node of cluster.nodes) node.server.respond = () => json(503, "Service Unavailable");
    const err = await edge.get("/services/x", "s").catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.match(err.message, /no node of the cluster .* answered: http:\/\/127\.0\.0\.1:\d+: HTTP 503, /);
  });

  it("does not fail over on answers about the request (500 of its own, 400), nor on a certificate that does not verify", async () => {
    const edge = client();
    await edge.get("/services/x", "s");
    const first = cluster.nodes[n1].server;
    first.script.push(json(500, { error: { code: "UNHANDLED", message: "An unhandled error occurred" } }));
    await assert.rejects(edge.get("/services/x", "s"), (e: ApiError) => e.status === 500);
    first.script.push(json(503, "unavailable"));
    assert.equal(await edge.get("/services/x", "s"), undefined);
    assert.deepEqual(requests(n2), ["POST /authenticate", "GET /services/x"]);
    cluster.nodes[n2].server.script.push(
      json(400, { error: { code: "COULD_NOT_VALIDATE", message: "bad" } }),
    );
    await assert.rejects(edge.create("/services", {}, "s"), (e: ApiError) => e.status === 400);
    assert.deepEqual(requests(n3), []);

    // A node whose certificate the client does not trust: every node would be refused alike.
    const self = issueCertificate({ commonName: "127.0.0.1" });
    const untrusted = await startScriptedServer({ certificatePem: self.certPem, privateKeyPem: self.keyPem });
    try {
      const other = client(settings([untrusted.url, cluster.nodes[n3].url]));
      await assert.rejects(other.get("/services/x", "s"), /TLS verification failed/);
      assert.deepEqual([untrusted.seen, requests(n3)], [[], []]);
    } finally {
      await untrusted.close();
    }
  });

  it("names the cluster's state when the budget ends: every node down, or no leader; no password or session in errors and logs", async () => {
    const edge = client(settings(undefined, { retryTimeoutSeconds: "0.5" }));
    const { written, error } = await captureStderr(async () => {
      const previous = debugging();
      setDebug(true);
      try {
        await edge.get("/services/x", "s");
        cluster.leader = undefined;
        cluster.leaderless = Array.from({ length: 10_000 }, () => NO_LEADER);
        const noLeader = await edge.create("/services", { name: "n" }, 'Service "n"').catch((e) => e);
        assert.ok(noLeader instanceof ApiError);
        assert.match(
          noLeader.message,
          /the cluster has no leader \(quorum lost\?\): http:\/\/127\.0\.0\.1:\d+: HTTP 503, Cluster has no leader/,
        );
        for (const node of cluster.nodes) await cluster.kill(node);
        throw await edge.get("/services/x", "s").catch((e) => e);
      } finally {
        restoreDebug(previous);
      }
    });
    assert.ok(error instanceof ApiError);
    const urls = cluster.nodes.map((n) => n.url).join(", ");
    assert.ok(error.message.includes(`no node of the cluster ${urls} answered: `), error.message);
    assert.match(error.message, /ECONNREFUSED/);
    const everything = `${error.message}\n${written.join("")}`;
    assert.match(written.join(""), /Edge cluster: moving from/);
    assert.doesNotMatch(everything, new RegExp(PASSWORD));
    for (const node of cluster.nodes)
      for (const token of node.tokens) assert.ok(!everything.includes(token), token);
  });

  it("settings: edgeUrls items checked naming the setting; edgeUrl alone is one controller; ztAPIs name a cluster", () => {
    assert.deepEqual(settingProblems({ edgeUrls: "https://a:1280, ftp://b" }), [
      { key: "frontdoor:edgeUrls", reason: 'item 2 ("ftp://b") must be an http(s) URL, not ftp' },
    ]);
    assert.deepEqual(settingProblems({ edgeUrls: "https://a:1280,,https://c" }), [
      { key: "frontdoor:edgeUrls", reason: 'item 2 ("") is empty' },
    ]);
    assert.match(
      settingProblems({ edgeUrls: "https://a:1280,http://ctrl-2.example.com:1280" })[0].reason,
      /^item 2 \("http:\/\/ctrl-2\.example\.com:1280"\) uses plain http/,
    );
    assert.deepEqual(edgeUrlSettings({ edgeUrl: "https://a:1280/" }, undefined), {
      urls: ["https://a:1280"],
      cluster: false,
    });
    assert.deepEqual(
      edgeUrlSettings({ edgeUrl: "https://a", edgeUrls: " https://b ,https://a" }, undefined),
      {
        urls: ["https://a", "https://b"],
        cluster: true,
      },
    );
    const identity = { edgeUrls: ["https://a", "https://b"], certPem: "", keyPem: "" };
    assert.deepEqual(edgeUrlSettings({}, identity), { urls: ["https://a", "https://b"], cluster: true });
    assert.deepEqual(edgeUrlSettings({}, { ...identity, edgeUrls: ["https://a"] }), {
      urls: ["https://a"],
      cluster: false,
    });
    assert.deepEqual(edgeUrlSettings({ edgeUrl: "https://x" }, identity).urls, ["https://x"]);
    assert.throws(() => edgeUrlSettings({}, undefined), /frontdoor:edgeUrl/);
  });

  it("skips discovered addresses that break the settings' URL rule (warning naming each) and keeps at most 16 nodes", async () => {
    // Node 1 answers the login and a hostile GET /controllers (scripted answers come first).
    const token = "session-ctrl1-hostile-0123456789abcdef";
    cluster.nodes[n1].tokens.add(token);
    const address = (url: string) => ({
      apiAddresses: { "edge-management": [{ url: `${url}/edge/management/v1` }] },
    });
    const https = Array.from({ length: 17 }, (_, i) => `https://127.0.0.${i + 2}:1280`);
    const listed = [cluster.nodes[n1].url, "http://ctrl-2.example.com:1280", "ftp://127.0.0.1:21", ...https];
    cluster.nodes[n1].server.script.push(
      json(200, { data: { token } }),
      json(200, { data: listed.map(address), meta: {} }),
    );
    const edge = client(settings([cluster.nodes[n1].url]));
    const { written, error } = await captureStderr(() => edge.get("/services/x", "s"));
    assert.equal(error, undefined);
    assert.deepEqual(
      edge.cluster?.nodes.map((n) => n.url),
      [cluster.nodes[n1].url, ...https.slice(0, 15)],
    );
    assert.deepEqual(written, [
      '[frontdoor] warning: Edge cluster: GET /controllers lists "http://ctrl-2.example.com:1280", not used: it uses ' +
        "plain http to ctrl-2.example.com: credentials would travel in clear. Use https, or set " +
        "frontdoor:allowPlainHttp true (FRONTDOOR_ALLOW_PLAIN_HTTP) to accept that\n",
      '[frontdoor] warning: Edge cluster: GET /controllers lists "ftp://127.0.0.1:21", not used: it must be an http(s) URL, not ftp\n',
      `[frontdoor] warning: Edge cluster: GET /controllers lists more than 16 nodes, "${https[15]}" and the rest are not used\n`,
    ]);
  });

  it("reads each controller's edge-management address and orders controller times to the nanosecond", () => {
    const base = "/edge/management/v1";
    const list = [
      {
        apiAddresses: {
          "edge-management": [{ url: `https://a:1${base}` }],
          "edge-client": [{ url: "https://c" }],
        },
      },
      { apiAddresses: { "edge-management": [{ url: `https://b:2${base}/` }, { url: 7 }] } },
      { name: "without addresses" },
      { apiAddresses: { "edge-management": [{ url: `https://a:1${base}` }] } },
    ];
    assert.deepEqual(managementUrls(list, base), ["https://a:1", "https://b:2"]);
    assert.deepEqual(managementUrls({ not: "a list" }, base), []);
    assert.ok(compareTimes("2026-11-28T12:00:00.0011Z", "2026-11-28T12:00:00.00105Z") > 0);
    assert.ok(compareTimes("2026-11-28T12:00:00.001Z", "2026-11-28T12:00:00.0011Z") < 0);
    assert.ok(compareTimes("2026-11-28T12:00:01Z", "2026-11-28T12:00:00.999999999Z") > 0);
    assert.equal(compareTimes("2026-11-28T12:00:00.5Z", "2026-11-28T12:00:00.500Z"), 0);
    assert.equal(compareTimes("not a time", "2026-11-28T12:00:00Z"), 0);
  });
});

/** Stack config of the provider host for these settings (engine.configure reads `frontdoor:<key>`). */
function providerConfig(s: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [`frontdoor:${k}`, v]));
}
