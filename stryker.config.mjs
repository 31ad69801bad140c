// Stryker (mutation testing) over the provider's core, one group of modules at a time: each group runs
// only the unit tests that cover it (Stryker's command runner: @stryker-mutator/mocha-runner 9.5.1
// declares mocha < 12, this project uses mocha 12). Driven by scripts/mutation.js, which sets
// MUTATION_GROUP; the groups, their tests and the threshold are in test/mutation/groups.json.
import { readFileSync } from "node:fs";

const groupsFile = process.env.MUTATION_GROUPS ?? new URL("./test/mutation/groups.json", import.meta.url);
const groups = JSON.parse(readFileSync(groupsFile, "utf8"));
const name = process.env.MUTATION_GROUP ?? groups.groups[0].name;
const group = groups.groups.find((g) => g.name === name);
if (!group) throw new Error(`unknown MUTATION_GROUP ${name}`);

export default {
  testRunner: "command",
  commandRunner: {
    // --bail: the first failing test kills the mutant; no need to run the rest.
    command: `node node_modules/mocha/bin/mocha.js --bail --reporter dot ${group.tests.join(" ")}`,
  },
  mutate: group.mutate,
  coverageAnalysis: "off",
  // What the tests need, nothing of the peers or the benchmarks.
  ignorePatterns: ["bench", ".peers", "bin", "reports", ".stryker-tmp", "examples/**/node_modules"],
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  incremental: true,
  incrementalFile: `test/mutation/incremental/${name}.json`,
  reporters: ["json", "clear-text", "progress-append-only"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  thresholds: { high: 90, low: groups.threshold, break: null },
  timeoutMS: 60000,
  timeoutFactor: 3,
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  disableTypeChecks: "{provider,test,mock,harness,sdk}/**/*.ts",
};
