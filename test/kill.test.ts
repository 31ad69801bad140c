// The kill suite: `up` and `destroy` of 144 resources of every kind, with the harness or its
// dynamic-provider host SIGKILLed at a seeded random request (the k-th write to reach the mock; the
// mock still carries that request out, so the kill lands after the POST and before the engine gets
// the id: the worst moment). Then the user's recovery: `up` again (it warns about pending creates and
// adopts, by name, the objects whose create was cut off), `refresh --clear-pending-creates` when
// creates were left pending, and `destroy` again after a killed destroy. Every run must end with
// 0 orphans (objects on the mock no state knows), 0 duplicates, a clean `refresh --expect-no-changes`
// and `up --expect-no-changes`, and 0 objects after destroy. The figures are printed at the end.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type HarnessOptions, type HarnessResult, readState, runHarness, startHarness } from "../harness";
import { issueCertificate } from "../mock/edge/pki";
import { seededRandom } from "../mock/random";
import type { RequestLogEntry } from "../mock/server";
import { testCa } from "./edge-support";
import { EDGE_COLLECTIONS, FRONTDOOR_COLLECTIONS } from "./support/collections";
import { useHarnessSetup, useMock } from "./support/fixtures";
import { killAll, waitForHost, waitForProgram, waitGone } from "./support/processes";
import { waitFor } from "./support/wait";

const PROGRAM = path.join(__dirname, "programs", "faults-all");
const SEED = Number(process.env.KILL_SEED ?? 20261124);
/** Kill runs per (victim, command); KILL_RUNS=n for a longer local soak. */
const RUNS = Number(process.env.KILL_RUNS ?? 2);

/** 144 resources, every kind; few of the kinds that sign with RSA in pure JS (slow). */
const COUNTS: Record<string, number> = {
  AuthProvider: 16,
  ClientCertificate: 8,
  CertificateRequestToken: 10,
  CustomFrontend: 8,
  KeyPair: 3,
  Identity: 16,
  AuthPolicy: 8,
  EdgeRouterPolicy: 12,
  Ca: 3,
  EdgeRouter: 8,
  ExternalJwtSigner: 8,
  PostureCheck: 8,
  ConfigType: 6,
  Config: 8,
  Service: 8,
  ServicePolicy: 8,
  ServiceEdgeRouterPolicy: 6,
};
const TOTAL = Object.values(COUNTS).reduce((a, b) => a + b, 0);
/** KeyPairs exist only in the state (a key and a CSR made locally): no object on the service. */
const ON_SERVICE = TOTAL - COUNTS.KeyPair;

type Victim = "harness" | "host";
interface Figure {
  victim: Victim;
  command: "up" | "destroy";
  killAt: number;
  writesBeforeKill: number;
  pendingAfterKill: number;
  /** Commands the user ran after the kill until the stack converged. */
  recovery: string[];
  /** Objects whose create was cut off, adopted by name by the recovery `up`. */
  adopted: number;
  orphans: number;
  duplicates: number;
  left: number;
}

describe("kill suite: SIGKILL of the harness or its host during up and destroy of 144 resources", function () {
  this.timeout(600_000);
  const figures: Figure[] = [];
  const started: number[] = [];
  const random = seededRandom(SEED);
  const mock = useMock({ frontdoor: { customFrontendReadyAfterMs: 50 } });
  const setup = useHarnessSetup(mock, "kill-suite-", () => ({
    config: {
      counts: JSON.stringify(COUNTS),
      uploadCertPem: issueCertificate({ commonName: "uploaded.example.com" }).certPem,
    },
  }));

  after(() => {
    killAll(started);
    if (figures.length === 0) return;
    // For docs/guides/reliability-and-recovery.md and the closing note (visible with --reporter spec).
    console.log("      kill suite figures (seed %d):", SEED);
    for (const f of figures) {
      console.log(
        `        ${f.victim.padEnd(7)} ${f.command.padEnd(7)} killed at write ${String(f.killAt).padStart(3)}: ` +
          `${f.pendingAfterKill} pending, recovery [${f.recovery.join("; ")}], ${f.adopted} adopted, ` +
          `orphans ${f.orphans}, duplicates ${f.duplicates}, left after destroy ${f.left}`,
      );
    }
  });

  /**
   * CAs of each run's own (a CA's certificate is unique on the service: runs sharing one would clash
   * when a failed run leaves its objects behind).
   */
  const cas = new Map<string, { caCerts: string; keys: Record<string, string> }>();
  function casOf(prefix: string) {
    if (!cas.has(prefix)) {
      const made = Array.from({ length: COUNTS.Ca }, (_, i) => testCa(`Kill CA ${prefix} ${i}`));
      cas.set(prefix, {
        caCerts: JSON.stringify(made.map((ca) => ca.certPem)),
        keys: Object.fromEntries(made.map((ca, i) => [`caKey${i}`, ca.keyPem])),
      });
    }
    return cas.get(prefix) as { caCerts: string; keys: Record<string, string> };
  }

  const options = (prefix: string, extra: Partial<HarnessOptions> = {}): HarnessOptions => ({
    programDir: PROGRAM,
    stateFile: path.join(setup.dir, prefix, "state.json"),
    config: { ...setup.config, prefix, caCerts: casOf(prefix).caCerts },
    secretConfig: { ...setup.secretConfig, ...casOf(prefix).keys },
    parallel: 16,
    ...extra,
  });

  /** [name, id] of every object on the mock whose name starts with `<prefix>-`. */
  function objects(prefix: string): [string, string][] {
    const fd = mock.credentials.frontdoorId;
    const all = [
      ...FRONTDOOR_COLLECTIONS.flatMap(([collection, field]) =>
        mock.frontdoor.list(fd, collection).map((o) => [String(o[field]), String(o.id)] as [string, string]),
      ),
      ...EDGE_COLLECTIONS.flatMap((collection) =>
        mock.edge.list(collection).map((o) => [String(o.name), String(o.id)] as [string, string]),
      ),
    ];
    return all.filter(([name]) => name.startsWith(`${prefix}-`));
  }

  /** Objects no state resource knows, and names held by more than one object. */
  function audit(prefix: string): { orphans: string[]; duplicates: string[] } {
    const known = new Set(
      readState(options(prefix).stateFile as string).resources.map((r) => r.id.split("/").pop() as string),
    );
    const objs = objects(prefix);
    const names = objs.map(([name]) => name);
    return {
      orphans: objs.filter(([, id]) => !known.has(id)).map(([name, id]) => `${name} (${id})`),
      duplicates: [...new Set(names.filter((n, i) => names.indexOf(n) !== i))],
    };
  }

  const isWrite = (e: RequestLogEntry) =>
    e.method !== "GET" && !e.path.includes("authenticate") && !e.path.includes("oauth");

  /** Runs `command`, SIGKILLing `victim` when the `killAt`-th write reaches the mock. */
  async function killedRun(prefix: string, command: "up" | "destroy", victim: Victim, killAt: number) {
    let writes = 0;
    let victimPid: number | undefined;
    const run = startHarness(command, options(prefix));
    const harnessPid = run.child.pid as number;
    started.push(harnessPid);
    const hostPid = await waitForHost(harnessPid);
    const programPid = command === "up" ? await waitForProgram(harnessPid) : undefined;
    started.push(hostPid, ...(programPid ? [programPid] : []));
    victimPid = victim === "harness" ? harnessPid : hostPid;
    mock.onRequest = (e) => {
      if (!isWrite(e) || victimPid === undefined) return;
      writes++;
      if (writes === killAt) {
        process.kill(victimPid, "SIGKILL");
        victimPid = undefined;
      }
    };
    const result = await run.result;
    mock.onRequest = undefined;
    assert.deepEqual(await waitGone([hostPid]), [], `the host outlived the ${victim} kill`);
    if (programPid)
      assert.deepEqual(await waitGone([programPid]), [], `the program outlived the ${victim} kill`);
    // Writes that reached the mock are carried out whatever became of the client.
    await waitFor(
      () => mock.log.every((e) => e.status !== 0),
      "the requests that reached the mock to be answered",
    );
    return { result, writes, killed: victimPid === undefined };
  }

  const ok = (r: HarnessResult, what: string) =>
    assert.equal(
      r.exitCode,
      0,
      `${what} failed: ${JSON.stringify(r.report?.failures ?? [], null, 1)}\n${r.stderr.slice(-3000)}`,
    );

  /** The user's recovery after a killed `up`: up again, then clear pending creates it adopted. */
  async function recoverUp(prefix: string, figure: Figure): Promise<void> {
    const recovery = figure.recovery;
    const up = await runHarness("up", options(prefix));
    recovery.push(`up${up.report?.pendingOperations.length ? " (warned of pending creates)" : ""}`);
    ok(up, "up after the kill");
    figure.adopted = up.stderr.split("\n").filter((l) => l.includes("adopted instead of created")).length;
    if (up.report.pendingAfter.length > 0) {
      // Every pending create was adopted by that up (or never reached the service): clear them.
      const clear = await runHarness("refresh", options(prefix, { clearPendingCreates: true }));
      recovery.push("refresh --clear-pending-creates");
      ok(clear, "refresh --clear-pending-creates");
      assert.deepEqual(clear.report.pendingAfter, []);
    }
  }

  async function converged(prefix: string): Promise<void> {
    const refresh = await runHarness("refresh", options(prefix, { expectNoChanges: true }));
    ok(refresh, "refresh --expect-no-changes");
    const again = await runHarness("up", options(prefix, { expectNoChanges: true }));
    ok(again, "up --expect-no-changes");
    const names = objects(prefix).map(([n]) => n);
    assert.equal(names.length, ON_SERVICE, `objects on the mock: ${names.length}, declared ${ON_SERVICE}`);
    assert.equal(readState(options(prefix).stateFile as string).resources.length, TOTAL);
  }

  for (const victim of ["harness", "host"] as const) {
    for (let run = 0; run < RUNS; run++) {
      it(`${victim} killed during up, then during destroy (run ${run + 1}): 0 orphans, 0 duplicates, nothing left`, async () => {
        const prefix = `k${victim[0]}${run}`;
        // up: killed at a random write among the ~150 an up makes (a create each, and CA verifications).
        const upAt = 1 + Math.floor(random() * (ON_SERVICE - 2));
        const killedUp = await killedRun(prefix, "up", victim, upAt);
        assert.ok(killedUp.killed, `up ended after ${killedUp.writes} writes, before write ${upAt}`);
        const afterUp = readState(options(prefix).stateFile as string).pendingOperations.length;
        const upFigure: Figure = {
          victim,
          command: "up",
          killAt: upAt,
          writesBeforeKill: killedUp.writes,
          pendingAfterKill: afterUp,
          recovery: [],
          adopted: 0,
          orphans: 0,
          duplicates: 0,
          left: 0,
        };
        figures.push(upFigure);
        await recoverUp(prefix, upFigure);
        const upAudit = audit(prefix);
        upFigure.orphans = upAudit.orphans.length;
        upFigure.duplicates = upAudit.duplicates.length;
        assert.deepEqual(upAudit, { orphans: [], duplicates: [] });
        await converged(prefix);

        // destroy: killed at a random delete.
        const destroyAt = 1 + Math.floor(random() * (ON_SERVICE - 1));
        const killedDestroy = await killedRun(prefix, "destroy", victim, destroyAt);
        assert.ok(killedDestroy.killed, `destroy ended after ${killedDestroy.writes} writes`);
        const destroyFigure: Figure = {
          victim,
          command: "destroy",
          killAt: destroyAt,
          writesBeforeKill: killedDestroy.writes,
          pendingAfterKill: readState(options(prefix).stateFile as string).pendingOperations.length,
          recovery: [],
          adopted: 0,
          orphans: 0,
          duplicates: 0,
          left: 0,
        };
        figures.push(destroyFigure);
        const destroy = await runHarness("destroy", options(prefix));
        destroyFigure.recovery.push(
          `destroy${destroy.report?.pendingOperations.length ? " (warned of pending deletes)" : ""}`,
        );
        ok(destroy, "destroy after the kill");
        const left = objects(prefix);
        destroyFigure.left = left.length;
        assert.deepEqual(left, []);
        const state = readState(options(prefix).stateFile as string);
        assert.deepEqual(state.resources, []);
        assert.deepEqual(state.pendingOperations, []);
      });
    }
  }
});
