// The last rules of the resource mechanism and the collections that no other test pinned down
// (issue 24 item 5). From the contracts (DESIGN.md, provider/resource.ts's documented rules): a
// server-default or set path (`config.level`) applies under its own property only, never under
// another one; a nested server default set in the program is compared like any value; a property
// removed from the program is a change, whatever defaults it had inside; a stored value of another
// kind than the declared object is a change. Input keys that reach a prototype fail at check, naming
// the property, even where the schema would let them through. Collections (mock on 127.0.0.1, the
// requests asserted from its log): an object gone after its create is named in the error; the
// controller's system policies are not offered for adoption, the user's policies are; a name the
// controller cannot quote is looked up by `contains` and matched exactly here; list and search
// through collectionOperations. Each test uses its own names and cleans up: a mutation run repeats
// the tests in one process.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import * as engine from "../provider/engine";
import {
  checkInputs,
  diffInputs,
  type Props,
  type ResourceDefinition,
  sameValue,
} from "../provider/resource";
import { EdgeCollection } from "../provider/resources/edgeCollection";
import { collectionOperations } from "../provider/resources/operations";
import { valuesAt } from "../provider/shape";
import { testDefinition } from "./support/definitions";
import { useMockProvider } from "./support/fixtures";

const EDGE = "/edge/management/v1";

/** `config` and `limits`: two object inputs with names of the same length and the same fields. */
function definition(extra: Partial<ResourceDefinition> = {}): ResourceDefinition {
  const fields = z
    .object({
      mode: z.string().optional(),
      level: z.number().optional(),
      hosts: z.array(z.string()).optional(),
    })
    .optional();
  return testDefinition(
    "Survivor",
    z.strictObject({ name: z.string(), config: fields, limits: fields }),
    extra,
  );
}

describe("resource mechanism: nested rules apply under their own property only", () => {
  it("check: a key that reaches a prototype fails, naming it, even inside an object the schema would strip it from", () => {
    // `config` is a plain (non-strict) zod object: zod alone would drop the key and pass.
    const news = JSON.parse('{"name":"n","config":{"mode":"m","constructor":{"x":1}}}');
    const { inputs, failures } = checkInputs(definition(), news);
    assert.deepEqual(failures, [
      { property: "config.constructor", reason: 'the key "constructor" is not allowed' },
    ]);
    assert.equal(inputs, news);
    const top = checkInputs(definition(), JSON.parse('{"name":"n","__proto__":{"x":1}}'));
    assert.deepEqual(top.failures, [{ property: "__proto__", reason: 'the key "__proto__" is not allowed' }]);
  });

  /** The properties diff reports changed, for each [stored, declared] pair (both beside `name: "a"`). */
  const changed = (def: ResourceDefinition, pairs: Array<[Props, Props]>) =>
    pairs.map(([olds, news]) => diffInputs(def, { name: "a", ...olds }, { name: "a", ...news }).changed);

  it("diff: a nested server default or set path of `config` does not apply to `limits`", () => {
    const def = definition({ serverDefaults: ["config.level"], setProperties: ["config.hosts"] });
    const level = { mode: "m", level: 3 };
    const hosts = (...h: string[]) => ({ hosts: h });
    assert.deepEqual(
      changed(def, [
        // Under config the rules hold: the stored level the program leaves unset, the order of hosts.
        [{ config: level }, { config: { mode: "m" } }],
        [{ config: hosts("h1", "h2") }, { config: hosts("h2", "h1") }],
        // Under limits (the same field names) neither is a rule: both are changes.
        [{ limits: level }, { limits: { mode: "m" } }],
        [{ limits: hosts("h1", "h2") }, { limits: hosts("h2", "h1") }],
      ]),
      [[], [], ["limits"], ["limits"]],
    );
  });

  it("diff: a nested server default the program sets to the stored value is no change", () => {
    const def = definition({ serverDefaults: ["config.level"] });
    assert.deepEqual(
      changed(def, [
        [{ config: { mode: "m", level: 3 } }, { config: { mode: "m", level: 3 } }],
        [{ config: { level: 3 } }, { config: { level: 3 } }],
      ]),
      [[], []],
    );
  });

  it("diff: an object input with nested server defaults, removed from the program (or null), is a change", () => {
    const def = definition({ serverDefaults: ["config.level"] });
    assert.deepEqual(
      changed(def, [
        [{ config: { mode: "m", level: 3 } }, {}],
        [{ config: { mode: "m", level: 3 } }, { config: null }],
        [{ config: { level: 3 } }, {}],
      ]),
      [["config"], ["config"], ["config"]],
    );
  });

  it("diff: a stored value of another kind (a list, a text) is never the declared object, whatever their keys", () => {
    const def = definition({ serverDefaults: ["config.level"] });
    // A list's items, a text's characters, are at keys "0", "1": only the kind tells them from {"0": ...}.
    assert.deepEqual(
      changed(def, [
        [{ config: ["m"] }, { config: { 0: "m" } }],
        [{ config: "m" }, { config: { 0: "m" } }],
      ]),
      [["config"], ["config"]],
    );
  });

  it("sameValue: a set path under one key (`limits.hosts`) does not make another key's list (`quotas.hosts`) a set", () => {
    const setPaths = ["limits.hosts"];
    const stored = { limits: { hosts: ["a", "b"] }, quotas: { hosts: ["a", "b"] } };
    assert.equal(sameValue(stored, { ...stored, limits: { hosts: ["b", "a"] } }, false, setPaths), true);
    assert.equal(sameValue(stored, { ...stored, quotas: { hosts: ["b", "a"] } }, false, setPaths), false);
  });

  it("valuesAt: a text or number has no fields, even ones its JavaScript value has (length)", () => {
    assert.deepEqual(
      valuesAt({ a: "text", b: 7, c: { length: 2 } }, ["a.length", "b.toFixed", "c.length"]),
      [2],
    );
  });
});

describe("collections: require, system objects, exact names, list and search (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  const mock = useMockProvider();
  const identities = new EdgeCollection("Identity", "identities");
  const policies = new EdgeCollection("EdgeRouterPolicy", "edge-router-policies");
  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  const gets = () =>
    mock.log
      .filter((e) => e.method === "GET" && !e.path.includes("/authenticate"))
      .map((e) => ({ path: e.path, filter: new URLSearchParams(e.query ?? "").get("filter") }));
  const device = (name: string) => ({ name, type: "Device", isAdmin: false });
  beforeEach(() => mock.clearLog());

  it("require: an object deleted behind the provider's back is named with its id", async () => {
    const ctx = engine.context();
    const name = unique("gone");
    const id = await identities.create(ctx, { name }, device(name));
    assert.ok(mock.edge.remove("identities", id));
    mock.clearLog();
    const err = await identities.require(ctx, { name }, id).then(
      () => assert.fail("require of a deleted object resolved"),
      (e: Error) => e,
    );
    assert.equal(err.message, `Identity "${name}" (id ${id}) no longer exists`);
    assert.deepEqual(gets(), [{ path: `${EDGE}/identities/${id}`, filter: null }]);
  });

  it("listIds: the controller's system policies are left out, the user's policies (isSystem false) are in", async () => {
    const ctx = engine.context();
    const body = (name: string) => ({
      name,
      semantic: "AnyOf",
      identityRoles: ["#all"],
      edgeRouterRoles: ["#all"],
    });
    const userName = unique("erp-user");
    const systemName = unique("erp-system");
    const user = await policies.create(ctx, { name: userName }, body(userName));
    const system = await policies.create(ctx, { name: systemName }, body(systemName));
    // The controller makes its own (e.g. for a tunneler-enabled router) with isSystem true; no API call can.
    mock.edge.patch("edge-router-policies", system, { isSystem: true });
    try {
      const all = await policies.search(ctx, undefined);
      assert.equal(all.find((p) => p.id === user)?.isSystem, false);
      assert.equal(all.find((p) => p.id === system)?.isSystem, true);
      const ids = await policies.listIds(ctx, {});
      assert.ok(ids.includes(user), "the user's policy is listed");
      assert.ok(!ids.includes(system), "the system policy is not listed");
    } finally {
      await policies.delete(ctx, { name: userName }, user);
      mock.edge.remove("edge-router-policies", system);
    }
  });

  it("findByName: a name with a backslash is looked up by `contains` of its longest plain part, then matched exactly", async () => {
    const ctx = engine.context();
    const plain = unique("plainpart");
    const wanted = `${plain}\\x`;
    const decoy = await identities.create(ctx, { name: plain }, device(plain));
    try {
      mock.clearLog();
      assert.equal(await identities.findByName(ctx, { name: wanted }), undefined, "the decoy is not it");
      assert.deepEqual(gets(), [{ path: `${EDGE}/identities`, filter: `name contains "${plain}"` }]);
      const id = await identities.create(ctx, { name: wanted }, device(wanted));
      try {
        assert.equal((await identities.findByName(ctx, { name: wanted }))?.id, id);
        assert.equal((await identities.findByName(ctx, { name: plain }))?.id, decoy);
      } finally {
        await identities.delete(ctx, { name: wanted }, id);
      }
    } finally {
      await identities.delete(ctx, { name: plain }, decoy);
    }
  });

  it("collectionOperations: list gives the ids, search the state as read gives it without earlier state", async () => {
    const ctx = engine.context();
    const name = unique("ops");
    const id = await identities.create(ctx, { name }, device(name));
    const ops = collectionOperations(identities, (server, state) => ({
      name: server.name,
      isAdmin: server.isAdmin,
      earlier: state,
    }));
    try {
      mock.clearLog();
      const ids = await ops.list(ctx, {});
      assert.ok(ids.includes(id), JSON.stringify(ids));
      const defaultAdmin = mock.edge.list("identities").find((i) => i.isDefaultAdmin === true);
      assert.ok(defaultAdmin && !ids.includes(String(defaultAdmin.id)));
      const found = await ops.search!(ctx, `name = "${name}"`);
      assert.deepEqual(found, [{ id, outs: { name, isAdmin: false, earlier: {} } }]);
      assert.deepEqual(gets(), [
        { path: `${EDGE}/identities`, filter: null },
        { path: `${EDGE}/identities`, filter: `name = "${name}"` },
      ]);
    } finally {
      await identities.delete(ctx, { name }, id);
    }
  });
});
