// The three workflow files of examples/gitops, executed: test/support/workflows.ts runs their steps in a
// copy of a user's repository laid out as the example's README says (outside this repository, the
// packed package installed from a vendored tarball, package-lock.json committed, `pulumi stack init
// prod` done once), with the real Pulumi CLI on a file backend. Two setups run side by side: the mock
// for everything, and the mock for the Frontdoor kinds with the real OpenZiti controller behind the
// audit steps (ZITI_EDGE_URL and its CA as repository variables). The pull request's preview is
// posted as comments and changes nothing; `up` on main applies; the nightly run
// (pulumi-frontdoor-drift, docs/guides/drift-job.md) is clean (exit 0, no issue), then finds drift
// made behind Pulumi's back (exit 2, a drift issue with the report as its body): an auth provider
// disabled through the mock's API (the property named), an admin identity made on the controller (an
// unmanaged object); then the check itself fails (exit 1, a "drift check failed" issue, commented on
// when one is open): an expired Frontdoor token (the server's message), the API down (the mock stops
// listening; on the other setup the real controller is stopped).
// The Edge steps log in keyless, as on GitHub: the controller-side setup (examples/gitops/
// controller-setup) applied once with the admin's password, then each job with `id-token: write`
// gets a token from a GitHub-style token endpoint on loopback (test/support/jwtIssuer.ts), signed
// with a key whose JWKS the controller (and the mock) fetch; no password is among the repository's secrets.
import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliStack, cliStack } from "./peers/cli";
import { type RealController, startController } from "./peers/controller";
import { PEERS_BIN, requirePeers } from "./peers/index";
import { EXAMPLES } from "./support/examples";
import { type JwtIssuer, startJwtIssuer } from "./support/jwtIssuer";
import { npmInstall } from "./support/npmRetry";
import { policyHostBin } from "./support/policyPack";
import { packPackage } from "./support/userProject";
import { type JobResult, runWorkflow } from "./support/workflows";

const yaml: { load(text: string): any; dump(value: unknown): string } = require("js-yaml");
const EXAMPLE = path.join(EXAMPLES, "gitops");
const OIDC_SECRET = "gitops-workflow-oidc-secret-5150";
/** The user's repository as GitHub names it: the `repository` claim of its jobs' OIDC tokens. */
const REPOSITORY = "acme/infra";
const JWT_AUDIENCE = "openziti-acme-infra";

interface Setup {
  name: string;
  mock: MockServer;
  ctrl?: RealController;
  /** The user's repository (what actions/checkout checks out). */
  repository: string;
  /** The runner machine's environment. */
  env: NodeJS.ProcessEnv;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  /** The CLI on the user's program, with the same backend (for what the test checks). */
  stack: CliStack;
  /** The controller-setup program's stack (applied once by the admin). */
  setupStack: CliStack;
  runs: number;
  /** The controller was stopped (the last nightly case): its stack is not destroyed. */
  stopped?: boolean;
}

describe("GitOps workflows (examples/gitops) executed in a user's repository", function () {
  this.timeout(1_200_000);
  let scratch: string;
  let ctrl: RealController | undefined;
  let issuer: JwtIssuer;
  const setups: Setup[] = [];

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", "ziti");
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-gitops-workflows-"));
    issuer = await startJwtIssuer();
    // The controller fetches the signer's JWKS with Go's default client: its roots are SSL_CERT_FILE's.
    const roots = path.join(scratch, "jwks-roots.pem");
    fs.writeFileSync(roots, issuer.caPem);
    const [packed, controller] = await Promise.all([
      packPackage(scratch),
      startController({ env: { SSL_CERT_FILE: roots } }),
    ]);
    ctrl = controller;
    const targets = [
      { name: "mock", edge: undefined },
      { name: "controller", edge: controller },
    ];
    setups.push(...(await Promise.all(targets.map((t) => userRepository(t.name, packed.tarball, t.edge)))));
  });
  after(async () => {
    for (const setup of setups) {
      await setup.stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await setup.stack.dispose();
      if (!setup.stopped)
        await setup.setupStack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await setup.setupStack.dispose();
      await setup.mock.close();
    }
    await ctrl?.stop();
    await issuer?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** The repository as the README lays it out, and the one-time `pulumi stack init prod`. */
  async function userRepository(name: string, tarball: string, edge?: RealController): Promise<Setup> {
    const mock = await startMockServer({ edge: { trustedCaPems: [issuer.caPem] } });
    const root = path.join(scratch, name);
    const repository = path.join(root, "repo");
    const program = path.join(repository, "frontdoor");
    fs.mkdirSync(path.join(program, "vendor"), { recursive: true });
    fs.cpSync(path.join(EXAMPLE, ".github"), path.join(repository, ".github"), { recursive: true });
    for (const file of ["Pulumi.yaml", "Pulumi.prod.yaml", "index.ts", "package.json", "tsconfig.json"])
      fs.copyFileSync(path.join(EXAMPLE, file), path.join(program, file));
    // The user's own frontdoor in Pulumi.prod.yaml (here the mock's).
    const settings = path.join(program, "Pulumi.prod.yaml");
    const original = fs.readFileSync(settings, "utf8");
    const edited = original
      .replace(/^(\s*frontdoor:apiUrl:).*$/m, `$1 ${mock.url}`)
      .replace(/^(\s*frontdoor:frontdoorId:).*$/m, `$1 ${mock.credentials.frontdoorId}`);
    assert.notEqual(edited, original, "Pulumi.prod.yaml has no frontdoor:apiUrl / frontdoorId to set");
    fs.writeFileSync(settings, edited);
    fs.copyFileSync(tarball, path.join(program, "vendor", path.basename(tarball)));
    await npmInstall(["install", "--no-audit", "--no-fund", `./vendor/${path.basename(tarball)}`], {
      cwd: program,
    });
    assert.ok(fs.existsSync(path.join(program, "package-lock.json")), "npm install wrote no lockfile");

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // The policy pack's host first: the peers' Node.js host predates RunPlugin (policyPack.ts).
      PATH: [policyHostBin(root), PEERS_BIN, process.env.PATH].join(path.delimiter),
      PULUMI_HOME: path.join(root, "pulumi-home"),
      PULUMI_BACKEND_URL: `file://${path.join(root, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: crypto.randomBytes(16).toString("hex"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      NO_COLOR: "1",
      npm_config_prefer_offline: "true", // a runner with a warm npm cache
    };
    fs.mkdirSync(path.join(root, "backend"));
    const stack = await cliStack(program, { inPlace: true, stack: "prod", env });
    const edgeUrl = edge?.url ?? mock.url;
    const caBundle = [edge?.caPem, issuer.caPem].filter(Boolean).join("\n");
    const setupStack = await controllerSetup(repository, tarball, env, {
      "frontdoor:edgeUrl": edgeUrl,
      "frontdoor:caBundle": caBundle,
      "frontdoor:edgeUsername": edge?.username ?? mock.credentials.edgeUsername,
      "frontdoor:edgePassword": edge?.password ?? mock.credentials.edgePassword,
    });
    return {
      name,
      mock,
      ctrl: edge,
      repository,
      env,
      secrets: {
        PULUMI_ACCESS_TOKEN: "unused-with-a-file-backend",
        FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
        FRONTDOOR_OIDC_CLIENT_SECRET: OIDC_SECRET,
        GITHUB_TOKEN: "unused-gh-is-a-stand-in",
      },
      // The issuer's CA too: the provider reaches the token endpoint (GitHub's is publicly trusted).
      vars: {
        ZITI_EDGE_URL: edgeUrl,
        FRONTDOOR_CA_BUNDLE: caBundle,
        ZITI_EDGE_JWT_AUDIENCE: JWT_AUDIENCE,
        // v1.6.0 (and the mock) keep no identity permissions: the pull requests' identity reads nothing.
        ZITI_PREVIEW_READ_ONLY: "",
      },
      stack,
      setupStack,
      runs: 0,
    };
  }

  /**
   * examples/gitops/controller-setup laid out in the repository as its README says, and applied once
   * by the admin (password login), for the test's issuer in place of GitHub's.
   */
  async function controllerSetup(
    repository: string,
    tarball: string,
    env: NodeJS.ProcessEnv,
    admin: Record<string, string>,
  ): Promise<CliStack> {
    const dir = path.join(repository, "controller-setup");
    fs.mkdirSync(dir);
    for (const file of ["Pulumi.yaml", "Pulumi.prod.yaml", "index.ts", "package.json", "tsconfig.json"])
      fs.copyFileSync(path.join(EXAMPLE, "controller-setup", file), path.join(dir, file));
    const settings = path.join(dir, "Pulumi.prod.yaml");
    fs.writeFileSync(
      settings,
      fs
        .readFileSync(settings, "utf8")
        .replace(/^(\s*frontdoor-controller-setup:repository:).*$/m, `$1 ${REPOSITORY}`)
        .replace(/^(\s*frontdoor-controller-setup:audience:).*$/m, `$1 ${JWT_AUDIENCE}`),
    );
    await npmInstall(
      ["install", "--no-audit", "--no-fund", `../frontdoor/vendor/${path.basename(tarball)}`],
      {
        cwd: dir,
      },
    );
    const { "frontdoor:edgePassword": password, ...config } = admin;
    const stack = await cliStack(dir, {
      inPlace: true,
      stack: "prod",
      env,
      config: {
        ...config,
        "frontdoor-controller-setup:issuer": issuer.url,
        "frontdoor-controller-setup:jwksEndpoint": issuer.jwksUrl,
      },
      secretConfig: { "frontdoor:edgePassword": password },
    });
    await stack.ok(["up", "--yes", "--skip-preview"]);
    return stack;
  }

  /** One workflow run in a fresh workspace (a new job: checkout, npm ci, ...). */
  function run(
    setup: Setup,
    workflow: string,
    event: string,
    payload?: Record<string, unknown>,
    more: { secrets?: Record<string, string>; env?: NodeJS.ProcessEnv; openIssues?: any[] } = {},
  ) {
    // GitHub's `sub` for the job: a pull request of the repository, else its main branch (push, schedule).
    issuer.requestClaims = {
      sub:
        event === "pull_request"
          ? `repo:${REPOSITORY}:pull_request`
          : `repo:${REPOSITORY}:ref:refs/heads/main`,
      repository: REPOSITORY,
    };
    const workspace = path.join(scratch, setup.name, `run-${++setup.runs}`, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    return runWorkflow({
      workflow: path.join(setup.repository, ".github", "workflows", workflow),
      event: { name: event, payload },
      repository: setup.repository,
      repositoryName: REPOSITORY,
      workspace,
      secrets: { ...setup.secrets, ...more.secrets },
      vars: setup.vars,
      env: { ...setup.env, ...more.env },
      oidc: { requestUrl: issuer.tokenRequestUrl, requestToken: issuer.requestToken },
      openIssues: more.openIssues,
    });
  }

  /** The issues a nightly run opened or commented on: [call, title or issue number, body]. */
  const issueCalls = (job: JobResult) =>
    job.github
      .filter((c) => c.method !== "issues.listForRepo")
      .map((c) => [c.method, c.params.title ?? c.params.issue_number, String(c.params.body)] as const);

  /** The same stage for both setups, side by side (they share nothing but the machine). */
  const both = (stage: (setup: Setup) => Promise<void>) => Promise.all(setups.map(stage));
  const providers = (setup: Setup) =>
    setup.mock.frontdoor.list(setup.mock.credentials.frontdoorId, "auth-providers") as any[];
  const explain = (job: JobResult) =>
    job.steps
      .map((s) => `--- ${s.name}: ${s.outcome}\n${s.command ?? ""}\n${s.output.slice(-3000)}`)
      .join("\n");

  it("pull request: preview.yml previews as the pull requests' own identity (posted as a comment; the access diff skipped: that identity reads nothing on v1.6) and changes nothing", () =>
    both(async (setup) => {
      const job = await run(setup, "preview.yml", "pull_request", { pull_request: { number: 42 } });
      assert.equal(job.conclusion, "success", `${setup.name}:\n${explain(job)}`);
      assert.equal(job.step("actions/setup-node").outcome, "success");
      const preview = job.step("pulumi/actions");
      assert.match(
        preview.command ?? "",
        /^pulumi preview --stack prod .*--refresh --diff --policy-pack node_modules\/pulumi-frontdoor\/policy$/,
      );
      // The package's policy pack ran in the preview (docs/guides/policy-pack.md).
      assert.match(
        preview.output,
        /Policy Packs run:\s+Name\s+Version\s+frontdoor\|local\|node_modules\/pulumi-frontdoor\/policy\s+0\.1\.0/,
        explain(job),
      );
      // The pull requests' identity is no admin (the controller keeps no read-only permission): the
      // access diff, which reads every Edge object, is skipped; the preview itself needs none of them.
      assert.equal(job.step("access diff").outcome, "skipped", explain(job));
      assert.equal(job.comments.length, 1, `${setup.name}: ${job.comments.join("\n====\n")}`);
      assert.match(job.comments[0], /\+ .*frontdoor:index:AuthProvider.*corp-sso|corp-sso.*create/s);
      assert.deepEqual(providers(setup), [], "the preview created something");
      for (const text of [...job.comments, job.summary]) assert.ok(!text.includes(OIDC_SECRET));
    }));

  it("main: up.yml applies the program, with the access report in the summary", () =>
    both(async (setup) => {
      const job = await run(setup, "up.yml", "push");
      assert.equal(job.conclusion, "success", `${setup.name}:\n${explain(job)}`);
      assert.match(
        job.step("pulumi/actions").command ?? "",
        /^pulumi up --yes --skip-preview --stack prod .*--diff$/,
      );
      const [sso] = providers(setup);
      assert.equal(sso?.name, "corp-sso");
      assert.equal(sso.data.client_secret, OIDC_SECRET);
      assert.ok(job.summary.length > 0, "nothing in the run's summary");
    }));

  it("nightly: drift.yml is clean right after up (drift check and audit pass, no issue opened)", () =>
    both(async (setup) => {
      const job = await run(setup, "drift.yml", "schedule");
      assert.equal(job.conclusion, "success", `${setup.name}:\n${explain(job)}`);
      assert.equal(job.step("drift").outputs["exit-code"], "0", explain(job));
      assert.match(job.step("drift").output, /^Drift check of stack prod: no drift \(exit 0\)$/m);
      assert.match(job.summary, /^## Frontdoor drift check \(stack `prod`\): no drift$/m);
      assert.equal(job.step("audit").outcome, "success");
      assert.deepEqual(job.githubScripts, [], "an issue step ran");
      // The audit logged in with the job's OIDC token; no token (nor the request token) in any output.
      assert.ok(issuer.issued.length > 0, "no OIDC token was asked for");
      for (const secret of [...issuer.issued, issuer.requestToken])
        for (const step of job.steps) assert.ok(!step.output.includes(secret), `a token in ${step.name}`);
    }));

  it("nightly: drift.yml fails after a change made behind Pulumi's back, says what, and opens an issue", () =>
    both(async (setup) => {
      if (setup.ctrl) {
        // A console-made admin on the controller: no stack declares it.
        const made = await setup.ctrl.admin.call("POST", "/identities", {
          body: { name: "console-admin", type: "User", isAdmin: true },
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
      } else {
        const [sso] = providers(setup);
        setup.mock.frontdoor.patch(setup.mock.credentials.frontdoorId, "auth-providers", sso.id, {
          enabled: false,
        });
      }
      const job = await run(setup, "drift.yml", "schedule");
      assert.equal(job.conclusion, "failure", `${setup.name}:\n${explain(job)}`);
      assert.equal(job.step("drift").outputs["exit-code"], "2", explain(job));
      assert.equal(job.step("audit").outcome, "success", "the audit ran after the failed drift step");
      const [issue, ...more] = issueCalls(job);
      assert.deepEqual(more, [], "more than one issue");
      assert.deepEqual(issue.slice(0, 2), ["issues.create", "Frontdoor drift detected"]);
      const body = issue[2];
      if (setup.ctrl) {
        assert.match(job.step("drift").output, /\+ Identity console-admin \(id \S+\): no stack declares it/);
        assert.match(body, /### Unmanaged objects[\s\S]*\| Identity \| `console-admin` \|/);
      } else {
        assert.match(
          job.step("drift").output,
          /corp-sso \(\S+AuthProvider\): update\n\s+enabled: true => false/,
        );
        assert.match(
          body,
          /\| `corp-sso` \| `\S+AuthProvider` \| update \| `enabled` \| `true` \| `false` \|/,
        );
      }
      assert.ok(job.summary.includes(body.split("\n\nRun: ")[0]), "the issue's body is the job's summary");
      assert.match(body, /Run: https:\/\/github\.com\/acme\/infra\/actions\/runs\/\d+\n$/);
      assert.ok(!body.includes(OIDC_SECRET) && !job.summary.includes(OIDC_SECRET));
    }));

  it("nightly: an expired Frontdoor token fails the check (exit 1): a comment on the open 'drift check failed' issue, not drift", () =>
    both(async (setup) => {
      const expired = setup.mock.frontdoor.issueToken({
        frontdoorIds: [setup.mock.credentials.frontdoorId],
        ttlSeconds: 0,
      });
      const job = await run(setup, "drift.yml", "schedule", undefined, {
        secrets: { FRONTDOOR_TOKEN: expired },
        openIssues: [{ number: 7, title: "Frontdoor drift check failed" }],
      });
      assert.equal(job.conclusion, "failure");
      assert.equal(job.step("drift").outputs["exit-code"], "1", explain(job));
      const calls = issueCalls(job);
      assert.deepEqual(
        calls.map((c) => c.slice(0, 2)),
        [["issues.createComment", 7]],
        explain(job),
      );
      assert.match(calls[0][2], /### The check failed[\s\S]*access token expired/);
      assert.match(
        calls[0][2],
        /The nightly audit \(expiry, access\) failed/,
        "the audit's failure is in it too",
      );
      assert.ok(!calls[0][2].includes(expired) && !job.summary.includes(expired));
    }));

  it("nightly: the API down fails the check (exit 1): a 'drift check failed' issue", () =>
    both(async (setup) => {
      // The mock setup: nothing answers (the Frontdoor reads fail); the other: the controller is
      // stopped (the Frontdoor API answers; listing the Edge objects fails).
      if (setup.ctrl) {
        await setup.ctrl.stop();
        setup.stopped = true;
      } else await setup.mock.suspend();
      try {
        const job = await run(setup, "drift.yml", "schedule", undefined, {
          env: { FRONTDOOR_RETRY_TIMEOUT_SECONDS: "3" }, // a nightly job would wait 120 s
        });
        assert.equal(job.conclusion, "failure");
        assert.equal(job.step("drift").outputs["exit-code"], "1", explain(job));
        const calls = issueCalls(job);
        assert.deepEqual(
          calls.map((c) => c.slice(0, 2)),
          [["issues.create", "Frontdoor drift check failed"]],
          explain(job),
        );
        assert.match(calls[0][2], /### The check failed[\s\S]*(ECONNREFUSED|ECONNRESET|connect|socket)/);
        if (setup.ctrl) assert.match(calls[0][2], /unmanaged objects not checked/);
      } finally {
        if (!setup.ctrl) await setup.mock.resume();
      }
    }));

  // The workflows named the stack my-org/frontdoor/prod, a stack of project `frontdoor`; the program's
  // project is frontdoor-gitops. up.yml's Pulumi step with that name (the org a file backend has is
  // "organization"), run in the user's repository: refused, where the fixed name found the stack.
  it("the stack name the workflows had (<org>/frontdoor/prod) is refused: no such stack in the program's project", async () => {
    const setup = setups[0];
    const upWorkflow = yaml.load(
      fs.readFileSync(path.join(EXAMPLE, ".github", "workflows", "up.yml"), "utf8"),
    );
    const pulumiStep = upWorkflow.jobs.up.steps.find((s: any) =>
      String(s.uses).startsWith("pulumi/actions@"),
    );
    pulumiStep.with["stack-name"] = "organization/frontdoor/prod";
    const workflow = path.join(scratch, "old-stack-name.yml");
    fs.writeFileSync(
      workflow,
      yaml.dump({ on: "push", jobs: { up: { "runs-on": "ubuntu-latest", steps: [pulumiStep] } } }),
    );
    const job = await runWorkflow({
      workflow,
      event: { name: "push" },
      repository: setup.repository,
      workspace: setup.repository, // already installed: the step fails before the program runs
      secrets: setup.secrets,
      vars: setup.vars,
      env: setup.env,
    });
    assert.equal(job.conclusion, "failure");
    assert.equal(job.step("pulumi/actions").outcome, "failure");
    assert.match(job.step("pulumi/actions").output, /no stack named 'organization\/frontdoor\/prod'/);
  });
});
