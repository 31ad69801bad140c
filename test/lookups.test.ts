// Lookups of every Edge kind against the mock controller over real HTTP: by id and by name they answer
// what the kind's resource shows as outputs (plus the id), the list by ZitiQL filter reads every page,
// an unmatched name is an error naming kind and name while an unmatched filter is an empty list, and
// objects made outside Pulumi (raw API calls, as a console makes them) are found like any other.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { LOOKUP_KINDS, list, listName, lookup, lookupName } from "../provider/functions/lookups";
import { nameFilter } from "../provider/http/edge";
import { redact } from "../provider/redact";
import type { Props } from "../provider/resource";
import { resourceDefinitions } from "../provider/resources/all";
import * as sdk from "../sdk";
import { DECLARED_ONLY, edgeObjects } from "./support/edge-objects";
import { EdgeClient as RawClient } from "./support/edgeClient";
import { createChecked } from "./support/engine";
import { withEnv } from "./support/env";
import { edgeSettings, useMockProvider } from "./support/fixtures";

describe("Edge lookups against the mock controller", function () {
  this.timeout(60_000);
  const mock = useMockProvider();
  let settings: Record<string, string>;
  const made = new Map<string, { id: string; outs: Props }>();

  before(async () => {
    settings = edgeSettings(mock);
    for (const [kind, inputs] of edgeObjects("lk")) made.set(kind, await createChecked(kind, inputs));
  });
  beforeEach(() => mock.clearLog());

  it("covers every Edge kind, in schema.json and in the SDK", () => {
    assert.equal(LOOKUP_KINDS.length, 12);
    // A new Edge kind gets lookups too (this fails until it is added to LOOKUP_KINDS).
    const edgeKinds = resourceDefinitions.filter((d) => d.api === "edge").map((d) => d.kind);
    assert.deepEqual([...edgeKinds].sort(), [...LOOKUP_KINDS].sort());
    assert.deepEqual([...made.keys()].sort(), [...LOOKUP_KINDS].sort());
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "schema.json"), "utf8"));
    const names = Object.keys(schema.functions).map((token) => token.split(":")[2]);
    for (const kind of LOOKUP_KINDS) {
      for (const fn of [lookupName(kind), listName(kind)]) {
        assert.ok(names.includes(fn), `${fn} is not registered`);
        for (const exported of [fn, `${fn}Output`])
          assert.equal(typeof (sdk as Record<string, unknown>)[exported], "function", `sdk.${exported}`);
      }
    }
    assert.ok(
      names.includes("getIdentities") && names.includes("getCas") && names.includes("getAuthPolicies"),
    );
  });

  for (const kind of LOOKUP_KINDS) {
    it(`${kind}: by id and by name it answers the resource's outputs; the filter list finds it`, async () => {
      const { id, outs } = made.get(kind)!;
      const byId = await lookup(kind, { id }, settings);
      const byName = await lookup(kind, { name: String(outs.name) }, settings);
      assert.deepEqual(byName, byId);
      assert.equal(byId.id, id);
      // The same properties as the resource's outputs, with the same values except what the API never returns.
      assert.deepEqual(Object.keys(byId).sort(), ["id", ...Object.keys(outs)].sort());
      for (const key of Object.keys(outs)) {
        if (DECLARED_ONLY[kind]?.includes(key)) continue;
        assert.deepEqual(byId[key], outs[key], `${kind}.${key}`);
      }
      const found = await list(kind, { filter: nameFilter(String(outs.name)) }, settings);
      assert.deepEqual(found.items, [byId]);
      const none = await list(kind, { filter: 'name = "lk-nothing-has-this-name"' }, settings);
      assert.deepEqual(none, { items: [] });
      // One login for the calls of one lookup; no request without a session.
      assert.ok(
        mock.log.every((e) => e.status !== 401),
        JSON.stringify(mock.log.map((e) => e.status)),
      );
    });
  }

  it("finds the controller's default auth policy and what the API gives the Identity's server values", async () => {
    const policy = await lookup("AuthPolicy", { id: "default" }, settings);
    assert.equal(policy.name, "Default");
    assert.equal((policy.primary as Props & { updb: Props }).updb.minPasswordLength, 5);
    const user = await lookup("Identity", { name: "lk-user" }, settings);
    assert.equal(user.type, "Default"); // stored so by the controller; the resource keeps the declared "Device"
    assert.equal(user.enrollment, null);
    assert.ok(String(user.enrollmentJwt).length > 20);
    // Secret values read by a lookup are registered: no message can show them.
    assert.equal(redact(`jwt ${user.enrollmentJwt}`), "jwt [secret]");
  });

  it("finds objects made outside Pulumi (raw API calls, as the console makes them), by role attribute", async () => {
    const raw = new RawClient(mock.url);
    assert.equal((await raw.login(mock.credentials.edgeUsername, mock.credentials.edgePassword)).status, 200);
    for (const name of ["console-a", "console-b"]) {
      const reply = await raw.call("POST", "/services", {
        body: { name, encryptionRequired: true, roleAttributes: ["from-console"] },
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
    }
    const { items } = await list("Service", { filter: 'anyOf(roleAttributes) = "from-console"' }, settings);
    assert.deepEqual(items.map((s) => s.name).sort(), ["console-a", "console-b"]);
    assert.deepEqual(items[0].roleAttributes, ["from-console"]);
    const one = await lookup("Service", { name: "console-b" }, settings);
    assert.deepEqual(
      one,
      items.find((s) => s.name === "console-b"),
    );
  });

  it("reads every page of a list (more than the controller's 500 per page)", async () => {
    for (let i = 0; i < 505; i++) mock.edge.addAdmin({ username: `lk-page-${i}`, password: "pw-12345" });
    mock.clearLog();
    const { items } = await list("Identity", { filter: 'name contains "lk-page-"' }, settings);
    assert.equal(items.length, 505);
    assert.equal(new Set(items.map((i) => i.id)).size, 505);
    const pages = mock.log.filter((e) => e.method === "GET" && e.path.endsWith("/identities"));
    assert.equal(pages.length, 2);
    assert.equal((await list("Identity", {}, settings)).items.length >= 506, true);
  });

  it("fails clearly: unmatched name or id names kind and name, bad arguments name the argument", async () => {
    await assert.rejects(
      lookup("AuthPolicy", { name: "no-such-policy" }, settings),
      /getAuthPolicy: there is no AuthPolicy named "no-such-policy"/,
    );
    await assert.rejects(
      lookup("ServiceEdgeRouterPolicy", { id: "no-such-id" }, settings),
      /getServiceEdgeRouterPolicy: there is no ServiceEdgeRouterPolicy with id "no-such-id"/,
    );
    await assert.rejects(lookup("Service", {}, settings), /getService: id: give exactly one of id and name/);
    await assert.rejects(
      lookup("Service", { id: "a", name: "b" }, settings),
      /getService: id: give exactly one of id and name/,
    );
    await assert.rejects(lookup("Service", { id: "../x" }, settings), /getService: id: must be an id/);
    await assert.rejects(
      list("Service", { fliter: "x" } as never, settings),
      /getServices: \(arguments\): Unrecognized key.* fliter/,
    );
    // A list field outside a set function: refused, as a real controller refuses it (real-controller.test.ts).
    await assert.rejects(
      list("Service", { filter: 'roleAttributes contains "lk"' }, settings),
      /Service: GET https?:\/\/\S+\/edge\/management\/v1\/services failed \(HTTP 400.*'roleAttributes' is a set symbol/,
    );
    // A filter the controller refuses: the kind, the HTTP status and the controller's message.
    await assert.rejects(list("Identity", { filter: 'nosuchfield = "x"' }, settings), (err: Error) => {
      assert.match(err.message, /Identity/);
      assert.match(err.message, /400/);
      return true;
    });
    assert.deepEqual(
      mock.log.filter((e) => e.path.includes("..")),
      [],
    );
  });

  it("SDK functions read the settings at call time: environment variables outside a program", async () => {
    const env = {
      ZITI_EDGE_URL: mock.url,
      ZITI_USERNAME: mock.credentials.edgeUsername,
      ZITI_PASSWORD: mock.credentials.edgePassword,
    };
    await withEnv(env, async () => {
      const policy = await sdk.getAuthPolicy({ id: "default" });
      assert.equal(policy.name, "Default");
      const { items } = await sdk.getConfigTypes({ filter: 'name = "intercept.v1"' });
      assert.deepEqual(
        items.map((t) => t.id),
        ["g7cIWbcGg"],
      );
      // Concurrent lookups share one login.
      mock.clearLog();
      await Promise.all([sdk.getService({ name: "lk-service" }), sdk.getServices(), sdk.getCas({})]);
      assert.equal(mock.log.filter((e) => e.path.endsWith("/authenticate")).length, 1);
    });
  });
});
