// npm test's runner (scripts/test-lanes.js): the jobs it makes of the test files, and a real run of
// three small mocha jobs on two lanes, whose counts, failures and crash it must all report.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import path from "node:path";
import { killAll, running, waitGone } from "./support/processes";
import { waitFor } from "./support/wait";

const root = path.resolve(__dirname, "..");
const lanes = require("../scripts/test-lanes.js") as {
  planJobs(
    files: string[],
    seconds: Record<string, number>,
  ): { name: string; files: string[]; seconds: number }[];
  allTestFiles(): string[];
};
// Mocha's own file lookup (what `mocha "test/**/*.test.ts"` ran before the lanes).
const { lookupFiles } = require("mocha/lib/cli/lookup-files") as {
  lookupFiles(glob: string, extensions: string[], recursive: boolean): string[];
};

function runLanes(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  started: (pid: number) => void = () => {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "scripts", "test-lanes.js"), ...args], {
      cwd: root,
      env,
    });
    started(child.pid as number);
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("npm test's lanes (scripts/test-lanes.js)", () => {
  it("runs the files mocha's own glob finds, test/**/*.test.ts", () => {
    const mochas = lookupFiles("test/**/*.test.ts", [".ts"], false).map((f) =>
      path.relative(root, path.resolve(root, f)),
    );
    assert.deepEqual(lanes.allTestFiles(), [...mochas].sort());
  });

  it("keeps the suites of one shared server in one job, a slow file alone, quick ones in batches; longest first", () => {
    const jobs = lanes.planJobs(
      [
        "test/real-cluster.test.ts",
        "test/real-cluster-keyless.test.ts",
        "test/real-vs-mock-cluster.test.ts",
        "test/slow.test.ts",
        "test/a.test.ts",
        "test/b.test.ts",
        "test/c.test.ts",
        "test/unknown.test.ts",
      ],
      {
        "test/real-cluster.test.ts": 290,
        "test/real-cluster-keyless.test.ts": 40,
        "test/real-vs-mock-cluster.test.ts": 14,
        "test/slow.test.ts": 120,
        "test/a.test.ts": 12,
        "test/b.test.ts": 6,
        "test/c.test.ts": 3,
      },
    );
    assert.deepEqual(
      jobs.map((j) => j.files),
      [
        [
          "test/real-cluster.test.ts",
          "test/real-cluster-keyless.test.ts",
          "test/real-vs-mock-cluster.test.ts",
        ],
        ["test/slow.test.ts"],
        ["test/unknown.test.ts"], // no recorded time: a new suite runs alone
        ["test/a.test.ts", "test/b.test.ts"],
        ["test/c.test.ts"],
      ],
    );
  });

  it("runs jobs side by side and reports every count, every failure and a crashed job in one closing line", async function () {
    this.timeout(120_000);
    const fixtures = ["passes", "fails", "crashes"].map((f) => `test/support/lane-fixtures/${f}.ts`);
    const { code, output } = await runLanes(["--lanes", "2", "--table-min", "0", ...fixtures]);
    const lines = output.trimEnd().split("\n");
    // 2 + 1 passed; 1 failed test, and the job that died before reporting counts as a failure.
    assert.equal(lines.at(-1), "3 passed, 2 failed", output);
    assert.equal(code, 1);
    assert.match(
      output,
      /Failed:\n {2}- lane fixture: fails breaks\n {6}AssertionError[^\n]*\n(?: {6}[^\n]*\n)*? {2}- .*crashes\.ts.*ended without a report \(exit 3\)\n {6}.*lane fixture: dying before any report/,
      "each failure is printed with the start of its error, a crashed job with its last lines",
    );
    assert.match(output, /lane 1 starts: .*\n.*lane 2 starts: /, "two jobs started before either ended");
    // Each job's output is printed whole, between its own header and its lane's end line.
    const failsHeader = output.indexOf("===== test/support/lane-fixtures/fails.ts");
    const failsTrace = output.indexOf("AssertionError", failsHeader);
    assert.ok(failsHeader >= 0 && failsTrace > failsHeader, output);
    assert.ok(!output.slice(failsHeader, failsTrace).includes("lane fixture: passes"), output);
    // The file times of every job that reported.
    assert.match(
      output,
      /Wall time per test file[^\n]*\n(?: +[\d.]+ s {2}test\/support\/lane-fixtures\/(?:passes|fails)\.ts\n){2}/,
    );
  });

  it("sums the files under the table's minimum in one line", async function () {
    this.timeout(60_000);
    const { output } = await runLanes(["--lanes", "1", "test/support/lane-fixtures/passes.ts"]);
    assert.match(output, /Wall time per test file[^\n]*\n +[\d.]+ s {2}1 file under 5 s each\n/, output);
  });

  it("a SIGKILLed runner leaves no job running: each job ends its own process group", async function () {
    this.timeout(60_000);
    const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lanes-kill-")), "job.pid");
    let runner = 0;
    const ended = runLanes(
      ["test/support/lane-fixtures/waits.ts"],
      { ...process.env, LANE_FIXTURE_PID_FILE: pidFile },
      (pid) => {
        runner = pid;
      },
    );
    await waitFor(
      () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8") !== "",
      "the job to start",
    );
    const job = Number(fs.readFileSync(pidFile, "utf8"));
    assert.ok(running(job));
    try {
      process.kill(runner, "SIGKILL");
      await ended;
      assert.deepEqual(await waitGone([job], 10_000), [], "the job outlived its runner");
    } finally {
      killAll([job]);
      fs.rmSync(path.dirname(pidFile), { recursive: true, force: true });
    }
  });
});
