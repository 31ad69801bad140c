// The provider (engine entry points, as the dynamic-provider host calls them) against the mock's
// cluster mode (mock/cluster.ts: 3 HTTPS nodes on one CA, replicated Edge store, elections, lag):
// the cluster cases of test/edge-cluster.test.ts once more over real TLS with the Edge API in full —
// a create whose node dies with it in flight is adopted (no duplicate, no orphan), writes wait through
// an election, and a read after a move waits for a lagging node instead of reporting the object gone.
// Elections and catch-up are advanced by the test when the node's request log shows the provider
// waiting on them (no timing).
import assert from "node:assert/strict";
import { type MockCluster, startMockCluster } from "../mock/cluster";
import { configureFor, createChecked, engine } from "./support/engine";
import { waitFor } from "./support/wait";

const SERVICE = "Service";

describe("Edge HA cluster: the provider against the mock cluster (3 HTTPS nodes)", function () {
  this.timeout(60_000);
  let cluster: MockCluster;
  // One cluster for the suite, reset between tests.
  before(async () => {
    cluster = await startMockCluster({ nodes: 3, election: "manual" });
  });
  beforeEach(async () => {
    await cluster.reset();
    // New clients per test (configure keeps them while the settings stay the same): no session or
    // node choice carried over from the previous test.
    await configureFor({});
    await configureFor({
      "frontdoor:edgeUrls": cluster.urls.join(","),
      "frontdoor:edgeUsername": cluster.credentials.edgeUsername,
      "frontdoor:edgePassword": cluster.credentials.edgePassword,
      "frontdoor:caBundle": cluster.caPem,
    });
  });
  after(async () => {
    await cluster?.close();
  });

  const names = (node: number) => cluster.list(node, "services").map((r) => r.name);
  const statuses = (node: number, method: string, path: string) =>
    cluster.nodes[node].server.log
      .filter((e) => e.method === method && e.path.endsWith(path))
      .map((e) => e.status);

  it("adopts a create the leader committed before dying with it in flight, then waits through the election", async () => {
    cluster.killOnRequest("ctrl1", { method: "POST", path: "/services", apply: "after" });
    const first = await createChecked(SERVICE, { name: "in-flight" });
    assert.equal(cluster.nodes[0].up, false);
    assert.deepEqual(statuses(0, "POST", "/services"), [0]);
    assert.deepEqual(names(1), ["in-flight"]);
    assert.equal(cluster.list(1, "services")[0].id, first.id);

    // No leader now: writes through ctrl2 answer 500 "error dialing peer", then 503 CLUSTER_NO_LEADER.
    const second = createChecked(SERVICE, { name: "after-election" });
    await waitFor(
      () => statuses(1, "POST", "/services").includes(500),
      "a write refused while the leader is unreachable",
    );
    cluster.advanceElection();
    await waitFor(() => statuses(1, "POST", "/services").includes(503), "a write refused without leader");
    cluster.elect("ctrl2");
    const made = await second;
    assert.deepEqual(names(1).sort(), ["after-election", "in-flight"]);
    assert.deepEqual(names(2).sort(), ["after-election", "in-flight"]);
    assert.equal(cluster.list(1, "services").find((r) => r.name === "after-election")?.id, made.id);
    // Sent again after each refusal (on the next node), created once.
    const answers = [...statuses(1, "POST", "/services"), ...statuses(2, "POST", "/services")];
    assert.equal(answers.filter((status) => status === 201).length, 1, String(answers));
  });

  it("after a move, reads an object it created through the dead node once the lagging node caught up (no false drift)", async () => {
    cluster.setLag("ctrl2", "hold");
    const made = await createChecked(SERVICE, { name: "lagging" });
    await cluster.kill("ctrl1");
    const read = engine.read(SERVICE, made.id, made.outs);
    const path = `/services/${made.id}`;
    await waitFor(() => statuses(1, "GET", path).includes(404), "a stale 404 on the follower");
    cluster.catchUp("ctrl2");
    const found = await read;
    assert.equal(found.id, made.id);
    assert.equal(found.props?.name, "lagging");
    assert.equal(statuses(1, "GET", path).at(-1), 200);
  });
});
