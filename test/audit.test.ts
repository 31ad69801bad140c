// The audit of the scheduled job (`pulumi-frontdoor-audit`, the compiled command as users run it):
// objects that no stack declares, and expiry dates. The stack is the gitops example applied through
// the harness; the "console" is plain HTTP to the mock's management APIs, outside Pulumi.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type HarnessOptions, runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { expiryView } from "../provider/audit/expiry";
import { findUnmanaged } from "../provider/audit/unmanaged";
import { context } from "../provider/engine";
import { runAudit } from "./support/auditCli";
import { EdgeClient } from "./support/edgeClient";
import { configureFor, mockConfig } from "./support/engine";
import { frontdoorApi } from "./support/fixtures";

const example = path.resolve(__dirname, "..", "examples", "gitops");

describe("audit: unmanaged objects and expiry (pulumi-frontdoor-audit)", function () {
  this.timeout(120_000);
  let mock: MockServer;
  let workdir: string;
  let console_: EdgeClient;
  const state = () => path.join(workdir, "prod.json");
  const env = () => ({
    FRONTDOOR_API_URL: mock.url,
    FRONTDOOR_ID: mock.credentials.frontdoorId,
    FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
    ZITI_EDGE_URL: mock.url,
    ZITI_USERNAME: mock.credentials.edgeUsername,
    ZITI_PASSWORD: mock.credentials.edgePassword,
  });
  const audit = (...args: string[]) => runAudit(env(), ...args);

  before(async () => {
    mock = await startMockServer();
    await configureFor(mockConfig(mock));
    workdir = fs.mkdtempSync(path.join(__dirname, "programs", ".work-audit-"));
    for (const file of ["Pulumi.yaml", "package.json", "index.ts"])
      fs.copyFileSync(path.join(example, file), path.join(workdir, file));
    const opts: HarnessOptions = {
      programDir: workdir,
      stateFile: state(),
      stack: "prod",
      config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": mock.credentials.frontdoorId },
      env: {
        FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
        FRONTDOOR_OIDC_CLIENT_SECRET: "audit-secret-1",
      },
    };
    const up = await runHarness("up", opts);
    assert.equal(up.exitCode, 0, up.stdout + up.stderr);
    console_ = new EdgeClient(mock.url);
    await console_.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
  });
  after(async () => {
    await mock.close();
    fs.rmSync(workdir, { recursive: true, force: true });
  });

  it("finds nothing unmanaged right after up (built-ins such as the default admin are not listed)", async () => {
    const result = await audit("unmanaged", "--state", state());
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^Unmanaged objects: 0 /);
  });

  it("reports a console-made identity, an #all dial policy and an auth provider, by kind, name and id", async () => {
    const identity = await console_.call("POST", "/identities", {
      body: { name: "console-admin", type: "User", isAdmin: true, enrollment: { ott: true } },
    });
    assert.equal(identity.status, 201);
    const policy = await console_.call("POST", "/service-policies", {
      body: {
        name: "everyone-dials-everything",
        type: "Dial",
        semantic: "AnyOf",
        identityRoles: ["#all"],
        serviceRoles: ["#all"],
        tags: { owner: "network-team" },
      },
    });
    assert.equal(policy.status, 201);
    const made = await frontdoorApi(mock, "POST", "auth-providers", {
      name: "shadow-key",
      type: "API_KEY",
      data: { header_name: "x-k", api_key: "0123456789abcdef0" },
    });
    assert.equal(made.status, 201);

    const text = await audit("unmanaged", "--state", state());
    assert.equal(text.code, 1);
    assert.match(text.stdout, /Identity\s+console-admin/);
    assert.match(text.stdout, /ServicePolicy\s+everyone-dials-everything/);
    assert.match(text.stdout, /AuthProvider\s+shadow-key/);
    assert.doesNotMatch(text.stdout, /corp-sso/, "the stack's own auth provider is managed");

    const json = JSON.parse((await audit("unmanaged", "--state", state(), "--json")).stdout);
    assert.deepEqual(json.unmanaged.map((o: any) => `${o.kind}:${o.name}`).sort(), [
      "AuthProvider:shadow-key",
      "Identity:console-admin",
      "ServicePolicy:everyone-dials-everything",
    ]);
    assert.equal(json.unmanaged.find((o: any) => o.kind === "Identity").id, identity.body.data.id);

    // Allow rules for what is owned elsewhere: by kind and name pattern, by tag, by id.
    const allowed = await audit(
      "unmanaged",
      "--state",
      state(),
      "--allow",
      "Identity:console-*",
      "--allow",
      "tag:owner=network-team",
      "--allow",
      "shadow-*",
      "--json",
    );
    assert.equal(allowed.code, 0, allowed.stdout);
    assert.deepEqual(
      JSON.parse(allowed.stdout)
        .allowed.map((o: any) => o.rule)
        .sort(),
      ["Identity:console-*", "shadow-*", "tag:owner=network-team"],
    );
    const partly = await audit("unmanaged", "--state", state(), "--allow", `id:${policy.body.data.id}`);
    assert.equal(partly.code, 1);
    assert.doesNotMatch(partly.stdout, /everyone-dials-everything/);

    // The library function answers the same.
    const report = await findUnmanaged(context(), {
      states: [JSON.parse(fs.readFileSync(state(), "utf8"))],
    });
    assert.equal(report.unmanaged.length, 3);
  });

  it("refuses to run without a state, or with a file that is not one (exit 2)", async () => {
    const none = await audit("unmanaged");
    assert.equal(none.code, 2);
    assert.match(none.stderr, /at least one --state/);
    const bogus = path.join(workdir, "bogus.json");
    fs.writeFileSync(bogus, '{"hello": 1}');
    const wrong = await audit("unmanaged", "--state", bogus);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /not a stack state/);
  });

  it("lists expiry dates soonest first and fails within the threshold", async () => {
    // The console-made identity has an enrollment that expires within a day.
    const due = await audit("expiry", "--days", "30", "--json");
    assert.equal(due.code, 1, due.stdout + due.stderr);
    const report = JSON.parse(due.stdout);
    const enrollment = report.due.find((o: any) => o.kind === "Identity" && o.name === "console-admin");
    assert.ok(enrollment, due.stdout);
    assert.equal(enrollment.what, "enrollment");
    const times = report.objects.map((o: any) => Date.parse(o.expiresAt));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );

    // Nothing has expired yet: a threshold of 0 days passes.
    const none = await audit("expiry", "--days", "0");
    assert.equal(none.code, 0, none.stdout);
    assert.match(none.stdout, /^Expiry: 0 due within 0 day\(s\)/);
    assert.match(none.stdout, /Identity\s+console-admin \(enrollment/);

    // A day later by the library's clock, the enrollment has expired.
    const later = await expiryView(context(), { thresholdDays: 0, now: Date.now() + 2 * 86_400_000 });
    assert.ok(later.due.some((o) => o.name === "console-admin" && o.daysLeft < 0));
  });
});
