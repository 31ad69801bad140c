// Leader loss during `up` on the real 3-node OpenZiti HA cluster (test/peers/cluster.ts): `up` of
// CLUSTER_SIZE objects (test/programs/cluster-many) through the engine harness (the real
// dynamic-provider host, the code path of `pulumi up`), the provider given every node; in each run a
// baseline up without disturbance and an up whose leader is SIGKILLed once a third of the objects
// exist. Per up: the provider's requests and retries (its debug log), elapsed time, outcome, orphans
// (objects on the cluster that the state does not hold) and duplicates; then the killed node is
// restarted and the objects destroyed. Ratios: leader loss over baseline, medians of the same run.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";
import { listAll, type RealCluster, startCluster } from "../test/peers/cluster";
import { REPO_ROOT } from "../test/peers/index";
import { median } from "./lib";

const PROGRAM = path.join(REPO_ROOT, "test", "programs", "cluster-many");
const COLLECTIONS = ["identities", "services", "service-policies", "service-edge-router-policies"];

interface UpRun {
  variant: "baseline" | "leader loss";
  run: number;
  ms: number;
  requests: number;
  retries: number;
  moves: number;
  outcome: string;
  orphans: number;
  duplicates: number;
  /** Whether a second up was needed to converge, and converged. */
  converged: string;
}

/** The provider's settings for every node of the cluster. */
function clusterConfig(cluster: RealCluster): {
  config: Record<string, string>;
  secretConfig: Record<string, string>;
} {
  return {
    config: {
      "frontdoor:edgeUrls": cluster.urls.join(","),
      "frontdoor:edgeUsername": cluster.username,
      "frontdoor:caBundle": cluster.caPem,
      "frontdoor:debug": "true",
    },
    secretConfig: { "frontdoor:edgePassword": cluster.password },
  };
}

/** Objects named `<prefix>-...` on a node, by collection/name, with each id. */
async function objectsOn(cluster: RealCluster, node: string, prefix: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const collection of COLLECTIONS)
    for (const o of await listAll(cluster.node(node).admin, collection))
      if (o.name.startsWith(`${prefix}-`))
        out.set(`${collection}/${o.name}`, [...(out.get(`${collection}/${o.name}`) ?? []), o.id]);
  return out;
}

function stateIds(stateFile: string): Set<string> {
  if (!fs.existsSync(stateFile)) return new Set();
  const state = JSON.parse(fs.readFileSync(stateFile, "utf8"));
  const resources: any[] = state.resources ?? state.deployment?.resources ?? [];
  return new Set(resources.map((r) => String(r.id)).filter((id) => id && id !== "undefined"));
}

async function oneUp(
  cluster: RealCluster,
  variant: UpRun["variant"],
  run: number,
  size: number,
  dir: string,
): Promise<UpRun> {
  const prefix = `bench-${variant === "baseline" ? "base" : "loss"}-${run}`;
  const stateFile = path.join(dir, `${prefix}.json`);
  const { config, secretConfig } = clusterConfig(cluster);
  const opts = {
    programDir: PROGRAM,
    stateFile,
    config: { ...config, groups: String(Math.ceil(size / 4)), prefix },
    secretConfig,
    debug: true,
  };
  const leader = await cluster.waitForLeader();
  const started = Date.now();
  const up = runHarness("up", opts);
  let killed: string | undefined;
  if (variant === "leader loss") {
    let done = false;
    void up.then(() => {
      done = true;
    });
    while (!done) {
      const made = [...(await objectsOn(cluster, leader, prefix).catch(() => new Map())).values()].length;
      if (made >= size / 3) {
        await cluster.kill(leader);
        killed = leader;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const result = await up;
  const ms = Date.now() - started;
  const log = result.stderr;
  const lines = log.split("\n");
  const requests = lines.filter((l) =>
    /\[frontdoor\] (GET|POST|PATCH|PUT|DELETE) \S+ -> \d{3}/.test(l),
  ).length;
  // Re-sent requests: the client's retries, waits for a lagging node, and creates sent again.
  const retries = lines.filter((l) =>
    /; retry \d+ in \d+ ms|credentials renewed, retrying|has not caught up|sending it again/.test(l),
  ).length;
  const moves = lines.filter((l) => /Edge cluster: moving from/.test(l)).length;
  const outcome =
    result.exitCode === 0
      ? "completed"
      : `failed: ${(lines.find((l) => /error|failed/i.test(l) && !l.includes("[frontdoor]")) ?? "?").trim().slice(0, 140)}`;
  if (killed) await cluster.restart(killed);
  const survivor = await cluster.waitForLeader();
  // Orphans and duplicates as the leader lists them once every node is back.
  const listed = await objectsOn(cluster, survivor, prefix);
  const held = stateIds(stateFile);
  const ids = [...listed.values()].flat();
  const orphans = ids.filter((id) => !held.has(id)).length;
  const duplicates = [...listed.values()].filter((v) => v.length > 1).length;
  let converged = "-";
  if (result.exitCode !== 0 || orphans > 0) {
    const again = await runHarness("up", opts);
    const after = [...(await objectsOn(cluster, survivor, prefix)).values()].flat();
    const heldAfter = stateIds(stateFile);
    converged =
      again.exitCode === 0 &&
      after.every((id) => heldAfter.has(id)) &&
      after.length === Math.ceil(size / 4) * 4
        ? "yes"
        : `no (exit ${again.exitCode}, ${after.filter((id) => !heldAfter.has(id)).length} orphans)`;
  }
  const destroy = await runHarness("destroy", opts);
  if (destroy.exitCode !== 0) throw new Error(`destroy of ${prefix} failed:\n${destroy.stderr.slice(-3000)}`);
  // Whatever the state never held (orphans) goes too, so the next run starts clean.
  for (const [key, found] of await objectsOn(cluster, survivor, prefix))
    for (const id of found) await cluster.node(survivor).admin.call("DELETE", `/${key.split("/")[0]}/${id}`);
  return { variant, run, ms, requests, retries, moves, outcome, orphans, duplicates, converged };
}

export async function clusterBenchmark(options: { size: number; runs: number }): Promise<string> {
  const cluster = await startCluster();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cluster-"));
  const runs: UpRun[] = [];
  try {
    for (let run = 1; run <= options.runs; run++) {
      for (const variant of ["baseline", "leader loss"] as const) {
        const r = await oneUp(cluster, variant, run, options.size, dir);
        runs.push(r);
        process.stdout.write(
          `  ${variant} #${run}: ${(r.ms / 1000).toFixed(1)} s, ${r.requests} requests, ${r.retries} retries, ${r.moves} moves, ${r.outcome}, ${r.orphans} orphans\n`,
        );
      }
    }
  } finally {
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const med = (variant: UpRun["variant"], key: "ms" | "requests" | "retries") =>
    median(runs.filter((r) => r.variant === variant).map((r) => r[key]));
  const ratio = (key: "ms" | "requests") => (med("leader loss", key) / med("baseline", key)).toFixed(2);
  return [
    `Cluster start-up (PKI, 3 nodes, agent init/add, a leader accepting writes): ${(cluster.startupMs / 1000).toFixed(1)} s.`,
    "",
    "| Run | Variant | Elapsed | Requests | Retries | Node moves | Outcome | Orphans | Duplicates | Second up converged |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...runs.map(
      (r) =>
        `| ${r.run} | ${r.variant} | ${(r.ms / 1000).toFixed(1)} s | ${r.requests} | ${r.retries} | ${r.moves} | ${r.outcome} | ${r.orphans} | ${r.duplicates} | ${r.converged} |`,
    ),
    "",
    `Medians: baseline ${(med("baseline", "ms") / 1000).toFixed(1)} s / ${med("baseline", "requests")} requests; ` +
      `leader loss ${(med("leader loss", "ms") / 1000).toFixed(1)} s / ${med("leader loss", "requests")} requests ` +
      `(${med("leader loss", "retries")} retries). Ratios leader loss / baseline: elapsed ${ratio("ms")}x, requests ${ratio("requests")}x.`,
  ].join("\n");
}
