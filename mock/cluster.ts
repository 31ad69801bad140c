// The mock's cluster mode: several nodes, each its own HTTPS listener on loopback with a certificate from
// one CA, over one replicated Edge store, imitating an OpenZiti HA controller cluster (raft): a leader
// applies every write; followers see it after their replication lag; a write sent to a follower is
// forwarded to the leader (or refused); without a leader (election, quorum lost) writes get the cluster's
// "no leader" answer; API sessions are node-local. Nodes can be killed (listener closed, connections
// reset, a request in flight dropped before or after it is applied) and restarted. Only the Edge API is
// clustered: the Frontdoor API and `_search` are each node's own. Every answer below is what a real
// 3-node ziti v1.6.0 cluster gave on loopback (probed by test/peers/cluster.ts's author, written down in
// docs/guides/mock-and-harness.md#cluster-mode as "the facts"); the switches keep other behaviours possible.
import { randomBytes, randomUUID } from "node:crypto";
import type { EdgeCollectionName, EdgeRecord, ReplicatedEdgeState } from "./edge/index";
import { fingerprint, parseCertificatePem } from "./edge/pki";
import type { ApiSession } from "./edge/state";
import { createRootCa } from "./pki";
import {
  controlError,
  controlJson,
  type MockServer,
  type RequestInterceptor,
  startMockServer,
} from "./server";
import type { MockRequest, MockResponse } from "./types";

/** A follower's replication lag: milliseconds, or "hold" (applies nothing until `catchUp`). */
export type ReplicationLag = number | "hold";

export interface ClusterBehaviour {
  /** A write sent to a follower: carried out by the leader and answered by the follower (the real one), or refused. */
  followerWrites: "forward" | "refuse";
  /** Whether a `zt-session` from one node is accepted by the others (real: node-local, 401 elsewhere). */
  sessions: "node-local" | "shared";
  /** Reads while there is no leader: served from the node's own records (the real one), or refused. */
  readsWithoutLeader: "serve" | "refuse";
}

/** How long each phase of an election lasts (defaults: measured on the real cluster). */
export interface ElectionTimings {
  /** After the leader dies: writes answer 500 "error dialing peer" (not committed). Real: ~4.4 s. */
  unreachableMs: number;
  /** Then: 503 CLUSTER_NO_LEADER, until a leader is elected. Real: ~0.7 s. */
  noLeaderMs: number;
  /** After quorum returns (a dead node restarted): 503 until elected. Real: ~4.4 s. */
  quorumRegainedMs: number;
}

export interface MockClusterOptions {
  /** Default 3. */
  nodes?: number;
  /** Replication lag of followers: one for all, or one per node. Default 0. */
  lagMs?: ReplicationLag | ReplicationLag[];
  /** Phases of an election, or "manual": each phase lasts until `advanceElection()` or `elect()`. */
  election?: Partial<ElectionTimings> | "manual";
  behaviour?: Partial<ClusterBehaviour>;
  /** Token of every node's control interface (default: a random one). */
  controlToken?: string;
  /** Passed through to each node's EdgeMock. */
  edge?: Record<string, unknown>;
}

export interface MockClusterNode {
  /** "ctrl1", "ctrl2", ...: the controller's name in `/controllers`. */
  name: string;
  index: number;
  url: string;
  up: boolean;
  lagMs: ReplicationLag;
  /** The node's own mock server: its request log, faults and in-process helpers. */
  server: MockServer;
}

/** A node given by itself, its name or its index. */
export type NodeRef = MockClusterNode | string | number;

export interface KillOnRequest {
  method?: string;
  /** Substring of the request path. */
  path?: string;
  /** Die before carrying the request out (nothing changes) or after (committed, never answered). */
  apply: "before" | "after";
}

export interface MockCluster {
  nodes: MockClusterNode[];
  urls: string[];
  caPem: string;
  controlToken: string;
  credentials: MockServer["credentials"];
  behaviour: ClusterBehaviour;
  leader(): MockClusterNode | undefined;
  /** The election in progress: "leader-unreachable" (500 on writes), "no-leader" (503), or undefined. */
  electionPhase(): ElectionPhase | undefined;
  advanceElection(): void;
  kill(node: NodeRef): Promise<void>;
  killOnRequest(node: NodeRef, trigger: KillOnRequest): void;
  restart(node: NodeRef): Promise<void>;
  startElection(): void;
  elect(winner?: NodeRef): MockClusterNode;
  setLag(node: NodeRef, lag: ReplicationLag): void;
  catchUp(node: NodeRef): void;
  list(node: NodeRef, collection: EdgeCollectionName): EdgeRecord[];
  /**
   * Back to the state just after start (every node up, ctrl1 leading, the start's lags and behaviour, no
   * records but the built-in ones, empty request logs), keeping listeners, ports and API sessions: a
   * suite starts one cluster and resets it between tests.
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export type ElectionPhase = "leader-unreachable" | "no-leader";

/** The real cluster's behaviour. */
export const DEFAULT_BEHAVIOUR: ClusterBehaviour = {
  followerWrites: "forward",
  sessions: "node-local",
  readsWithoutLeader: "serve",
};
export const DEFAULT_ELECTION: ElectionTimings = {
  unreachableMs: 4400,
  noLeaderMs: 700,
  quorumRegainedMs: 4400,
};

/** Routes of a node's own API sessions: never forwarded, never replicated. */
const SESSION_ROUTE = /^\/edge\/(management|client)\/v1\/(authenticate(\/mfa)?|current-api-session)\/?$/;

export async function startMockCluster(options: MockClusterOptions = {}): Promise<MockCluster> {
  const count = options.nodes ?? 3;
  if (!Number.isInteger(count) || count < 1) throw new Error("a cluster needs at least one node");
  const cluster = new Cluster(count, options);
  await cluster.start();
  return cluster;
}

class Cluster implements MockCluster {
  nodes: MockClusterNode[] = [];
  urls: string[] = [];
  caPem = "";
  credentials = {} as MockServer["credentials"];
  readonly controlToken: string;
  readonly behaviour: ClusterBehaviour;
  private readonly timings: ElectionTimings | "manual";
  private leaderIndex: number | undefined = 0;
  /** The election in progress (no leader meanwhile); `deadLeader` names the peer writes fail to dial. */
  private election?: { phase: ElectionPhase; deadLeader?: MockClusterNode };
  private electionTimer?: NodeJS.Timeout;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The last committed state and its sequence number; each node's applied sequence number. */
  private committed: { seq: number; records: ReplicatedEdgeState } = { seq: 0, records: [] };
  private readonly applied: number[] = [];
  private readonly killTriggers = new Map<number, KillOnRequest[]>();
  private readonly joinedAt = new Date().toISOString();
  /** The records every node started with (for reset). */
  private initial: ReplicatedEdgeState = [];

  constructor(
    private readonly count: number,
    private readonly options: MockClusterOptions,
  ) {
    this.controlToken = options.controlToken ?? randomBytes(24).toString("hex");
    this.behaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
    this.timings = options.election === "manual" ? "manual" : { ...DEFAULT_ELECTION, ...options.election };
  }

  async start(): Promise<void> {
    const rootCa = createRootCa("Frontdoor Mock Cluster Root CA");
    for (let index = 0; index < this.count; index++) {
      const server = await startMockServer({
        tls: true,
        rootCa,
        controlToken: this.controlToken,
        edge: {
          ...this.options.edge,
          capabilities: ["OIDC_AUTH", "HA_CONTROLLER"],
          controllers: () => this.controllers(),
        },
        intercept: this.interceptor(index),
        control: (req) => this.control(req, index),
      });
      const lags = this.options.lagMs;
      const lagMs = (Array.isArray(lags) ? lags[index] : lags) ?? 0;
      this.nodes.push({ name: `ctrl${index + 1}`, index, url: server.url, up: true, lagMs, server });
      this.applied.push(0);
    }
    this.urls = this.nodes.map((node) => node.url);
    this.caPem = rootCa.certificatePem;
    this.credentials = this.nodes[0].server.credentials;
    // One store: every node starts from the first node's records (same default admin, same ids).
    this.initial = this.nodes[0].server.edge.exportReplicated();
    this.committed = { seq: 0, records: this.initial };
    for (const node of this.nodes.slice(1)) node.server.edge.importReplicated(this.committed.records);
  }

  async reset(): Promise<void> {
    clearTimeout(this.electionTimer);
    this.electionTimer = undefined;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.killTriggers.clear();
    this.election = undefined;
    this.leaderIndex = 0;
    Object.assign(this.behaviour, DEFAULT_BEHAVIOUR, this.options.behaviour);
    this.committed = { seq: this.committed.seq + 1, records: this.initial };
    for (const node of this.nodes) {
      if (!node.up) await node.server.resume();
      node.up = true;
      const lags = this.options.lagMs;
      node.lagMs = (Array.isArray(lags) ? lags[node.index] : lags) ?? 0;
      this.install(node.index);
      node.server.clearLog();
    }
  }

  // ---- leadership ----

  leader(): MockClusterNode | undefined {
    return this.leaderIndex === undefined ? undefined : this.nodes[this.leaderIndex];
  }

  electionPhase(): ElectionPhase | undefined {
    return this.election?.phase;
  }

  private hasQuorum(): boolean {
    return this.nodes.filter((node) => node.up).length > this.count / 2;
  }

  /** The leader steps down (forced election): no leader until one is elected. */
  startElection(): void {
    this.beginElection({ phase: "no-leader" }, "noLeaderMs");
  }

  private beginElection(
    election: { phase: ElectionPhase; deadLeader?: MockClusterNode },
    phaseLength: keyof ElectionTimings,
  ): void {
    this.leaderIndex = undefined;
    this.election = election;
    this.scheduleElectionStep(phaseLength);
  }

  private scheduleElectionStep(phaseLength: keyof ElectionTimings): void {
    clearTimeout(this.electionTimer);
    this.electionTimer = undefined;
    if (this.timings === "manual") return;
    this.electionTimer = setTimeout(() => {
      this.electionTimer = undefined;
      this.stepElection();
    }, this.timings[phaseLength]);
  }

  /** The next phase: the dead leader given up, then a leader elected (when a majority is up). */
  private stepElection(): boolean {
    if (!this.election) return false;
    if (this.election.phase === "leader-unreachable") {
      this.election = { phase: "no-leader" };
      this.scheduleElectionStep("noLeaderMs");
      return true;
    }
    if (!this.hasQuorum()) return false;
    this.elect();
    return true;
  }

  advanceElection(): void {
    if (!this.election) throw new Error("no election in progress");
    if (!this.stepElection())
      throw new Error("no quorum: a majority of the nodes must be up to elect a leader");
  }

  elect(winner?: NodeRef): MockClusterNode {
    if (!this.hasQuorum()) throw new Error("no quorum: a majority of the nodes must be up to elect a leader");
    const node = winner === undefined ? this.nodes.find((candidate) => candidate.up) : this.node(winner);
    if (!node?.up) throw new Error(`node ${node?.name} is down: it cannot lead`);
    clearTimeout(this.electionTimer);
    this.electionTimer = undefined;
    this.election = undefined;
    // Raft elects only a node holding every committed entry: the winner applies them all first.
    this.install(node.index);
    this.leaderIndex = node.index;
    return node;
  }

  // ---- replication ----

  /**
   * The leader carried out a write: committed now; the node it came through has it at once (the real
   * cluster: read-your-writes there), every other follower after its lag.
   */
  private commit(leader: MockClusterNode, origin: MockClusterNode): void {
    this.committed = { seq: this.committed.seq + 1, records: leader.server.edge.exportReplicated() };
    this.applied[leader.index] = this.committed.seq;
    this.install(origin.index);
    for (const node of this.nodes) if (node.up) this.scheduleCatchUp(node);
  }

  private scheduleCatchUp(node: MockClusterNode): void {
    if (node.lagMs === "hold") return;
    const target = this.committed;
    if (node.lagMs === 0) {
      this.install(node.index, target);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (node.up) this.install(node.index, target);
    }, node.lagMs);
    this.timers.add(timer);
  }

  /** A node applies committed state (never an older one than it has). */
  private install(index: number, target = this.committed): void {
    if (this.applied[index] >= target.seq) return;
    this.nodes[index].server.edge.importReplicated(target.records);
    this.applied[index] = target.seq;
  }

  setLag(ref: NodeRef, lag: ReplicationLag): void {
    if (lag !== "hold" && !(typeof lag === "number" && lag >= 0))
      throw new Error('lagMs: a number >= 0 or "hold"');
    const node = this.node(ref);
    node.lagMs = lag;
    if (node.up) this.scheduleCatchUp(node);
  }

  catchUp(ref: NodeRef): void {
    const node = this.node(ref);
    if (!node.up) throw new Error(`node ${node.name} is down`);
    this.install(node.index);
  }

  list(ref: NodeRef, collection: EdgeCollectionName): EdgeRecord[] {
    return this.node(ref).server.edge.list(collection);
  }

  // ---- node failures ----

  async kill(ref: NodeRef): Promise<void> {
    const node = this.node(ref);
    if (!node.up) return;
    node.up = false;
    this.killTriggers.delete(node.index);
    // The cluster's state changes at once; the listener closes and the connections reset next.
    if (this.leaderIndex === node.index) {
      // Writes first fail dialing the dead leader, then answer "no leader" until the election ends.
      this.beginElection({ phase: "leader-unreachable", deadLeader: node }, "unreachableMs");
    } else if (this.leaderIndex !== undefined && !this.hasQuorum()) {
      // A leader left without a majority steps down (raft's check-quorum).
      this.beginElection({ phase: "no-leader" }, "noLeaderMs");
    }
    await node.server.suspend();
  }

  killOnRequest(ref: NodeRef, trigger: KillOnRequest): void {
    if (trigger.apply !== "before" && trigger.apply !== "after")
      throw new Error('apply: "before" or "after"');
    const node = this.node(ref);
    this.killTriggers.set(node.index, [...(this.killTriggers.get(node.index) ?? []), trigger]);
  }

  async restart(ref: NodeRef): Promise<void> {
    const node = this.node(ref);
    if (node.up) return;
    await node.server.resume();
    node.up = true;
    this.scheduleCatchUp(node);
    // A majority again: an election that was stuck without quorum can end.
    if (this.election?.phase === "no-leader" && !this.electionTimer && this.hasQuorum())
      this.scheduleElectionStep("quorumRegainedMs");
  }

  async close(): Promise<void> {
    clearTimeout(this.electionTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all(this.nodes.map((node) => node.server.close()));
  }

  private node(ref: NodeRef): MockClusterNode {
    const node =
      typeof ref === "number"
        ? this.nodes[ref]
        : typeof ref === "string"
          ? this.nodes.find((candidate) => candidate.name === ref)
          : ref;
    if (!node || !this.nodes.includes(node))
      throw new Error(`no node ${String(typeof ref === "object" ? ref.name : ref)}`);
    return node;
  }

  // ---- requests ----

  private interceptor(index: number): RequestInterceptor {
    return async (req, local) => {
      const node = this.nodes[index];
      if (!node.up) return "drop";
      const trigger = this.takeKillTrigger(node, req);
      if (trigger?.apply === "before") {
        await this.kill(node);
        return "drop";
      }
      const response = await this.serve(node, req, local);
      if (trigger) {
        await this.kill(node);
        return "drop";
      }
      return response;
    };
  }

  private takeKillTrigger(node: MockClusterNode, req: MockRequest): KillOnRequest | undefined {
    const triggers = this.killTriggers.get(node.index) ?? [];
    const found = triggers.find(
      (trigger) =>
        (!trigger.method || trigger.method.toUpperCase() === req.method) &&
        (!trigger.path || req.path.includes(trigger.path)),
    );
    if (found)
      this.killTriggers.set(
        node.index,
        triggers.filter((trigger) => trigger !== found),
      );
    return found;
  }

  private async serve(
    node: MockClusterNode,
    req: MockRequest,
    local: (req: MockRequest) => Promise<MockResponse>,
  ): Promise<MockResponse> {
    if (!req.path.startsWith("/edge/") || SESSION_ROUTE.test(req.path)) return local(req);
    if (this.behaviour.sessions === "shared") this.shareSession(node, req);
    const write = req.method !== "GET" && req.method !== "HEAD";
    const leader = this.leader();
    if (!write) {
      if (!leader && this.behaviour.readsWithoutLeader === "refuse") return this.leaderlessAnswer();
      return local(req);
    }
    // The node checks the caller with its own sessions first: a bad session is a 401 whatever the cluster's state.
    const authorized = node.server.edge.authorize(req);
    if ("refusal" in authorized) return authorized.refusal;
    if (!leader) return this.leaderlessAnswer();
    if (leader === node) {
      const response = await local(req);
      this.commit(leader, node);
      return response;
    }
    if (this.behaviour.followerWrites === "refuse") return this.leaderlessAnswer();
    return this.forward(node, leader, req, authorized.session);
  }

  /** A write through a follower: the leader carries it out; the follower answers. */
  private async forward(
    node: MockClusterNode,
    leader: MockClusterNode,
    req: MockRequest,
    session: ApiSession | undefined,
  ): Promise<MockResponse> {
    const trigger = this.takeKillTrigger(leader, req);
    if (trigger?.apply === "before") {
      await this.kill(leader);
      return this.leaderlessAnswer();
    }
    const response = leader.server.edge.handleForwarded(req, session);
    this.commit(leader, node);
    if (trigger) {
      await this.kill(leader);
      // The real follower waited 5 s, then answered this, though the leader had committed the write.
      return unhandled("timed out");
    }
    return uniquenessThroughFollower(req, response) ?? response;
  }

  /** What a write gets without a leader: the dead leader's dial error first, then CLUSTER_NO_LEADER. */
  private leaderlessAnswer(): MockResponse {
    const dead = this.election?.deadLeader;
    if (this.election?.phase === "leader-unreachable" && dead) {
      const address = new URL(dead.url).host;
      return unhandled(`error dialing peer tls:${address}: dial tcp ${address}: connect: connection refused`);
    }
    return clusterError(503, "CLUSTER_NO_LEADER", "Cluster has no leader, unable to make model updates.");
  }

  /** Shared sessions: a token another node issued becomes known here. */
  private shareSession(node: MockClusterNode, req: MockRequest): void {
    const token = req.headers["zt-session"];
    if (typeof token !== "string" || node.server.edge.findSession(token)) return;
    for (const other of this.nodes) {
      const session = other.server.edge.findSession(token);
      if (session) {
        node.server.edge.adoptSession(session);
        return;
      }
    }
  }

  /** `/controllers` as the swagger's controllerDetail, seen from any node. */
  private controllers(): Record<string, unknown>[] {
    return this.nodes.map((node) => {
      const certPem = node.server.certPem ?? "";
      const origin = new URL(node.url);
      return {
        _links: { self: { href: `./controllers/${node.name}` } },
        id: node.name,
        createdAt: this.joinedAt,
        updatedAt: this.joinedAt,
        tags: {},
        name: node.name,
        ctrlAddress: `tls:${origin.hostname}:${origin.port}`,
        certPem,
        fingerprint: certPem ? fingerprint(parseCertificatePem(certPem)) : "",
        // The real survivors went on listing dead nodes as online (25 s and more): not a health signal.
        isOnline: true,
        lastJoinedAt: this.joinedAt,
        apiAddresses: {
          "edge-client": [{ url: `${node.url}/edge/client/v1`, version: "v1" }],
          "edge-management": [{ url: `${node.url}/edge/management/v1`, version: "v1" }],
          "edge-oidc": [{ url: `${node.url}/oidc`, version: "v1" }],
          fabric: [{ url: `${node.url}/fabric/v1`, version: "v1" }],
        },
      };
    });
  }

  // ---- /__mock/cluster control routes (on every node) ----

  private async control(req: MockRequest, askedIndex: number): Promise<MockResponse | undefined> {
    if (!req.path.startsWith("/__mock/cluster")) return undefined;
    try {
      return (
        (await this.controlRoute(req, askedIndex)) ??
        controlError(404, `no control route ${req.method} ${req.path}`)
      );
    } catch (error) {
      return controlError(400, error instanceof Error ? error.message : "bad control request");
    }
  }

  private async controlRoute(req: MockRequest, askedIndex: number): Promise<MockResponse | undefined> {
    const rest = req.path.slice("/__mock/cluster".length);
    const body = () => controlJson(req);
    if (rest === "" || rest === "/") {
      if (req.method === "GET") return { status: 200, body: this.describe() };
      return undefined;
    }
    if (rest === "/behaviour" && req.method === "PATCH") {
      Object.assign(this.behaviour, body());
      return { status: 200, body: this.behaviour };
    }
    if (rest === "/election" && req.method === "POST") {
      const { winner, end, advance } = body();
      if (advance) this.advanceElection();
      else if (winner !== undefined || end) this.elect(winner);
      else this.startElection();
      return { status: 200, body: this.describe() };
    }
    const match = /^\/nodes\/([^/]+)\/(kill|restart|lag|catch-up|log|edge\/[^/]+)$/.exec(rest);
    if (!match) return undefined;
    const node = this.node(decodeURIComponent(match[1]));
    const action = `${req.method} ${match[2].startsWith("edge/") ? "edge" : match[2]}`;
    switch (action) {
      case "POST kill": {
        const trigger = body();
        if (trigger.apply) this.killOnRequest(node, trigger as KillOnRequest);
        // The node asked to kill itself dies once its answer is sent; another dies before the answer.
        else if (node.index === askedIndex) return { status: 204, afterSent: () => void this.kill(node) };
        else await this.kill(node);
        return { status: 204 };
      }
      case "POST restart":
        await this.restart(node);
        return { status: 200, body: this.describe() };
      case "PUT lag":
        this.setLag(node, body().lagMs);
        return { status: 204 };
      case "POST catch-up":
        this.catchUp(node);
        return { status: 204 };
      case "GET log":
        return { status: 200, body: node.server.log };
      case "DELETE log":
        node.server.clearLog();
        return { status: 204 };
      case "GET edge":
        return { status: 200, body: this.list(node, match[2].slice("edge/".length) as EdgeCollectionName) };
    }
    return undefined;
  }

  private describe() {
    return {
      leader: this.leader()?.name ?? null,
      electionPhase: this.electionPhase() ?? null,
      nodes: this.nodes.map((node) => ({
        name: node.name,
        url: node.url,
        up: node.up,
        lagMs: node.lagMs,
        isLeader: node.index === this.leaderIndex,
      })),
      behaviour: this.behaviour,
    };
  }
}

/**
 * A name clash found by the leader for a forwarded write: the real follower does not answer the leader's
 * 400 COULD_NOT_VALIDATE but 500 UNHANDLED, the constraint's fields as JSON in the cause (ziti v1.6.0,
 * measured for identities through either follower; the leader itself answers 400).
 */
function uniquenessThroughFollower(req: MockRequest, response: MockResponse): MockResponse | undefined {
  const cause = (
    response.body as {
      error?: { code?: string; cause?: { field?: string; reason?: string; value?: unknown } };
    }
  )?.error;
  const reason = cause?.cause?.reason ?? "";
  if (response.status !== 400 || cause?.code !== "COULD_NOT_VALIDATE") return undefined;
  if (!/unique index|must be unique/.test(reason)) return undefined;
  const collection = /^\/edge\/management\/v1\/([^/]+)/.exec(req.path)?.[1] ?? "";
  const entityType = collection.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return unhandled(
    JSON.stringify({ EntityType: entityType, Field: cause?.cause?.field, Value: cause?.cause?.value }),
  );
}

/** The controller's error envelope, with a `{code, message}` cause as the cluster's errors have. */
function clusterError(status: number, code: string, message: string, cause?: string): MockResponse {
  const error: Record<string, unknown> = { code, message, requestId: randomUUID(), args: { urlVars: {} } };
  if (cause) error.cause = { code: "UNHANDLED", message: cause };
  return { status, body: { error, meta: { apiVersion: "0.0.1", apiEnrollmentVersion: "0.0.1" } } };
}

const unhandled = (cause: string) => clusterError(500, "UNHANDLED", "An unhandled error occurred", cause);
