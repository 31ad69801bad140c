// Service, ServicePolicy, ServiceEdgeRouterPolicy, ConfigType and Config through the provider's host
// entry points against the mock controller: create, refresh without drift, update (PUT), a change
// behind the provider's back reported on exactly the changed properties, import by id without diff,
// replacement, delete, 404 as gone, and check-time validation of config data.
import assert from "node:assert/strict";
import { type Props, UNKNOWN } from "../provider/resource";
import { resourceDefinition } from "../provider/resources";
import { createChecked, engine, expectNoDrift, importById, refresh, updateChecked } from "./edge-support";
import { requestsTo, useMockProvider } from "./support/fixtures";

const INTERCEPT = { protocols: ["tcp"], addresses: ["app.ziti"], portRanges: [{ low: 443, high: 443 }] };
const HOST = { protocol: "tcp", address: "127.0.0.1", port: 8443 };

describe("Edge services, policies and configs", () => {
  const mock = useMockProvider();

  const requests = requestsTo(mock);

  /** The properties a refresh reports as changed (as the engine's Diff sees them). */
  async function drifted(kind: string, id: string, outs: Props, inputs: Props): Promise<string[] | "gone"> {
    const result = await refresh(kind, id, outs, inputs);
    if (result.gone) return "gone";
    return [...result.diff.changed].sort();
  }

  /** check failures as `property: reason`. */
  async function failures(kind: string, inputs: Props): Promise<string[]> {
    return (await engine.check(kind, {}, inputs)).failures.map((f) => `${f.property}: ${f.reason}`);
  }

  describe("ConfigType", () => {
    const schema = {
      type: "object",
      properties: { upstream: { type: "string" }, retries: { type: "integer", minimum: 0 } },
      required: ["upstream"],
      additionalProperties: false,
    };

    it("creates, refreshes and imports clean, updates with PUT, detects drift exactly, replaces on target", async () => {
      const inputs = { name: "acme-proxy.v1", schema, tags: { team: "net" } };
      const { id, outs } = await createChecked("ConfigType", inputs);
      assert.equal(outs.target, "service");
      assert.deepEqual(mock.edge.get("config-types", id)?.schema, schema);
      await expectNoDrift("ConfigType", id, outs, inputs);
      await importById("ConfigType", id, inputs);

      const news = { ...inputs, schema: { ...schema, required: ["upstream", "retries"] }, tags: {} };
      const { result } = await updateChecked("ConfigType", id, outs, news);
      assert.equal(requests("PUT", `/config-types/${id}`).length, 1);
      assert.deepEqual(mock.edge.get("config-types", id)?.tags, {});
      const updated = result!.outs as Props;
      await expectNoDrift("ConfigType", id, updated, news);

      mock.edge.patch("config-types", id, { schema: { type: "object" } });
      assert.deepEqual(await drifted("ConfigType", id, updated, news), ["schema"]);

      const diff = await engine.diff("ConfigType", id, updated, { ...news, target: "router" });
      assert.deepEqual(diff.replaces, ["target"]);
      assert.equal(diff.deleteBeforeReplace, true);
      await engine.remove("ConfigType", id, updated);
      assert.equal(await drifted("ConfigType", id, updated, news), "gone");
      await engine.remove("ConfigType", id, updated); // already gone: fine
    });

    it("never lists the built-in types for import", async () => {
      const ids = await resourceDefinition("ConfigType").list!(
        (await import("../provider/engine")).context(),
        {},
      );
      for (const builtIn of ["g7cIWbcGg", "NH5p4FpGR", "host.v2"]) assert.ok(!ids.includes(builtIn));
    });
  });

  describe("Config", () => {
    it("selects the type by name (looked up on the controller) and imports without diff", async () => {
      const inputs = { name: "app-intercept", configTypeName: "intercept.v1", data: INTERCEPT };
      const { id, outs } = await createChecked("Config", inputs);
      assert.equal(outs.configTypeId, "g7cIWbcGg");
      assert.equal(outs.configTypeName, "intercept.v1");
      assert.ok(
        requests("GET", "/config-types").some((e) => /intercept\.v1/.test(decodeURIComponent(e.query ?? ""))),
      );
      await expectNoDrift("Config", id, outs, inputs);
      await importById("Config", id, inputs);
      // Declared by id instead: the same object, no change.
      await importById("Config", id, { name: "app-intercept", configTypeId: "g7cIWbcGg", data: INTERCEPT });

      const news = {
        ...inputs,
        data: {
          ...INTERCEPT,
          portRanges: [
            { low: 80, high: 80 },
            { low: 443, high: 443 },
          ],
        },
      };
      const { diff, result } = await updateChecked("Config", id, outs, news);
      assert.deepEqual(diff.replaces, []);
      const put = requests("PUT", `/configs/${id}`);
      assert.equal(put.length, 1);
      assert.doesNotMatch(put[0].body ?? "", /configTypeId/);
      const updated = result!.outs as Props;
      await expectNoDrift("Config", id, updated, news);

      mock.edge.patch("configs", id, { data: { ...INTERCEPT, addresses: ["evil.ziti"] } });
      assert.deepEqual(await drifted("Config", id, updated, news), ["data"]);

      const replace = await engine.diff("Config", id, updated, { ...news, configTypeName: "host.v1" });
      assert.deepEqual(replace.replaces, ["configTypeName"]);
      await engine.remove("Config", id, updated);
      assert.equal(await drifted("Config", id, updated, news), "gone");
    });

    it("checks intercept.v1, host.v1 and host.v2 data at check time, naming the property", async () => {
      mock.clearLog();
      const bad = (configTypeName: string, data: Props) =>
        failures("Config", { name: "c", configTypeName, data });
      assert.deepEqual(await bad("intercept.v1", { ...INTERCEPT, portRanges: [{ low: 443, high: 70000 }] }), [
        "data.portRanges.0.high: Too big: expected number to be <=65535 (intercept.v1)",
      ]);
      assert.match(
        (await bad("intercept.v1", { ...INTERCEPT, protocols: ["icmp"] }))[0],
        /^data\.protocols\.0: /,
      );
      assert.match(
        (await bad("intercept.v1", { ...INTERCEPT, hostname: "x" }))[0],
        /^data\.hostname: unknown property/,
      );
      assert.match(
        (await bad("intercept.v1", { protocols: ["tcp"], addresses: ["a"] }))[0],
        /^data\.portRanges: /,
      );
      assert.deepEqual(await bad("host.v1", { protocol: "tcp", address: "10.0.0.1" }), [
        "data.port: required unless forwardPort is true (host.v1)",
      ]);
      assert.deepEqual(await bad("host.v1", { ...HOST, forwardPort: true }), [
        "data.allowedPortRanges: required when forwardPort is true (host.v1)",
      ]);
      assert.match(
        (await bad("host.v2", { terminators: [{ ...HOST, port: -1 }] }))[0],
        /^data\.terminators\.0\.port: /,
      );
      assert.match((await bad("host.v2", { terminators: [] }))[0], /^data\.terminators: /);
      // By id of a built-in type: the same checks.
      assert.match(
        (await failures("Config", { name: "c", configTypeId: "NH5p4FpGR", data: { address: "x" } }))[0],
        /^data\.(protocol|port): /,
      );
      assert.deepEqual(
        await failures("Config", {
          name: "c",
          configTypeName: "host.v1",
          configTypeId: "g7cIWbcGg",
          data: HOST,
        }),
        ['configTypeId: is the id of "intercept.v1", not of configTypeName "host.v1"'],
      );
      assert.deepEqual(await failures("Config", { name: "c", data: {} }), [
        "configTypeName: required: set configTypeName (or configTypeId)",
      ]);
      // Valid data of every typed kind passes; unknown values (preview) are checked later.
      assert.deepEqual(await bad("host.v1", { ...HOST, listenOptions: { precedence: "required" } }), []);
      assert.deepEqual(
        await bad("host.v1", {
          forwardProtocol: true,
          allowedProtocols: ["tcp", "udp"],
          address: "a",
          port: 1,
        }),
        [],
      );
      assert.deepEqual(await bad("host.v2", { terminators: [HOST, { ...HOST, port: 9443 }] }), []);
      assert.deepEqual(await bad("intercept.v1", { ...INTERCEPT, portRanges: UNKNOWN }), []);
      assert.deepEqual(mock.log, [], "check made a request");
    });

    it("other types' data is checked by the controller against the type's schema", async () => {
      const type = await createChecked("ConfigType", {
        name: "acme-limits.v1",
        schema: { type: "object", properties: { rps: { type: "integer" } }, required: ["rps"] },
      });
      assert.deepEqual(
        await failures("Config", { name: "l", configTypeId: type.id, data: { rps: "x" } }),
        [],
      );
      await assert.rejects(
        createChecked("Config", { name: "limits", configTypeName: "acme-limits.v1", data: { rps: "many" } }),
        (err: Error) => {
          assert.match(err.message, /Config "limits".*HTTP 400.*COULD_NOT_VALIDATE/);
          assert.match(err.message, /data\.rps/);
          return true;
        },
      );
      await assert.rejects(
        createChecked("Config", { name: "nope", configTypeName: "no-such-type.v9", data: {} }),
        /Config "nope": there is no config type named "no-such-type.v9"/,
      );
      await assert.rejects(
        createChecked("Config", {
          name: "mixed",
          configTypeName: "acme-limits.v1",
          configTypeId: "someOtherId",
          data: { rps: 1 },
        }),
        /Config "mixed": configTypeId someOtherId is not the id of config type "acme-limits.v1"/,
      );
      const limits = await createChecked("Config", {
        name: "limits",
        configTypeId: type.id,
        data: { rps: 5 },
      });
      assert.equal(limits.outs.configTypeName, "acme-limits.v1");
      // A config type with configs cannot be deleted: the error names it and the controller's answer.
      await assert.rejects(
        engine.remove("ConfigType", type.id, type.outs),
        /ConfigType "acme-limits\.v1".*409/,
      );
      await engine.remove("Config", limits.id, limits.outs);
      await engine.remove("ConfigType", type.id, type.outs);
    });
  });

  describe("ambiguous creates", () => {
    it("a create whose answer was lost adopts the object it made, for every new kind", async () => {
      const declared: Array<[string, string, Props]> = [
        ["ConfigType", "config-types", { name: "lost-type.v1" }],
        ["Config", "configs", { name: "lost-config", configTypeName: "host.v1", data: HOST }],
        ["Service", "services", { name: "lost-service", roleAttributes: ["lost"] }],
        ["ServicePolicy", "service-policies", { name: "lost-dial", type: "Dial", serviceRoles: ["#lost"] }],
        [
          "ServiceEdgeRouterPolicy",
          "service-edge-router-policies",
          { name: "lost-serp", serviceRoles: ["#lost"] },
        ],
      ];
      for (const [kind, collection, inputs] of declared) {
        mock.faults.inject({
          method: "POST",
          path: `/edge/management/v1/${collection}`,
          kind: "commit-then-drop",
        });
        const { id, outs } = await createChecked(kind, inputs);
        const named = mock.edge.list(collection as any).filter((r) => r.name === inputs.name);
        assert.deepEqual(
          named.map((r) => r.id),
          [id],
          `${kind}: one object, adopted`,
        );
        await expectNoDrift(kind, id, outs, inputs);
        await engine.remove(kind, id, outs);
      }
      mock.faults.clear();
    });
  });

  describe("Service", () => {
    it("creates with configs and attributes as sets, server defaults, no drift, PUT updates, exact drift", async () => {
      const intercept = await createChecked("Config", {
        name: "svc-intercept",
        configTypeName: "intercept.v1",
        data: INTERCEPT,
      });
      const host = await createChecked("Config", { name: "svc-host", configTypeName: "host.v1", data: HOST });
      const inputs = {
        name: "billing",
        configs: [host.id, intercept.id].sort().reverse(),
        roleAttributes: ["zeta", "billing"],
      };
      const { id, outs } = await createChecked("Service", inputs);
      assert.equal(outs.encryptionRequired, true);
      assert.equal(outs.terminatorStrategy, "smartrouting");
      assert.equal(outs.maxIdleTimeMillis, 0);
      assert.match(requests("POST", "/services").at(-1)?.body ?? "", /"encryptionRequired":true/);
      await expectNoDrift("Service", id, outs, inputs);
      await importById("Service", id, inputs);

      const news = { ...inputs, configs: [intercept.id], roleAttributes: [], terminatorStrategy: "random" };
      const { diff, result } = await updateChecked("Service", id, outs, news);
      assert.deepEqual(diff.replaces, []);
      assert.equal(requests("PUT", `/services/${id}`).length, 1);
      const stored = mock.edge.get("services", id)!;
      assert.deepEqual(stored.configs, [intercept.id]);
      assert.deepEqual(stored.roleAttributes, []);
      const updated = result!.outs as Props;
      await expectNoDrift("Service", id, updated, news);

      mock.edge.patch("services", id, { maxIdleTimeMillis: 5000, roleAttributes: ["intruder"] });
      assert.deepEqual(await drifted("Service", id, updated, news), ["maxIdleTimeMillis", "roleAttributes"]);

      const replace = await engine.diff("Service", id, updated, { ...news, encryptionRequired: false });
      assert.deepEqual(replace.replaces, ["encryptionRequired"]);
      assert.equal(replace.deleteBeforeReplace, true);
      await engine.remove("Service", id, updated);
      assert.equal(await drifted("Service", id, updated, news), "gone");
      for (const c of [intercept, host]) await engine.remove("Config", c.id, c.outs);
    });

    it("a minimal service (roleAttributes null on the controller) refreshes clean; bad configs fail clearly", async () => {
      const { id, outs } = await createChecked("Service", { name: "minimal" });
      // A controller that answers null for the unset attributes: not drift.
      mock.edge.patch("services", id, { roleAttributes: null });
      await expectNoDrift("Service", id, outs, { name: "minimal" });
      await importById("Service", id, { name: "minimal" });
      await engine.remove("Service", id, outs);
      await assert.rejects(
        createChecked("Service", { name: "broken", configs: ["no-such-config"] }),
        /Service "broken".*HTTP 400.*no config found/,
      );
      assert.match((await failures("Service", { name: "x", configs: ["a", "a"] }))[0], /^configs: /);
      assert.match(
        (await failures("Service", { name: "x", maxIdleTimeMillis: -1 }))[0],
        /^maxIdleTimeMillis: /,
      );
    });
  });

  describe("ServicePolicy and ServiceEdgeRouterPolicy", () => {
    it("ServicePolicy: roles as sets, semantic sent, PUT updates, exact drift, import, 404 as gone", async () => {
      const inputs = {
        name: "billing-dial",
        type: "Dial",
        identityRoles: ["#billing-users", "#admins"],
        serviceRoles: ["#billing"],
        postureCheckRoles: ["#mfa", "#domain"],
      };
      const { id, outs } = await createChecked("ServicePolicy", inputs);
      assert.deepEqual(mock.edge.get("service-policies", id)?.identityRoles, ["#admins", "#billing-users"]);
      assert.equal(outs.semantic, "AllOf");
      assert.deepEqual(outs.serviceRolesDisplay, [{ role: "#billing", name: "#billing" }]);
      assert.match(requests("POST", "/service-policies").at(-1)?.body ?? "", /"semantic":"AllOf"/);
      await expectNoDrift("ServicePolicy", id, outs, inputs);
      await importById("ServicePolicy", id, inputs);

      const news = { ...inputs, type: "Bind", semantic: "AnyOf", postureCheckRoles: [] };
      const { result } = await updateChecked("ServicePolicy", id, outs, news);
      assert.equal(requests("PUT", `/service-policies/${id}`).length, 1);
      assert.deepEqual(mock.edge.get("service-policies", id)?.postureCheckRoles, []);
      assert.equal(mock.edge.get("service-policies", id)?.type, "Bind");
      const updated = result!.outs as Props;
      await expectNoDrift("ServicePolicy", id, updated, news);

      const stored = mock.edge.get("service-policies", id)!;
      mock.edge.patch("service-policies", id, {
        identityRoles: [...(stored.identityRoles as string[])].reverse(), // reordered: not drift
        serviceRoles: ["#everything"],
      });
      assert.deepEqual(await drifted("ServicePolicy", id, updated, news), ["serviceRoles"]);
      mock.edge.remove("service-policies", id);
      assert.equal(await drifted("ServicePolicy", id, updated, news), "gone");
      await engine.remove("ServicePolicy", id, updated); // 404: already gone
    });

    it("ServicePolicy: bad inputs fail at check time, naming the property", async () => {
      assert.deepEqual(
        (
          await engine.check(
            "ServicePolicy",
            {},
            { name: "p", identityRoles: ["#all", "#x"], serviceRoles: ["svc"] },
          )
        ).failures
          .map((f) => f.property)
          .sort(),
        ["identityRoles", "serviceRoles.0", "type"],
      );
      assert.match((await failures("ServicePolicy", { name: "p", type: "Invalid" }))[0], /^type: /);
    });

    it("ServiceEdgeRouterPolicy: roles as sets, update, exact drift, import, delete", async () => {
      const inputs = {
        name: "billing-routers",
        serviceRoles: ["#billing", "#app"],
        edgeRouterRoles: ["#all"],
      };
      const { id, outs } = await createChecked("ServiceEdgeRouterPolicy", inputs);
      assert.deepEqual(mock.edge.get("service-edge-router-policies", id)?.serviceRoles, ["#app", "#billing"]);
      await expectNoDrift("ServiceEdgeRouterPolicy", id, outs, inputs);
      await importById("ServiceEdgeRouterPolicy", id, inputs);
      const news = { ...inputs, edgeRouterRoles: ["#west"], tags: { tier: "1" } };
      const { result } = await updateChecked("ServiceEdgeRouterPolicy", id, outs, news);
      assert.equal(requests("PUT", `/service-edge-router-policies/${id}`).length, 1);
      const updated = result!.outs as Props;
      await expectNoDrift("ServiceEdgeRouterPolicy", id, updated, news);
      mock.edge.patch("service-edge-router-policies", id, { semantic: "AnyOf", tags: {} });
      assert.deepEqual(await drifted("ServiceEdgeRouterPolicy", id, updated, news), ["semantic", "tags"]);
      await engine.remove("ServiceEdgeRouterPolicy", id, updated);
      assert.equal(mock.edge.get("service-edge-router-policies", id), undefined);
    });
  });
});
