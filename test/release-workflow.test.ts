// The workflows a security review reads: the release workflow (.github/workflows/release.yml) and the
// GitOps example's (examples/gitops/.github/workflows, which users copy), parsed with js-yaml:
// - every action pinned by a full commit SHA, its tag in a comment on the same line;
// - every checkout with `persist-credentials: false` (no token left in .git/config for later steps);
// - every `npm ci` with `--ignore-scripts` (no dependency needs its install script);
// - write permissions only where they are needed: in the release, `contents: write` only in the job
//   that makes the GitHub release, `id-token: write` only in the one that publishes to npm, neither at
//   the workflow's level nor in a job that runs the repository's code (npm ci / npm run); in the
//   examples, each workflow's writes are the ones its job needs (named below, with why).
// The checks are functions, each also run on a workflow written to break it (so they really check).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./peers/index";

const yaml: { load(text: string): any } = require("js-yaml");

const RELEASE = path.join(REPO_ROOT, ".github", "workflows", "release.yml");
const EXAMPLES = path.join(REPO_ROOT, "examples", "gitops", ".github", "workflows");
const EXAMPLE_FILES = fs
  .readdirSync(EXAMPLES)
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => path.join(EXAMPLES, f));

type Workflow = { text: string; parsed: any };
const load = (text: string): Workflow => ({ text, parsed: yaml.load(text) });
const read = (file: string) => load(fs.readFileSync(file, "utf8"));

const jobs = (w: Workflow) => Object.entries<any>(w.parsed.jobs ?? {});
const steps = (w: Workflow) =>
  jobs(w).flatMap(([name, job]) => (job.steps ?? []).map((s: any) => ({ job: name, step: s })));

/** `uses:` lines not pinned as `owner/repo[/path]@<40 hex> # <tag>`. */
function unpinned(w: Workflow): string[] {
  return w.text
    .split("\n")
    .filter((line) => /^\s*(-\s+)?uses:/.test(line))
    .filter((line) => !/uses:\s+[\w.-]+\/[\w./-]+@[0-9a-f]{40}\s+#\s*v\d[\w.-]*\s*$/.test(line))
    .map((line) => line.trim());
}

/** Checkout steps that keep the token (persist-credentials not false). */
function persistingCheckouts(w: Workflow): string[] {
  return steps(w)
    .filter(({ step }) => String(step.uses ?? "").startsWith("actions/checkout@"))
    .filter(({ step }) => step.with?.["persist-credentials"] !== false)
    .map(({ job }) => job);
}

/** `npm ci` commands without --ignore-scripts. */
function scriptedInstalls(w: Workflow): string[] {
  return steps(w)
    .flatMap(({ step }) => String(step.run ?? "").split("\n"))
    .filter((line) => /\bnpm ci\b/.test(line) && !/--ignore-scripts/.test(line))
    .map((line) => line.trim());
}

/** The write scopes of one `permissions:` value (a job without one inherits the workflow's). */
function writeScopes(permissions: unknown, where: "workflow" | "job"): string[] {
  if (permissions === "write-all") return ["write-all"];
  if (permissions === undefined) return where === "workflow" ? ["default (may be write)"] : [];
  return Object.entries(permissions as Record<string, string>)
    .filter(([, level]) => level === "write")
    .map(([scope]) => scope);
}

/** The write permissions of the workflow's level and of each job: "<where>: <scope>". */
function writes(w: Workflow): string[] {
  return [
    ...writeScopes(w.parsed.permissions, "workflow").map((scope) => `workflow: ${scope}`),
    ...jobs(w).flatMap(([name, job]) =>
      writeScopes(job.permissions, "job").map((scope) => `${name}: ${scope}`),
    ),
  ];
}

/** The release's rule: which job may hold which write, by what it runs; none at the workflow's level. */
function releaseWriteProblems(w: Workflow): string[] {
  const problems: string[] = [];
  for (const [name, job] of jobs(w)) {
    const runs = (job.steps ?? []).map((s: any) => String(s.run ?? "")).join("\n");
    const runsCode = /\bnpm (ci|run|install|test)\b|node scripts\//.test(runs);
    for (const scope of writeScopes(job.permissions, "job")) {
      const needed =
        (scope === "contents" && /\bgh release create\b/.test(runs)) ||
        (scope === "id-token" && /\bnpm publish\b[^\n]*--provenance/.test(runs));
      if (!needed) problems.push(`${name}: ${scope}: write is not needed there`);
      if (runsCode) problems.push(`${name}: ${scope}: write in a job that runs the repository's code`);
    }
  }
  return [...problems, ...writeScopes(w.parsed.permissions, "workflow").map((scope) => `workflow: ${scope}`)];
}

/** What each example workflow may write, and why (docs/guides/gitops-pipeline.md). */
const EXAMPLE_WRITES: Record<string, string[]> = {
  // id-token: the job's OIDC token, the provider's keyless login to the controller.
  "up.yml": ["id-token"],
  // pull-requests: the preview and access-diff comments.
  "preview.yml": ["id-token", "pull-requests"],
  // issues: the issue a failed nightly check opens.
  "drift.yml": ["id-token", "issues"],
};

describe("workflows a security review accepts", () => {
  it("the release: every action pinned by commit SHA, checkouts without a kept token, installs without scripts", () => {
    const release = read(RELEASE);
    assert.deepEqual(unpinned(release), []);
    assert.deepEqual(persistingCheckouts(release), []);
    assert.deepEqual(scriptedInstalls(release), []);
    assert.ok(steps(release).some(({ step }) => /npm ci --ignore-scripts/.test(String(step.run ?? ""))));
  });

  it("the release: writes only in the publishing jobs, each the one it needs; the build only reads", () => {
    const release = read(RELEASE);
    assert.deepEqual(releaseWriteProblems(release), []);
    assert.deepEqual(release.parsed.jobs.build.permissions, { contents: "read" });
    assert.deepEqual(writes(release).sort(), ["github-release: contents", "npm: id-token"]);
  });

  it("the release: the publishing jobs use only the build's checked artifact", () => {
    const release = read(RELEASE);
    for (const name of ["github-release", "npm"]) {
      const job = release.parsed.jobs[name];
      assert.deepEqual(job.needs, "build", name);
      const uses = (job.steps as any[]).map((s) => String(s.uses ?? "").replace(/@.*/, ""));
      assert.ok(uses.includes("actions/download-artifact"), name);
      const runs = (job.steps as any[]).map((s) => String(s.run ?? "")).join("\n");
      assert.match(runs, /sha256sum -c SHA256SUMS/, name);
      assert.doesNotMatch(runs, /\bnpm (ci|run|install)\b/, name);
    }
    const upload = (release.parsed.jobs.build.steps as any[]).find((s) =>
      String(s.uses).startsWith("actions/upload-artifact@"),
    );
    assert.ok(upload, "the build uploads the artifact");
  });

  for (const file of EXAMPLE_FILES) {
    const name = path.basename(file);
    it(`examples/gitops ${name}: pinned by SHA, no kept token, installs without scripts, only the writes it needs`, () => {
      const w = read(file);
      assert.deepEqual(unpinned(w), []);
      assert.deepEqual(persistingCheckouts(w), []);
      assert.deepEqual(scriptedInstalls(w), []);
      assert.ok(EXAMPLE_WRITES[name], `${name}: name its writes in EXAMPLE_WRITES`);
      const granted = writes(w).map((x) => x.replace(/^[^:]+: /, ""));
      assert.deepEqual(granted.sort(), [...EXAMPLE_WRITES[name]].sort());
    });
  }

  it("each check fails on a workflow written to break it", () => {
    const bad = load(
      [
        "on: push",
        "permissions:",
        "  contents: write",
        "jobs:",
        "  build:",
        "    runs-on: ubuntu-latest",
        "    permissions:",
        "      contents: write",
        "      id-token: write",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-node@39370e3970a6d050c480ffad4ff0ed4d3fdee5af",
        "      - uses: actions/setup-go@d35c59abb061a4a6fb18e82ac0862c26744d6ab5 # v5.5.0",
        "      - run: npm ci",
        "      - run: npm publish x.tgz --provenance && gh release create v1",
        "",
      ].join("\n"),
    );
    // A tag, and a SHA without its tag; the third is pinned.
    assert.deepEqual(unpinned(bad), [
      "- uses: actions/checkout@v4",
      "- uses: actions/setup-node@39370e3970a6d050c480ffad4ff0ed4d3fdee5af",
    ]);
    assert.deepEqual(persistingCheckouts(bad), ["build"]);
    assert.deepEqual(scriptedInstalls(bad), ["npm ci"]);
    assert.deepEqual(releaseWriteProblems(bad), [
      "build: contents: write in a job that runs the repository's code",
      "build: id-token: write in a job that runs the repository's code",
      "workflow: contents",
    ]);
    // No permissions at the workflow's level: GitHub's default, which may be write.
    assert.deepEqual(writes(load("on: push\njobs: {}\n")), ["workflow: default (may be write)"]);
  });
});
