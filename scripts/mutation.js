#!/usr/bin/env node
// `npm run mutation [group...]`: Stryker over the provider's core, group by group (each group's mutants
// against its unit tests: test/mutation/groups.json; Stryker's mocha runner, in process, with per-test
// coverage, so each mutant runs only the tests that reach it), in incremental mode with the incremental
// files committed (test/mutation/incremental/), so a run re-tests only the mutants whose code changed
// or whose covering tests changed (Stryker compares the test files and test names itself). Then the
// score of every mutated module (killed + timed out, over all mutants), the threshold enforced (exit 1
// below it), and test/mutation/report.md written with every surviving mutant: each must be explained in test/mutation/equivalent.json
// (why no test can tell it from the original) or killed by a new test.
// Options: MUTATION_CONCURRENCY (default 1: CPU is shared), MUTATION_FORCE=1 (re-test all mutants).
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const DIR = path.join(ROOT, "test", "mutation");
const config = JSON.parse(
  fs.readFileSync(process.env.MUTATION_GROUPS ?? path.join(DIR, "groups.json"), "utf8"),
);
const equivalent = JSON.parse(fs.readFileSync(path.join(DIR, "equivalent.json"), "utf8"));
// Survivors that change behaviour, but that no test on this machine can produce (only loopback
// traffic is allowed): listed apart from the equivalents, each with what would make it reachable.
const unreachable = JSON.parse(fs.readFileSync(path.join(DIR, "unreachable.json"), "utf8"));
const wanted = process.argv.slice(2);
// In CI only the groups held to the threshold run: a measured-only group is a figure nobody enforces.
const ci = Boolean(process.env.CI) && process.env.CI !== "false";
const groups = config.groups.filter((g) =>
  wanted.length > 0 ? wanted.includes(g.name) : !ci || g.enforce !== false,
);
if (groups.length === 0) throw new Error(`no such group: ${wanted.join(", ")}`);

const started = Date.now();
for (const group of groups) {
  const force = process.env.MUTATION_FORCE === "1";
  const args = ["stryker", "run", ...(force ? ["--force"] : [])];
  process.stdout.write(
    `mutation: group ${group.name} (${group.mutate.join(", ")})${force ? ": all mutants" : ""}\n`,
  );
  const run = spawnSync("npx", args, {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      MUTATION_GROUP: group.name,
      // Stryker and its test-runner processes: the mocha runner finds mocha 12's .cjs helpers.
      NODE_OPTIONS:
        `${process.env.NODE_OPTIONS ?? ""} --require ${path.join(__dirname, "mocha12-cjs.cjs")}`.trim(),
    },
  });
  if (run.status !== 0) {
    process.stderr.write(`mutation: stryker failed for group ${group.name} (exit ${run.status})\n`);
    process.exit(1);
  }
}

/** Key of a mutant in equivalent.json: file, line:column, mutator, replacement. */
const keyOf = (file, m) =>
  `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${m.replacement ?? ""}`.trim();

const rows = [];
const survivors = [];
for (const group of config.groups) {
  // This run's report, or for a group not run now its committed incremental results (the same
  // format): report.md keeps every group's rows when only some groups ran.
  const reportFile = [
    path.join(ROOT, "reports", "mutation", `${group.name}.json`),
    path.join(DIR, "incremental", `${group.name}.json`),
  ].find((file) => fs.existsSync(file));
  if (!reportFile) continue;
  const report = JSON.parse(fs.readFileSync(reportFile, "utf8"));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    // A group that leaves static mutants out (`ignoreStatic`): Stryker marks them Ignored when a test
    // file's loading covered them, but NoCoverage (static) when its coverage never saw the module load
    // (provider/functions/index.ts's registry array): left out the same way.
    const leftOut = (m) =>
      m.status === "Ignored" || (group.ignoreStatic && m.static && m.status === "NoCoverage");
    const count = (status) => mutants.filter((m) => m.status === status && !leftOut(m)).length;
    const killed = count("Killed") + count("Timeout");
    const survived = mutants.filter(
      (m) => (m.status === "Survived" || m.status === "NoCoverage") && !leftOut(m),
    );
    const explained = survived.filter((m) => equivalent[keyOf(file, m)]);
    const notReachable = survived.filter((m) => unreachable[keyOf(file, m)]);
    const valid = killed + survived.length;
    rows.push({
      file,
      group: group.name,
      // Measured but not (yet) held to the threshold: a group with `"enforce": false`, or a module of
      // a group listed in its `"unenforced"` (groups.json).
      enforced: group.enforce !== false && !(group.unenforced ?? []).includes(file),
      total: mutants.length,
      // Static mutants a group leaves out (groups.json `ignoreStatic`): in no score.
      ignored: mutants.filter(leftOut).length,
      killed,
      survived: survived.length,
      explained: explained.length,
      notReachable: notReachable.length,
      score: valid ? (100 * killed) / valid : 100,
    });
    for (const m of survived)
      survivors.push({
        file,
        key: keyOf(file, m),
        original: m,
        reason: equivalent[keyOf(file, m)],
        unreachable: unreachable[keyOf(file, m)],
      });
  }
}

const equivalents = survivors.filter((s) => s.reason);
const notReachable = survivors.filter((s) => !s.reason && s.unreachable);
const unexplained = survivors.filter((s) => !s.reason && !s.unreachable);
const lines = [
  "# Mutation testing of the provider's core",
  "",
  "Written by `npm run mutation` (scripts/mutation.js; Stryker 9.5.1, mocha runner with per-test",
  "coverage, one group of modules at a time against the tests in test/mutation/groups.json). Score = mutants killed",
  "(a test failed, or timed out) over all mutants; the threshold is enforced in CI.",
  "",
  `Threshold: ${config.threshold}% per module.`,
  "",
  "| module | group | mutants | static, left out | killed | survived | of which equivalent | of which not reachable | score | enforced |",
  "|---|---|---|---|---|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.file} | ${r.group} | ${r.total} | ${r.ignored} | ${r.killed} | ${r.survived} | ${r.explained} | ${r.notReachable} | ${r.score.toFixed(1)}% | ${r.enforced ? "yes" : "no"} |`,
  ),
  "",
  "## Surviving mutants",
  "",
  equivalents.length + unexplained.length === 0
    ? "None."
    : "Each with the reason no test can tell it from the original (test/mutation/equivalent.json).",
  "",
  ...equivalents.map((s) => `- \`${s.key}\`: ${s.reason}`),
  ...unexplained.map((s) => `- \`${s.key}\`: **not explained: kill it with a test or explain it**`),
  "",
  "## Not reachable from tests",
  "",
  "Not equivalent: each changes behaviour, but no test here can produce the condition (only loopback",
  "traffic is allowed). Each with why, and what would make it reachable (test/mutation/unreachable.json).",
  "",
  ...(notReachable.length ? notReachable.map((s) => `- \`${s.key}\`: ${s.unreachable}`) : ["None."]),
  "",
];
fs.writeFileSync(path.join(DIR, "report.md"), lines.join("\n"));

const below = rows.filter((r) => r.enforced && r.score < config.threshold);
for (const r of rows)
  process.stdout.write(`mutation: ${r.file} ${r.score.toFixed(1)}% (${r.killed}/${r.killed + r.survived})\n`);
process.stdout.write(`mutation: ${Math.round((Date.now() - started) / 1000)} s\n`);
if (below.length) {
  process.stderr.write(
    `mutation: below ${config.threshold}%: ${below.map((r) => `${r.file} ${r.score.toFixed(1)}%`).join(", ")}\n`,
  );
  process.exit(1);
}
