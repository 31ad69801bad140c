// Effective access (`pulumi-frontdoor-audit access`): who can dial and bind each service, through which
// policies, edge routers and posture checks. The program of test/access-support.ts is created through
// the provider on the mock; the matrix must agree with the mock's own answers (identity service lists,
// policy advice, written independently in mock/edge/reach.ts), with hand-worked expectations,
// and the command's diff must show a console-made `#all` policy as added access.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import {
  type AccessMatrix,
  accessMatrix,
  diffAccess,
  formatAccessMarkdown,
  type Grant,
} from "../provider/audit/access";
import { selects } from "../provider/audit/roles";
import { context } from "../provider/engine";
import { type AccessProgram, createAccessProgram, disagreements } from "./access-support";
import { runAudit } from "./support/auditCli";
import { EdgeClient } from "./support/edgeClient";
import { configureFor, mockConfig } from "./support/engine";

const P = "acc-";

describe("access: role selection as the controller evaluates it", () => {
  const alice = { id: "a1", roleAttributes: ["eng", "payments"] };
  it("AllOf needs every #attr, AnyOf one; @id selects whatever the semantic; #all selects all", () => {
    assert.equal(selects(["#eng", "#payments"], "AllOf", alice), true);
    assert.equal(selects(["#eng", "#ops"], "AllOf", alice), false);
    assert.equal(selects(["#eng", "#ops"], "AnyOf", alice), true);
    assert.equal(selects(["#ops", "@a1"], "AllOf", alice), true);
    assert.equal(selects(["@b2"], "AnyOf", alice), false);
    assert.equal(selects(["#all"], "AllOf", { id: "x", roleAttributes: null }), true);
    assert.equal(selects([], "AnyOf", alice), false);
  });
});

describe("access: the matrix on the mock agrees with the controller's answers (pulumi-frontdoor-audit access)", function () {
  this.timeout(120_000);
  let mock: MockServer;
  let admin: EdgeClient;
  let program: AccessProgram;
  let matrix: AccessMatrix;
  let workdir: string;

  const service = (name: string) => {
    const found = matrix.services.find((s) => s.service.name === `${P}${name}`);
    assert.ok(found, `service ${name} not in the matrix`);
    return found;
  };
  const who = (grants: Grant[]) =>
    grants
      .map((g) => g.identity.name)
      .filter((n) => n.startsWith(P))
      .map((n) => n.slice(P.length));
  const grantOf = (svc: string, type: "dial" | "bind", identity: string) => {
    const grant = service(svc)[type].find((g) => g.identity.name === `${P}${identity}`);
    assert.ok(grant, `${identity} cannot ${type} ${svc}`);
    return grant;
  };
  const names = (refs: { name: string }[]) => refs.map((r) => r.name.slice(P.length));
  const audit = (...args: string[]) =>
    runAudit(
      {
        ZITI_EDGE_URL: mock.url,
        ZITI_USERNAME: mock.credentials.edgeUsername,
        ZITI_PASSWORD: mock.credentials.edgePassword,
      },
      ...args,
    );

  before(async () => {
    mock = await startMockServer();
    await configureFor(mockConfig(mock));
    program = await createAccessProgram(P);
    matrix = await accessMatrix(context());
    admin = new EdgeClient(mock.url);
    await admin.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
    workdir = fs.mkdtempSync(path.join(os.tmpdir(), "access-"));
  });
  after(async () => {
    await mock?.close();
    if (workdir) fs.rmSync(workdir, { recursive: true, force: true });
  });

  it("agrees with every identity's service lists and with the policy advice of each grant", async () => {
    assert.deepEqual(await disagreements(admin, matrix, Object.values(program.identities)), []);
    assert.deepEqual(admin.violations, [], "the mock answers outside the swagger (and the known deviations)");
  });

  it("selects by #attr with AllOf and AnyOf, by @id, and #all (worked by hand)", () => {
    assert.deepEqual(who(service("db").dial), ["alice", "judy"]); // AllOf #eng #payments
    assert.deepEqual(who(service("ledger").dial), ["alice", "bob", "erin", "judy"]); // + @bob or #eng
    assert.deepEqual(who(service("web").dial), ["dave", "erin", "grace", "judy"]); // AnyOf #ops #contractor
    assert.deepEqual(who(service("metrics").dial), ["dave", "erin", "grace", "judy"]);
    assert.equal(who(service("wiki").dial).length, 10); // #all
    assert.ok(
      service("wiki").dial.some((g) => g.identity.name === "Default Admin"),
      "#all includes the admin",
    );
    assert.deepEqual(who(service("web").bind), ["heidi", "ivan"]);
    assert.deepEqual(who(service("db").bind), ["alice", "carol", "frank", "ivan", "judy"]); // AnyOf @frank #payments
    assert.deepEqual(names(grantOf("ledger", "dial", "alice").policies), ["ledger-eng", "pay-dial"]);
  });

  it("names the posture checks of each granting policy (one policy without checks grants freely)", () => {
    const checks = (grant: Grant) =>
      grant.policies.map((p) => [p.name.slice(P.length), names(p.postureChecks)]);
    assert.deepEqual(checks(grantOf("db", "dial", "alice")), [["pay-dial", ["mfa"]]]);
    assert.deepEqual(checks(grantOf("ledger", "dial", "alice")), [
      ["ledger-eng", []],
      ["pay-dial", ["mfa"]],
    ]);
    assert.deepEqual(checks(grantOf("ledger", "dial", "bob")), [["ledger-eng", []]]);
    const text = formatAccessMarkdown(matrix);
    assert.match(text, /^\| acc-alice \| Dial \| acc-pay-dial \| acc-edge \| acc-pay-dial: acc-mfa \|$/m);
    assert.match(
      text,
      /^\| acc-alice \| Dial \| acc-ledger-eng, acc-pay-dial \| acc-edge \| acc-ledger-eng: none; acc-pay-dial: acc-mfa \|$/m,
    );
  });

  it("keeps only edge routers both the identity and the service reach", () => {
    assert.deepEqual(names(service("web").edgeRouters), ["edge", "west"]);
    assert.deepEqual(names(service("wiki").edgeRouters), ["edge"]); // AllOf #east #public
    assert.deepEqual(names(grantOf("web", "bind", "heidi").edgeRouters), ["west"]);
    assert.deepEqual(names(grantOf("db", "dial", "alice").edgeRouters), ["edge"]);
    assert.deepEqual(names(grantOf("db", "bind", "frank").edgeRouters), ["edge", "west"]); // frank: #all routers
    assert.deepEqual(grantOf("web", "dial", "grace").edgeRouters, []); // no edge router policy: no path
    assert.deepEqual(grantOf("metrics", "dial", "dave").edgeRouters, []); // dave: west, metrics: edge
  });

  it("writes a markdown table per service", () => {
    const text = formatAccessMarkdown(matrix);
    assert.match(text, /^### acc-web$/m);
    assert.match(text, /^\| acc-heidi \| Bind \| acc-web-hosts \| acc-west \| — \|$/m);
    assert.match(text, /^\| acc-grace \| Dial \| acc-ops-dial \| \*\*none\*\* \(no path\) \| — \|$/m);
  });

  it("diffs a saved matrix: a console-made #all dial policy shows as added access, exit 0 (report only)", async () => {
    const saved = await audit("access", "--json");
    assert.equal(saved.code, 0, saved.stderr);
    const before = path.join(workdir, "before.json");
    fs.writeFileSync(before, saved.stdout);
    assert.deepEqual(JSON.parse(saved.stdout), matrix);

    const unchanged = await audit("access", "--before", before);
    assert.equal(unchanged.code, 0, unchanged.stderr);
    assert.match(unchanged.stdout, /No access is added or removed/);

    const created = await admin.call("POST", "/service-policies", {
      body: {
        name: "console-all",
        type: "Dial",
        semantic: "AllOf",
        identityRoles: ["#all"],
        serviceRoles: [`@${program.services.db}`],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await admin.call("DELETE", `/service-policies/${await policyId(admin, `${P}web-hosts`)}`);

    const diff = await audit("access", "--before", before, "--json");
    assert.equal(diff.code, 0, diff.stderr);
    const parsed = JSON.parse(diff.stdout);
    const added = parsed.added.map((l: any) => `${l.type} ${l.service} ${l.identity}`).sort();
    // everyone but alice and judy (who dialled db already) now dials it; alice's and judy's grant changed
    assert.ok(added.includes("Dial acc-db acc-grace"), added.join("\n"));
    assert.ok(added.includes("Dial acc-db Default Admin"), added.join("\n"));
    assert.equal(added.length, (await admin.call("GET", "/identities?limit=500")).body.data.length - 2);
    assert.deepEqual(parsed.removed.map((l: any) => `${l.type} ${l.service} ${l.identity}`).sort(), [
      "Bind acc-web acc-heidi",
      "Bind acc-web acc-ivan",
    ]);
    assert.deepEqual(
      parsed.changed.map((c: any) => [c.after.identity, c.after.policies]),
      [
        ["acc-alice", ["acc-pay-dial", "console-all"]],
        ["acc-judy", ["acc-pay-dial", "console-all"]],
      ],
    );
    assert.deepEqual(diffAccess(matrix, matrix), { added: [], removed: [], changed: [] });

    const text = await audit("access", "--before", before);
    assert.match(text.stdout, /^\| added \| acc-db \| Dial \| acc-grace \| console-all \|/m);
    assert.match(text.stdout, /^\| removed \| acc-web \| Bind \| acc-heidi \| acc-web-hosts \| acc-west \|/m);
    const gate = await audit("access", "--before", before, "--exit-code");
    assert.equal(gate.code, 1, "--exit-code: 1 when access changed");
  });

  it("refuses a --before file that is not a saved matrix (exit 2, naming the file)", async () => {
    const wrong = path.join(workdir, "wrong.json");
    fs.writeFileSync(wrong, "{}");
    const result = await audit("access", "--before", wrong);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--before .*wrong\.json: not a matrix saved with `access --json`/);
  });
});

async function policyId(admin: EdgeClient, name: string): Promise<string> {
  const reply = await admin.call("GET", `/service-policies?filter=${encodeURIComponent(`name = "${name}"`)}`);
  return reply.body.data[0].id;
}
