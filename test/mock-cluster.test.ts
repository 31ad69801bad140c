// The mock's cluster mode through real HTTPS (one listener per node on 127.0.0.1, TLS verified with the
// cluster's CA). Every expected answer is what the REAL 3-node ziti v1.6.0 cluster gave (hc-real's probes,
// summarised in docs/guides/mock-and-harness.md#cluster-mode, "the facts" below; test/real-cluster-mock.test.ts
// runs the same probes against both). Elections are stepped by hand and lag is held, so nothing is timed.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import https from "node:https";
import { type MockCluster, startMockCluster } from "../mock/cluster";
import { type MockProcess, startMockProcess } from "../mock/process";
import { CONTROL_TOKEN_HEADER } from "../mock/server";
import { EdgeClient, type EdgeReply, readReply } from "./support/edgeClient";

/** A request outside the management API's base path (/version, /__mock/cluster), CA-verified. */
function raw(
  cluster: MockCluster,
  url: string,
  method = "GET",
  body?: unknown,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method,
        agent: false,
        ca: cluster.caPem,
        headers: {
          [CONTROL_TOKEN_HEADER]: cluster.controlToken,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (res) => readReply(res).then(resolve, reject),
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const identity = (name: string) => ({ body: { name, type: "User", isAdmin: false } });

/** The error's code, message and cause message: what the facts record. */
function error(reply: EdgeReply) {
  const { code, message, cause } = reply.body.error;
  return { status: reply.status, code, message, cause: cause?.message };
}

/** The network error a request gets (the client's `code`), failing when it got an answer. */
async function networkError(request: Promise<unknown>): Promise<string> {
  try {
    await request;
  } catch (failure) {
    return String((failure as NodeJS.ErrnoException).code);
  }
  assert.fail("the request was answered");
}

describe("mock cluster mode (3 nodes, real HTTPS)", function () {
  this.timeout(30_000);
  let cluster: MockCluster;
  /** One admin client per node, each logged in on its own node (sessions are node-local). */
  let api: EdgeClient[];

  // One cluster for the suite (CI time), reset between tests; sessions survive the reset.
  before(async () => {
    cluster = await startMockCluster({ nodes: 3, election: "manual" });
    api = cluster.urls.map((url) => new EdgeClient(url, cluster.caPem));
    for (const client of api) {
      const login = await client.login(cluster.credentials.edgeUsername, cluster.credentials.edgePassword);
      assert.equal(login.status, 200);
    }
  });

  beforeEach(async () => {
    await cluster.reset();
  });

  after(async () => {
    await cluster?.close();
  });

  const names = (node: number) => cluster.list(node, "identities").map((record) => record.name);

  it("serves each node on its own loopback HTTPS port, one CA, /version naming the node with the cluster's capabilities", async () => {
    const ports = cluster.urls.map((url) => {
      assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
      return new URL(url).port;
    });
    assert.equal(new Set(ports).size, 3);
    for (const url of cluster.urls) {
      const version = await raw(cluster, `${url}/version`);
      assert.equal(version.status, 200);
      // Facts, /version: capabilities ["OIDC_AUTH", "HA_CONTROLLER"], v1.6.0, each node names only itself.
      assert.deepEqual(version.body.data.capabilities, ["OIDC_AUTH", "HA_CONTROLLER"]);
      assert.equal(version.body.data.version, "v1.6.0");
      assert.deepEqual(version.body.data.apiVersions["edge-management"].v1.apiBaseUrls, [
        `${url}/edge/management/v1`,
      ]);
      assert.deepEqual(version.body.data.apiVersions["edge-oidc"].v1, {
        apiBaseUrls: [url],
        path: "/oidc",
        version: "v1",
      });
    }
  });

  it("lists the nodes in /controllers, the same on every node, as the swagger and the real cluster show them", async () => {
    const lists = await Promise.all(api.map((client) => client.call("GET", "/controllers")));
    for (const list of lists) assert.deepEqual(list.body.data, lists[0].body.data);
    const items = lists[0].body.data;
    assert.deepEqual(
      items.map((item: any) => item.id),
      ["ctrl1", "ctrl2", "ctrl3"],
    );
    items.forEach((item: any, index: number) => {
      const url = cluster.urls[index];
      const port = new URL(url).port;
      // Facts, /controllers: id = name = the node id; ctrlAddress tls:127.0.0.1:<port>; sha1 fingerprint.
      assert.equal(item.name, item.id);
      assert.equal(item.ctrlAddress, `tls:127.0.0.1:${port}`);
      const sha1 = new X509Certificate(item.certPem).fingerprint.replaceAll(":", "").toLowerCase();
      assert.equal(item.fingerprint, sha1);
      assert.deepEqual(item.apiAddresses, {
        "edge-client": [{ url: `${url}/edge/client/v1`, version: "v1" }],
        "edge-management": [{ url: `${url}/edge/management/v1`, version: "v1" }],
        "edge-oidc": [{ url: `${url}/oidc`, version: "v1" }],
        fabric: [{ url: `${url}/fabric/v1`, version: "v1" }],
      });
      // Facts: no leader field.
      assert.equal("isLeader" in item, false);
    });
    // The node's certificate is the one it serves.
    assert.deepEqual(
      items.map((item: any) => item.certPem),
      cluster.nodes.map((node) => node.server.certPem),
    );
    for (const client of api) assert.deepEqual(client.violations, []);
    // Facts: isOnline stayed true for dead nodes on the survivors.
    await cluster.kill("ctrl3");
    const afterKill = await api[0].call("GET", "/controllers");
    assert.deepEqual(
      afterKill.body.data.map((item: any) => item.isOnline),
      [true, true, true],
    );
  });

  it("refuses a session from one node on another (node-local sessions), unless switched to shared", async () => {
    const foreign = await api[1].call("GET", "/identities", { token: api[0].token });
    // Facts, sessions: 401 UNAUTHORIZED with the controller's usual message, no cause.
    assert.deepEqual(error(foreign), {
      status: 401,
      code: "UNAUTHORIZED",
      message:
        "The request could not be completed. The session is not authorized or the credentials are invalid",
      cause: undefined,
    });
    cluster.behaviour.sessions = "shared";
    assert.equal((await api[1].call("GET", "/identities", { token: api[0].token })).status, 200);
  });

  it("carries out a write sent to a follower on the leader: read-your-writes there, the leader has it, names unique cluster-wide", async () => {
    assert.equal(cluster.leader()?.name, "ctrl1");
    cluster.setLag("ctrl3", "hold");
    const created = await api[1].call("POST", "/identities", identity("via-follower"));
    assert.equal(created.status, 201);
    const id = created.body.data.id;
    // Facts, writes through a follower: GET on A itself 200, on the leader 200, on another follower maybe 404.
    assert.equal((await api[1].call("GET", `/identities/${id}`)).status, 200);
    assert.equal((await api[0].call("GET", `/identities/${id}`)).status, 200);
    assert.equal((await api[2].call("GET", `/identities/${id}`)).status, 404);
    cluster.catchUp("ctrl3");
    assert.equal((await api[2].call("GET", `/identities/${id}`)).status, 200);
    // The write was logged by the node it was sent to, not by the leader.
    assert.ok(cluster.nodes[1].server.log.some((entry) => entry.method === "POST" && entry.status === 201));
    assert.deepEqual(
      cluster.nodes[0].server.log.filter((entry) => entry.method === "POST"),
      [],
    );
    // Facts (cluster-facts 16:00 entry): the same name again through the leader: 400 COULD_NOT_VALIDATE,
    // cause field name; through a follower: 500 UNHANDLED, the constraint as JSON in the cause.
    const twin = await api[0].call("POST", "/identities", identity("via-follower"));
    assert.equal(twin.status, 400);
    assert.equal(twin.body.error.code, "COULD_NOT_VALIDATE");
    assert.equal(twin.body.error.cause.field, "name");
    const twinThroughFollower = await api[2].call("POST", "/identities", identity("via-follower"));
    assert.deepEqual(error(twinThroughFollower), {
      status: 500,
      code: "UNHANDLED",
      message: "An unhandled error occurred",
      cause: '{"EntityType":"identities","Field":"name","Value":"via-follower"}',
    });
  });

  it("shows a write on a lagging follower only once it caught up (stale 404 first)", async () => {
    cluster.setLag("ctrl2", "hold");
    const created = await api[0].call("POST", "/identities", identity("lagging"));
    const id = created.body.data.id;
    // Facts, stale reads: write on the leader, GET by id on a follower: 404 NOT_FOUND until it caught up.
    const stale = await api[1].call("GET", `/identities/${id}`);
    assert.equal(stale.status, 404);
    assert.equal(stale.body.error.code, "NOT_FOUND");
    assert.deepEqual(names(1), ["Default Admin"]);
    assert.deepEqual(names(2), ["Default Admin", "lagging"]);
    cluster.setLag("ctrl2", 0);
    assert.equal((await api[1].call("GET", `/identities/${id}`)).status, 200);
  });

  it("after the leader dies: connection refused there, writes 500 'error dialing peer', then 503 CLUSTER_NO_LEADER, reads served, then a new leader", async () => {
    const deadAddress = new URL(cluster.urls[0]).host;
    await cluster.kill("ctrl1");
    assert.equal(await networkError(api[0].call("GET", "/identities")), "ECONNREFUSED");
    assert.equal(cluster.leader(), undefined);
    // Facts, leader SIGKILL: first writes on a survivor: 500 UNHANDLED, cause "error dialing peer ...", not written.
    const dialing = await api[1].call("POST", "/identities", identity("during-election"));
    assert.deepEqual(error(dialing), {
      status: 500,
      code: "UNHANDLED",
      message: "An unhandled error occurred",
      cause: `error dialing peer tls:${deadAddress}: dial tcp ${deadAddress}: connect: connection refused`,
    });
    cluster.advanceElection();
    // Facts: then 503 CLUSTER_NO_LEADER, no cause.
    const noLeader = await api[2].call("POST", "/identities", identity("during-election"));
    assert.deepEqual(error(noLeader), {
      status: 503,
      code: "CLUSTER_NO_LEADER",
      message: "Cluster has no leader, unable to make model updates.",
      cause: undefined,
    });
    // Facts: reads on survivors 200 throughout.
    assert.equal((await api[2].call("GET", "/identities")).status, 200);
    assert.deepEqual(names(1), ["Default Admin"]);
    cluster.advanceElection();
    assert.equal(cluster.leader()?.name, "ctrl2");
    assert.equal((await api[2].call("POST", "/identities", identity("after-election"))).status, 201);
    // A restarted node rejoins and catches up.
    await cluster.restart("ctrl1");
    assert.deepEqual(names(0), ["Default Admin", "after-election"]);
    // Facts (cluster-facts 15:58 entry): a session survives its node's restart.
    assert.equal((await api[0].call("GET", "/identities")).status, 200);
    assert.equal(cluster.leader()?.name, "ctrl2");
  });

  it("kills a node with a request in flight: before applying it (not written) or after (written, never answered)", async () => {
    cluster.killOnRequest("ctrl2", { method: "POST", path: "/identities", apply: "before" });
    // Facts, requests in flight on the killed node: ECONNRESET.
    assert.equal(await networkError(api[1].call("POST", "/identities", identity("lost"))), "ECONNRESET");
    assert.equal(cluster.nodes[1].up, false);
    for (const node of [0, 2]) assert.deepEqual(names(node), ["Default Admin"]);
    await cluster.restart("ctrl2");
    cluster.killOnRequest("ctrl3", { method: "POST", apply: "after" });
    assert.equal(await networkError(api[2].call("POST", "/identities", identity("committed"))), "ECONNRESET");
    assert.deepEqual(names(0), ["Default Admin", "committed"]);
    assert.deepEqual(names(1), ["Default Admin", "committed"]);
    // The node's request log records the dropped request with status 0.
    assert.equal(cluster.nodes[2].server.log.at(-1)?.status, 0);
  });

  it("answers a write forwarded to a leader that dies: 'error dialing peer' (not written) or 'timed out' (written)", async () => {
    cluster.killOnRequest("ctrl1", { method: "POST", apply: "after" });
    const timedOut = await api[1].call("POST", "/identities", identity("outcome-unknown"));
    // Facts: 500 UNHANDLED cause "timed out" — and that object EXISTS afterwards.
    assert.deepEqual(error(timedOut), {
      status: 500,
      code: "UNHANDLED",
      message: "An unhandled error occurred",
      cause: "timed out",
    });
    assert.deepEqual(names(1), ["Default Admin", "outcome-unknown"]);
    assert.deepEqual(names(2), ["Default Admin", "outcome-unknown"]);
    cluster.elect("ctrl2");
    await cluster.restart("ctrl1");
    cluster.killOnRequest("ctrl2", { method: "POST", apply: "before" });
    const dialing = await api[2].call("POST", "/identities", identity("not-written"));
    assert.equal(dialing.status, 500);
    assert.match(dialing.body.error.cause.message, /^error dialing peer tls:127\.0\.0\.1:\d+: /);
    assert.equal(names(2).includes("not-written"), false);
  });

  it("without quorum (2 of 3 down): reads and logins served, writes 503 CLUSTER_NO_LEADER; normal again once a node returns", async () => {
    await cluster.kill("ctrl2");
    await cluster.kill("ctrl3");
    assert.equal(cluster.leader(), undefined);
    // Facts, quorum lost: reads 200, login 200, writes 503 CLUSTER_NO_LEADER for as long as it lasts.
    assert.equal((await api[0].call("GET", "/identities")).status, 200);
    const again = new EdgeClient(cluster.urls[0], cluster.caPem);
    assert.equal(
      (await again.login(cluster.credentials.edgeUsername, cluster.credentials.edgePassword)).status,
      200,
    );
    assert.equal(
      error(await api[0].call("POST", "/identities", identity("no-quorum"))).code,
      "CLUSTER_NO_LEADER",
    );
    assert.throws(() => cluster.advanceElection(), /no quorum/);
    await cluster.restart("ctrl3");
    cluster.advanceElection();
    assert.equal(cluster.leader()?.name, "ctrl1");
    assert.equal((await api[0].call("POST", "/identities", identity("quorum-back"))).status, 201);
    assert.deepEqual(names(2), ["Default Admin", "quorum-back"]);
  });

  it("is driven over HTTP through any live node's /__mock/cluster (token required)", async () => {
    const via = cluster.urls[0];
    const state = await raw(cluster, `${via}/__mock/cluster`);
    assert.deepEqual(
      state.body.nodes.map((node: any) => [node.name, node.url, node.up, node.isLeader]),
      [
        ["ctrl1", cluster.urls[0], true, true],
        ["ctrl2", cluster.urls[1], true, false],
        ["ctrl3", cluster.urls[2], true, false],
      ],
    );
    assert.equal(
      (await raw(cluster, `${via}/__mock/cluster/nodes/ctrl3/lag`, "PUT", { lagMs: "hold" })).status,
      204,
    );
    await api[0].call("POST", "/identities", identity("over-http"));
    const lagging = await raw(cluster, `${via}/__mock/cluster/nodes/ctrl3/edge/identities`);
    assert.deepEqual(
      lagging.body.map((record: any) => record.name),
      ["Default Admin"],
    );
    assert.equal((await raw(cluster, `${via}/__mock/cluster/nodes/ctrl3/catch-up`, "POST", {})).status, 204);
    assert.deepEqual(names(2), ["Default Admin", "over-http"]);
    // Killing the node asked answers first, then the node dies.
    assert.equal((await raw(cluster, `${via}/__mock/cluster/nodes/ctrl1/kill`, "POST", {})).status, 204);
    const other = cluster.urls[1];
    const afterKill = await raw(cluster, `${other}/__mock/cluster`);
    assert.deepEqual([afterKill.body.leader, afterKill.body.electionPhase], [null, "leader-unreachable"]);
    await raw(cluster, `${other}/__mock/cluster/election`, "POST", { winner: "ctrl3" });
    const restarted = await raw(cluster, `${other}/__mock/cluster/nodes/ctrl1/restart`, "POST", {});
    assert.equal(restarted.body.leader, "ctrl3");
    assert.equal(restarted.body.nodes[0].up, true);
    const log = await raw(cluster, `${other}/__mock/cluster/nodes/ctrl1/log`);
    assert.ok(log.body.some((entry: any) => entry.method === "POST" && entry.status === 201));
    const withoutToken = await new Promise<number>((resolve, reject) => {
      https
        .get(`${other}/__mock/cluster`, { ca: cluster.caPem, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on("error", reject);
    });
    assert.equal(withoutToken, 401);
  });
});

describe("mock server CLI --cluster, in a process of its own (startMockProcess)", () => {
  let mock: MockProcess | undefined;
  after(async () => {
    await mock?.close();
  });

  it("starts N nodes, prints each node and ZITI_EDGE_URLS, is driven through /__mock/cluster with the printed CA", async function () {
    this.timeout(60_000);
    mock = await startMockProcess(["--cluster", "3"]);
    assert.equal(mock.urls.length, 3);
    assert.equal(mock.urls[0], mock.url);
    assert.ok(mock.caPem);
    const described = await mock.control<any>("GET", "cluster");
    assert.deepEqual(
      described.nodes.map((node: any) => [node.name, node.url]),
      mock.urls.map((url, index) => [`ctrl${index + 1}`, url]),
    );
    assert.equal(described.leader, "ctrl1");
    const target = { caPem: mock.caPem, controlToken: "" } as MockCluster;
    for (const url of mock.urls) {
      const version = await raw(target, `${url}/version`);
      assert.deepEqual(version.body.data.capabilities, ["OIDC_AUTH", "HA_CONTROLLER"]);
    }
    await mock.control("POST", "cluster/nodes/ctrl3/kill", {});
    const afterKill = await mock.control<any>("GET", "cluster");
    assert.equal(afterKill.nodes[2].up, false);
  });
});
