// Drift detection for ConfigType, Config, Service, ServicePolicy and ServiceEdgeRouterPolicy through
// the real dynamic-provider host (engine harness), in the style of test/drift.test.ts: no false drift
// right after `up` (every optional input set, and none set), and changes made behind Pulumi's back,
// each reported on exactly the resource and properties that changed; a deleted object leaves the state
// and the next `up` recreates it; `up` puts everything back and the stack refreshes clean again.
import assert from "node:assert/strict";
import * as path from "node:path";
import { runStack, useHarnessSetup, useMock } from "./support/fixtures";
import {
  changes,
  createdOneOfEach,
  driftOf,
  expectOk,
  ops,
  refreshesClean,
  refreshFindsDrift,
} from "./support/report";

const PROGRAM = path.join(__dirname, "programs", "drift-zero-trust");
const KINDS = ["ConfigType", "Config", "Service", "ServicePolicy", "ServiceEdgeRouterPolicy"];
type Ids = Record<"type" | "custom" | "intercept" | "host" | "service" | "policy" | "serp", string>;

describe("Drift: services, policies and configs through the dynamic-provider host", function () {
  this.timeout(240_000);
  const mock = useMock();
  const setup = useHarnessSetup(mock, "drift-zt-", undefined, ["frontdoor:edgePassword"]);

  const stack =
    (mode: "full" | "minimal", prefix: string) =>
    (command: "up" | "refresh", expectNoChanges = false, extra: Record<string, string> = {}) =>
      runStack(setup, PROGRAM, { mode, prefix }, command, extra, expectNoChanges);
  const edge = () => mock.edge;

  describe("every optional input set", () => {
    const run = stack("full", "zf");
    let ids: Ids;

    it("refreshes clean right after up", async () => {
      ids = createdOneOfEach<Ids>(await run("up"), KINDS);
      assert.equal(edge().get("services", ids.service)?.encryptionRequired, false);
      await refreshesClean(run, "right after up (every optional input set)");
    });

    it("reports each change behind its back on exactly that resource and property", async () => {
      const type = edge().get("config-types", ids.type)!;
      edge().patch("config-types", ids.type, { schema: { ...(type.schema as object), required: [] } });
      const intercept = edge().get("configs", ids.intercept)! as any;
      edge().patch("configs", ids.intercept, { data: { ...intercept.data, sourceIp: "10.0.0.1" } });
      // Number changed; attributes and configs reordered (sets: not drift).
      const service = edge().get("services", ids.service)! as any;
      edge().patch("services", ids.service, {
        maxIdleTimeMillis: 1,
        roleAttributes: [...service.roleAttributes].reverse(),
        configs: [...service.configs].reverse(),
      });
      const policy = edge().get("service-policies", ids.policy)! as any;
      edge().patch("service-policies", ids.policy, {
        type: "Dial",
        identityRoles: [...policy.identityRoles].reverse(),
      });
      edge().patch("service-edge-router-policies", ids.serp, { tags: { region: "us" } });
      assert.ok(edge().remove("configs", ids.custom));

      const drift = await refreshFindsDrift(run, {
        type: ["schema"],
        intercept: ["data"],
        service: ["maxIdleTimeMillis"],
        policy: ["type"],
        serp: ["tags"],
        custom: "delete",
      });
      const property = (name: string, prop: string) => driftOf(drift.report, name, prop);
      assert.deepEqual(property("policy", "type"), { name: "type", old: "Bind", new: "Dial" });
      assert.deepEqual(property("service", "maxIdleTimeMillis"), {
        name: "maxIdleTimeMillis",
        old: 60000,
        new: 1,
      });
    });

    it("recreates what was deleted, puts the rest back, then refreshes clean", async () => {
      const up = await run("up");
      expectOk(up);
      assert.deepEqual(ops(up), {
        type: "update",
        custom: "create",
        intercept: "update",
        host: "same",
        service: "update",
        policy: "update",
        serp: "update",
      });
      assert.equal(edge().get("service-policies", ids.policy)?.type, "Bind");
      await refreshesClean(run, "after up put everything back");
    });

    it("replaces the service when encryptionRequired changes (the old one deleted first: names are unique)", async () => {
      const up = await run("up", false, { encrypted: "true" });
      expectOk(up);
      assert.equal(ops(up).service, "replace");
      // The Bind policy names the service by id: it follows the new one.
      assert.equal(ops(up).policy, "update");
      const next = (up.report.outputs.ids as Ids).service;
      assert.notEqual(next, ids.service);
      assert.equal(edge().get("services", ids.service), undefined);
      assert.equal(edge().get("services", next)?.encryptionRequired, true);
      assert.deepEqual(edge().get("service-policies", ids.policy)?.serviceRoles, ["#zeta", `@${next}`]);
      const clean = await run("refresh", true, { encrypted: "true" });
      assert.deepEqual(changes(clean), {});
      expectOk(clean);
    });
  });

  describe("every optional input left unset", () => {
    const run = stack("minimal", "zm");
    let ids: Ids;

    it("refreshes clean right after up, also when the controller answers null for unset attributes", async () => {
      ids = createdOneOfEach<Ids>(await run("up"), KINDS);
      assert.equal(edge().get("services", ids.service)?.terminatorStrategy, "smartrouting");
      edge().patch("services", ids.service, { roleAttributes: null });
      await refreshesClean(run, "right after up (no optional input set)");
    });

    it("reports values set behind its back on exactly that resource and property", async () => {
      edge().patch("services", ids.service, { roleAttributes: ["intruders"], terminatorStrategy: "random" });
      edge().patch("service-policies", ids.policy, { postureCheckRoles: ["#none"] });
      edge().patch("service-edge-router-policies", ids.serp, { serviceRoles: ["#all"] });
      edge().patch("config-types", ids.type, { tags: { owner: "someone" } });
      edge().patch("configs", ids.host, { data: { protocol: "udp", address: "127.0.0.1", port: 8443 } });

      const drift = await refreshFindsDrift(run, {
        service: ["roleAttributes", "terminatorStrategy"],
        policy: ["postureCheckRoles"],
        serp: ["serviceRoles"],
        type: ["tags"],
        host: ["data"],
      });
      assert.deepEqual(driftOf(drift.report, "serp", "serviceRoles"), {
        name: "serviceRoles",
        old: [],
        new: ["#all"],
      });
    });

    it("puts everything back, then refreshes clean", async () => {
      expectOk(await run("up"));
      assert.deepEqual(edge().get("services", ids.service)?.roleAttributes, []);
      assert.equal(edge().get("services", ids.service)?.terminatorStrategy, "smartrouting");
      await refreshesClean(run, "after up put everything back");
    });
  });
});
