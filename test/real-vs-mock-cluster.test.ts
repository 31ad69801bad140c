// The mock's cluster mode against the truth: the same probes go to the real 3-node ziti cluster
// (test/peers/cluster.ts, shared per mocha run) and to the mock cluster, and the mock must answer what the
// real one answers. Nothing is hard-coded but the requests: each probe reduces its answers to what must
// agree (statuses, codes, messages, field sets, which node a URL names), with node URLs replaced by their
// role. One probe kills the leader (the mock then runs the real election timings, ~5 s) and restarts it: the
// shared cluster is left whole. The rest of the failure cases (in-flight requests, quorum loss) are checked
// on the mock's side against the recorded facts by test/mock-cluster.test.ts.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import https from "node:https";
import { type MockCluster, startMockCluster } from "../mock/cluster";
import { EdgeClient, readReply } from "./support/edgeClient";
import { useCluster } from "./support/fixtures";
import { waitFor } from "./support/wait";

/** What a probe sees of a cluster, real or mock. */
interface Target {
  urls: string[];
  caPem: string;
  username: string;
  password: string;
  /** The leader's index in `urls` (waits for one). */
  leader(): Promise<number>;
  /** SIGKILL for the real node; for the mock's, its listener closed and its connections reset. */
  kill(index: number): Promise<void>;
  restart(index: number): Promise<void>;
}

type Probe = (target: Target, tag: string) => Promise<unknown>;

/** A GET outside the management API's base path (`/version`), TLS verified with the cluster's CA. */
function get(target: Target, url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca: target.caPem, agent: false }, (res) => readReply(res).then(resolve, reject))
      .on("error", reject);
  });
}

/** One admin client per node, each logged in on its own node (sessions are node-local). */
async function admins(target: Target): Promise<EdgeClient[]> {
  return Promise.all(
    target.urls.map(async (url) => {
      const client = new EdgeClient(url, target.caPem);
      const login = await client.login(target.username, target.password);
      assert.equal(login.status, 200, JSON.stringify(login.body));
      return client;
    }),
  );
}

/** An error answer's status, code, blamed field and cause message (the probe's own names as "<tag>"). */
const errorOf = (reply: { status: number; body: any }, tag = "") => ({
  status: reply.status,
  code: reply.body?.error?.code ?? null,
  causeField: reply.body?.error?.cause?.field ?? null,
  causeMessage: tag ? (reply.body?.error?.cause?.message?.replaceAll(tag, "<tag>") ?? null) : null,
});

const probes: Record<string, Probe> = {
  "/version on every node": async (target) =>
    Promise.all(
      target.urls.map(async (url) => {
        const { status, body } = await get(target, `${url}/version`);
        const versions = body.data.apiVersions;
        return {
          status,
          capabilities: body.data.capabilities,
          version: body.data.version,
          managementUrlIsTheNodeItself:
            JSON.stringify(versions["edge-management"].v1.apiBaseUrls) ===
            JSON.stringify([`${url}/edge/management/v1`]),
          oidc: versions["edge-oidc"]?.v1?.path ?? null,
        };
      }),
    ),
  "/controllers, as each node lists them": async (target) => {
    const clients = await admins(target);
    return Promise.all(
      clients.map(async (client) => {
        const reply = await client.call("GET", "/controllers");
        const items: any[] = reply.body.data;
        return {
          status: reply.status,
          ids: items.map((item) => item.id).sort(),
          fields: [...new Set(items.flatMap((item) => Object.keys(item)))].sort(),
          filterableFields: [...reply.body.meta.filterableFields].sort(),
          // Each item names a node of the cluster by its edge URL, and every node is named once.
          nodesNamed: items
            .map((item) =>
              target.urls.indexOf(
                item.apiAddresses["edge-management"][0].url.replace(/\/edge\/management\/v1$/, ""),
              ),
            )
            .sort(),
          apiAddressKinds: [...new Set(items.flatMap((item) => Object.keys(item.apiAddresses)))].sort(),
          ctrlAddressesOnLoopback: items.every((item) => /^tls:127\.0\.0\.1:\d+$/.test(item.ctrlAddress)),
          fingerprintsAreSha1OfCerts: items.every(
            (item) =>
              item.fingerprint ===
              new X509Certificate(item.certPem).fingerprint.replaceAll(":", "").toLowerCase(),
          ),
          online: items.map((item) => item.isOnline),
          nameIsId: items.every((item) => item.name === item.id),
        };
      }),
    );
  },
  "a session from one node on another": async (target) => {
    const [first] = await admins(target);
    const other = new EdgeClient(target.urls[1], target.caPem);
    const reply = await other.call("GET", "/identities", { token: first.token });
    return { ...errorOf(reply), message: reply.body?.error?.message };
  },
  "a write through a follower, read back on it and on the leader; its name again through the leader and the other follower":
    async (target, tag) => {
      const clients = await admins(target);
      const leader = await target.leader();
      const [follower, other] = [0, 1, 2].filter((index) => index !== leader).map((index) => clients[index]);
      const created = await follower.call("POST", "/identities", {
        body: { name: `${tag}-via-follower`, type: "User", isAdmin: false },
      });
      const id = created.body.data?.id;
      const result = {
        created: created.status,
        onTheFollower: (await follower.call("GET", `/identities/${id}`)).status,
        onTheLeader: (await clients[leader].call("GET", `/identities/${id}`)).status,
        twinThroughTheLeader: errorOf(
          await clients[leader].call("POST", "/identities", {
            body: { name: `${tag}-via-follower`, type: "User", isAdmin: false },
          }),
          tag,
        ),
        twinThroughTheOtherFollower: errorOf(
          await other.call("POST", "/identities", {
            body: { name: `${tag}-via-follower`, type: "User", isAdmin: false },
          }),
          tag,
        ),
        deletedThroughTheOther: (await other.call("DELETE", `/identities/${id}`)).status,
      };
      return result;
    },
};

describe("the mock cluster against the real cluster (same probes, same answers)", function () {
  this.timeout(120_000);
  const real = useCluster();
  let mock: MockCluster;
  const answers: { real: Record<string, unknown>; mock: Record<string, unknown> } = { real: {}, mock: {} };
  let targets: { real: Target; mock: Target };

  before(async function () {
    this.timeout(300_000);
    mock = await startMockCluster({ nodes: real.nodes.length });
    const tag = `rvm-cluster-${Date.now().toString(36)}`;
    const realTarget: Target = {
      urls: real.urls,
      caPem: real.caPem,
      username: real.username,
      password: real.password,
      leader: async () => real.urls.indexOf(real.node(await real.waitForLeader()).url),
      kill: (index) => real.kill(real.nodes[index].name),
      restart: (index) => real.restart(real.nodes[index].name),
    };
    const mockTarget: Target = {
      urls: mock.urls,
      caPem: mock.caPem,
      username: mock.credentials.edgeUsername,
      password: mock.credentials.edgePassword,
      leader: async () => {
        await waitFor(() => mock.leader() !== undefined, "a mock leader");
        return mock.leader()!.index;
      },
      kill: (index) => mock.kill(index),
      restart: (index) => mock.restart(index),
    };
    targets = { real: realTarget, mock: mockTarget };
    for (const [name, probe] of Object.entries(probes)) {
      answers.real[name] = await probe(realTarget, `${tag}-real`);
      answers.mock[name] = await probe(mockTarget, `${tag}-mock`);
    }
  });

  after(async () => {
    await mock?.close();
  });

  for (const name of Object.keys(probes)) {
    it(name, () => {
      assert.deepEqual(answers.mock[name], answers.real[name]);
    });
  }

  it("the leader SIGKILLed: what writes on a survivor get until one succeeds (the mock with the real timings)", async () => {
    const tag = `rvm-kill-${Date.now().toString(36)}`;
    const real = await leaderLoss(targets.real, `${tag}-real`);
    const mock = await leaderLoss(targets.mock, `${tag}-mock`);
    // The mock walks every phase; the real cluster may pass through one quicker than the polling sees it.
    assert.deepEqual(mock.phases, ["dialing the dead leader", "no leader", "created"]);
    assert.deepEqual(
      real.phases,
      mock.phases.filter((phase) => real.phases.includes(phase)),
    );
    assert.equal(real.phases.at(-1), "created");
    assert.deepEqual([real.readsServed, mock.readsServed], [true, true]);
  });
});

/**
 * Kills the leader, then writes through one survivor (and reads through the other) every 100 ms until a
 * write succeeds; the distinct kinds of answer in order. Leaves the cluster whole (the real one is shared).
 */
async function leaderLoss(target: Target, tag: string): Promise<{ phases: string[]; readsServed: boolean }> {
  const clients = await admins(target);
  const leader = await target.leader();
  const controllers = (await clients[leader].call("GET", "/controllers")).body.data;
  const dead = String(
    controllers.find(
      (item: any) => target.urls[leader] === new URL(item.apiAddresses["edge-management"][0].url).origin,
    ).ctrlAddress,
  );
  const deadHost = dead.replace(/^tls:/, "");
  const [writer, reader] = [0, 1, 2].filter((index) => index !== leader).map((index) => clients[index]);
  const phases: string[] = [];
  let readsServed = true;
  let createdId: string | undefined;
  await target.kill(leader);
  try {
    for (let attempt = 0; !createdId && attempt < 600; attempt++) {
      const reply = await writer.call("POST", "/identities", {
        body: { name: `${tag}-${attempt}`, type: "User", isAdmin: false },
      });
      const error = reply.body?.error;
      const phase =
        reply.status === 201
          ? "created"
          : reply.status === 500 &&
              error?.code === "UNHANDLED" &&
              error?.cause?.message ===
                `error dialing peer ${dead}: dial tcp ${deadHost}: connect: connection refused`
            ? "dialing the dead leader"
            : reply.status === 503 &&
                error?.code === "CLUSTER_NO_LEADER" &&
                error?.message === "Cluster has no leader, unable to make model updates."
              ? "no leader"
              : `${reply.status} ${JSON.stringify(error)}`;
      if (phases.at(-1) !== phase) phases.push(phase);
      if (reply.status === 201) createdId = reply.body.data.id;
      if ((await reader.call("GET", "/identities?limit=1")).status !== 200) readsServed = false;
      if (!createdId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await target.restart(leader);
    await target.leader();
    if (createdId) await writer.call("DELETE", `/identities/${createdId}`);
  }
  return { phases, readsServed };
}
