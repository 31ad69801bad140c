// actionlint (built from the Go module proxy by `npm run peers`) on every GitHub Actions workflow in the
// repository: the repository's own and every example's, found by walking the tree, so a workflow
// another change adds (a release workflow, a new example's) is linted without touching this test.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { peerPath, REPO_ROOT, requirePeers } from "./peers/index";
import { useTempDir } from "./support/fixtures";
import { workflowFiles } from "./support/workflows";

/** actionlint on the files: its exit code and what it printed (file:line:col: message [rule]). */
function actionlint(files: string[]): Promise<{ code: number; output: string }> {
  return promisify(execFile)(peerPath("actionlint") as string, ["-no-color", ...files], {
    cwd: REPO_ROOT,
  }).then(
    () => ({ code: 0, output: "" }),
    (error) => ({ code: error.code as number, output: `${error.stdout}${error.stderr}` }),
  );
}

describe("actionlint on every workflow in the repository", function () {
  this.timeout(120_000);
  const scratch = useTempDir("actionlint-");

  it("finds the workflows of examples/gitops among them", () => {
    const files = workflowFiles().map((f) => path.relative(REPO_ROOT, f));
    for (const name of ["preview.yml", "up.yml", "drift.yml"])
      assert.ok(files.includes(`examples/gitops/.github/workflows/${name}`), files.join("\n"));
  });

  it("passes on each of them", async function () {
    requirePeers(this, "actionlint");
    const result = await actionlint(workflowFiles());
    assert.equal(result.code, 0, `actionlint found problems:\n${result.output}`);
  });

  it("fails on a workflow with a mistake (it really lints)", async function () {
    requirePeers(this, "actionlint");
    const file = path.join(scratch.path, "broken.yml");
    // An unknown step context property: the kind of slip a hand-edited workflow makes.
    fs.writeFileSync(
      file,
      "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n" +
        "      - id: x\n        run: echo hi\n      - if: steps.x.outcom == 'failure'\n        run: echo no\n",
    );
    const result = await actionlint([file]);
    assert.equal(result.code, 1, result.output);
    assert.match(result.output, /outcom/);
  });
});
