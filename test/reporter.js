// Mocha's spec reporter, closed by the line CI counts: "N passed, N failed" (", N skipped" if any).
const Mocha = require("mocha");

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      const skipped = pending ? `, ${pending} skipped` : "";
      process.stdout.write(`${passes} passed, ${failures} failed${skipped}\n`);
    });
  }
}
module.exports = CountingReporter;
