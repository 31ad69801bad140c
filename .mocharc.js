// Mocha runs the TypeScript tests through ts-node (type checking is `npm run typecheck`'s job).
process.env.TS_NODE_TRANSPILE_ONLY = "true";
module.exports = {
  require: ["ts-node/register"],
  extension: ["ts"],
  reporter: "test/reporter.js",
  timeout: 60000,
  exit: true,
};
