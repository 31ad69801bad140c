// AuthProvider through the real dynamic-provider host (engine harness), against the mock server:
// create, clean refresh, update, replace, delete, drift, import, destroy; and the serialized provider
// holds no credential.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readState, runHarness } from "../harness";
import { runOptions, tempDir, useMock } from "./support/fixtures";
import { findLeaks } from "./support/oracles/leaks";

const program = path.join(__dirname, "programs", "auth-provider");
const SSO_SECRET = "harness-sso-client-secret-42";
const PARTNER_KEY = "harness-partner-api-key-0123456789";

describe("AuthProvider through the dynamic-provider host", function () {
  this.timeout(120_000);
  let token: string;
  let stateFile: string;
  const mock = useMock({}, (server) => {
    // A token for two frontdoors, so a frontdoorId change (replacement) can be exercised.
    token = server.frontdoor.issueToken({
      frontdoorIds: [server.credentials.frontdoorId, "fd-second"],
      ttlSeconds: 3600,
    });
    stateFile = path.join(tempDir("fd-ap-"), "dev.json");
  });
  const fd = () => mock.credentials.frontdoorId;

  const opts = runOptions(() => ({
    programDir: program,
    stateFile,
    config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": fd() },
    secretConfig: { "frontdoor:token": token, ssoClientSecret: SSO_SECRET, partnerApiKey: PARTNER_KEY },
  }));
  const up = async (config?: Record<string, string>) => {
    const result = await runHarness("up", opts(config));
    assert.equal(result.exitCode, 0, result.stderr + result.stdout);
    return result.report;
  };
  const op = (report: any, name: string) => report.resources.find((r: any) => r.name === name)?.op;
  const providers = () => mock.frontdoor.list(fd(), "auth-providers") as any[];

  it("creates both providers with real ids and outputs", async () => {
    const report = await up();
    assert.equal(op(report, "sso"), "create");
    assert.equal(op(report, "partner"), "create");
    assert.deepEqual(
      providers()
        .map((p) => p.name)
        .sort(),
      ["corp-sso", "partner-api-key"],
    );
    const sso = providers().find((p) => p.name === "corp-sso");
    assert.equal(report.outputs.ssoId, sso.id);
    assert.equal(report.outputs.ssoName, "corp-sso");
  });

  it("keeps secrets out of the state file, and credentials out of the tiny serialized provider", async () => {
    const raw = fs.readFileSync(stateFile, "utf8");
    // In any encoded form (plain, JSON-escaped, base64, hex, URL-encoded: test/support/oracles/leaks.ts).
    const secrets = Object.entries({ SSO_SECRET, PARTNER_KEY, token }).map(([label, value]) => ({
      label,
      value,
    }));
    assert.deepEqual(findLeaks(secrets, [["state file", raw]]), [], "a secret in the state file");
    const state = readState(stateFile);
    for (const resource of state.resources) {
      const serialized = resource.inputs.__provider as string;
      assert.ok(serialized.length < 2048, `__provider is ${serialized.length} bytes`);
      assert.match(serialized, /require\("pulumi-frontdoor\/bin\/provider\/kinds\/AuthProvider\.js"\)/);
      assert.doesNotMatch(serialized, /token|password|secret|fd-demo|127\.0\.0\.1/i);
    }
  });

  it("refreshes clean right after up", async () => {
    const result = await runHarness("refresh", { ...opts(), expectNoChanges: true });
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    assert.deepEqual(result.report.changes, []);
  });

  it("updates in place when name and enabled change", async () => {
    const before = providers().find((p) => p.name === "corp-sso");
    const report = await up({ name: "corp-sso-2", enabled: "false" });
    assert.equal(op(report, "sso"), "update");
    assert.equal(op(report, "partner"), "same");
    const after = providers().find((p) => p.id === before.id);
    assert.equal(after.name, "corp-sso-2");
    assert.equal(after.enabled, false);
  });

  it("reports drift made behind its back, exactly, and fails --expect-no-changes", async () => {
    const sso = providers().find((p) => p.name === "corp-sso-2");
    mock.frontdoor.patch(fd(), "auth-providers", sso.id, { enabled: true });
    const result = await runHarness("refresh", {
      ...opts({ name: "corp-sso-2", enabled: "false" }),
      expectNoChanges: true,
    });
    assert.equal(result.exitCode, 1);
    assert.equal(result.report.changes.length, 1);
    const [change] = result.report.changes;
    assert.equal(change.name, "sso");
    assert.equal(change.kind, "update");
    assert.deepEqual(change.properties, [
      { name: "enabled", old: false, new: true, leaves: [{ path: "enabled", old: false, new: true }] },
    ]);
    // The next up puts it back.
    const report = await up({ name: "corp-sso-2", enabled: "false" });
    assert.equal(op(report, "sso"), "update");
    assert.equal(providers().find((p) => p.id === sso.id).enabled, false);
  });

  it("replaces when the frontdoor changes (create the new one, then delete the old)", async () => {
    const old = providers().find((p) => p.name === "corp-sso-2");
    const report = await up({ name: "corp-sso-2", enabled: "false", frontdoorId: "fd-second" });
    assert.equal(op(report, "sso"), "replace");
    assert.equal(mock.frontdoor.get(fd(), "auth-providers", old.id), undefined);
    assert.equal(mock.frontdoor.list("fd-second", "auth-providers").length, 1);
  });

  it("deletes a provider removed from the program", async () => {
    const report = await up({
      name: "corp-sso-2",
      enabled: "false",
      frontdoorId: "fd-second",
      withPartner: "false",
    });
    assert.equal(op(report, "partner"), "delete");
    assert.equal(providers().length, 0);
  });

  it("destroys everything", async () => {
    const result = await runHarness("destroy", opts({ frontdoorId: "fd-second", withPartner: "false" }));
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(mock.frontdoor.list("fd-second", "auth-providers").length, 0);
    assert.equal(readState(stateFile).resources.length, 0);
  });

  it("imports an existing provider by <frontdoorId>/<id>, then shows no changes", async () => {
    const created = await createdElsewhere("frontdoor", {
      scopes: ["openid", "email"],
      supports_pkce: false,
    });
    // A new stack: the harness, like `pulumi config`, keeps the config of earlier runs in the state.
    stateFile = path.join(path.dirname(stateFile), "import.json");
    const config = { withPartner: "false", importId: `${fd()}/${created.id}` };
    const imported = await up(config);
    assert.equal(op(imported, "sso"), "import");
    assert.equal(imported.outputs.ssoId, created.id);
    const again = await up(config);
    assert.equal(op(again, "sso"), "same");
    await runHarness("destroy", opts(config));
    assert.equal(providers().length, 0);
  });

  /** An OIDC provider made outside Pulumi, without scopes (and without a PKCE flag) unless `data` has them. */
  const createdElsewhere = (clientId: string, data: Record<string, unknown> = {}) =>
    fetch(`${mock.url}/frontdoor/${fd()}/auth-providers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "corp-sso",
        type: "OIDC",
        data: {
          issuer: "https://login.example.com/realms/corp",
          client_id: clientId,
          client_secret: SSO_SECRET,
          ...data,
        },
      }),
    }).then((r) => r.json() as Promise<{ id: string }>);

  it("imports an OIDC provider made without scopes from a declaration that leaves scopes unset", async () => {
    const created = await createdElsewhere("frontdoor");
    stateFile = path.join(path.dirname(stateFile), "import-no-scopes.json");
    const config = { withPartner: "false", omitScopes: "true", importId: `${fd()}/${created.id}` };
    const imported = await up(config);
    assert.equal(op(imported, "sso"), "import");
    assert.equal(op(await up(config), "sso"), "same");
    const clean = await runHarness("refresh", opts(config, { expectNoChanges: true }));
    assert.equal(clean.exitCode, 0, clean.stderr + clean.stdout);
    assert.equal((mock.frontdoor.get(fd(), "auth-providers", created.id) as any).data.scopes, undefined);
    // A rename leaves the object's (missing) scopes alone: no scopes are invented on update.
    await up({ ...config, name: "corp-sso-renamed" });
    const after = mock.frontdoor.get(fd(), "auth-providers", created.id) as any;
    assert.equal(after.name, "corp-sso-renamed");
    assert.equal(after.data.scopes, undefined);
    await runHarness("destroy", opts(config));
  });

  it("a failing import names the leaf property that differs, never a secret", async () => {
    const created = await createdElsewhere("someone-else");
    stateFile = path.join(path.dirname(stateFile), "import-mismatch.json");
    const config = { withPartner: "false", omitScopes: "true", importId: `${fd()}/${created.id}` };
    const result = await runHarness("up", opts(config));
    assert.notEqual(result.exitCode, 0);
    const message = result.report.failures.map((f) => f.message).join("\n");
    assert.match(message, /import of sso .* would change properties \[data\.client_id\]/);
    assert.ok(!(result.stdout + result.stderr).includes(SSO_SECRET));
    mock.frontdoor.remove(fd(), "auth-providers", created.id);
  });
});
