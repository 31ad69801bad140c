// Mocha's spec reporter, then the wall time of each test file (slowest first: CI prints each suite's
// time, and a new suite has to pay for itself), closed by the line CI counts:
// "N passed, N failed" (", N skipped" if any). Under scripts/test-lanes.js (one job of npm test's
// lanes) it writes the same as JSON to FRONTDOOR_TEST_SUMMARY instead of the table, and its own count
// is not alone on a line: the lanes' runner prints the closing line of the whole run.
const Mocha = require("mocha");
const fs = require("node:fs");
const path = require("node:path");

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_FAIL } = Mocha.Runner.constants;

const EXCERPT_LINES = 12;
const EXCERPT_CHARS = 1500;

/** The first lines of a failure's message and stack: enough to name the cause, bounded. */
function excerpt(error) {
  const text = String(error?.stack ?? error?.message ?? error);
  const lines = text.split("\n").slice(0, EXCERPT_LINES).join("\n");
  return lines.length > EXCERPT_CHARS ? `${lines.slice(0, EXCERPT_CHARS)} ...` : lines;
}

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    // A file's time: from its first top-level suite's start to its last one's end (hooks included).
    const files = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (!suite.file || !suite.parent?.root) return;
      const file = path.relative(process.cwd(), suite.file);
      const seen = files.get(file) ?? { start: Date.now(), ms: 0 };
      seen.start = Date.now();
      files.set(file, seen);
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!suite.file || !suite.parent?.root) return;
      const seen = files.get(path.relative(process.cwd(), suite.file));
      if (seen) seen.ms += Date.now() - seen.start;
    });
    // Read once and taken out of the environment: a test that runs mocha itself (plugin-binaries runs
    // test/plugin.test.ts against each binary) must get the plain closing line, not this job's summary.
    const summaryFile = process.env.FRONTDOOR_TEST_SUMMARY;
    delete process.env.FRONTDOOR_TEST_SUMMARY;
    // Each failure with the start of its error: CI shows only the end of a long output, and the lanes'
    // runner prints these there, so a failed run names its cause without the job's full log.
    const failed = [];
    runner.on(EVENT_TEST_FAIL, (test, error) =>
      failed.push({ title: test.fullTitle(), error: excerpt(error) }),
    );
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      if (summaryFile) {
        const times = Object.fromEntries([...files].map(([file, { ms }]) => [file, ms]));
        fs.writeFileSync(summaryFile, JSON.stringify({ passes, failures, pending, files: times, failed }));
        process.stdout.write(`(this job: ${passes} passed, ${failures} failed)\n`);
        return;
      }
      if (files.size > 1) {
        const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
        process.stdout.write("\nWall time per test file (slowest first):\n");
        for (const [file, { ms }] of rows)
          process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`);
      }
      const skipped = pending ? `, ${pending} skipped` : "";
      process.stdout.write(`${passes} passed, ${failures} failed${skipped}\n`);
    });
  }
}
module.exports = CountingReporter;
