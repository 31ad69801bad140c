// The workflow runner of the GitOps suite (test/support/workflows.ts) on small workflows of bash steps:
// what it refuses (an action or a key it does not know, a secret nobody provided, `cache: npm` without
// a lockfile, as actions/setup-node does), and the GitHub semantics the gitops workflows rely on
// (if: with failure()/always() and step outcomes, continue-on-error, working-directory, env, the step
// summary, `gh pr comment`).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { useTempDir } from "./support/fixtures";
import { runWorkflow } from "./support/workflows";

describe("the workflow runner of the GitOps tests", function () {
  this.timeout(60_000);
  const dir = useTempDir("workflow-runner-");
  let count = 0;
  /** A `${{ expression }}` as the workflow writes it. */
  const expr = (e: string) => `\${{ ${e} }}`;

  /** Runs a one-job workflow (its steps as YAML text) on a push, in a repository with `files`. */
  async function runSteps(steps: string, files: Record<string, string> = {}, secrets = {}) {
    const root = path.join(dir.path, String(++count));
    const repository = path.join(root, "repo");
    const workspace = path.join(root, "workspace");
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(repository, file)), { recursive: true });
      fs.writeFileSync(path.join(repository, file), text);
    }
    fs.mkdirSync(repository, { recursive: true });
    fs.mkdirSync(workspace, { recursive: true });
    const workflow = path.join(root, "w.yml");
    fs.writeFileSync(workflow, `on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`);
    return runWorkflow({
      workflow,
      event: { name: "push" },
      repository,
      workspace,
      secrets,
      vars: { COLOUR: "blue" },
      env: process.env,
    });
  }

  it("fails loudly on an action it does not know, and on a step key it does not know", async () => {
    await assert.rejects(
      runSteps("      - uses: some/action@v1\n"),
      /does not know the action some\/action@v1/,
    );
    await assert.rejects(
      runSteps("      - run: true\n        timeout-minutes: 3\n"),
      /does not know timeout-minutes/,
    );
  });

  it("gives the OIDC token request variables only to a job with id-token: write, as GitHub does", async () => {
    const run = async (permissions: string, oidc?: { requestUrl: string; requestToken: string }) => {
      const root = path.join(dir.path, String(++count));
      fs.mkdirSync(path.join(root, "workspace"), { recursive: true });
      const workflow = path.join(root, "w.yml");
      fs.writeFileSync(
        workflow,
        `on: push\n${permissions}jobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n` +
          // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's expansions, not JavaScript's
          '      - run: echo "url=${ACTIONS_ID_TOKEN_REQUEST_URL:-none} token=${ACTIONS_ID_TOKEN_REQUEST_TOKEN:-none}"\n',
      );
      const job = await runWorkflow({
        workflow,
        event: { name: "push" },
        repository: root,
        workspace: path.join(root, "workspace"),
        secrets: {},
        vars: {},
        env: process.env,
        oidc,
      });
      return job.steps[0].output.trim();
    };
    const oidc = { requestUrl: "https://127.0.0.1:1/token?api-version=2.0", requestToken: "request-token-1" };
    assert.equal(
      await run("permissions:\n  contents: read\n  id-token: write\n", oidc),
      `url=${oidc.requestUrl} token=request-token-1`,
    );
    assert.equal(await run("permissions:\n  contents: read\n", oidc), "url=none token=none");
    await assert.rejects(
      run("permissions:\n  id-token: write\n"),
      /give the runner an `oidc` token endpoint/,
    );
  });

  it("refuses a secret the test did not provide (GitHub would pass an empty string)", async () => {
    await assert.rejects(
      runSteps(`      - run: echo $X\n        env: { X: '${expr("secrets.NOPE")}' }\n`),
      /secrets\.NOPE is not provided/,
    );
  });

  it("runs actions pinned by commit SHA as their stand-ins, and finds their steps by action name", async () => {
    const job = await runSteps(
      "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n" +
        "        with: { persist-credentials: false }\n" +
        "      - uses: actions/setup-node@39370e3970a6d050c480ffad4ff0ed4d3fdee5af # v4.1.0\n" +
        "        with: { node-version: 20.x, cache: npm }\n",
      { "package-lock.json": "{}" },
    );
    assert.equal(job.conclusion, "success");
    assert.match(job.step("actions/checkout").output, /checked out/);
    assert.match(job.step("actions/setup-node").output, /npm cache keyed on package-lock.json/);
    await assert.rejects(
      runSteps("      - uses: some/action@11bd71901bbe5b1630ceea73d27597364c9af683\n"),
      /does not know the action some\/action@11bd7190/,
    );
  });

  it("actions/setup-node with cache: npm fails without a lockfile, passes with cache-dependency-path to one", async () => {
    const steps = (extra: string) =>
      `      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with: { node-version: 20.x, cache: npm${extra} }\n`;
    const none = await runSteps(steps(""), { "app/package.json": "{}" });
    assert.equal(none.conclusion, "failure");
    assert.match(none.step("actions/setup-node@v4").output, /Dependencies lock file is not found/);
    const wrong = await runSteps(steps(", cache-dependency-path: app/package-lock.json"), {
      "app/package.json": "{}",
    });
    assert.equal(wrong.conclusion, "failure");
    const right = await runSteps(steps(", cache-dependency-path: app/package-lock.json"), {
      "app/package-lock.json": "{}",
    });
    assert.equal(right.conclusion, "success");
    const atRoot = await runSteps(steps(""), { "package-lock.json": "{}" });
    assert.equal(atRoot.conclusion, "success");
  });

  it("runs bash steps with working-directory and env, and evaluates if:, outcomes and continue-on-error", async () => {
    const job = await runSteps(
      [
        "      - uses: actions/checkout@v4",
        "      - id: here",
        "        working-directory: sub",
        '        run: cat file.txt && echo "colour $COLOUR" >> "$GITHUB_STEP_SUMMARY"',
        `        env: { COLOUR: '${expr("vars.COLOUR")}' }`,
        "      - id: soft",
        "        continue-on-error: true",
        "        run: exit 3",
        "      - id: hard",
        "        run: exit 1",
        "      - id: skipped",
        "        run: echo never",
        "      - id: after",
        "        if: failure() && (steps.hard.outcome == 'failure' || steps.nope.outcome == 'failure')",
        "        run: echo after-failure; echo body > c.md; gh pr comment 9 --body-file c.md",
        "      - id: always",
        `        if: ${expr("always()")}`,
        "        run: echo always",
        "      - id: not-on-failure",
        "        if: success()",
        "        run: echo no",
        "",
      ].join("\n"),
      { "sub/file.txt": "in sub\n" },
    );
    assert.equal(job.conclusion, "failure");
    assert.match(job.step("here").output, /in sub/);
    assert.equal(job.summary, "colour blue\n");
    assert.deepEqual(
      ["soft", "hard", "skipped", "after", "always", "not-on-failure"].map((id) => [
        id,
        job.step(id).outcome,
        job.step(id).conclusion,
      ]),
      [
        ["soft", "failure", "success"],
        ["hard", "failure", "failure"],
        ["skipped", "skipped", "skipped"],
        ["after", "success", "success"],
        ["always", "success", "success"],
        ["not-on-failure", "skipped", "skipped"],
      ],
    );
    assert.deepEqual(job.comments, ["gh pr comment 9\nbody\n"]);
  });
});
