// A scripted 3-node OpenZiti HA cluster for the provider's cluster client (provider/http/cluster.ts):
// real HTTP servers on 127.0.0.1 (test/support/scriptedServer.ts) that answer as the real v1.6 nodes
// do in docs/guides/real-peers.md (the measurements on real clusters): `zt-session` tokens valid only on
// the node that issued them, `GET /controllers` with each node's `apiAddresses`, writes through any
// node committed by the leader, 503 CLUSTER_NO_LEADER and 500 "error dialing peer" while there is no
// leader, reads on a follower that lag behind the leader (404 right after a create). Lag and
// elections are counted in requests, not in time, so tests need no timing.
import {
  type ScriptedAnswer,
  type ScriptedServer,
  type SeenRequest,
  startScriptedServer,
} from "./scriptedServer";

const BASE = "/edge/management/v1";
/** Clusters started in this process: ids differ between tests (the engine remembers ids it holds). */
let started = 0;

interface Version {
  index: number;
  id: string;
  name: string;
  /** What was sent (POST, then merged with each PATCH/PUT): read back as it was written. */
  fields: Record<string, unknown>;
  updatedAt: string;
  deleted?: boolean;
}

export interface FakeNode {
  name: string;
  url: string;
  server: ScriptedServer;
  up: boolean;
  /** The last committed index this node has applied (what its reads see). */
  applied: number;
  /** Reads this node answers from its old view before it applies what is committed. */
  lagReads: number;
  tokens: Set<string>;
}

export class FakeCluster {
  readonly nodes: FakeNode[] = [];
  leader: FakeNode | undefined;
  /** Writes answered as the real cluster answers while the leader is gone, before the next is elected. */
  leaderless: ScriptedAnswer[] = [];
  private readonly log: Version[] = [];
  private nextId = 1;
  /** Ids of this cluster's objects start with it, e.g. `c3-svc-1`. */
  readonly prefix = `c${++started}`;
  private clock = Date.parse("2026-11-28T12:00:00Z");

  static async start(count = 3): Promise<FakeCluster> {
    const cluster = new FakeCluster();
    for (let i = 1; i <= count; i++) {
      const server = await startScriptedServer();
      const node: FakeNode = {
        name: `ctrl${i}`,
        url: server.url,
        server,
        up: true,
        applied: 0,
        lagReads: 0,
        tokens: new Set(),
      };
      server.respond = (request) => cluster.answer(node, request);
      cluster.nodes.push(node);
    }
    cluster.leader = cluster.nodes[0];
    return cluster;
  }

  /** SIGKILL: the listener closes and open connections drop (connection refused from then on). */
  async kill(node: FakeNode): Promise<void> {
    node.up = false;
    if (this.leader === node) this.leader = undefined;
    await node.server.close();
  }

  /** The requests a node received, as `METHOD /path` (below the management API, no query). */
  requests(node: FakeNode): string[] {
    return node.server.seen.map(
      (r) => `${r.method} ${new URL(r.url, "http://x").pathname.slice(BASE.length)}`,
    );
  }

  /** Objects of the collection as `node` sees them. */
  view(node: FakeNode): Map<string, Version> {
    const objects = new Map<string, Version>();
    for (const v of this.log) if (v.index <= node.applied) objects.set(v.id, v);
    for (const [id, v] of objects) if (v.deleted) objects.delete(id);
    return objects;
  }

  async close(): Promise<void> {
    await Promise.all(this.nodes.filter((n) => n.up).map((n) => n.server.close()));
  }

  private answer(node: FakeNode, request: SeenRequest): ScriptedAnswer {
    const url = new URL(request.url, "http://x");
    const path = url.pathname.slice(BASE.length);
    if (request.method === "POST" && path === "/authenticate") {
      const token = `session-${node.name}-${node.tokens.size + 1}-0123456789abcdef`;
      node.tokens.add(token);
      return json(200, { data: { token, expirationSeconds: 1800 } });
    }
    if (!node.tokens.has(String(request.headers["zt-session"]))) {
      return json(401, { error: { code: "UNAUTHORIZED", message: "The request could not be completed." } });
    }
    if (request.method === "GET" && path === "/controllers") {
      const data = this.nodes.map((n) => ({
        id: n.name,
        name: n.name,
        isOnline: true,
        apiAddresses: {
          "edge-client": [{ url: `${n.url}/edge/client/v1`, version: "v1" }],
          "edge-management": [{ url: `${n.url}${BASE}`, version: "v1" }],
        },
      }));
      return json(200, { data, meta: {} });
    }
    if (request.method !== "GET") return this.write(node, request, path);
    if (node.lagReads > 0) node.lagReads--;
    else node.applied = this.log.length;
    const objects = this.view(node);
    const id = /^\/services\/([^/]+)$/.exec(path)?.[1];
    if (id !== undefined) {
      const found = objects.get(id);
      return found ? json(200, { data: entity(found) }) : notFound(id);
    }
    const name = /name = "(.*)"/.exec(url.searchParams.get("filter") ?? "")?.[1];
    const items = [...objects.values()].filter((v) => name === undefined || v.name === name).map(entity);
    return json(200, { data: items, meta: { pagination: { totalCount: items.length } } });
  }

  private write(node: FakeNode, request: SeenRequest, path: string): ScriptedAnswer {
    if (!this.leader) {
      const next = this.leaderless.shift();
      if (next) return next;
      this.leader = this.nodes.find((n) => n.up);
    }
    const body = request.body ? JSON.parse(request.body) : {};
    const id = /^\/services\/([^/]+)$/.exec(path)?.[1];
    const current = id === undefined ? undefined : this.view(this.leader!).get(id);
    if (request.method === "POST") {
      if ([...this.view(this.leader!).values()].some((v) => v.name === body.name))
        return json(400, {
          error: {
            code: "COULD_NOT_VALIDATE",
            message: "The supplied request contains an invalid document",
            cause: { field: "name", reason: "name must be unique", value: body.name },
          },
        });
      const made = this.commit(node, {
        id: `${this.prefix}-svc-${this.nextId++}`,
        name: body.name,
        fields: body,
      });
      return json(201, { data: { id: made.id } });
    }
    if (!current || id === undefined) return notFound(id ?? path);
    const fields = { ...current.fields, ...body };
    this.commit(node, { id, name: fields.name, fields, deleted: request.method === "DELETE" });
    return json(200, { data: {}, meta: {} });
  }

  /** Committed by the leader, applied there and on the node the write came through (read-your-writes). */
  private commit(node: FakeNode, change: Omit<Version, "index" | "updatedAt">): Version {
    this.clock += 1;
    const version = {
      ...change,
      index: this.log.length + 1,
      updatedAt: new Date(this.clock).toISOString().replace("Z", "123456Z"),
    };
    this.log.push(version);
    node.applied = version.index;
    if (this.leader) this.leader.applied = version.index;
    return version;
  }
}

function entity(v: Version) {
  return { ...v.fields, id: v.id, name: v.name, updatedAt: v.updatedAt, createdAt: v.updatedAt };
}

export function json(status: number, body: unknown): ScriptedAnswer {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

function notFound(id: string): ScriptedAnswer {
  return json(404, {
    error: {
      code: "NOT_FOUND",
      message: "The resource requested was not found or is no longer available",
      cause: { code: "UNHANDLED", message: `service with id ${id} not found` },
    },
  });
}

/** The answers of the real cluster while it has no leader (cluster-facts.md, leader SIGKILL). */
export const NO_LEADER = json(503, {
  error: { code: "CLUSTER_NO_LEADER", message: "Cluster has no leader, unable to make model updates." },
});
export const DIALING_DEAD_LEADER = json(500, {
  error: {
    code: "UNHANDLED",
    message: "An unhandled error occurred",
    cause: {
      code: "UNHANDLED",
      message: "error dialing peer tls:127.0.0.1:6262: dial tcp 127.0.0.1:6262: connect: connection refused",
    },
  },
});
export const TIMED_OUT = json(500, {
  error: {
    code: "UNHANDLED",
    message: "An unhandled error occurred",
    cause: { code: "UNHANDLED", message: "timed out" },
  },
});
