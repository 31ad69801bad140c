// An OpenZiti HA controller cluster as one provider process uses it (docs/guides/ha-clusters.md):
// - one node at a time (sticky: what this process wrote, it reads back from the node that took it);
// - the listed nodes, plus those the cluster names in `GET /controllers` (read once, after the first login)
//   that pass the rule for credential destinations (destinations.ts): the others are skipped with a
//   warning, and no request (so no password, session, JWT or client certificate) ever goes to them;
// - a node that cannot serve (no connection, a timeout, 502/503/504: e.g. no leader during an election)
//   is left for the next one, with a session of its own there (kept for moving back); once every node
//   failed, the round starts again after a backoff, until the retry budget ends;
// - a create whose outcome is unknown is not sent again here: it fails as ambiguous, and the engine
//   looks the object up (adoptExisting) on the next node before anything is sent again;
// - after a move, a read of an object this process wrote on another node that answers 404 or an older
//   version (`updatedAt`) is the new node lagging behind the leader: it is read again until the node
//   caught up (bounded by the retry budget), so a refresh never reports a false drift.
import { debug, progress, warn } from "../log";
import {
  type HttpClient,
  type HttpResponse,
  isTlsFailure,
  isUnreachable,
  PROGRESS_AFTER_MS,
  type RequestOptions,
  UNREACHABLE_AT_FIRST_MS,
} from "./client";
import { shownUrl } from "./destinations";
import type { EdgeSessionAuth } from "./edgeAuth";
import { ApiError } from "./errors";
import { backoffDelay, type RetryPolicy, sleep } from "./retry";

export interface EdgeNode {
  /** The controller address, e.g. `https://ctrl-2:1280` (the management API below it). */
  url: string;
  http: HttpClient;
  auth: EdgeSessionAuth;
}

/** What this process last wrote to one object: on which node, and the newest version it has seen. */
interface Written {
  node: EdgeNode;
  /** The object's `updatedAt` as last read by this process; a write makes it a lower bound. */
  updatedAt?: string;
  /** True after an update: an answer must be newer than `updatedAt`, not only as new. */
  changed: boolean;
}

/** The key of the management API in a controller's `apiAddresses`. */
const MANAGEMENT_API = "edge-management";
/** At most this many nodes (listed and discovered): a hostile `GET /controllers` cannot make thousands of pools. */
export const MAX_CLUSTER_NODES = 16;

export class EdgeCluster {
  readonly nodes: EdgeNode[];
  private current = 0;
  private discovery?: Promise<void>;
  private readonly written = new Map<string, Written>();

  constructor(
    urls: string[],
    private readonly makeNode: (url: string) => EdgeNode,
    private readonly retry: RetryPolicy,
    /** The management API's path below a controller address (`/edge/management/v1`). */
    private readonly basePath: string,
    /** Why a discovered address may not receive credentials (destinations.ts), or undefined. */
    private readonly destinationProblem: (url: string) => string | undefined,
  ) {
    this.nodes = urls.map(makeNode);
  }

  /** The node this process uses now. */
  get node(): EdgeNode {
    return this.nodes[this.current];
  }

  async request<T>(opts: RequestOptions): Promise<HttpResponse<T>> {
    const started = Date.now();
    const failures = new Map<string, ApiError>();
    let moves = 0;
    for (let attempt = 1; ; ) {
      const node = this.node;
      let response: HttpResponse<T>;
      try {
        if (!opts.anonymous) {
          // Log in here first (not inside the request, where a failure would look like a lost answer).
          await node.auth.headers();
          this.discovery ??= this.discover(node);
          await this.discovery;
        }
        response = await node.http.request<T>(opts);
      } catch (err) {
        if (!(err instanceof ApiError) || !cannotServe(err)) throw err;
        failures.set(node.url, err);
        this.leave(node, err);
        // A create that may have been carried out: the engine settles it with a lookup (on the next
        // node) before anything is sent again. An answer that says nothing was written is not one.
        const create = opts.method === "POST" && !opts.idempotent;
        if (create && !notWritten(err) && (err.ambiguous || err.status === 500)) throw asAmbiguous(err);
        if (++moves % this.nodes.length !== 0) continue;
        if (!this.mayRetry(attempt, started) || this.noNodeReached(failures, started))
          throw clusterError(opts, err, failures, this.nodes);
        const delay = backoffDelay(this.retry, attempt++);
        this.reportWait(opts, err, started, delay);
        await sleep(delay);
        continue;
      }
      if (this.lagging(node, opts, response) && this.mayRetry(attempt, started)) {
        debug(`${opts.method} ${opts.path}: ${node.url} has not caught up with this process's write yet`);
        await sleep(backoffDelay(this.retry, attempt++));
        continue;
      }
      this.remember(node, opts, response);
      return response;
    }
  }

  close(): Promise<unknown> {
    return Promise.all(this.nodes.map((n) => n.http.close()));
  }

  private mayRetry(attempt: number, started: number): boolean {
    return attempt < this.retry.maxAttempts && Date.now() - started < this.retry.maxElapsedMs;
  }

  /**
   * No node has ever answered, and none can be reached (refused, unknown host): wrong addresses, not an
   * outage; after about a second the error says so (client.ts, UNREACHABLE_AT_FIRST_MS).
   */
  private noNodeReached(failures: Map<string, ApiError>, started: number): boolean {
    if (Date.now() - started < UNREACHABLE_AT_FIRST_MS || this.nodes.some((n) => n.http.answered))
      return false;
    return [...failures.values()].every((e) => e.status === 0 && isUnreachable(e));
  }

  /** A progress line (log.ts) when a round of every node failed and the wait goes on (e.g. an election). */
  private reportWait(opts: RequestOptions, last: ApiError, started: number, delay: number) {
    const elapsed = Date.now() - started;
    if (elapsed + delay < PROGRESS_AFTER_MS) return;
    const why = last.status ? `HTTP ${last.status}${last.code ? ` ${last.code}` : ""}` : "no answer";
    const left = Math.max(0, Math.ceil((this.retry.maxElapsedMs - elapsed) / 1000));
    progress(
      `${last.resource}: ${opts.method} ${opts.path}: no node of the cluster can serve (${why}); ` +
        `trying again in ${(delay / 1000).toFixed(1)} s (retrying for up to ${left} s more, frontdoor:retryTimeoutSeconds)`,
    );
  }

  /** Moves to the next node, unless a concurrent request already did. */
  private leave(node: EdgeNode, why: ApiError): void {
    if (this.node !== node) return;
    this.current = (this.current + 1) % this.nodes.length;
    debug(`Edge cluster: moving from ${node.url} to ${this.node.url} (${why.message})`);
  }

  /** Adds the nodes the cluster lists that are not known yet; a failure only costs the failover to them. */
  private async discover(node: EdgeNode): Promise<void> {
    try {
      const res = await node.http.request<{ data?: unknown }>({
        method: "GET",
        path: "/controllers",
        resource: "Edge cluster discovery",
      });
      for (const url of managementUrls(res.body?.data, this.basePath)) {
        if (this.nodes.some((n) => n.url === url)) continue;
        // The address is the server's text: quoted, so that it cannot forge a line of the log.
        const shown = JSON.stringify(shownUrl(url));
        const problem = this.destinationProblem(url);
        if (problem) {
          warn(`Edge cluster: GET /controllers lists ${shown}, not used: it ${problem}`);
          continue;
        }
        if (this.nodes.length >= MAX_CLUSTER_NODES) {
          warn(
            `Edge cluster: GET /controllers lists more than ${MAX_CLUSTER_NODES} nodes, ${shown} and the rest are not used`,
          );
          break;
        }
        this.nodes.push(this.makeNode(url));
        debug(`Edge cluster: discovered ${shown}`);
      }
    } catch (err) {
      debug(
        `Edge cluster: GET /controllers failed, only the listed nodes are used (${(err as Error).message})`,
      );
    }
  }

  /**
   * Whether the answer to a read of an object this process wrote through another node is older than
   * that write: a 404 after a create, or an `updatedAt` before the version this process knows.
   */
  private lagging(node: EdgeNode, opts: RequestOptions, res: HttpResponse<unknown>): boolean {
    const written = opts.method === "GET" ? this.written.get(opts.path) : undefined;
    if (!written || written.node === node) return false;
    if (res.status === 404) return true;
    const updatedAt = updatedAtOf(res.body);
    if (updatedAt === undefined || written.updatedAt === undefined) return false;
    const order = compareTimes(updatedAt, written.updatedAt);
    return written.changed ? order <= 0 : order < 0;
  }

  /** Keeps track of the objects this process writes (creates, updates, deletes) and reads back. */
  private remember(node: EdgeNode, opts: RequestOptions, res: HttpResponse<unknown>): void {
    const known = this.written.get(opts.path);
    if (opts.method === "POST") {
      const id = (res.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (typeof id === "string") this.written.set(`${opts.path}/${id}`, { node, changed: false });
    } else if (opts.method === "PUT" || opts.method === "PATCH") {
      this.written.set(opts.path, { node, updatedAt: known?.updatedAt, changed: true });
    } else if (opts.method === "DELETE") {
      this.written.delete(opts.path);
    } else if (known) {
      // A read as new as the write: later reads must be at least as new.
      this.written.set(opts.path, { node: known.node, updatedAt: updatedAtOf(res.body), changed: false });
    }
  }
}

/**
 * A node that cannot serve this request: no answer (connection refused or reset, a timeout; not a
 * certificate that does not verify: every node would refuse it alike), 502/503/504 (a proxy in front
 * of a dead node; 503 CLUSTER_NO_LEADER during an election), or a 500 of a cluster without leader.
 */
function cannotServe(err: ApiError): boolean {
  if (err.status === 0) return !isTlsFailure(err);
  return err.status === 502 || err.status === 503 || err.status === 504 || noLeader(err);
}

/**
 * The answers of an OpenZiti v1.6 cluster while it has no leader (measured: docs/guides/real-peers.md#a-real-ha-cluster-3-nodes): 503
 * CLUSTER_NO_LEADER; before that, for seconds after the leader died, 500 UNHANDLED "error dialing peer"
 * (the node forwarding a write to the dead leader) and, for a write the leader may have committed,
 * 500 UNHANDLED "timed out".
 */
function noLeader(err: ApiError): boolean {
  if (err.status === 503) return err.code === "CLUSTER_NO_LEADER";
  return err.status === 500 && /error dialing peer|timed out/.test(err.serverMessage);
}

/** Answers that say the write was not carried out (measured on the real cluster): safe to send again. */
function notWritten(err: ApiError): boolean {
  return (
    (err.status === 503 && err.code === "CLUSTER_NO_LEADER") ||
    (err.status === 500 && /error dialing peer/.test(err.serverMessage))
  );
}

/** The same error, marked as a create whose outcome is unknown (engine: look it up before re-sending). */
function asAmbiguous(err: ApiError): ApiError {
  if (err.ambiguous) return err;
  const { resource, method, path, status, code, serverMessage } = err;
  return new ApiError({ resource, method, path, status, code, serverMessage, ambiguous: true });
}

/**
 * The error after the retry budget ended: which nodes were tried and what each said, naming the
 * cluster's state (every node down, or nodes answering without a leader).
 */
function clusterError(
  opts: RequestOptions,
  last: ApiError,
  failures: Map<string, ApiError>,
  nodes: EdgeNode[],
): ApiError {
  const each = [...failures]
    .map(([url, err]) => `${url}: ${err.status ? `HTTP ${err.status}` : "no response"}, ${err.serverMessage}`)
    .join("; ");
  const leaderless = [...failures.values()].some(noLeader);
  const state = leaderless
    ? "the cluster has no leader (quorum lost?)"
    : `no node of the cluster ${nodes.map((n) => n.url).join(", ")} answered`;
  return new ApiError({
    resource: last.resource,
    method: opts.method,
    path: last.path,
    status: last.status,
    code: last.code,
    serverMessage: `${state}: ${each}`,
  });
}

/** The management API addresses of a `GET /controllers` list (spec: controllerDetail.apiAddresses). */
export function managementUrls(data: unknown, basePath: string): string[] {
  const urls: string[] = [];
  for (const controller of Array.isArray(data) ? data : []) {
    const addresses = (controller as { apiAddresses?: Record<string, unknown> })?.apiAddresses?.[
      MANAGEMENT_API
    ];
    for (const address of Array.isArray(addresses) ? addresses : []) {
      const url = (address as { url?: unknown })?.url;
      if (typeof url !== "string") continue;
      const trimmed = url.replace(/\/+$/, "");
      const node = trimmed.endsWith(basePath) ? trimmed.slice(0, -basePath.length) : trimmed;
      if (!urls.includes(node)) urls.push(node);
    }
  }
  return urls;
}

function updatedAtOf(body: unknown): string | undefined {
  const value = (body as { data?: { updatedAt?: unknown } } | undefined)?.data?.updatedAt;
  return typeof value === "string" ? value : undefined;
}

/**
 * Orders two RFC 3339 times (the controller writes nanoseconds, trailing zeros dropped, so neither
 * Date.parse, which keeps milliseconds, nor string order would do): <0, 0, >0.
 */
export function compareTimes(a: string, b: string): number {
  const ms = Date.parse(a) - Date.parse(b);
  if (ms !== 0 || Number.isNaN(ms)) return ms || 0;
  return subMillisecond(a) - subMillisecond(b);
}

/** The digits of the fraction after the milliseconds, as nanoseconds. */
function subMillisecond(time: string): number {
  const fraction = /\.(\d+)/.exec(time)?.[1] ?? "";
  return Number(fraction.padEnd(9, "0").slice(3, 9));
}
