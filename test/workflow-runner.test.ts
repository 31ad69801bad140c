// The workflow runner of the GitOps suite (test/support/workflows.ts) on small workflows of bash steps:
// what it refuses (an action or a key it does not know, a secret nobody provided, `cache: npm` without
// a lockfile, as actions/setup-node does), and the GitHub semantics the gitops workflows rely on
// (if: with failure()/always() and step outcomes, continue-on-error, working-directory, env, the step
// summary, `gh pr comment`, step outputs, github-script against the recording issues stand-in).
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

  it("reads step outputs (GITHUB_OUTPUT) in if: and env, and runs github-script against the issues stand-in", async () => {
    const script = [
      "            const fs = require('fs');",
      "            const text = fs.readFileSync(process.env.GITHUB_WORKSPACE + '/r.md', 'utf8');",
      "            const { data: open } = await github.rest.issues.listForRepo({ ...context.repo, state: 'open' });",
      "            const found = open.find((i) => i.title === process.env.TITLE);",
      "            if (found) await github.rest.issues.createComment({ ...context.repo, issue_number: found.number, body: text });",
      "            else await github.rest.issues.create({ ...context.repo, title: process.env.TITLE, body: text });",
    ].join("\n");
    const steps = [
      "      - id: check",
      "        run: |",
      '          echo "exit-code=2" >> "$GITHUB_OUTPUT"',
      "          echo report > r.md",
      "      - if: steps.check.outputs.exit-code == '1'",
      "        run: echo never",
      "      - if: steps.check.outputs.exit-code == '2'",
      "        uses: actions/github-script@v7",
      `        env: { TITLE: 'drift ${expr("steps.check.outputs.exit-code")}' }`,
      "        with:",
      "          script: |",
      script,
      "",
    ].join("\n");
    const root = path.join(dir.path, String(++count));
    const workspace = path.join(root, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    const workflow = path.join(root, "w.yml");
    fs.writeFileSync(workflow, `on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`);
    const options = {
      workflow,
      event: { name: "push" },
      repository: root,
      repositoryName: "acme/infra",
      workspace,
      secrets: {},
      vars: {},
      env: process.env,
    };
    const job = await runWorkflow(options);
    assert.equal(job.conclusion, "success", job.steps.map((s) => s.output).join("\n"));
    assert.deepEqual(job.step("check").outputs, { "exit-code": "2" });
    assert.deepEqual(
      job.steps.map((s) => s.outcome),
      ["success", "skipped", "success"],
    );
    assert.deepEqual(job.github, [
      { method: "issues.listForRepo", params: { owner: "acme", repo: "infra", state: "open" } },
      {
        method: "issues.create",
        params: { owner: "acme", repo: "infra", title: "drift 2", body: "report\n" },
      },
    ]);
    const again = await runWorkflow({ ...options, openIssues: [{ number: 7, title: "drift 2" }] });
    assert.deepEqual(again.github[1], {
      method: "issues.createComment",
      params: { owner: "acme", repo: "infra", issue_number: 7, body: "report\n" },
    });
  });
});
