// `pulumi-frontdoor-drift` (the compiled command, as a scheduled job runs it) with the real Pulumi CLI
// on one stack of a dynamic-provider program against the mock: exit 0 on a clean stack, 2 after changes
// made behind Pulumi's back through the mock's API (resource and property named in the output, the
// Markdown summary and the JSON report; secrets only as "[secret]"), 2 for an object that no stack
// declares (--unmanaged), 1 when the check itself fails: an expired token (the server's message), the
// mock not listening (no answer at all), bad arguments, an answer that is not a preview. The cases run in
// order on the one stack. Then once with the provider plugin (YAML) on a real OpenZiti controller.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { readPreview } from "../provider/tools/drift";
import { requirePeers } from "./peers";
import { type CliStack, cliStack } from "./peers/cli";
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { EdgeClient } from "./support/edgeClient";
import { apiConfig } from "./support/engine";
import { pluginStack } from "./support/plugin";

const DRIFT = path.resolve(__dirname, "..", "bin", "provider", "tools", "driftCli.js");
const program = path.join(__dirname, "programs", "readable-drift");
const CLIENT_SECRET = "drift-command-client-secret-4b2e";
const ROTATED_SECRET = "drift-command-rotated-secret-81aa";
const OLD_ISSUER = "https://login.example.com/realms/corp";
const NEW_ISSUER = "https://evil.example.com/realms/corp";

interface DriftAnswer {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  report: any;
  /** Everything the command wrote, for secret scans. */
  all: string;
}

let runs = 0;
/** The command on the stack (as a scheduled job runs it), its summary and JSON report read back. */
async function runDrift(
  stack: CliStack,
  scratch: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<DriftAnswer> {
  const summaryFile = path.join(scratch, `summary-${++runs}.md`);
  const jsonFile = path.join(scratch, `report-${runs}.json`);
  const argv = [DRIFT, "--stack", "dev", "--cwd", stack.dir, "--summary", summaryFile, "--json", jsonFile];
  const answer = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [...argv, ...args],
      { env: { ...stack.env, ...env }, cwd: scratch },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  const summary = read(summaryFile);
  const json = read(jsonFile);
  return {
    ...answer,
    summary,
    report: json ? JSON.parse(json) : undefined,
    all: [answer.stdout, answer.stderr, summary, json].join("\n"),
  };
}
/** After a describe: the stack's objects destroyed (best effort), its state and the scratch folder gone. */
async function dropStack(stack: CliStack | undefined, scratch: string | undefined): Promise<void> {
  await stack?.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
  await stack?.dispose();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
}
const explain = (a: DriftAnswer) => `exit ${a.code}\n${a.stdout}\n${a.stderr}`;

describe("pulumi-frontdoor-drift: a drift check with a detailed exit code (real Pulumi CLI)", function () {
  this.timeout(300_000);
  let mock: MockServer;
  let stack: CliStack;
  let scratch: string;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    assert.ok(fs.existsSync(DRIFT), `${DRIFT} is not built (npm run build)`);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-drift-command-"));
    mock = await startMockServer();
    const { config, secretConfig } = apiConfig(mock, "frontdoor", "edge");
    stack = await cliStack(program, {
      // A controller that does not answer fails the check within seconds, not the default 120 s.
      config: { ...config, "frontdoor:retryTimeoutSeconds": "2" },
      secretConfig: { ...secretConfig, "readable-drift:ssoClientSecret": CLIENT_SECRET },
    });
    await stack.ok(["up", "--yes", "--skip-preview"]);
  });
  after(async () => {
    await dropStack(stack, scratch);
    await mock?.close();
  });

  const drift = (args: string[] = [], env: NodeJS.ProcessEnv = {}) => runDrift(stack, scratch, args, env);
  const writes = () =>
    mock.log.filter((e) => e.method !== "GET" && e.path !== "/edge/management/v1/authenticate");

  it("a clean stack: exit 0, reading every declared object and writing nothing", async () => {
    mock.clearLog();
    const clean = await drift();
    assert.equal(clean.code, 0, explain(clean));
    assert.match(clean.stdout, /^Drift check of stack dev: no drift \(exit 0\)$/m);
    assert.equal(clean.report.status, "clean");
    assert.deepEqual(clean.report.drifted, []);
    assert.deepEqual(clean.report.errors, []);
    assert.match(clean.summary, /^## Frontdoor drift check \(stack `dev`\): no drift$/m);
    // The refresh read both objects; a drift check changes nothing.
    const ssoId = await stack.idOf("sso");
    const policyId = await stack.idOf("policy");
    const gets = mock.log.filter((e) => e.method === "GET").map((e) => e.path);
    assert.ok(
      gets.some((p) => p.endsWith(`/auth-providers/${ssoId}`)),
      gets.join("\n"),
    );
    assert.ok(
      gets.some((p) => p.endsWith(`/auth-policies/${policyId}`)),
      gets.join("\n"),
    );
    assert.deepEqual(writes(), []);
  });

  it("drift made behind Pulumi's back: exit 2, each resource and property named with old and new values, secrets masked", async () => {
    const fd = mock.credentials.frontdoorId;
    const ssoId = await stack.idOf("sso");
    const policyId = await stack.idOf("policy");
    const sso = (mock.frontdoor.list(fd, "auth-providers") as any[]).find((p) => p.id === ssoId);
    mock.frontdoor.patch(fd, "auth-providers", ssoId, {
      data: { ...sso.data, issuer: NEW_ISSUER, client_secret: ROTATED_SECRET },
    });
    const policy = mock.edge.get("auth-policies", policyId) as any;
    mock.edge.patch("auth-policies", policyId, {
      primary: { ...policy.primary, updb: { ...policy.primary.updb, maxAttempts: 9 } },
    } as any);
    mock.clearLog();

    const found = await drift();
    assert.equal(found.code, 2, explain(found));
    assert.equal(found.report.status, "drift");
    assert.deepEqual(writes(), [], "the check wrote to the API");
    const byName = Object.fromEntries(found.report.drifted.map((r: any) => [r.name, r]));
    assert.deepEqual(Object.keys(byName).sort(), ["policy", "sso"]);
    assert.match(byName.sso.type, /frontdoor:AuthProvider$/);
    assert.match(byName.sso.urn, /^urn:pulumi:dev::readable-drift::.*::sso$/);
    assert.equal(byName.sso.op, "update");
    const props = (r: any) => Object.fromEntries(r.properties.map((p: any) => [p.path, [p.old, p.new]]));
    assert.deepEqual(props(byName.sso)["data.issuer"], [OLD_ISSUER, NEW_ISSUER]);
    // The rotated client secret: masked on both sides, the preview document cannot show it changed.
    assert.equal(props(byName.sso)["data.client_secret"], undefined);
    assert.deepEqual(props(byName.policy)["primary.updb.maxAttempts"], [3, 9]);
    // stdout, the summary's table, the JSON: the same names; never a secret.
    assert.match(found.stdout, /^Drift check of stack dev: drift found \(exit 2\)$/m);
    assert.match(
      found.stdout,
      /~ urn:pulumi:dev::readable-drift::\S+::sso \(\S+frontdoor:AuthProvider\): update/,
    );
    assert.ok(found.stdout.includes(`data.issuer: "${OLD_ISSUER}" => "${NEW_ISSUER}"`), found.stdout);
    assert.ok(found.stdout.includes("primary.updb.maxAttempts: 3 => 9"), found.stdout);
    assert.match(found.summary, /^\| Resource \| Type \| Up would \| Property \| Old \| New \|$/m);
    assert.ok(
      found.summary.includes(
        `| \`sso\` | \`${byName.sso.type}\` | update | \`data.issuer\` | \`"${OLD_ISSUER}"\` | \`"${NEW_ISSUER}"\` |`,
      ),
      found.summary,
    );
    assert.ok(found.summary.includes("| `primary.updb.maxAttempts` | `3` | `9` |"), found.summary);
    for (const secret of [CLIENT_SECRET, ROTATED_SECRET, mock.credentials.frontdoorToken, stack.passphrase])
      assert.ok(!found.all.includes(secret), "a secret in the command's output or reports");
  });

  it("an expired token: exit 1 with the server's message, not a drift report", async () => {
    const expired = mock.frontdoor.issueToken({
      frontdoorIds: [mock.credentials.frontdoorId],
      ttlSeconds: 0,
    });
    await stack.ok(["config", "set", "--secret", "frontdoor:token", expired]);
    try {
      const failed = await drift();
      assert.equal(failed.code, 1, explain(failed));
      assert.equal(failed.report.status, "failed");
      assert.match(failed.report.errors.join("\n"), /access token expired/);
      assert.match(failed.stdout, /the check failed \(exit 1\)[\s\S]*error: .*access token expired/);
      assert.match(failed.summary, /### The check failed[\s\S]*access token expired/);
      assert.ok(!failed.all.includes(expired), "the token in the output");
      const refused = mock.log.filter((e) => e.status === 401 && e.path.includes("/auth-providers"));
      assert.ok(refused.length > 0, "the provider did not send the expired token");
    } finally {
      await stack.ok(["config", "set", "--secret", "frontdoor:token", mock.credentials.frontdoorToken]);
    }
  });

  it("an object no stack declares: exit 2 with --unmanaged (the audit's finding in the same report), 0 without", async () => {
    await stack.ok(["up", "--refresh", "--yes", "--skip-preview"]); // the declarations put back
    const console_ = new EdgeClient(mock.url);
    await console_.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
    const made = await console_.call("POST", "/identities", {
      body: { name: "console-admin", type: "User", isAdmin: true },
    });
    assert.equal(made.status, 201);
    const env = {
      FRONTDOOR_API_URL: mock.url,
      FRONTDOOR_ID: mock.credentials.frontdoorId,
      FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
      ZITI_EDGE_URL: mock.url,
      ZITI_USERNAME: mock.credentials.edgeUsername,
      ZITI_PASSWORD: mock.credentials.edgePassword,
    };
    const declaredOnly = await drift([], env);
    assert.equal(declaredOnly.code, 0, `refresh does not see it: ${explain(declaredOnly)}`);

    const audited = await drift(["--unmanaged"], env);
    assert.equal(audited.code, 2, explain(audited));
    assert.deepEqual(audited.report.drifted, []);
    assert.deepEqual(
      audited.report.unmanaged.unmanaged.map((o: any) => [o.kind, o.name]),
      [["Identity", "console-admin"]],
    );
    assert.match(audited.stdout, /^ {2}\+ Identity console-admin \(id \S+\): no stack declares it$/m);
    assert.match(audited.summary, /### Unmanaged objects[\s\S]*\| Identity \| `console-admin` \|/);
    // An allow rule makes it clean again.
    const allowed = await drift(["--unmanaged", "--allow", "Identity:console-*"], env);
    assert.equal(allowed.code, 0, explain(allowed));
    assert.equal(allowed.report.unmanaged.allowed[0].name, "console-admin");
    for (const secret of [mock.credentials.edgePassword, mock.credentials.frontdoorToken])
      assert.ok(!audited.all.includes(secret) && !allowed.all.includes(secret));
  });

  it("bad arguments: exit 1 (the check did not run), never 2", async () => {
    const bad = await drift(["--allow", "x"]);
    assert.equal(bad.code, 1, explain(bad));
    assert.match(bad.stderr, /--state and --allow belong to --unmanaged/);
    const unknown = await drift(["--detailed"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown argument --detailed/);
  });

  it("an answer that is not a preview document is a failed check", () => {
    const garbage = readPreview({ code: 0, stdout: "warning: something\n{", stderr: "" });
    assert.match(garbage.errors[0], /pulumi preview exited 0 without a JSON document/);
    const other = readPreview({ code: 0, stdout: '{"version": 3}', stderr: "" });
    assert.match(other.errors[0], /not a preview/);
    const exited = readPreview({ code: 255, stdout: '{"steps": []}', stderr: "error: boom\n" });
    assert.deepEqual(exited.errors, ["pulumi preview exited 255: error: boom"]);
  });

  it("the API down (the mock stops listening): exit 1", async () => {
    await mock.suspend();
    try {
      const down = await drift();
      assert.equal(down.code, 1, explain(down));
      assert.equal(down.report.status, "failed");
      assert.match(down.report.errors.join("\n"), /ECONNREFUSED|ECONNRESET|connect|socket/i);
      assert.match(down.summary, /### The check failed/);
    } finally {
      await mock.resume();
    }
  });
});

// The same command with the provider plugin (a YAML program) on a real OpenZiti controller: the
// plugin's diff and the real controller's answers give the same exit codes and the same names.
describe("pulumi-frontdoor-drift with the provider plugin on a real OpenZiti controller", function () {
  this.timeout(300_000);
  let ctrl: RealController;
  let stack: CliStack;
  let scratch: string;
  const drift = () => runDrift(stack, scratch);

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-yaml", "ziti");
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-drift-plugin-"));
    ctrl = await startController();
    const { "frontdoor:edgePassword": edgePassword, ...edge } = realEdgeConfig(ctrl);
    stack = await pluginStack(path.join(__dirname, "programs", "drift-plugin-yaml"), {
      config: { ...edge, "frontdoor:retryTimeoutSeconds": "2" },
      secretConfig: { "frontdoor:edgePassword": edgePassword },
    });
    await stack.ok(["up", "--yes", "--skip-preview"]);
  });
  after(async () => {
    await dropStack(stack, scratch);
    await ctrl?.stop();
  });

  it("clean after up (exit 0); a change made with the controller's own API: exit 2 naming it; the controller down: exit 1", async () => {
    const clean = await drift();
    assert.equal(clean.code, 0, explain(clean));

    const policyId = await stack.idOf("policy");
    const changed = await ctrl.admin.call("PATCH", `/auth-policies/${policyId}`, {
      body: { primary: { updb: { maxAttempts: 9 } } },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const found = await drift();
    assert.equal(found.code, 2, explain(found));
    assert.deepEqual(
      found.report.drifted.map((r: any) => r.name),
      ["policy"],
    );
    // As on the dynamic host: what Pulumi recorded => what the API answers now (the plugin's detailed
    // diff names the property; the refresh's recorded state gives the old value).
    assert.ok(found.stdout.includes("primary.updb.maxAttempts: 3 => 9"), found.stdout);
    assert.ok(!found.stdout.includes("(up would set)"), found.stdout);

    await ctrl.stop();
    const down = await drift();
    assert.equal(down.code, 1, explain(down));
    assert.equal(down.report.status, "failed");
    assert.ok(!down.all.includes(ctrl.password), "the password in the output");
  });
});
