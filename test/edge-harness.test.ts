// Every Edge resource kind through the real dynamic-provider host (the engine harness): up, a clean
// refresh, update and replacement, drift detection, destroy, adoption with the `import` option, and
// the edge-access example.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type Command, runHarness } from "../harness";
import { EdgeClient } from "../provider/http/edge";
import { testCa } from "./edge-support";
import { fullPrimary } from "./support/edge-objects";
import { harnessConfig, useHarnessSetup, useMock } from "./support/fixtures";

const PROGRAM = path.join(__dirname, "programs", "edge-lifecycle");
const EXAMPLE = path.join(__dirname, "..", "examples", "edge-access");

describe("Edge resources through the dynamic-provider host", function () {
  this.timeout(120_000);
  const pki = [testCa("Lifecycle CA 1"), testCa("Lifecycle CA 2")];
  const mock = useMock();
  const setup = useHarnessSetup(
    mock,
    "edge-harness-",
    () => ({
      config: { caCertPem: pki[0].certPem, caCertPem2: pki[1].certPem },
      secretConfig: { caKeyPem: pki[0].keyPem, caKeyPem2: pki[1].keyPem },
    }),
    ["frontdoor:edgePassword"],
  );

  const run = (command: Command, stateFile: string, extra: Record<string, unknown> = {}) =>
    runHarness(command, {
      programDir: PROGRAM,
      stateFile: path.join(setup.dir, stateFile),
      ...extra,
      config: { ...setup.config, ...((extra.config as Record<string, string>) ?? {}) },
      secretConfig: setup.secretConfig,
    });

  const ops = (report: any) =>
    Object.fromEntries(
      report.resources.filter((r: any) => r.type !== "pulumi:pulumi:Stack").map((r: any) => [r.name, r.op]),
    );
  const expectOk = (result: any) => assert.equal(result.exitCode, 0, `${result.stdout}\n${result.stderr}`);

  it("creates, refreshes clean, updates and replaces, detects drift, destroys", async () => {
    const up = await run("up", "lc.json", { config: { stage: "1" } });
    expectOk(up);
    assert.deepEqual(ops(up.report), { ca: "create", policy: "create", user: "create", erp: "create" });
    assert.equal(up.report.outputs.caVerified, true);
    assert.equal(up.report.outputs.userType, "User");
    assert.equal(up.report.outputs.userJwt, "[secret]");
    const caId = up.report.outputs.caId;
    assert.equal(mock.edge.get("cas", caId)?.isVerified, true);
    // The serialized provider stays small: a require of the installed package, no secrets.
    for (const r of up.report.resources.filter((x: any) => x.providerBytes))
      assert.ok(r.providerBytes < 4096);
    const state = fs.readFileSync(path.join(setup.dir, "lc.json"), "utf8");
    for (const secret of [mock.credentials.edgePassword, pki[0].keyPem.split("\n")[1]]) {
      assert.ok(!state.includes(secret), "a secret is stored in clear text");
    }

    // (A clean refresh right after creation is covered by the import and example tests.)
    const update = await run("up", "lc.json", { config: { stage: "2" } });
    expectOk(update);
    assert.deepEqual(ops(update.report), { ca: "replace", policy: "update", user: "update", erp: "update" });
    assert.notEqual(update.report.outputs.caId, caId);
    assert.equal(mock.edge.get("cas", caId), undefined);
    assert.equal(update.report.outputs.caVerified, true);
    expectOk(await run("refresh", "lc.json", { config: { stage: "2" }, expectNoChanges: true }));

    mock.edge.patch("edge-router-policies", update.report.outputs.erpId, { identityRoles: ["#intruders"] });
    const drift = await run("refresh", "lc.json", { config: { stage: "2" }, expectNoChanges: true });
    assert.equal(drift.exitCode, 1);
    assert.deepEqual(
      drift.report.changes.map((c: any) => c.name),
      ["erp"],
    );

    expectOk(await run("destroy", "lc.json", { config: { stage: "2" } }));
    for (const collection of ["cas", "auth-policies", "edge-router-policies"] as const) {
      assert.deepEqual(
        mock.edge.list(collection).filter((r) => String(r.name).startsWith("lc-")),
        [],
        `${collection} left behind`,
      );
    }
    assert.equal(mock.edge.list("identities").filter((r) => r.name === "lc-user").length, 0);
  });

  it("adopts existing objects with the import option, then manages them", async () => {
    const client = new EdgeClient({
      edgeUrl: mock.url,
      edgeUsername: "admin",
      edgePassword: mock.credentials.edgePassword,
    });
    const caId = await client.create(
      "/cas",
      {
        name: "im-ca",
        certPem: pki[0].certPem,
        isAuthEnabled: false,
        isAutoCaEnrollmentEnabled: false,
        isOttCaEnrollmentEnabled: true,
        identityRoles: ["devices"],
      },
      "ca",
    );
    const policyId = await client.create(
      "/auth-policies",
      {
        name: "im-policy",
        primary: fullPrimary({ updb: { minPasswordLength: 10 } }),
        secondary: { requireTotp: false, requireExtJwtSigner: null },
      },
      "policy",
    );
    const identityId = await client.create(
      "/identities",
      {
        name: "im-user",
        type: "User",
        isAdmin: false,
        authPolicyId: policyId,
        roleAttributes: ["employees"],
      },
      "identity",
    );
    const erpId = await client.create(
      "/edge-router-policies",
      {
        name: "im-erp",
        semantic: "AllOf",
        identityRoles: ["#devices", "#employees"],
        edgeRouterRoles: ["#all"],
      },
      "erp",
    );
    await client.close();
    const importIds = JSON.stringify({
      ca: caId,
      authPolicy: policyId,
      identity: identityId,
      edgeRouterPolicy: erpId,
    });
    const stage1 = { stage: "1", prefix: "im", importIds };
    const adopted = await run("up", "im.json", { config: stage1 });
    expectOk(adopted);
    assert.deepEqual(ops(adopted.report), { ca: "import", policy: "import", user: "import", erp: "import" });
    assert.equal(adopted.report.outputs.userId, identityId);
    expectOk(await run("refresh", "im.json", { config: stage1, expectNoChanges: true }));
    expectOk(await run("destroy", "im.json", { config: stage1 }));
    assert.equal(mock.edge.get("identities", identityId), undefined);
  });

  it("runs the edge-access example: up, up again without changes, clean refresh", async () => {
    const options = {
      programDir: EXAMPLE,
      stateFile: path.join(setup.dir, "example.json"),
      ...harnessConfig(mock, {}, ["frontdoor:edgePassword"]),
    };
    const up = await runHarness("up", options);
    assert.equal(up.exitCode, 0, `${up.stdout}\n${up.stderr}`);
    assert.equal(up.report.outputs.caVerified, true);
    assert.equal(up.report.outputs.laptopJwt, "[secret]");
    assert.equal(up.report.outputs.branchRouterJwt, "[secret]");
    assert.match(String(up.report.outputs.ssoSignerId), /\w+/);
    const again = await runHarness("up", options);
    assert.equal(again.exitCode, 0);
    assert.deepEqual(
      again.report.resources.filter((r: any) => r.op !== "same").map((r: any) => `${r.name}:${r.op}`),
      [],
    );
    const refresh = await runHarness("refresh", { ...options, expectNoChanges: true });
    assert.equal(refresh.exitCode, 0, `${refresh.stdout}\n${refresh.stderr}`);
  });
});
