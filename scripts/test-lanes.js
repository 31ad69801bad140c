#!/usr/bin/env node
// npm test's runner: the test files in jobs, run by a few mocha processes side by side (lanes), then
// one report. The machines have 2 cores and most of the slow suites wait on servers (controllers, the
// CLI's engine, npm registries), so two lanes cut the wall time without changing a test.
//
// - Jobs: the files that share a server (SHARED_SERVERS: one cluster, one registry per run) are one
//   job; every other file of at least BATCH_SECONDS is a job of its own; the quick files are packed
//   into batches of about BATCH_SECONDS (a mocha process costs a second or two to start).
// - Order: longest job first, each lane takes the next one when it is free (the recorded times of
//   test/file-times.json; a file without one runs alone, counted as BATCH_SECONDS).
// - Output: a job's whole output is printed when it ends (one job's lines together), and a line when a
//   job starts, so a long job is never a silent wait. Then each file's wall time (slowest first),
//   the failed tests, and the closing line CI reads: `N passed, N failed`.
//
// Usage: node scripts/test-lanes.js [--lanes N] [--record] [test files...]
//   --lanes N   lanes (FRONTDOOR_TEST_LANES; default 2)
//   --record    rewrite test/file-times.json from this run's file times
//   --table-min S  files quicker than S seconds are one summed line of the table (default 5)
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.join(__dirname, "..");
const TIMES_FILE = path.join(root, "test", "file-times.json");
const BATCH_SECONDS = 20;
/** A file with no recorded time (a new suite) runs as a job of its own. */
const DEFAULT_SECONDS = BATCH_SECONDS;
/** Files quicker than this are summed in one line of the closing table. */
const TABLE_MIN_MS = 5_000;
/** Lines of a crashed job's output printed with its failure (the reporter prints as many of an error). */
const TAIL_LINES = 12;
/** Files that share one server started once per mocha process: they run in one process. */
const SHARED_SERVERS = [
  { name: "the shared real cluster", files: /^test\/real(-vs-mock)?-cluster[^/]*\.test\.ts$/ },
];

function parseArgs(argv) {
  const options = {
    lanes: Number(process.env.FRONTDOOR_TEST_LANES || 2),
    record: false,
    tableMinMs: TABLE_MIN_MS,
    files: [],
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--lanes") options.lanes = Number(argv[++i]);
    else if (argv[i] === "--record") options.record = true;
    else if (argv[i] === "--table-min") options.tableMinMs = Number(argv[++i]) * 1000;
    else options.files.push(path.relative(root, path.resolve(argv[i])));
  }
  if (!Number.isInteger(options.lanes) || options.lanes < 1)
    throw new Error(`--lanes (FRONTDOOR_TEST_LANES) must be a whole number of at least 1`);
  return options;
}

/** test/**\/*.test.ts, as mocha's spec glob finds them (repository-relative, sorted). */
function allTestFiles(dir = "test") {
  const found = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...allTestFiles(rel));
    else if (entry.name.endsWith(".test.ts")) found.push(rel);
  }
  return found.sort();
}

/** The last `count` non-empty lines of a job's output (what a crashed job printed last). */
function tail(output, count) {
  return String(output ?? "")
    .split("\n")
    .filter((line) => line.trim())
    .slice(-count)
    .join("\n");
}

function recordedSeconds() {
  try {
    return JSON.parse(fs.readFileSync(TIMES_FILE, "utf8")).seconds ?? {};
  } catch {
    return {};
  }
}

/** The jobs, longest first: [{ name, files, seconds }]. */
function planJobs(files, seconds) {
  const time = (f) => seconds[f] ?? DEFAULT_SECONDS;
  const jobs = [];
  const rest = [];
  for (const shared of SHARED_SERVERS) {
    const members = files.filter((f) => shared.files.test(f));
    if (members.length) jobs.push({ name: shared.name, files: members });
  }
  const grouped = new Set(jobs.flatMap((j) => j.files));
  for (const f of files) {
    if (grouped.has(f)) continue;
    if (time(f) >= BATCH_SECONDS) jobs.push({ name: f, files: [f] });
    else rest.push(f);
  }
  // First fit, longest first: each quick file into the first batch it fits in.
  const batches = [];
  for (const f of rest.sort((a, b) => time(b) - time(a))) {
    let batch = batches.find((b) => b.seconds + time(f) <= BATCH_SECONDS);
    if (!batch) {
      batch = { name: "", files: [], seconds: 0 };
      batches.push(batch);
    }
    batch.files.push(f);
    batch.seconds += time(f);
  }
  jobs.push(...batches);
  for (const job of jobs) {
    job.seconds ??= job.files.reduce((s, f) => s + time(f), 0); // batches counted theirs while filling
    if (!job.name) job.name = `${job.files.length} quick files (${job.files[0]}, ...)`;
  }
  return jobs.sort((a, b) => b.seconds - a.seconds);
}

/** Runs one job's mocha; resolves to its summary (test/reporter.js writes it) and output. */
function runJob(job, index) {
  const summaryFile = path.join(os.tmpdir(), `frontdoor-lanes-${process.pid}-${index}.json`);
  fs.rmSync(summaryFile, { force: true });
  const mocha = path.join(root, "node_modules", "mocha", "bin", "mocha.js");
  const guard = path.join(__dirname, "lanes-job-guard.js");
  const child = spawn(process.execPath, [mocha, "--require", guard, ...job.files], {
    cwd: root,
    env: {
      ...process.env,
      FRONTDOOR_TEST_SUMMARY: summaryFile,
      FRONTDOOR_TEST_RUNNER_PID: String(process.pid),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: an interrupted run stops the job's children too
  });
  running.add(child);
  const chunks = [];
  child.stdout.on("data", (c) => chunks.push(c));
  child.stderr.on("data", (c) => chunks.push(c));
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      running.delete(child);
      let summary;
      try {
        summary = JSON.parse(fs.readFileSync(summaryFile, "utf8"));
      } catch {
        summary = undefined;
      }
      fs.rmSync(summaryFile, { force: true });
      resolve({ job, code, signal, summary, output: Buffer.concat(chunks).toString("utf8") });
    });
  });
}

const running = new Set();
function stopAll(signal) {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {} // already gone
  }
  process.exit(signal === "SIGINT" ? 130 : 143);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const files = options.files.length ? options.files : allTestFiles();
  const jobs = planJobs(files, recordedSeconds());
  // The whole suite: the plugin's SDKs under sdk/native generated once here, since two lanes must not
  // both regenerate them (a run of named files leaves it to their suites, as mocha alone would).
  if (!options.files.length) {
    const sdks = require("./sdks/generate.js");
    if (sdks.generatorBuilt()) sdks.ensure();
  }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(signal));

  const started = Date.now();
  const clock = () => `${Math.round((Date.now() - started) / 1000)} s`.padStart(6);
  process.stdout.write(
    `${files.length} test files in ${jobs.length} jobs on ${options.lanes} lanes (recorded ${Math.round(
      jobs.reduce((s, j) => s + j.seconds, 0),
    )} s in one lane)\n`,
  );
  const results = [];
  const queue = jobs.map((job, index) => ({ job, index }));
  const lane = async (number) => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      process.stdout.write(`${clock()}  lane ${number} starts: ${next.job.name}\n`);
      const result = await runJob(next.job, next.index);
      results.push(result);
      const s = result.summary;
      const outcome = s
        ? `${s.passes} passed, ${s.failures} failed`
        : `ended without a report (exit ${result.code ?? result.signal})`;
      process.stdout.write(`\n===== ${result.job.name}: ${outcome} =====\n${result.output}\n`);
      process.stdout.write(`${clock()}  lane ${number} ended: ${result.job.name} (${outcome})\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.lanes, jobs.length) }, (_, i) => lane(i + 1)));

  let passes = 0;
  let failures = 0;
  let pending = 0;
  const fileMs = {};
  const failed = [];
  for (const { job, code, signal, summary, output } of results) {
    if (!summary) {
      failures += 1; // a job that crashed counts as a failure, never as nothing
      failed.push({
        title: `${job.name}: mocha ended without a report (exit ${code ?? signal})`,
        error: tail(output, TAIL_LINES),
      });
      continue;
    }
    passes += summary.passes;
    failures += summary.failures;
    pending += summary.pending;
    Object.assign(fileMs, summary.files);
    failed.push(...summary.failed);
    if (code !== 0 && summary.failures === 0) {
      failures += 1;
      failed.push({
        title: `${job.name}: mocha exited ${code ?? signal} with no failed test`,
        error: tail(output, TAIL_LINES),
      });
    }
  }
  const rows = Object.entries(fileMs).sort((a, b) => b[1] - a[1]);
  process.stdout.write(
    `\nWall time per test file (slowest first; ${options.lanes} lanes, ${clock().trim()} in all):\n`,
  );
  // The quick files in one line: the table is read at the end of CI's output, beside the failures.
  const shown = rows.filter(([, ms]) => ms >= options.tableMinMs);
  for (const [file, ms] of shown)
    process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`);
  const quick = rows.slice(shown.length);
  if (quick.length)
    process.stdout.write(
      `  ${(quick.reduce((sum, [, ms]) => sum + ms, 0) / 1000).toFixed(1).padStart(7)} s  ` +
        `${quick.length} file${quick.length === 1 ? "" : "s"} under ${options.tableMinMs / 1000} s each\n`,
    );
  if (failed.length) {
    process.stdout.write("\nFailed:\n");
    for (const { title, error } of failed) {
      process.stdout.write(`  - ${title}\n`);
      if (error) process.stdout.write(`${error.replace(/^/gm, "      ")}\n`);
    }
  }
  if (options.record) {
    const seconds = { ...recordedSeconds() };
    for (const [file, ms] of rows) seconds[file] = Math.round(ms / 100) / 10;
    const existing = JSON.parse(fs.readFileSync(TIMES_FILE, "utf8"));
    existing.seconds = Object.fromEntries(Object.entries(seconds).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    fs.writeFileSync(TIMES_FILE, `${JSON.stringify(existing, null, 2)}\n`);
  }
  const skipped = pending ? `, ${pending} skipped` : "";
  process.stdout.write(`${passes} passed, ${failures} failed${skipped}\n`);
  process.exitCode = failures ? 1 : 0;
}

if (require.main === module)
  main().catch((error) => {
    process.stderr.write(`test-lanes: ${error.stack ?? error}\n`);
    process.exit(2);
  });
module.exports = { planJobs, allTestFiles, parseArgs };
