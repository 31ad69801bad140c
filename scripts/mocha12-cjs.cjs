// Loaded (node --require) into Stryker's processes by scripts/mutation.js. @stryker-mutator/mocha-runner
// 9.5.1 requires mocha's CLI helpers by extensionless path (mocha/lib/cli/run-helpers, options,
// collect-files); mocha 12 renamed those files to .cjs. Node's require tries every registered extension
// in turn, so registering .cjs (CommonJS, as the .js loader) lets those paths resolve. Nothing else in
// the run requires an extensionless path that exists both with .cjs and another extension.
require.extensions[".cjs"] ??= require.extensions[".js"];
