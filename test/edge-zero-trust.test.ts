// The zero-trust-app example through the real dynamic-provider host (engine harness) against the
// mock controller: "the group app-users may reach the app" is created as declared, an `up` again
// changes nothing, refresh is clean, changes behind Pulumi's back are reported on exactly the
// resources and properties that changed, `up` puts them back, and destroy leaves nothing behind.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type HarnessResult, runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { mockConfig } from "./support/engine";
import { changes, ops } from "./support/report";

const EXAMPLE = path.join(__dirname, "..", "examples", "zero-trust-app");

describe("examples/zero-trust-app through the dynamic-provider host", function () {
  this.timeout(180_000);
  let mock: MockServer;
  let options: Parameters<typeof runHarness>[1];
  let stateFile: string;

  before(async () => {
    mock = await startMockServer();
    const { "frontdoor:edgePassword": edgePassword, ...plain } = mockConfig(mock);
    stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "zero-trust-")), "state.json");
    options = {
      programDir: EXAMPLE,
      stateFile,
      config: plain,
      secretConfig: { "frontdoor:edgePassword": edgePassword },
    };
  });
  after(() => mock?.close());

  const expectOk = (result: HarnessResult) =>
    assert.equal(result.exitCode, 0, `${result.stdout}\n${result.stderr}`);
  const named = (collection: Parameters<MockServer["edge"]["list"]>[0]) =>
    mock.edge.list(collection).filter((r) => String(r.name).startsWith("zt-"));

  it("up declares who may reach the app, exactly as written", async () => {
    const up = await runHarness("up", options);
    expectOk(up);
    assert.deepEqual(ops(up), {
      "app-intercept": "create",
      "app-host": "create",
      app: "create",
      "app-server": "create",
      alice: "create",
      "app-bind": "create",
      "app-dial": "create",
      "app-routers": "create",
      "app-service-routers": "create",
    });
    const outputs = up.report.outputs as any;
    assert.equal(outputs.aliceJwt, "[secret]");
    assert.equal(outputs.appHostJwt, "[secret]");
    const service = mock.edge.get("services", outputs.serviceId)!;
    assert.deepEqual(service.configs, [outputs.configIds.intercept, outputs.configIds.host].sort());
    assert.deepEqual(service.roleAttributes, ["app"]);
    assert.equal(mock.edge.get("configs", outputs.configIds.intercept)?.configTypeId, "g7cIWbcGg");
    assert.equal(mock.edge.get("configs", outputs.configIds.host)?.configTypeId, "NH5p4FpGR");
    const dial = mock.edge.get("service-policies", outputs.policyIds.dial)!;
    assert.deepEqual([dial.type, dial.identityRoles, dial.serviceRoles], ["Dial", ["#app-users"], ["#app"]]);
    const bind = mock.edge.get("service-policies", outputs.policyIds.bind)!;
    assert.deepEqual([bind.type, bind.identityRoles], ["Bind", [`@${outputs.identityIds.appHost}`]]);
    assert.deepEqual(mock.edge.get("identities", outputs.identityIds.alice)?.roleAttributes, ["app-users"]);
    assert.deepEqual(
      mock.edge.get("service-edge-router-policies", outputs.policyIds.serviceEdgeRouter)?.serviceRoles,
      ["#app"],
    );
    // The serialized provider stays small (a require of the installed package), with no secret.
    for (const r of up.report.resources.filter((x) => x.providerBytes)) assert.ok(r.providerBytes! < 4096);
    assert.ok(!fs.readFileSync(stateFile, "utf8").includes(mock.credentials.edgePassword));
  });

  it("up again changes nothing and refresh is clean", async () => {
    const again = await runHarness("up", options);
    expectOk(again);
    assert.deepEqual(
      Object.entries(ops(again)).filter(([, op]) => op !== "same"),
      [],
    );
    expectOk(await runHarness("refresh", { ...options, expectNoChanges: true }));
  });

  it("reports changes behind its back exactly, and up puts them back", async () => {
    const [dial] = named("service-policies").filter((p) => p.type === "Dial");
    const [service] = named("services");
    const [intercept] = named("configs").filter((c) => c.configTypeId === "g7cIWbcGg");
    const [serp] = named("service-edge-router-policies");
    mock.edge.patch("service-policies", dial.id, { identityRoles: ["#app-users", "#contractors"] });
    mock.edge.patch("services", service.id, { configs: [intercept.id] });
    mock.edge.patch("configs", intercept.id, {
      data: { protocols: ["tcp"], addresses: ["app.ziti"], portRanges: [{ low: 1, high: 65535 }] },
    });
    // Reordered roles are not drift.
    mock.edge.patch("service-edge-router-policies", serp.id, { serviceRoles: ["#app"] });

    const drift = await runHarness("refresh", { ...options, expectNoChanges: true });
    assert.equal(drift.exitCode, 1, "--expect-no-changes fails on drift");
    assert.deepEqual(changes(drift), {
      "app-dial": ["identityRoles"],
      app: ["configs"],
      "app-intercept": ["data"],
    });
    const up = await runHarness("up", options);
    expectOk(up);
    assert.deepEqual(
      Object.entries(ops(up))
        .filter(([, op]) => op !== "same")
        .sort(),
      [
        ["app", "update"],
        ["app-dial", "update"],
        ["app-intercept", "update"],
      ],
    );
    assert.deepEqual(mock.edge.get("service-policies", dial.id)?.identityRoles, ["#app-users"]);
    expectOk(await runHarness("refresh", { ...options, expectNoChanges: true }));
  });

  it("a deleted policy leaves the state on refresh and up recreates it", async () => {
    const [dial] = named("service-policies").filter((p) => p.type === "Dial");
    assert.ok(mock.edge.remove("service-policies", dial.id));
    const drift = await runHarness("refresh", { ...options, expectNoChanges: true });
    assert.deepEqual(changes(drift), { "app-dial": "delete" });
    const up = await runHarness("up", options);
    expectOk(up);
    assert.equal(ops(up)["app-dial"], "create");
  });

  it("destroy leaves nothing behind", async () => {
    expectOk(await runHarness("destroy", options));
    for (const collection of [
      "configs",
      "services",
      "service-policies",
      "service-edge-router-policies",
      "edge-router-policies",
      "identities",
    ] as const) {
      assert.deepEqual(named(collection), [], `${collection} left behind`);
    }
  });
});
