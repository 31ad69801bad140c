// The provider against a real 3-node OpenZiti HA cluster (test/peers/cluster.ts, shared by the run),
// through the real Pulumi CLI: a TypeScript program of 200 objects (dynamic-provider host) pointed at a
// follower, at the leader, at every node; the leader SIGKILLed during `up` at several points and the
// provider's own node killed; quorum lost; drift made on one node found through every node; the audit
// command through any node. After each disturbance a second `up` converges and every node lists exactly
// the objects the state holds (no orphan, no duplicate). The plugin (YAML program) proves the same
// routing once, on a small program. What the cluster itself does is in docs/guides/real-peers.md
// (its HA cluster section).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type CliResult, type CliStack, cliStack } from "./peers/cli";
import { listAll } from "./peers/cluster";
import { listeningAddresses } from "./peers/controller";
import { REPO_ROOT, requirePeers } from "./peers/index";
import { runAudit } from "./support/auditCli";
import { useCluster } from "./support/fixtures";
import { assertPluginBuilt, pluginStack } from "./support/plugin";

const PROGRAM = path.join(REPO_ROOT, "test", "programs", "cluster-many");
const YAML_PROGRAM = path.join(REPO_ROOT, "test", "programs", "cluster-yaml");
const GROUPS = 50; // x 4 kinds = 200 objects
const PREFIX = "hc";
/** The program's resource name prefixes and the collections their objects live in. */
const KINDS: Record<string, string> = {
  id: "identities",
  svc: "services",
  dial: "service-policies",
  serp: "service-edge-router-policies",
};

interface Placed {
  collection: string;
  id: string;
}

/** The program's objects in a `pulumi stack export`: each resource's collection and id. */
function stateObjects(state: any): Placed[] {
  return (state.deployment.resources ?? [])
    .filter((r: any) => r.custom && !String(r.type).startsWith("pulumi:providers"))
    .map((r: any) => {
      const name = String(r.urn).split("::").pop() as string;
      const collection = KINDS[name.split("-")[0]];
      assert.ok(collection, `unexpected resource ${r.urn}`);
      return { collection, id: String(r.id) };
    });
}

const keyOf = (o: Placed) => `${o.collection}/${o.id}`;

describe("Real OpenZiti HA cluster (3 nodes): the real CLI and the plugin", function () {
  this.timeout(1_800_000);
  const cluster = useCluster();
  let stack: CliStack;
  const outputs: string[] = [];

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "ziti");
    this.timeout(300_000);
    stack = await cliStack(PROGRAM, {
      config: {
        groups: String(GROUPS),
        prefix: PREFIX,
        "frontdoor:edgeUsername": cluster.username,
        "frontdoor:caBundle": cluster.caPem,
      },
      secretConfig: { "frontdoor:edgePassword": cluster.password },
    });
  });
  // A test that failed half-way leaves every node running again: the cluster is shared.
  const restartStopped = async () => {
    for (const node of cluster.nodes) if (!node.pid) await cluster.restart(node.name);
  };
  afterEach(restartStopped);
  after(async () => {
    // Whatever a failed test left: the objects go.
    await restartStopped();
    if (stack) {
      await pointAt(cluster.nodes.map((n) => n.url));
      await stack.run(["destroy", "--yes", "--skip-preview"]);
      await stack.dispose();
    }
  });

  /** The leader's name, then the followers' (a leader is elected and accepts writes). */
  const roles = async () => {
    const leader = await cluster.waitForLeader();
    return { leader, followers: cluster.nodes.map((n) => n.name).filter((n) => n !== leader) };
  };
  const url = (name: string) => cluster.node(name).url;
  /**
   * The provider's controller addresses for the next commands (`edgeUrls`: the cluster mode, the
   * listed nodes first, the others discovered from GET /controllers and used when these fail).
   */
  async function pointAt(urls: string[]): Promise<void> {
    await stack.ok(["config", "set", "frontdoor:edgeUrls", urls.join(",")]);
  }
  const keep = (result: CliResult) => {
    outputs.push(result.output);
    return result;
  };
  const up = async () => keep(await stack.run(["up", "--yes", "--skip-preview"]));
  const upOk = async () => {
    const result = await up();
    assert.equal(result.code, 0, result.output);
    return result;
  };

  /** The program's objects (names with the prefix) as one node lists them. */
  const objectsOn = async (name: string): Promise<Array<Placed & { name: string }>> => {
    const all: Array<Placed & { name: string }> = [];
    for (const collection of Object.values(KINDS))
      for (const o of await listAll(cluster.node(name).admin, collection))
        if (o.name.startsWith(`${PREFIX}-`)) all.push({ collection, id: o.id, name: o.name });
    return all;
  };

  /**
   * Every running node lists exactly the state's objects: none missing, no orphan, no duplicate name.
   * A follower may lag a write by a fraction of a second (cluster-facts.md): each node is read again
   * until it agrees or a generous deadline passes.
   */
  async function assertEveryNodeHoldsTheState(): Promise<Placed[]> {
    const expected = stateObjects(await stack.exportState())
      .map(keyOf)
      .sort();
    for (const node of cluster.nodes) {
      if (!node.pid) continue;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const listed = await objectsOn(node.name);
        const names = listed.map((o) => `${o.collection}/${o.name}`);
        const actual = listed.map(keyOf).sort();
        const same =
          JSON.stringify(actual) === JSON.stringify(expected) && new Set(names).size === names.length;
        if (same) break;
        if (Date.now() > deadline) {
          const orphans = actual.filter((k) => !expected.includes(k));
          const missing = expected.filter((k) => !actual.includes(k));
          assert.fail(
            `${node.name} does not list what the state holds: ${orphans.length} orphan(s) ${orphans.slice(0, 5).join(", ")}; ` +
              `${missing.length} missing ${missing.slice(0, 5).join(", ")}; ${names.length - new Set(names).size} duplicate name(s)`,
          );
        }
        await sleep(500);
      }
    }
    return stateObjects(await stack.exportState());
  }

  /** Starts `up`, and runs `disturb` once `ready()` holds (watched on the cluster while the up runs). */
  async function upDisturbedWhen(
    ready: () => Promise<boolean>,
    disturb: () => Promise<void>,
  ): Promise<CliResult> {
    const { result } = stack.start(["up", "--yes", "--skip-preview"]);
    let finished = false;
    void result.then(() => {
      finished = true;
    });
    let disturbed = false;
    while (!finished) {
      if (await ready().catch(() => false)) {
        await disturb();
        disturbed = true;
        break;
      }
      await sleep(100);
    }
    const answer = keep(await result);
    // The outcome, for the reader of the run (both are allowed: the assertions that follow decide).
    const error =
      answer.output
        .split("\n")
        .filter((l) => /error:/.test(l))
        .pop()
        ?.trim() ?? "";
    process.stdout.write(
      `      (disturbed up: exit ${answer.code}${error ? `, ${error.slice(0, 240)}` : ""})\n`,
    );
    assert.ok(
      disturbed,
      `the up ended before the disturbance (exit ${answer.code}):\n${answer.output.slice(-3000)}`,
    );
    return answer;
  }
  /** How many of the program's objects `name` lists (optionally: only those matching `which`). */
  const countOn = async (name: string, which: (o: any) => boolean = () => true) => {
    let n = 0;
    for (const collection of Object.values(KINDS)) {
      const reply = await cluster.node(name).admin.call("GET", `/${collection}?limit=500`);
      n += (reply.body.data as any[]).filter((o) => o.name.startsWith(`${PREFIX}-`) && which(o)).length;
    }
    return n;
  };

  it("runs 3 nodes on 127.0.0.1 only; each lists all three in /controllers and reports HA_CONTROLLER", async () => {
    for (const node of cluster.nodes) {
      const addresses = listeningAddresses(node.pid as number);
      assert.equal(addresses.length, 2, `${node.name}: ${addresses}`); // the cluster and the edge listener
      for (const address of addresses) assert.match(address, /^127\.0\.0\.1:\d+$/);
      const version = await node.admin.call("GET", "/version", { token: null });
      assert.deepEqual([...version.body.data.capabilities].sort(), ["HA_CONTROLLER", "OIDC_AUTH"]);
      const controllers = await node.admin.call("GET", "/controllers");
      assert.equal(controllers.status, 200);
      assert.deepEqual(
        controllers.body.data.map((c: any) => c.apiAddresses["edge-management"][0].url).sort(),
        cluster.urls.map((u) => `${u}/edge/management/v1`).sort(),
      );
    }
    assert.ok(await cluster.leader());
  });

  it("up of 200 objects through a follower; clean preview --refresh through the other follower and the leader; every node holds exactly the state", async () => {
    const { leader, followers } = await roles();
    await pointAt([url(followers[0])]);
    await upOk();
    assert.equal(stateObjects(await stack.exportState()).length, GROUPS * 4);
    await assertEveryNodeHoldsTheState();
    for (const name of [followers[1], leader]) {
      await pointAt([url(name)]);
      const preview = keep(await stack.run(["preview", "--refresh", "--expect-no-changes"]));
      assert.equal(preview.code, 0, `preview --refresh through ${name}:\n${preview.output}`);
    }
  });

  it("a change made outside Pulumi on one node is found the same through every node; up puts it back", async () => {
    const { leader, followers } = await roles();
    const id = (await stack.exportState()).deployment.resources.find((r: any) =>
      String(r.urn).endsWith("::id-7"),
    ).id;
    const changed = await cluster.node(followers[1]).admin.call("PATCH", `/identities/${id}`, {
      body: { roleAttributes: ["changed-behind-pulumi"] },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    for (const name of [leader, ...followers]) {
      await pointAt([url(name)]);
      const preview = keep(await stack.run(["preview", "--refresh", "--expect-no-changes", "--diff"]));
      assert.notEqual(preview.code, 0, `no drift found through ${name}:\n${preview.output}`);
      assert.match(preview.output, /id-7/, `through ${name}`);
      assert.match(preview.output, /roleAttributes/, `through ${name}`);
      assert.match(preview.output, /1 to update/, `through ${name}: only the changed identity`);
    }
    // `up` alone trusts the state: --refresh reads the change and puts it back.
    assert.equal(keep(await stack.run(["up", "--yes", "--skip-preview", "--refresh"])).code, 0);
    for (const node of cluster.nodes) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const now = await node.admin.call("GET", `/identities/${id}`);
        if (now.status === 200 && now.body.data.roleAttributes?.[0] === `${PREFIX}-g7`) break;
        assert.ok(
          Date.now() < deadline,
          `${node.name} still has ${JSON.stringify(now.body.data?.roleAttributes)}`,
        );
        await sleep(300);
      }
    }
  });

  it("the audit command finds nothing unmanaged through any node, and an object made on one node through every node", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-audit-"));
    try {
      const stateFile = path.join(dir, "state.json");
      fs.writeFileSync(stateFile, JSON.stringify(await stack.exportState()));
      const audit = (name: string) =>
        runAudit(
          {
            ZITI_EDGE_URL: url(name),
            ZITI_USERNAME: cluster.username,
            ZITI_PASSWORD: cluster.password,
            FRONTDOOR_CA_BUNDLE: cluster.caPem,
          },
          "unmanaged",
          "--state",
          stateFile,
          "--kind",
          "Identity",
          "--kind",
          "Service",
          "--kind",
          "ServicePolicy",
          "--kind",
          "ServiceEdgeRouterPolicy",
        );
      for (const node of cluster.nodes) {
        const clean = await audit(node.name);
        assert.equal(clean.code, 0, `${node.name}: ${clean.stdout}${clean.stderr}`);
        assert.match(clean.stdout, /^Unmanaged objects: 0 /);
      }
      const made = await cluster.node("ctrl1").admin.call("POST", "/services", {
        body: { name: "made-outside-pulumi", encryptionRequired: true },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      try {
        for (const node of cluster.nodes) {
          // The object reaches the followers within a moment: audit again until it does.
          const deadline = Date.now() + 30_000;
          let found = await audit(node.name);
          while (found.code === 0 && Date.now() < deadline) {
            await sleep(300);
            found = await audit(node.name);
          }
          assert.equal(found.code, 1, `${node.name}: ${found.stdout}${found.stderr}`);
          assert.match(found.stdout, /^Unmanaged objects: 1 /);
          assert.match(found.stdout, new RegExp(`made-outside-pulumi\\s+\\(id ${made.body.data.id}\\)`));
        }
      } finally {
        await cluster.node("ctrl1").admin.call("DELETE", `/services/${made.body.data.id}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("destroy through the leader leaves nothing on any node", async () => {
    const { leader } = await roles();
    await pointAt([url(leader)]);
    keep(await stack.ok(["destroy", "--yes", "--skip-preview"]));
    assert.deepEqual(stateObjects(await stack.exportState()), []);
    await assertEveryNodeHoldsTheState();
  });

  it("the leader SIGKILLed during up, after 40 creates, then during the next up after 120: each up completes or names the cluster state; a third up converges", async () => {
    await pointAt(cluster.urls);
    for (const after of [40, 120]) {
      const { leader } = await roles();
      const result = await upDisturbedWhen(
        async () => (await countOn(leader)) >= after,
        () => cluster.kill(leader),
      );
      if (result.code !== 0) assert.match(result.output, clusterState, result.output.slice(-3000));
      await cluster.restart(leader);
    }
    await roles();
    await upOk();
    const held = await assertEveryNodeHoldsTheState();
    assert.equal(held.length, GROUPS * 4);
  });

  it("the provider's own node killed during up: it completes or names the cluster state; the next up converges", async () => {
    const { followers } = await roles();
    const own = followers[0];
    await pointAt([url(own)]);
    await stack.ok(["config", "set", "tagged", "own-node"]);
    const result = await upDisturbedWhen(
      async () => (await countOn(own, (o) => o.tags?.stage === "own-node")) >= 60,
      () => cluster.kill(own),
    );
    if (result.code !== 0) assert.match(result.output, clusterState, result.output.slice(-3000));
    await cluster.restart(own);
    await roles();
    await upOk();
    await assertEveryNodeHoldsTheState();
    for (const node of cluster.nodes)
      assert.equal(await countOn(node.name, (o) => o.tags?.stage === "own-node"), GROUPS * 4);
  });

  it("quorum lost (2 of 3 down): a clear error, nothing half-done; normal again once the nodes are back", async () => {
    const { leader, followers } = await roles();
    const survivor = followers[0];
    await pointAt([url(survivor)]);
    await cluster.kill(leader);
    await cluster.kill(followers[1]);
    await stack.ok(["config", "set", "tagged", "no-quorum"]);
    // The retry budget (default 120 s per request) bounds how long it waits for a leader: shortened here.
    await stack.ok(["config", "set", "frontdoor:retryTimeoutSeconds", "15"]);
    const result = keep(await stack.run(["up", "--yes", "--skip-preview"]));
    await stack.ok(["config", "rm", "frontdoor:retryTimeoutSeconds"]);
    assert.notEqual(result.code, 0, result.output);
    assert.match(result.output, clusterState);
    // Nothing half-done: the survivor still serves reads, and no object took the change.
    assert.equal(await countOn(survivor, (o) => o.tags?.stage === "no-quorum"), 0);
    assert.equal(await countOn(survivor), GROUPS * 4);
    await cluster.restart(leader);
    await cluster.restart(followers[1]);
    await roles();
    await upOk();
    await assertEveryNodeHoldsTheState();
    for (const node of cluster.nodes)
      assert.equal(await countOn(node.name, (o) => o.tags?.stage === "no-quorum"), GROUPS * 4);
  });

  it("the plugin (YAML program): up through a follower, clean refresh through the others, destroy through the leader", async function () {
    requirePeers(this, "pulumi-language-yaml");
    assertPluginBuilt();
    const { leader, followers } = await roles();
    const yaml = await pluginStack(YAML_PROGRAM, {
      config: {
        prefix: "hc-yaml",
        role: "hc-yaml-role",
        "frontdoor:edgeUrls": url(followers[0]),
        "frontdoor:edgeUsername": cluster.username,
        "frontdoor:caBundle": cluster.caPem,
      },
      secretConfig: { "frontdoor:edgePassword": cluster.password },
    });
    try {
      const upResult = await yaml.run(["up", "--yes", "--skip-preview"]);
      assert.equal(upResult.code, 0, upResult.output);
      const ids = stateObjects(await yaml.exportState());
      assert.equal(ids.length, 4);
      for (const name of [followers[1], leader]) {
        await yaml.ok(["config", "set", "frontdoor:edgeUrls", url(name)]);
        const preview = await yaml.run(["preview", "--refresh", "--expect-no-changes"]);
        assert.equal(preview.code, 0, `through ${name}:\n${preview.output}`);
      }
      const destroy = await yaml.run(["destroy", "--yes", "--skip-preview"]);
      assert.equal(destroy.code, 0, destroy.output);
      for (const node of cluster.nodes) {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const left = (
            await Promise.all(ids.map((o) => node.admin.call("GET", `/${o.collection}/${o.id}`)))
          ).filter((r) => r.status !== 404);
          if (left.length === 0) break;
          assert.ok(
            Date.now() < deadline,
            `${node.name} still has ${left.length} of the YAML program's objects`,
          );
          await sleep(300);
        }
      }
    } finally {
      await yaml.dispose();
    }
  });

  it("no secret in the CLI's output", () => {
    for (const output of outputs)
      assert.ok(!output.includes(cluster.password), "the admin password was printed");
  });
});

/** What an error that names the cluster's state says (the server's own words, or the provider's). */
const clusterState = /the cluster has no leader \(quorum lost\?\)|no node of the cluster/;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
