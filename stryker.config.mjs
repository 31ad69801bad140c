// Stryker (mutation testing) over the provider's core, one group of modules at a time: each group runs
// only the unit tests that cover it. Driven by scripts/mutation.js, which sets MUTATION_GROUP; the
// groups, their tests and the threshold are in test/mutation/groups.json.
// In-process mocha runner (@stryker-mutator/mocha-runner 9.5.1 declares mocha < 12; package.json's
// `overrides` lets it use this project's mocha 12, which it drives through the same API): the test
// files load once (ts-node registered once by .mocharc.js), and with perTest coverage each mutant runs
// only the tests that reached it.
import { readFileSync } from "node:fs";

const groupsFile = process.env.MUTATION_GROUPS ?? new URL("./test/mutation/groups.json", import.meta.url);
const groups = JSON.parse(readFileSync(groupsFile, "utf8"));
const name = process.env.MUTATION_GROUP ?? groups.groups[0].name;
const group = groups.groups.find((g) => g.name === name);
if (!group) throw new Error(`unknown MUTATION_GROUP ${name}`);

// Type checking is `npm run typecheck`'s job; the test-runner processes inherit this.
process.env.TS_NODE_TRANSPILE_ONLY = "true";

export default {
  testRunner: "mocha",
  // Not .mocharc.js: its --require of test/support/fixtures.ts would load provider modules before
  // Stryker activates a static mutant (one evaluated when its module loads: a module-level constant),
  // so those would run unmutated. ts-node only (transpile-only, set above); the test files load the rest.
  mochaOptions: { "no-config": true, require: ["ts-node/register"], extension: ["ts"], spec: group.tests },
  mutate: group.mutate,
  coverageAnalysis: "perTest",
  // A static mutant (module-level code: a zod schema's text, a constant) reloads every test file for
  // each run: about a minute each on this machine. A group may leave them out (groups.json
  // `ignoreStatic`); test/mutation/README.md says which and why.
  ignoreStatic: group.ignoreStatic === true,
  // What the tests need, nothing of the peers or the benchmarks.
  ignorePatterns: ["bench", ".peers", "bin", "reports", ".stryker-tmp", "examples/**/node_modules"],
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  incremental: true,
  incrementalFile: `test/mutation/incremental/${name}.json`,
  reporters: ["json", "clear-text", "progress-append-only"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  thresholds: { high: 90, low: groups.threshold, break: null },
  timeoutMS: 10000,
  timeoutFactor: 3,
  // One directory per group: groups may run side by side.
  tempDirName: `.stryker-tmp/${name}`,
  cleanTempDir: "always",
  disableTypeChecks: "{provider,test,mock,harness,sdk}/**/*.ts",
};
