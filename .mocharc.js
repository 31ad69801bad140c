// Mocha runs the TypeScript tests through ts-node (type checking is `npm run typecheck`'s job).
process.env.TS_NODE_TRANSPILE_ONLY = "true";
// In CI a committed `.only` or a pending test (`it.skip`, `xit`, a skip at run time) fails the run:
// conditional skips go through test/support/skip.ts, which forbids them there too.
const ci = Boolean(process.env.CI) && process.env.CI !== "false";
module.exports = {
  // fixtures.ts: the root hooks that remove temporary directories when the run ends.
  require: ["ts-node/register", "./test/support/fixtures.ts"],
  extension: ["ts"],
  reporter: "test/reporter.js",
  timeout: 60000,
  exit: true,
  forbidOnly: ci,
  forbidPending: ci,
};
