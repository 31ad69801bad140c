// The GitOps flows of examples/gitops, through the engine harness against the mock, the way the
// workflows run them: preview on a pull request, up on main, and the scheduled drift check
// (`preview --refresh --expect-no-changes`, and `refresh --expect-no-changes`), which must fail on drift.
// Credentials come from the environment, as the pipeline's secret store provides them.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type HarnessOptions, runHarness } from "../harness";
import { tempDir, useMock } from "./support/fixtures";

const example = path.resolve(__dirname, "..", "examples", "gitops");
const CLIENT_SECRET = "gitops-oidc-client-secret-7";

describe("GitOps flows (examples/gitops) through the harness", function () {
  this.timeout(120_000);
  const mock = useMock();
  let workdir: string;

  // The repository checkout the pipeline works on: a copy of the example that a pull request edits.
  before(() => {
    workdir = tempDir(".work-gitops-", path.join(__dirname, "programs"));
    for (const file of ["Pulumi.yaml", "package.json", "index.ts"])
      fs.copyFileSync(path.join(example, file), path.join(workdir, file));
  });

  const opts = (extra: Partial<HarnessOptions> = {}): HarnessOptions => ({
    programDir: workdir,
    stateFile: path.join(workdir, "prod.json"),
    stack: "prod",
    // Pulumi.prod.yaml's settings, pointed at the mock.
    config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": mock.credentials.frontdoorId },
    env: { FRONTDOOR_TOKEN: mock.credentials.frontdoorToken, FRONTDOOR_OIDC_CLIENT_SECRET: CLIENT_SECRET },
    ...extra,
  });
  const providers = () => mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers") as any[];

  it("pull request: preview shows the plan and changes nothing", async () => {
    const preview = await runHarness("preview", opts());
    assert.equal(preview.exitCode, 0, preview.stderr);
    assert.deepEqual(preview.report.summary, { create: 1 });
    assert.equal(providers().length, 0);
    assert.equal(mock.log.filter((e) => e.method !== "GET").length, 0);
  });

  it("main: up applies it; the nightly drift check is then clean", async () => {
    const up = await runHarness("up", opts());
    assert.equal(up.exitCode, 0, up.stderr);
    assert.equal(providers().length, 1);
    const nightly = await runHarness("preview", opts({ refresh: true, expectNoChanges: true }));
    assert.equal(nightly.exitCode, 0, nightly.stdout + nightly.stderr);
    const refresh = await runHarness("refresh", opts({ expectNoChanges: true }));
    assert.equal(refresh.exitCode, 0, refresh.stdout + refresh.stderr);
  });

  it("pull request changing the program: preview shows the update, up applies it", async () => {
    const file = path.join(workdir, "index.ts");
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, "utf8")
        .replace('scopes: ["openid", "email", "profile"]', 'scopes: ["openid", "email"]'),
    );
    const preview = await runHarness("preview", opts({ expectNoChanges: true }));
    assert.equal(preview.exitCode, 1, "a change is pending");
    assert.deepEqual(preview.report.summary, { update: 1 });
    assert.deepEqual(providers()[0].data.scopes, ["openid", "email", "profile"], "preview changed nothing");
    const up = await runHarness("up", opts());
    assert.equal(up.exitCode, 0, up.stderr);
    assert.deepEqual(providers()[0].data.scopes, ["openid", "email"]);
  });

  it("nightly: a change made outside Pulumi fails the drift check with the report, and changes no state", async () => {
    const [sso] = providers();
    mock.frontdoor.patch(mock.credentials.frontdoorId, "auth-providers", sso.id, { enabled: false });
    const before = fs.readFileSync(path.join(workdir, "prod.json"), "utf8");
    const nightly = await runHarness("preview", opts({ refresh: true, expectNoChanges: true }));
    assert.equal(nightly.exitCode, 1);
    assert.deepEqual(
      nightly.report.changes.map((c) => [c.name, c.properties.map((p) => [p.name, p.old, p.new])]),
      [["corp-sso", [["enabled", true, false]]]],
    );
    assert.deepEqual(nightly.report.summary, { update: 1 }, "the plan is to put it back");
    assert.equal(
      fs.readFileSync(path.join(workdir, "prod.json"), "utf8"),
      before,
      "preview --refresh writes no state",
    );
    for (const text of [nightly.stdout, nightly.stderr, before]) assert.ok(!text.includes(CLIENT_SECRET));

    const refresh = await runHarness("refresh", opts({ expectNoChanges: true }));
    assert.equal(refresh.exitCode, 1);
    // The next deployment on main restores the declared configuration.
    const up = await runHarness("up", opts());
    assert.equal(up.exitCode, 0, up.stderr);
    assert.equal(providers()[0].enabled, true);
    assert.equal((await runHarness("destroy", opts())).exitCode, 0);
    assert.equal(providers().length, 0);
  });
});
