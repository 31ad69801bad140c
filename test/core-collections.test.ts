// The collection mechanism every resource shares (provider/resources/frontdoorCollection.ts,
// edgeCollection.ts), through the provider's own API clients against the mock on 127.0.0.1, with the
// requests asserted from the mock's log: paths as the contracts spell them (Frontdoor
// `/frontdoor/{frontdoorId}/<collection>/{id}`, Edge `/edge/management/v1/<collection>/{id}`), 404 on
// read = gone and on delete = already gone, adoption by name, the controller's own objects (the
// default admin, the `default` auth policy, system policies) never listed for adoption.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as engine from "../provider/engine";
import { ApiError, PartialFailureError } from "../provider/http/errors";
import { defined, EdgeCollection, listOf, putOperations, tagsOf } from "../provider/resources/edgeCollection";
import { FrontdoorCollection } from "../provider/resources/frontdoorCollection";
import { isHeld } from "../provider/resources/operations";
import { useMockProvider } from "./support/fixtures";

const EDGE = "/edge/management/v1";

describe("collections over the API clients (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  const mock = useMockProvider();
  const sent = () => mock.log.map((e) => `${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
  const api = (entries: string[]) => entries.filter((e) => !e.includes("/authenticate"));
  beforeEach(() => mock.clearLog());

  describe("Frontdoor", () => {
    const providers = new FrontdoorCollection("AuthProvider", "auth-providers");
    const oidc = (name: string) => ({
      name,
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "c", client_secret: "client-secret-123456" },
    });

    it("create, get, patch, find by name, list, delete: the paths and methods sent", async () => {
      const ctx = engine.context();
      const fd = mock.credentials.frontdoorId;
      const base = `/frontdoor/${fd}/auth-providers`;
      const name = `p-${randomUUID().slice(0, 8)}`;
      const props = { frontdoorId: fd, name };
      const created = await providers.create(ctx, props, oidc(name));
      assert.equal(typeof created.id, "string");
      assert.ok(isHeld("AuthProvider", created.id), "a new object is held by this run at once");
      assert.equal((await providers.get(ctx, props, created.id))?.name, name);
      const patched = await providers.patch(ctx, props, created.id, {
        data: { ...oidc(name).data, issuer: "https://other.example.com" },
      });
      assert.equal((patched.data as { issuer: string }).issuer, "https://other.example.com");
      assert.equal((await providers.findByName(ctx, props))?.id, created.id);
      assert.equal(await providers.findByName(ctx, { frontdoorId: fd, name: `${name}-none` }), undefined);
      assert.ok((await providers.listIds(ctx, { frontdoorId: fd })).includes(created.id));
      await providers.delete(ctx, props, created.id);
      await providers.delete(ctx, props, created.id); // already gone: 404 is an answer
      assert.equal(await providers.get(ctx, props, created.id), undefined);
      const err = await providers.require(ctx, props, created.id).catch((e) => e);
      assert.equal(err.message, `AuthProvider "${name}" (id ${created.id}) no longer exists`);
      const log = api(sent());
      assert.deepEqual(log.slice(0, 3), [
        `POST ${base} 201`,
        `GET ${base}/${created.id} 200`,
        `PATCH ${base}/${created.id} 200`,
      ]);
      assert.ok(
        log.includes(`DELETE ${base}/${created.id} 200`) || log.includes(`DELETE ${base}/${created.id} 204`),
        log.join("\n"),
      );
      assert.ok(log.includes(`DELETE ${base}/${created.id} 404`), log.join("\n"));
      assert.equal(log.at(-1), `GET ${base}/${created.id} 404`);
    });

    it("an error names the object and the server's answer", async () => {
      const ctx = engine.context();
      const props = { frontdoorId: mock.credentials.frontdoorId, name: "bad" };
      const err = await providers.create(ctx, props, { name: "bad", type: "NOPE" }).catch((e) => e);
      assert.ok(err instanceof ApiError, String(err));
      assert.match(
        err.message,
        /^AuthProvider "bad": POST http:\/\/127\.0\.0\.1:\d+\/frontdoor\/.*\/auth-providers failed \(HTTP 400/,
      );
    });
  });

  describe("Edge", () => {
    const identities = new EdgeCollection("Identity", "identities");
    const authPolicies = new EdgeCollection("AuthPolicy", "auth-policies");

    it("paths: the collection, then each part percent-encoded", () => {
      assert.equal(identities.path(), "/identities");
      assert.equal(identities.path("a/b c"), "/identities/a%2Fb%20c");
      assert.equal(identities.path("id", "roles", "x y"), "/identities/id/roles/x%20y");
    });

    it("createAndRead, find by name, search, put, patch, delete; the default admin is never listed", async () => {
      const ctx = engine.context();
      const name = `id-${randomUUID().slice(0, 8)}`;
      const body = { name, type: "Device", isAdmin: false, roleAttributes: ["r1"] };
      const toState = (server: Record<string, unknown>, inputs: Record<string, unknown>) => ({
        name: server.name,
        roleAttributes: server.roleAttributes,
        declared: inputs.name,
      });
      const { id, outs } = await identities.createAndRead(ctx, { name }, body, toState);
      assert.deepEqual(outs, { name, roleAttributes: ["r1"], declared: name });
      assert.ok(isHeld("Identity", id));
      assert.equal((await identities.findByName(ctx, { name }))?.id, id);
      assert.equal(await identities.findByName(ctx, { name: `${name}-none` }), undefined);
      const found = await identities.search(ctx, `name = "${name}"`);
      assert.deepEqual(
        found.map((f) => f.id),
        [id],
      );
      const ids = await identities.listIds(ctx, {});
      assert.ok(ids.includes(id));
      const all = await identities.search(ctx, undefined);
      const admin = all.find((i) => i.isDefaultAdmin === true);
      assert.ok(admin, "the mock has the controller's default admin");
      assert.ok(!ids.includes(String(admin.id)), "the default admin is not adoptable");

      await identities.put(ctx, { name }, id, { ...body, roleAttributes: ["r2"] });
      await identities.patch(ctx, { name }, id, { roleAttributes: ["r3"] });
      assert.deepEqual((await identities.require(ctx, { name }, id)).roleAttributes, ["r3"]);
      await identities.delete(ctx, { name }, id);
      await identities.delete(ctx, { name }, id);
      assert.equal(await identities.get(ctx, { name }, id), undefined);
      const log = api(sent());
      assert.equal(log[0], `POST ${EDGE}/identities 201`);
      assert.equal(log[1], `GET ${EDGE}/identities/${id} 200`);
      for (const line of [
        `PUT ${EDGE}/identities/${id} 200`,
        `PATCH ${EDGE}/identities/${id} 200`,
        `DELETE ${EDGE}/identities/${id} 200`,
        `DELETE ${EDGE}/identities/${id} 404`,
      ])
        assert.ok(log.includes(line), `${line} in\n${log.join("\n")}`);
    });

    it("the `default` auth policy is never listed for adoption", async () => {
      const ctx = engine.context();
      const all = await authPolicies.search(ctx, undefined);
      assert.ok(
        all.some((p) => p.id === "default"),
        "the mock has the controller's default auth policy",
      );
      assert.ok(!(await authPolicies.listIds(ctx, {})).includes("default"));
    });

    it("a failure after the POST keeps the id and the state known from the request body", async () => {
      const ctx = engine.context();
      const name = `id-${randomUUID().slice(0, 8)}`;
      const body = { name, type: "Device", isAdmin: false };
      const err = await identities
        .createAndRead(
          ctx,
          { name },
          body,
          (server) => ({ name: server.name, id: server.id }),
          async () => {
            throw new Error("the read-back failed");
          },
        )
        .catch((e) => e);
      assert.ok(err instanceof PartialFailureError, String(err));
      assert.deepEqual(err.properties, { name, id: err.id });
      assert.match(
        err.message,
        new RegExp(
          `^Identity "${name}" \\(id ${err.id}\\) exists, but its create did not complete: the read-back failed`,
        ),
      );
      assert.ok(await identities.get(ctx, { name }, err.id), "the object exists on the server");
      await identities.delete(ctx, { name }, err.id);
    });

    it("putOperations: create and update send the whole body and read the object back", async () => {
      const ctx = engine.context();
      const name = `id-${randomUUID().slice(0, 8)}`;
      const ops = putOperations(
        identities,
        (inputs: { name: string; roles: string[] }) => ({
          name: inputs.name,
          type: "Device",
          isAdmin: false,
          roleAttributes: inputs.roles,
        }),
        (server, inputs) => ({ name: server.name, roles: server.roleAttributes, declared: inputs.roles }),
      );
      const { id, outs } = await ops.create(ctx, { name, roles: ["a"] });
      assert.deepEqual(outs, { name, roles: ["a"], declared: ["a"] });
      mock.clearLog();
      const updated = await ops.update(ctx, id, outs, { name, roles: ["b"] });
      assert.deepEqual(updated, { name, roles: ["b"], declared: ["b"] });
      assert.deepEqual(api(sent()), [`PUT ${EDGE}/identities/${id} 200`, `GET ${EDGE}/identities/${id} 200`]);
      assert.deepEqual(JSON.parse(mock.log.find((e) => e.method === "PUT")!.body!).roleAttributes, ["b"]);
      await identities.delete(ctx, { name }, id);
    });
  });

  it("defined, tagsOf, listOf: bodies without unset members; tags and lists the controller answers as null", () => {
    assert.deepEqual(defined({ a: 1, b: undefined, c: null, d: "" }), { a: 1, c: null, d: "" });
    assert.deepEqual(tagsOf({ k: "v" }), { k: "v" });
    for (const notTags of [null, undefined, "s", ["a"], 3]) assert.deepEqual(tagsOf(notTags), {});
    assert.deepEqual(listOf(["a", "b"]), ["a", "b"]);
    for (const notList of [null, undefined, "a", { 0: "a" }]) assert.deepEqual(listOf(notList), []);
  });
});
