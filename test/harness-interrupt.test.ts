// Interrupted runs, as the Pulumi CLI handles them: operations written to the state as pending before
// each call, reported by the next `up`/`destroy`, resolved by `refresh --import-pending-creates` /
// `--clear-pending-creates`; the harness never leaves its dynamic-provider host running (error,
// SIGINT, SIGTERM, even SIGKILL); and a fresh program folder works on the first `up`.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type HarnessOptions, readState, runHarness, startHarness } from "../harness";
import { makeCipher, newSalt } from "../harness/crypto";
import { useHarnessSetup, useMock } from "./support/fixtures";
import { childPids, killAll, running, waitForHost, waitForProgram, waitGone } from "./support/processes";
import { waitFor } from "./support/wait";

const PROGRAM = path.join(__dirname, "programs", "faults-all");
const COUNTS = { AuthProvider: 12, Identity: 12, EdgeRouterPolicy: 12 };

describe("interrupted harness runs: pending operations, no process left behind, a fresh folder", function () {
  this.timeout(120_000);
  const started: number[] = [];
  after(() => killAll(started)); // only if a test failed half way
  const mock = useMock();
  const setup = useHarnessSetup(mock, "harness-interrupt-", () => ({
    config: { counts: JSON.stringify(COUNTS) },
  }));

  afterEach(() => {
    mock.onRequest = undefined;
    mock.faults.clear();
  });

  const options = (name: string, extra: Partial<HarnessOptions> = {}): HarnessOptions => ({
    programDir: PROGRAM,
    stateFile: path.join(setup.dir, name, "state.json"),
    config: { ...setup.config, prefix: name },
    secretConfig: setup.secretConfig,
    ...extra,
  });

  /** Objects on the mock whose name starts with `<prefix>-`, as [name, id]. */
  function objects(prefix: string): [string, string][] {
    const fd = mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers");
    const edge = [...mock.edge.list("identities"), ...mock.edge.list("edge-router-policies")];
    return [...fd, ...edge]
      .map((o) => [String(o.name), String(o.id)] as [string, string])
      .filter(([name]) => name.startsWith(`${prefix}-`));
  }

  /** Every create is slow, so a signal finds creates under way. */
  const slowCreates = () => mock.faults.random({ seed: 7, rate: 1, kinds: ["delay"], delayMs: 400 });

  /** Resolves when `count` POSTs (logins counted only when `logins`) have reached the mock. */
  function createsReached(count: number, logins = false): Promise<void> {
    let seen = 0;
    return new Promise<void>((resolve) => {
      mock.onRequest = (e) => {
        if (e.method === "POST" && (logins || !e.path.includes("authenticate")) && ++seen === count)
          resolve();
      };
    });
  }

  /** Starts `up`, waits for its host and program processes, and has all three killed after the test. */
  async function startUp(runOptions: HarnessOptions) {
    const run = startHarness("up", runOptions);
    const harnessPid = run.child.pid as number;
    started.push(harnessPid);
    const hostPid = await waitForHost(harnessPid);
    const programPid = await waitForProgram(harnessPid);
    started.push(hostPid, programPid);
    return { run, harnessPid, hostPid, programPid };
  }

  /** Starts `up`, waits for its host and for `posts` creates to reach the mock, then signals the harness. */
  async function interruptUp(name: string, signal: NodeJS.Signals, posts = 4) {
    slowCreates();
    const enough = createsReached(posts);
    const { run, harnessPid, hostPid, programPid } = await startUp(options(name));
    await enough;
    process.kill(harnessPid, signal);
    const result = await run.result;
    mock.faults.clear();
    // Requests that reached the mock are still carried out (after their delay), as a server would.
    await waitFor(
      () => mock.log.every((e) => e.status !== 0),
      "the requests that reached the mock to be answered",
    );
    return { result, hostPid, programPid, harnessPid };
  }

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal}: the harness writes the creates under way as pending, kills its host and program, exits ${code}`, async () => {
      const name = `sig${code}`;
      const { result, hostPid, programPid } = await interruptUp(name, signal);
      assert.equal(result.exitCode, code, result.stderr);
      assert.match(result.stderr, new RegExp(`${signal}: stopped with \\d+ operation\\(s\\) under way`));
      assert.deepEqual(await waitGone([hostPid]), [], "the host still runs");
      assert.deepEqual(await waitGone([programPid]), [], "the program process still runs");
      const state = readState(options(name).stateFile as string);
      assert.ok(state.pendingOperations.length > 0, "no pending operation recorded");
      for (const op of state.pendingOperations) {
        assert.equal(op.type, "creating");
        assert.equal(op.resource.id, "");
        // Recorded with the inputs the create was sent with: the declared name.
        assert.match(String(op.resource.inputs.name), new RegExp(`^${name}-`));
      }
      assert.ok(!fs.existsSync(`${options(name).stateFile}.lock`), "the lock was left");
    });
  }

  it("SIGKILL: the host and the program process go too (they see the harness gone); the next run takes over the lock", async () => {
    const name = "kill9";
    const { result, hostPid, programPid } = await interruptUp(name, "SIGKILL");
    assert.equal(result.exitCode, 1); // killed by a signal: no exit code of its own
    assert.deepEqual(await waitGone([hostPid]), [], "the host outlived a SIGKILLed harness");
    // Nobody killed it: it saw its IPC channel to the harness close.
    assert.deepEqual(await waitGone([programPid]), [], "the program process outlived a SIGKILLed harness");
    const stateFile = options(name).stateFile as string;
    assert.ok(fs.existsSync(`${stateFile}.lock`), "a killed run cannot remove its lock");
    const pendingKilled = readState(stateFile).pendingOperations;
    assert.ok(pendingKilled.length > 0, "the journal holds the creates under way");

    // The next `up`: takes over the stale lock, warns as pulumi does, and (the objects of the
    // interrupted creates exist and match) adopts them by name; the pending creates stay, as with pulumi.
    const up = await runHarness("up", options(name));
    assert.equal(up.exitCode, 0, up.stderr);
    const warnings = up.report.warnings.join("\n");
    assert.match(warnings, /took over the lock of an interrupted run/);
    assert.match(
      warnings,
      new RegExp(
        `Attempting to deploy or update resources with ${pendingKilled.length} pending operations from previous deployment`,
      ),
    );
    for (const op of pendingKilled)
      assert.ok(warnings.includes(`* ${op.resource.urn}, interrupted while creating`));
    assert.deepEqual(
      up.report.pendingAfter.map((p) => p.urn).sort(),
      pendingKilled.map((op) => op.resource.urn).sort(),
    );
    const total = Object.values(COUNTS).reduce((a, b) => a + b, 0);
    assert.equal(objects(name).length, total, "an orphan or a duplicate");

    // Resolved by refresh --clear-pending-creates (the objects are in the state now).
    const clear = await runHarness("refresh", {
      ...options(name),
      clearPendingCreates: true,
      expectNoChanges: true,
    });
    assert.equal(clear.exitCode, 0, clear.stderr);
    assert.deepEqual(clear.report.pendingAfter, []);
    const destroy = await runHarness("destroy", options(name));
    assert.equal(destroy.exitCode, 0, destroy.stderr);
    assert.deepEqual(objects(name), []);
  });

  it("refresh --import-pending-creates URN ID reads an interrupted create's object into the state", async () => {
    const name = "imp";
    const { hostPid } = await interruptUp(name, "SIGTERM");
    await waitGone([hostPid]);
    const stateFile = options(name).stateFile as string;
    const pending = readState(stateFile).pendingOperations;
    const byName = new Map(objects(name));
    // As a user would: look each object up on the service by its declared name.
    const found = pending.filter((op) => byName.has(String(op.resource.inputs.name)));
    assert.ok(found.length > 0, "no interrupted create reached the service");
    const importPendingCreates = found.flatMap((op) => [
      op.resource.urn,
      byName.get(String(op.resource.inputs.name)) as string,
    ]);

    // The flag's syntax is pulumi's: each URN followed by its ID, one value per flag.
    const odd = await runHarness("refresh", {
      ...options(name),
      importPendingCreates: [found[0].resource.urn],
    });
    assert.equal(odd.exitCode, 2);
    assert.match(odd.stderr, /each URN must be followed by an ID: found an odd number of entries/);

    const refresh = await runHarness("refresh", {
      ...options(name),
      importPendingCreates,
      clearPendingCreates: true, // the ones that never reached the service
      expectNoChanges: true,
    });
    assert.equal(refresh.exitCode, 0, refresh.stderr);
    assert.deepEqual(refresh.report.pendingAfter, []);
    const state = readState(stateFile);
    for (const op of found) {
      const r = state.resources.find((x) => x.urn === op.resource.urn);
      assert.equal(r?.id, byName.get(String(op.resource.inputs.name)));
    }
    // Nothing to adopt or create twice: the next up creates only what was never sent.
    const up = await runHarness("up", options(name));
    assert.equal(up.exitCode, 0, up.stderr);
    const total = Object.values(COUNTS).reduce((a, b) => a + b, 0);
    assert.equal(objects(name).length, total);
    assert.equal(up.report.summary.create ?? 0, total - state.resources.length);
    assert.equal((await runHarness("destroy", options(name))).exitCode, 0);
  });

  it("the program process killed mid-up: the run fails saying so, the steps under way finish, refresh and up converge", async () => {
    const name = "progkill";
    const total = Object.values(COUNTS).reduce((a, b) => a + b, 0);
    slowCreates();
    const posted = createsReached(4);
    // Two steps at a time: most are still waiting to start when the program process dies.
    const { run, hostPid, programPid } = await startUp(options(name, { parallel: 2 }));
    await posted;
    process.kill(programPid, "SIGKILL");
    const result = await run.result;
    mock.faults.clear();
    assert.equal(result.exitCode, 1, result.stderr);
    assert.ok(result.report, `no --json report: ${result.stdout.slice(-500)}`);
    assert.deepEqual(
      result.report.failures.map((f) => f.message),
      ["the program process exited (signal SIGKILL) before the program finished"],
    );
    assert.deepEqual(result.report.pendingAfter, [], "the steps under way finished and were recorded");
    assert.deepEqual(await waitGone([hostPid]), [], "the host still runs");

    // Consistent: every object the run made is in the state, and the state holds nothing else.
    const state = readState(options(name).stateFile as string);
    assert.ok(state.resources.length >= 4 && state.resources.length < total, `${state.resources.length}`);
    const known = new Set(state.resources.map((r) => r.id.split("/").pop()));
    assert.deepEqual(
      objects(name).filter(([, id]) => !known.has(id)),
      [],
      "an object the state does not know",
    );
    assert.equal(objects(name).length, state.resources.length);

    const refresh = await runHarness("refresh", options(name, { expectNoChanges: true }));
    assert.equal(refresh.exitCode, 0, refresh.stderr);
    const up = await runHarness("up", options(name));
    assert.equal(up.exitCode, 0, up.stderr);
    assert.equal(up.report.summary.create, total - state.resources.length);
    assert.equal(objects(name).length, total);
    const again = await runHarness("up", options(name, { expectNoChanges: true }));
    assert.equal(again.exitCode, 0, again.stderr);
    assert.equal((await runHarness("destroy", options(name))).exitCode, 0);
    assert.deepEqual(objects(name), []);
  });

  it("a crash of the harness (the state folder replaced by a file mid-run) kills the host and the program too", async () => {
    const name = "crash";
    const stateDir = path.join(setup.dir, name);
    slowCreates();
    const { run, harnessPid, hostPid, programPid } = await startUp(options(name));
    await createsReached(3, true);
    fs.rmSync(stateDir, { recursive: true, force: true });
    fs.writeFileSync(stateDir, "not a folder");
    const result = await run.result;
    mock.faults.clear();
    assert.notEqual(result.exitCode, 0);
    assert.deepEqual(
      await waitGone([hostPid, programPid]),
      [],
      "the host or program outlived a crashed harness",
    );
    assert.deepEqual(childPids(harnessPid), []);
    fs.rmSync(stateDir, { force: true });
  });

  it("the state key is made with its folder (the reported crash: key written before the folder existed)", () => {
    const stateFile = path.join(setup.dir, "no-such-folder", "deeper", "dev.json");
    const { PULUMI_CONFIG_PASSPHRASE: saved } = process.env;
    delete process.env.PULUMI_CONFIG_PASSPHRASE;
    try {
      const cipher = makeCipher(stateFile, newSalt());
      assert.equal(cipher.decrypt(cipher.encrypt("s3cret")), "s3cret");
      assert.equal(fs.statSync(`${stateFile}.key`).mode & 0o777, 0o600);
      // A second cipher (a later run) reads the same key.
      const again = makeCipher(stateFile, newSalt());
      assert.equal(again.decrypt(again.encrypt("x")), "x");
      assert.deepEqual(
        fs.readdirSync(path.dirname(stateFile)).filter((f) => f.endsWith(".tmp")),
        [],
      );
    } finally {
      if (saved !== undefined) process.env.PULUMI_CONFIG_PASSPHRASE = saved;
    }
  });

  it("the first up in a fresh program folder (no .state yet, no passphrase) works and leaves no host", async () => {
    const dir = fs.mkdtempSync(path.join(__dirname, "programs", ".work-fresh-"));
    try {
      for (const f of ["Pulumi.yaml", "package.json", "index.ts"])
        fs.copyFileSync(path.join(PROGRAM, f), path.join(dir, f));
      const { PULUMI_CONFIG_PASSPHRASE: _p, ...env } = process.env;
      const opts: HarnessOptions = {
        programDir: dir,
        config: { ...setup.config, prefix: "fresh" },
        secretConfig: setup.secretConfig,
        // Without a passphrase the key goes to `.state/dev.json.key`, made before any state write.
        env: { ...(env as Record<string, string>), PULUMI_CONFIG_PASSPHRASE: "" },
      };
      const up = await runHarness("up", opts);
      assert.equal(up.exitCode, 0, up.stderr);
      assert.ok(fs.existsSync(path.join(dir, ".state", "dev.json")));
      assert.equal(fs.statSync(path.join(dir, ".state", "dev.json.key")).mode & 0o777, 0o600);
      assert.ok(up.report.hostPid && !running(up.report.hostPid), "the host still runs after up");
      assert.ok(up.report.programPid && !running(up.report.programPid), "the program still runs after up");
      const destroy = await runHarness("destroy", opts);
      assert.equal(destroy.exitCode, 0, destroy.stderr);
      assert.deepEqual(objects("fresh"), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
