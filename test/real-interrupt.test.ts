// The harness against the real Pulumi CLI on an interrupted `up`: the same program, the same mock,
// each SIGKILLed at the 4th create to reach the mock. Both must record the creates under way as
// pending `creating` operations (same URNs, no id), warn on the next `up` with the same lines, keep
// the pending creates through that `up`, refuse `--import-pending-creates URN=ID` with the same error,
// and drop them on `refresh --clear-pending-creates`; after the recovery neither leaves an orphan.
// Where they differ is printed, not asserted: the CLI leaves its plugins running after a SIGKILL
// and needs `pulumi cancel` for the lock a killed run leaves; its `--import-pending-creates` drops
// a dynamic resource's pending create without importing it (seen with 3.259).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type HarnessOptions, readState, runHarness, startHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliStack, cliStack } from "./peers/cli";
import { requirePeers } from "./peers/index";
import { mockConfig } from "./support/engine";
import { codeBlocks } from "./support/markdown";
import { killAll, processTree, running, waitForHost, waitForProgram, waitGone } from "./support/processes";
import { waitFor } from "./support/wait";

const PROGRAM = path.join(__dirname, "programs", "faults-all");
const COUNTS = { AuthProvider: 12, Identity: 12, EdgeRouterPolicy: 12 };
const TOTAL = 36;
const KILL_AT_POST = 4;
const PROJECT = "faults-all"; // the program's Pulumi.yaml
const RECOVERY_GUIDE = path.join(__dirname, "..", "docs", "guides", "reliability-and-recovery.md");

/** The guide's recovery of a checkpoint that does not load: its block that restores the `.bak`. */
function checkpointRecovery(): string {
  const block = codeBlocks(fs.readFileSync(RECOVERY_GUIDE, "utf8")).find((b) => b.code.includes(".json.bak"));
  if (!block) throw new Error(`${RECOVERY_GUIDE} has no block restoring <stack>.json.bak`);
  return block.code;
}

/** The stack's checkpoint file in the CLI's local backend, and the variables the guide's block reads. */
function checkpointOf(stack: CliStack, name = "dev") {
  const backend = String(stack.env.PULUMI_BACKEND_URL).replace(/^file:\/\//, "");
  const file = path.join(backend, ".pulumi", "stacks", PROJECT, `${name}.json`);
  return { file, vars: { BACKEND: backend, PROJECT, STACK: name } };
}

/** Runs the guide's block with bash in the project's folder, as a user pastes it (without waiting on the
 * event loop: the mock answers from this process). */
async function runRecovery(stack: CliStack): Promise<string> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", checkpointRecovery()],
      { cwd: stack.dir, env: { ...stack.env, ...checkpointOf(stack).vars }, timeout: 240_000 },
      (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`),
    );
  });
}

/**
 * `pulumi stack export` after the CLI was SIGKILLed: a kill while it saved can leave a checkpoint that
 * does not load (`failed to load checkpoint: EOF`, seen once in CI). Then the guide's recovery restores
 * the backup, as a user would, and the export is taken from that.
 */
async function exportAfterKill(stack: CliStack): Promise<any> {
  const first = await stack.run(["stack", "export"]);
  if (first.code === 0) return JSON.parse(first.stdout);
  assert.match(first.output, /failed to load checkpoint/, first.output);
  console.log("      the kill cut the checkpoint: restored from its .bak as the reliability guide says");
  const { file } = checkpointOf(stack);
  fs.copyFileSync(file, `${file}.broken`);
  fs.copyFileSync(`${file}.bak`, file);
  return stack.exportState();
}

/** Objects of the program's kinds on the mock named `<prefix>-...`, as name -> ids. */
function objectsOn(mock: MockServer, prefix: string): Map<string, string[]> {
  const all = [
    ...mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers"),
    ...mock.edge.list("identities"),
    ...mock.edge.list("edge-router-policies"),
  ];
  const out = new Map<string, string[]>();
  for (const o of all) {
    const name = String(o.name);
    if (name.startsWith(`${prefix}-`)) out.set(name, [...(out.get(name) ?? []), String(o.id)]);
  }
  return out;
}

describe("a checkpoint cut by a kill while saving: the reliability guide's recovery", function () {
  this.timeout(300_000);
  let mock: MockServer;
  let stack: CliStack | undefined;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    mock = await startMockServer();
  });
  after(async () => {
    await stack?.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
    await stack?.dispose();
    await mock?.close();
  });

  it("restores the backup, adopts what was created since, and the stack refreshes clean", async () => {
    const { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword, ...plain } = mockConfig(mock);
    const small = { AuthProvider: 1, Identity: 1 };
    const grown = { AuthProvider: 2, Identity: 2, EdgeRouterPolicy: 1 };
    stack = await cliStack(PROGRAM, {
      config: { ...plain, prefix: "cut", counts: JSON.stringify(small) },
      secretConfig: { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword },
    });
    await stack.ok(["up", "--yes", "--skip-preview"]);
    const { file } = checkpointOf(stack);
    const older = fs.readFileSync(file);
    // A second up creates objects the older checkpoint does not know; that checkpoint becomes the
    // backup and the last save is cut to nothing, the worst a kill during the save leaves.
    await stack.ok(["config", "set", "counts", "--", JSON.stringify(grown)]);
    await stack.ok(["up", "--yes", "--skip-preview"]);
    fs.writeFileSync(`${file}.bak`, older);
    fs.writeFileSync(file, "");
    const broken = await stack.run(["stack", "export"]);
    assert.notEqual(broken.code, 0);
    assert.match(broken.output, /failed to load checkpoint/);

    const output = await runRecovery(stack);
    assert.match(output, /adopted instead of created/, output.slice(-3000));
    assert.ok(fs.existsSync(`${file}.broken`), "the cut checkpoint is kept");
    const clean = await stack.run(["refresh", "--yes", "--expect-no-changes"]);
    assert.equal(clean.code, 0, clean.output.slice(-3000));
    const ids = (await stack.exportState()).deployment.resources.map((r: any) => String(r.id));
    const onService = objectsOn(mock, "cut");
    assert.equal(onService.size, grown.AuthProvider + grown.Identity + grown.EdgeRouterPolicy);
    for (const [name, found] of onService) {
      assert.equal(found.length, 1, `${name}: a duplicate`);
      assert.ok(ids.includes(found[0]), `${name} (${found[0]}) is in no state`);
    }
  });
});

describe("interrupted up: the harness and the real Pulumi CLI side by side", function () {
  this.timeout(300_000);
  let mock: MockServer;
  let work: string;
  let stack: CliStack | undefined;
  let config: Record<string, string>;
  let secretConfig: Record<string, string>;
  const leftovers: number[] = [];

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    mock = await startMockServer();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "real-interrupt-"));
    const { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword, ...plain } = mockConfig(mock);
    config = { ...plain, counts: JSON.stringify(COUNTS) };
    secretConfig = { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword };
  });
  after(async () => {
    killAll(leftovers);
    await stack?.run(["cancel", "--yes"]).catch(() => undefined);
    await stack?.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
    await stack?.dispose();
    await mock?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  const objects = (prefix: string) => objectsOn(mock, prefix);

  /** Slow creates, and a callback at the KILL_AT_POST-th create to reach the mock. */
  function killAtPost(kill: () => void): void {
    mock.faults.random({ seed: 3, rate: 1, kinds: ["delay"], delayMs: 400 });
    let posts = 0;
    mock.onRequest = (e) => {
      if (e.method === "POST" && !e.path.includes("authenticate") && ++posts === KILL_AT_POST) kill();
    };
  }

  async function settle(): Promise<void> {
    mock.onRequest = undefined;
    mock.faults.clear();
    await waitFor(
      () => mock.log.every((e) => e.status !== 0),
      "the requests that reached the mock to be answered",
    );
  }

  const pendingLines = (text: string) =>
    [...text.matchAll(/\* (urn:\S+), interrupted while creating/g)].map((m) => m[1]).sort();

  it("both record the creates under way as pending, warn alike on the next up, and recover the same way", async () => {
    // ---- the real CLI ----
    stack = await cliStack(PROGRAM, { config: { ...config, prefix: "cli" }, secretConfig });
    let tree: number[] = [];
    const cliRun = stack.start(["up", "--yes", "--skip-preview"]);
    const cliPid = cliRun.child.pid as number;
    killAtPost(() => {
      tree = processTree(cliPid);
      process.kill(cliPid, "SIGKILL");
    });
    await cliRun.result;
    await settle();
    const cliLeft = tree.slice(1).filter(running);
    leftovers.push(...cliLeft);
    console.log(
      `      pulumi CLI SIGKILLed: ${cliLeft.length} of its ${tree.length - 1} plugin processes still run`,
    );
    killAll(cliLeft);

    const exported = (await exportAfterKill(stack)).deployment;
    const cliPending = exported.pending_operations ?? [];
    assert.ok(cliPending.length > 0, "the CLI recorded no pending operation");
    for (const op of cliPending) {
      assert.equal(op.type, "creating");
      assert.ok(!op.resource.id, "a pending create has no id");
    }
    const cliPendingUrns = cliPending.map((op: any) => op.resource.urn).sort();

    // The killed run's lock: the CLI needs `pulumi cancel` first.
    const locked = await stack.run(["up", "--yes", "--skip-preview"]);
    assert.notEqual(locked.code, 0);
    assert.match(locked.output, /the stack is currently locked/);
    await stack.ok(["cancel", "--yes"]);
    const cliUp = await stack.run(["up", "--yes", "--skip-preview"]);
    assert.equal(cliUp.code, 0, cliUp.output.slice(-3000));
    assert.match(
      cliUp.output,
      new RegExp(
        `Attempting to deploy or update resources with ${cliPending.length} pending operations from previous deployment`,
      ),
    );
    assert.deepEqual(pendingLines(cliUp.output), cliPendingUrns);
    const cliAfterUp = (await stack.exportState()).deployment.pending_operations ?? [];
    assert.deepEqual(
      cliAfterUp.map((op: any) => op.resource.urn).sort(),
      cliPendingUrns,
      "pending creates kept",
    );
    const cliOdd = await stack.run([
      "refresh",
      "--yes",
      "--import-pending-creates",
      `${cliPendingUrns[0]}=x`,
    ]);
    assert.notEqual(cliOdd.code, 0);
    assert.match(cliOdd.output, /each URN must be followed by an ID: found an odd number of entries/);
    await stack.ok(["refresh", "--yes", "--clear-pending-creates"]);
    assert.deepEqual((await stack.exportState()).deployment.pending_operations ?? [], []);
    const cliObjects = objects("cli");
    assert.equal(cliObjects.size, TOTAL);
    assert.ok(
      [...cliObjects.values()].every((ids) => ids.length === 1),
      "a duplicate",
    );
    const cliIds = new Set((await stack.exportState()).deployment.resources.map((r: any) => String(r.id)));
    assert.deepEqual(
      [...cliObjects.values()].flat().filter((id) => !cliIds.has(id)),
      [],
      "an orphan after the CLI's recovery",
    );

    // ---- the harness, same program and kill point ----
    const opts: HarnessOptions = {
      programDir: PROGRAM,
      stateFile: path.join(work, "state.json"),
      config: { ...config, prefix: "hns" },
      secretConfig,
    };
    const run = startHarness("up", opts);
    const harnessPid = run.child.pid as number;
    const hostPid = await waitForHost(harnessPid);
    const programPid = await waitForProgram(harnessPid);
    leftovers.push(harnessPid, hostPid, programPid);
    killAtPost(() => process.kill(harnessPid, "SIGKILL"));
    await run.result;
    await settle();
    assert.deepEqual(await waitGone([hostPid, programPid]), [], "the harness's host or program outlived it");

    const pending = readState(opts.stateFile as string).pendingOperations;
    assert.ok(pending.length > 0);
    for (const op of pending) {
      assert.equal(op.type, "creating");
      assert.equal(op.resource.id, "");
    }
    const urns = pending.map((op) => op.resource.urn).sort();
    // The same URNs as the CLI's for the same resources (same project and stack).
    const cliDeclared = new Set((await stack.exportState()).deployment.resources.map((r: any) => r.urn));
    for (const urn of urns) assert.ok(cliDeclared.has(urn), `${urn} is not a URN the CLI gives`);

    const up = await runHarness("up", opts);
    assert.equal(up.exitCode, 0, up.stderr);
    const warnings = up.report.warnings.join("\n");
    assert.match(
      warnings,
      new RegExp(
        `Attempting to deploy or update resources with ${pending.length} pending operations from previous deployment`,
      ),
    );
    assert.deepEqual(pendingLines(warnings), urns);
    assert.deepEqual(up.report.pendingAfter.map((p) => p.urn).sort(), urns, "pending creates kept");
    const odd = await runHarness("refresh", { ...opts, importPendingCreates: [`${urns[0]}=x`] });
    assert.notEqual(odd.exitCode, 0);
    assert.match(odd.stderr, /each URN must be followed by an ID: found an odd number of entries/);
    const clear = await runHarness("refresh", { ...opts, clearPendingCreates: true });
    assert.equal(clear.exitCode, 0, clear.stderr);
    assert.deepEqual(readState(opts.stateFile as string).pendingOperations, []);
    const harnessObjects = objects("hns");
    assert.equal(harnessObjects.size, TOTAL);
    assert.ok(
      [...harnessObjects.values()].every((ids) => ids.length === 1),
      "a duplicate",
    );
    const ids = new Set(readState(opts.stateFile as string).resources.map((r) => r.id));
    assert.deepEqual(
      [...harnessObjects.values()].flat().filter((id) => !ids.has(id)),
      [],
      "an orphan after the harness's recovery",
    );
    assert.equal((await runHarness("destroy", opts)).exitCode, 0);
  });
});
