// The program runs in a process of its own, as the Pulumi CLI's language host runs it: not in the
// harness process, reported (pid, peak RSS, CPU), given its config (secrets included) over the IPC
// channel only, and stopped once the program has finished, whatever its outcome.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runHarness, startHarness } from "../harness";
import { tempDir } from "./support/fixtures";
import { commandLine, running, waitForHost, waitForProgram, waitGone } from "./support/processes";

const SECRET = "program-process-s3cret";

describe("harness: the program's own process", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDir("harness-program-");
  });

  it("runs the program in another process than the harness and the host, reports it and stops it", async () => {
    const programDir = path.join(__dirname, "programs", "harness-basic");
    const run = startHarness("up", {
      programDir,
      stateFile: path.join(dir, "state.json"),
      config: {
        dataDir: path.join(dir, "data"),
        spec: JSON.stringify({ items: [{ name: "a", key: "ka", secret: true }] }),
      },
      secretConfig: { secretValue: SECRET },
    });
    const harnessPid = run.child.pid as number;
    const programPid = await waitForProgram(harnessPid);
    // The secret config value reaches the program, but not through its command line or environment.
    const environ = fs.readFileSync(`/proc/${programPid}/environ`, "utf8");
    assert.ok(!environ.includes(SECRET) && !commandLine(programPid).includes(SECRET));
    const r = await run.result;
    assert.equal(r.exitCode, 0, r.stderr);

    assert.equal(r.report.programPid, programPid);
    assert.equal(r.report.outputs.programPid, programPid, "the program's process.pid");
    assert.notEqual(r.report.programPid, r.report.pid);
    assert.notEqual(r.report.programPid, r.report.hostPid);
    assert.equal(r.report.outputs.secrets.a, "[secret]");
    assert.ok((r.report.programPeakRssBytes ?? 0) > 20 * 2 ** 20, `${r.report.programPeakRssBytes}`);
    assert.ok((r.report.programCpuMs ?? 0) > 0);
    assert.deepEqual(await waitGone([programPid]), [], "the program process still runs after up");

    // refresh and destroy run no program: no program process.
    const refresh = await runHarness("refresh", { programDir, stateFile: path.join(dir, "state.json") });
    assert.equal(refresh.exitCode, 0, refresh.stderr);
    assert.equal(refresh.report.programPid, undefined);
  });

  it("reports a program that throws, as before, and stops its process", async () => {
    const programDir = path.join(__dirname, "programs", "harness-stack-frames");
    const run = startHarness("up", {
      programDir,
      stateFile: path.join(dir, "state.json"),
      config: { fail: "thrown in the program process" },
    });
    const hostPid = await waitForHost(run.child.pid as number);
    const r = await run.result;
    assert.equal(r.exitCode, 1);
    assert.deepEqual(
      r.report.failures.map((f) => f.message),
      ["program failed: refused by the program: thrown in the program process"],
    );
    assert.ok(r.report.programPid !== undefined);
    assert.ok(!running(r.report.programPid), "the program process still runs");
    assert.deepEqual(await waitGone([hostPid]), []);
  });
});
