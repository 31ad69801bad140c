// A real 3-node OpenZiti HA controller cluster for the real-cluster suites, built as docs/guides/real-peers.md
// says: one root CA with a SPIFFE trust domain, one intermediate CA per node, a server certificate per
// node with the SPIFFE id controller/<node>; configs from `ziti create config controller --clustered`
// with every address given through the environment (all on 127.0.0.1, free ports); each node runs
// detached in its own process group; the agent (which works by process id) initialises the cluster on
// the first node and adds the others. Starting one costs ~15 s, so suites share one per mocha run:
// sharedCluster() starts it lazily and the root afterAll hook (test/support/fixtures.ts) or the
// process exit stops it.
import { execFile } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { type CertificateAuthority, createRootCa } from "../../mock/pki";
import { EdgeClient } from "../support/edgeClient";
import { type DetachedPeer, freePort, spawnDetached } from "./controller";
import { type ControllerRelease, controllerPeer, defaultRelease, peerPath } from "./index";

const run = promisify(execFile);

export interface ClusterNode {
  /** The node id (its SPIFFE id's last part, also its id in GET /controllers): ctrl1, ctrl2, ... */
  name: string;
  /** Its edge API, e.g. https://127.0.0.1:41234 (management API below /edge/management/v1). */
  url: string;
  /** The cluster (raft) listener, tls:127.0.0.1:<ctrlPort>. */
  ctrlPort: number;
  /** The process id while it runs (the agent addresses a node by it), else undefined. */
  pid: number | undefined;
  /**
   * Raw management API calls as an admin logged in on THIS node (a password session is valid only
   * on the node that issued it: cluster-facts.md); logged in again after restart().
   */
  admin: EdgeClient;
  /** The node's console output so far (since its last start). */
  output(): string;
}

export interface RealCluster {
  nodes: ClusterNode[];
  /** The nodes' edge URLs, in node order. */
  urls: string[];
  /** The root CA (PEM): trusts every node's server certificate. */
  caPem: string;
  username: string;
  password: string;
  release: ControllerRelease;
  /**
   * The CA the nodes trust for their own outgoing HTTPS (SSL_CERT_FILE: Go's default client, e.g. an
   * external JWT signer's JWKS fetch): a JWKS server on loopback serves a certificate of it.
   */
  outboundCa: CertificateAuthority;
  /** How long startCluster took (ms), for the reports. */
  startupMs: number;
  node(name: string): ClusterNode;
  /** The leader's name as the agent of a running node sees it, or undefined (no leader now). */
  leader(): Promise<string | undefined>;
  /** Waits until a leader is elected and a write through it succeeds; returns its name. */
  waitForLeader(timeoutMs?: number): Promise<string>;
  /** Signals the node's process group (default SIGKILL) and waits until it exited. */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped node again (same config and data: it rejoins by itself) and logs its admin in. */
  restart(name: string): Promise<void>;
  /** Every object of `collection` (e.g. "identities") as THIS node lists it (all pages). */
  list(name: string, collection: string): Promise<Array<{ id: string; name: string }>>;
  /** Stops every node and removes the cluster's directory. */
  stop(): Promise<void>;
}

const TRUST_DOMAIN = "frontdoor.test";

/** Directories of clusters still running, removed by the exit hook if the run ends without stop(). */
const homes = new Set<string>();
process.once("exit", () => {
  // controller.ts's exit hook SIGKILLs the processes; the files go here.
  for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
});

export async function startCluster(
  options: { nodes?: number; release?: ControllerRelease; timeoutMs?: number } = {},
): Promise<RealCluster> {
  const started = Date.now();
  const count = options.nodes ?? 3;
  const release = options.release ?? defaultRelease();
  const ziti = peerPath(controllerPeer(release));
  if (!ziti) throw new Error(`${controllerPeer(release)} is not built (npm run peers)`);
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ziti-cluster-"));
  homes.add(home);
  const pki = path.join(home, "pki");
  const username = "admin";
  const password = crypto.randomBytes(18).toString("base64url");
  const names = Array.from({ length: count }, (_, i) => `ctrl${i + 1}`);
  // 2048-bit keys: the default 4096 costs seconds per key on the 2-core machines, for nothing here.
  const keySize = ["--private-key-size", "2048"];
  const zitiRun = (...args: string[]) => run(ziti, args, { cwd: home, maxBuffer: 16 << 20 });

  const peers = new Map<string, DetachedPeer>();
  const stopAll = async () => {
    await Promise.all([...peers.values()].map((peer) => peer.stop()));
  };
  try {
    await zitiRun(
      "pki",
      "create",
      "ca",
      "--pki-root",
      pki,
      "--ca-file",
      "root",
      "--ca-name",
      "Frontdoor Test Cluster Root CA",
      "--trust-domain",
      TRUST_DOMAIN,
      ...keySize,
    );
    const caPem = fs.readFileSync(path.join(pki, "root", "certs", "root.cert"), "utf8");
    // Made at start (native RSA, well under a second) because Go reads SSL_CERT_FILE once per process.
    const outboundCa = createRootCa("Frontdoor Test Cluster outbound CA");
    const outboundRoots = path.join(home, "outbound-roots.pem");
    fs.writeFileSync(outboundRoots, outboundCa.certificatePem);
    const nodes: ClusterNode[] = [];
    const configs = new Map<string, string>();
    for (const name of names) {
      await zitiRun(
        "pki",
        "create",
        "intermediate",
        "--pki-root",
        pki,
        "--ca-name",
        "root",
        "--intermediate-file",
        name,
        "--intermediate-name",
        `${name} signing CA`,
        ...keySize,
      );
      await zitiRun(
        "pki",
        "create",
        "server",
        "--pki-root",
        pki,
        "--ca-name",
        name,
        "--server-file",
        "server",
        "--server-name",
        name,
        "--ip",
        "127.0.0.1",
        "--dns",
        "localhost",
        "--spiffe-id",
        `controller/${name}`,
        ...keySize,
      );
      const ctrlPort = await freePort();
      const edgePort = await freePort();
      const dir = path.join(home, name);
      fs.mkdirSync(dir);
      const configFile = path.join(dir, "ctrl.yaml");
      const certs = path.join(pki, name, "certs");
      const keys = path.join(pki, name, "keys");
      // The node's addresses and files, only through the environment (the config generator reads them).
      const env = {
        ...process.env,
        ZITI_HOME: dir,
        ZITI_CTRL_BIND_ADDRESS: "127.0.0.1",
        ZITI_CTRL_ADVERTISED_ADDRESS: "127.0.0.1",
        ZITI_CTRL_ADVERTISED_PORT: String(ctrlPort),
        ZITI_CTRL_EDGE_BIND_ADDRESS: "127.0.0.1",
        ZITI_CTRL_EDGE_ADVERTISED_ADDRESS: "127.0.0.1",
        ZITI_CTRL_EDGE_ADVERTISED_PORT: String(edgePort),
        ZITI_PKI_CTRL_CA: path.join(certs, `${name}.chain.pem`),
        ZITI_PKI_CTRL_CERT: path.join(certs, "server.chain.pem"),
        ZITI_PKI_CTRL_SERVER_CERT: path.join(certs, "server.chain.pem"),
        ZITI_PKI_CTRL_KEY: path.join(keys, "server.key"),
        ZITI_PKI_EDGE_CA: path.join(certs, `${name}.chain.pem`),
        ZITI_PKI_EDGE_CERT: path.join(certs, "server.chain.pem"),
        ZITI_PKI_EDGE_SERVER_CERT: path.join(certs, "server.chain.pem"),
        ZITI_PKI_EDGE_KEY: path.join(keys, "server.key"),
        ZITI_PKI_SIGNER_CERT: path.join(certs, `${name}.chain.pem`),
        ZITI_PKI_SIGNER_KEY: path.join(keys, `${name}.key`),
      };
      await run(ziti, ["create", "config", "controller", "--clustered", "--output", configFile], {
        cwd: dir,
        env,
      });
      configs.set(name, configFile);
      const url = `https://127.0.0.1:${edgePort}`;
      nodes.push({
        name,
        url,
        ctrlPort,
        get pid() {
          const peer = peers.get(name);
          return peer && !peer.exited() ? peer.child.pid : undefined;
        },
        admin: new EdgeClient(url, caPem),
        output: () => peers.get(name)?.output() ?? "",
      });
    }

    const node = (name: string): ClusterNode => {
      const found = nodes.find((n) => n.name === name);
      if (!found) throw new Error(`no node ${name} (nodes: ${names.join(", ")})`);
      return found;
    };
    const launch = async (name: string, until: number) => {
      const dir = path.join(home, name);
      const peer = spawnDetached(ziti, ["controller", "run", configs.get(name) as string], {
        cwd: dir,
        env: { ...process.env, ZITI_HOME: dir, SSL_CERT_FILE: outboundRoots },
      });
      peers.set(name, peer);
      // Up when its edge API answers /version over TLS verified by the root CA.
      for (;;) {
        const exited = peer.exited();
        if (exited) throw new Error(`cluster node ${name} ${exited}:\n${peer.output().slice(-4000)}`);
        const reply = await node(name)
          .admin.call("GET", "/version", { token: null })
          .catch(() => undefined);
        if (reply?.status === 200) return;
        if (Date.now() > until)
          throw new Error(`cluster node ${name} did not answer /version:\n${peer.output().slice(-4000)}`);
        await sleep(200);
      }
    };
    // The agent answers once the node's gops socket is up: retried until then.
    const agent = async (name: string, ...args: string[]) => {
      for (;;) {
        const pid = node(name).pid;
        try {
          const { stdout } = await zitiRun("agent", ...args.slice(0, 2), "-p", String(pid), ...args.slice(2));
          return stdout;
        } catch (error) {
          if (Date.now() > deadline)
            throw new Error(`ziti agent ${args.join(" ")} on ${name} failed: ${(error as Error).message}`);
          await sleep(300);
        }
      }
    };
    const loginAdmin = async (name: string, until: number) => {
      for (;;) {
        const reply = await node(name)
          .admin.login(username, password)
          .catch((e: Error) => ({ status: 0, body: e.message }));
        if (reply.status === 200) return;
        if (Date.now() > until)
          throw new Error(`admin login on ${name} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
        await sleep(300);
      }
    };
    /** The leader as `name`'s agent sees it (undefined: none, or the node does not run). */
    const leaderSeenBy = async (name: string): Promise<string | undefined> => {
      const pid = node(name).pid;
      if (!pid) return undefined;
      const table = await zitiRun("agent", "cluster", "list", "-p", String(pid)).then(
        (r) => r.stdout,
        () => "",
      );
      return parseLeader(table);
    };
    // A node that just (re)started does not know the leader yet: the first node that names one.
    const leader = async (): Promise<string | undefined> => {
      for (const n of nodes) {
        const seen = await leaderSeenBy(n.name);
        if (seen) return seen;
      }
      return undefined;
    };
    const waitForLeader = async (timeoutMs = 60_000): Promise<string> => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const name = await leader();
        if (name) {
          // Elected is not enough: a write through it must go through (then the cluster is usable).
          const probe = await node(name)
            .admin.call("POST", "/services", {
              body: { name: `cluster-probe-${crypto.randomUUID()}`, encryptionRequired: true },
            })
            .catch(() => undefined);
          if (probe?.status === 201) {
            await node(name).admin.call("DELETE", `/services/${probe.body.data.id}`);
            return name;
          }
        }
        if (Date.now() > until)
          throw new Error(`no leader elected in ${timeoutMs} ms (leader seen: ${name ?? "none"})`);
        await sleep(250);
      }
    };

    /**
     * Every running node's GET /controllers lists every node, and each running one with its
     * edge-management address (a stopped node's entry may keep or lose its addresses).
     */
    const everyNodeListsEveryAddress = async (): Promise<boolean> => {
      const running = nodes.filter((n) => n.pid);
      for (const n of running) {
        const listed = await n.admin.call("GET", "/controllers").catch(() => undefined);
        const data = listed?.status === 200 ? (listed.body?.data as any[]) : undefined;
        if (!Array.isArray(data) || data.length !== nodes.length) return false;
        for (const m of running) {
          const entry = data.find((c) => c?.name === m.name);
          if (!entry?.apiAddresses?.["edge-management"]?.[0]?.url) return false;
        }
      }
      return true;
    };

    await Promise.all(names.map((name) => launch(name, deadline)));
    await agent(names[0], "cluster", "init", username, password, "Admin");
    for (const name of names.slice(1))
      await agent(names[0], "cluster", "add", `tls:127.0.0.1:${node(name).ctrlPort}`);
    for (const name of names) await loginAdmin(name, deadline);
    await waitForLeader(Math.max(deadline - Date.now(), 1000));
    while (!(await everyNodeListsEveryAddress())) {
      if (Date.now() > deadline) throw new Error("GET /controllers does not list every node's API addresses");
      await sleep(250);
    }

    const cluster: RealCluster = {
      nodes,
      urls: nodes.map((n) => n.url),
      caPem,
      username,
      password,
      release,
      outboundCa,
      startupMs: Date.now() - started,
      node,
      leader,
      waitForLeader,
      async kill(name, signal = "SIGKILL") {
        const peer = peers.get(name);
        if (!peer || peer.exited()) return;
        process.kill(-(peer.child.pid as number), signal);
        while (!peer.exited()) await sleep(50);
      },
      async restart(name) {
        if (node(name).pid) throw new Error(`cluster node ${name} still runs`);
        const until = Date.now() + 180_000;
        // A restarted node can advertise empty `apiAddresses` for the life of its process
        // (openziti/ziti#4069: its raft mesh connects before its web listeners are loaded, and the
        // empty set is cached); measured here on v1.6.0, a restarted follower was listed without them
        // by every node for over 4 minutes, and a second or third restart won the race. So: restart
        // until every node lists every node's address, as an operator would; the next suite on the
        // shared cluster reads that listing (real-cluster's first test, real-vs-mock-cluster).
        for (let attempt = 1; ; attempt++) {
          await launch(name, until);
          await loginAdmin(name, until);
          // Back in the cluster once it knows the leader again.
          while (!(await leaderSeenBy(name))) {
            if (Date.now() > until)
              throw new Error(`cluster node ${name} did not rejoin:\n${node(name).output().slice(-4000)}`);
            await sleep(250);
          }
          const listed = Date.now() + 5_000;
          let advertised = await everyNodeListsEveryAddress();
          while (!advertised && Date.now() < listed) {
            await sleep(250);
            advertised = await everyNodeListsEveryAddress();
          }
          if (advertised) return;
          if (Date.now() > until)
            throw new Error(
              `cluster node ${name}: after ${attempt} restarts, GET /controllers lists it without apiAddresses`,
            );
          await cluster.kill(name);
        }
      },
      list: (name, collection) => listAll(node(name).admin, collection),
      async stop() {
        await stopAll();
        fs.rmSync(home, { recursive: true, force: true });
        homes.delete(home);
      },
    };
    return cluster;
  } catch (error) {
    await stopAll();
    fs.rmSync(home, { recursive: true, force: true });
    homes.delete(home);
    throw error;
  }
}

/** The LEADER column of `ziti agent cluster list` (a table: ID, ADDRESS, VOTER, LEADER, ...). */
export function parseLeader(table: string): string | undefined {
  for (const line of table.split("\n")) {
    const cells = line.split("│").map((cell) => cell.trim());
    // ["", id, address, voter, leader, version, connected, ""]
    if (cells.length >= 6 && cells[2]?.startsWith("tls:") && cells[4] === "true") return cells[1];
  }
  return undefined;
}

/** Every object of a collection as one node lists it, following the pages. */
export async function listAll(
  admin: EdgeClient,
  collection: string,
): Promise<Array<{ id: string; name: string }>> {
  const out: Array<{ id: string; name: string }> = [];
  for (let offset = 0; ; ) {
    const reply = await admin.call("GET", `/${collection}?limit=500&offset=${offset}`);
    if (reply.status !== 200)
      throw new Error(`GET /${collection} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    const page = reply.body.data as Array<{ id: string; name: string }>;
    out.push(...page.map(({ id, name }) => ({ id, name })));
    offset += page.length;
    if (page.length === 0 || offset >= reply.body.meta.pagination.totalCount) return out;
  }
}

let shared: Promise<RealCluster> | undefined;

/** The run's one cluster, started by the first suite that asks (suites must leave it with 3 nodes up). */
export function sharedCluster(): Promise<RealCluster> {
  shared ??= startCluster().catch((error) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** Stops the shared cluster if one was started (the root afterAll hook). */
export async function stopSharedCluster(): Promise<void> {
  const cluster = shared;
  shared = undefined;
  await (await cluster?.catch(() => undefined))?.stop();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
