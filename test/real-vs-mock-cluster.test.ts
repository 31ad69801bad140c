// The mock's cluster mode against the truth: the same probes go to the real 3-node ziti cluster
// (test/peers/cluster.ts, shared per mocha run) and to the mock cluster, and the mock must answer what the
// real one answers. Nothing is hard-coded but the requests: each probe reduces its answers to what must
// agree (statuses, codes, messages, field sets, which node a URL names), with node URLs replaced by their
// role. Probes that kill nodes stay in test/real-cluster.test.ts (the shared cluster must stay whole, and
// elections take seconds there); test/mock-cluster.test.ts checks the mock's side of those against the
// recorded facts.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import https from "node:https";
import { type MockCluster, startMockCluster } from "../mock/cluster";
import { EdgeClient, readReply } from "./support/edgeClient";
import { useCluster } from "./support/fixtures";

/** What a probe sees of a cluster, real or mock. */
interface Target {
  urls: string[];
  caPem: string;
  username: string;
  password: string;
  /** The leader's index in `urls`. */
  leader(): Promise<number>;
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
    };
    const mockTarget: Target = {
      urls: mock.urls,
      caPem: mock.caPem,
      username: mock.credentials.edgeUsername,
      password: mock.credentials.edgePassword,
      leader: async () => mock.leader()?.index ?? -1,
    };
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
});
