// Loaded (mocha --require) into each job of scripts/test-lanes.js. A job runs in its own process
// group (so an interrupted run can stop the job's servers and CLIs with it), which also means a
// SIGKILLed runner leaves it running: nothing signals a detached group. So the job watches its
// runner and, once the runner is gone, ends its whole group.
const runner = Number(process.env.FRONTDOOR_TEST_RUNNER_PID);
delete process.env.FRONTDOOR_TEST_RUNNER_PID; // for this job only, not for a mocha a test starts
const EVERY_MS = 500;

// The runner is this job's parent; once it dies the job is re-parented (its pid may be reused, so the
// parent's pid says it, not whether a process of that pid runs).
const runnerGone = () => process.ppid !== runner;

if (Number.isInteger(runner) && runner > 0) {
  const timer = setInterval(() => {
    if (!runnerGone()) return;
    try {
      process.kill(-process.pid, "SIGKILL"); // the group: this mocha and everything it started
    } catch {
      process.exit(137);
    }
  }, EVERY_MS);
  timer.unref();
}
