// Mocha runs the TypeScript tests through ts-node (type checking is `npm run typecheck`'s job).
process.env.TS_NODE_TRANSPILE_ONLY = "true";
module.exports = {
  // fixtures.ts: the root hooks that remove temporary directories when the run ends.
  require: ["ts-node/register", "./test/support/fixtures.ts"],
  extension: ["ts"],
  reporter: "test/reporter.js",
  timeout: 60000,
  exit: true,
};
