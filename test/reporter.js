// Mocha's spec reporter, then the wall time of each test file (slowest first: CI prints each suite's
// time, and a new suite has to pay for itself), closed by the line CI counts:
// "N passed, N failed" (", N skipped" if any).
const Mocha = require("mocha");
const path = require("node:path");

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

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
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
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
