// Schema introspection (provider/shape.ts) and secret leaves kept apart in the state
// (provider/secretValues.ts), on zod schemas made here: which properties exist, which paths are secret
// (`.meta({ secret: true })`, also through unions, arrays and $refs), the values at those paths, and a
// nested secret leaf moved into `secretValues` and back (DESIGN.md: secrets never in plaintext in the
// state; a nested secret leaf stays a secret while its parent is shown leaf by leaf). Each test makes
// its schemas anew: the results are cached per schema object, and a mutation run repeats the tests.
import assert from "node:assert/strict";
import { z } from "zod";
import type { ResourceDefinition } from "../provider/resource";
import { joinSecretValues, SECRET_VALUES, separateSecretValues } from "../provider/secretValues";
import { deref, jsonSchema, propertyNames, secretPaths, valuesAt, variants } from "../provider/shape";

const secret = () => z.string().meta({ secret: true });

/** An OIDC-like schema: a secret at the top, one nested, one in array items, one in a union branch. */
function oidcSchema() {
  return z.object({
    name: z.string(),
    token: secret().optional(),
    data: z.object({
      issuer: z.string(),
      client_secret: secret(),
      extra: z.object({ pin: secret() }).optional(),
    }),
    keys: z.array(z.object({ kid: z.string(), material: secret() })).optional(),
    auth: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("basic"), password: secret() }),
        z.object({ kind: z.literal("none") }),
      ])
      .optional(),
  });
}

const definition = (inputs: z.ZodType) => ({ inputs }) as unknown as ResourceDefinition;

describe("schema introspection (provider/shape.ts)", () => {
  it("secret paths: top-level and nested, through arrays and union branches, sorted", () => {
    assert.deepEqual(secretPaths(oidcSchema()), [
      "auth.password",
      "data.client_secret",
      "data.extra.pin",
      "keys.material",
      "token",
    ]);
    assert.deepEqual(secretPaths(z.object({ a: z.string() })), []);
  });

  it("secret paths through a schema with an id ($ref into $defs) and through allOf", () => {
    const shared = z
      .object({ key: secret() })
      .meta({ id: `Shared${Date.now()}${Math.random()}`.replace(".", "") });
    const schema = z.object({
      one: shared,
      two: shared,
      both: z.intersection(z.object({ a: secret() }), z.object({ b: z.string() })),
    });
    assert.deepEqual(secretPaths(schema), ["both.a", "one.key", "two.key"]);
  });

  it("property names across the variants of a union, once each", () => {
    const schema = z.discriminatedUnion("type", [
      z.object({ type: z.literal("A"), a: z.string(), common: z.string() }),
      z.object({ type: z.literal("B"), b: z.number(), common: z.string() }),
    ]);
    assert.deepEqual(propertyNames(schema).sort(), ["a", "b", "common", "type"]);
    assert.deepEqual(propertyNames(z.object({ x: z.string(), y: z.string().optional() })), ["x", "y"]);
    assert.equal(propertyNames(schema), propertyNames(schema), "cached per schema");
  });

  it("variants: each alternative of oneOf/anyOf (nested ones flattened), or the object itself", () => {
    const a = { type: "object", properties: { a: {} } };
    const b = { type: "object", properties: { b: {} } };
    const c = { type: "object", properties: { c: {} } };
    assert.deepEqual(variants({ oneOf: [a, { anyOf: [b, c] }] }), [a, b, c]);
    assert.deepEqual(variants({ anyOf: [a] }), [a]);
    assert.deepEqual(variants(a), [a]);
  });

  it("deref follows a local $ref into $defs; anything else, or a missing definition, is itself", () => {
    const target = { type: "string" };
    const root = { $defs: { Name: target } };
    assert.equal(deref({ $ref: "#/$defs/Name" }, root), target);
    const missing = { $ref: "#/$defs/Other" };
    assert.equal(deref(missing, root), missing);
    assert.equal(deref(missing, {}), missing);
    const plain = { type: "number" };
    assert.equal(deref(plain, root), plain);
  });

  it("jsonSchema is the input side (a default makes a property optional), cached per schema", () => {
    const schema = z.object({ a: z.string(), b: z.string().default("x") });
    const json = jsonSchema(schema);
    assert.deepEqual(json.required, ["a"]);
    assert.equal(jsonSchema(schema), json);
  });

  it("valuesAt: the values at dotted paths, arrays searched element-wise, absent and null skipped", () => {
    const value = {
      token: "t1",
      data: { client_secret: "c1", extra: null },
      keys: [{ material: "m1" }, { material: "m2" }, { kid: "k3" }, null],
      list: [[{ v: 1 }, { v: 2 }], [{ v: 3 }]],
      scalar: 5,
    };
    assert.deepEqual(valuesAt(value, ["token", "data.client_secret", "data.extra.pin", "keys.material"]), [
      "t1",
      "c1",
      "m1",
      "m2",
    ]);
    assert.deepEqual(valuesAt(value, ["list.v"]), [1, 2, 3]);
    assert.deepEqual(valuesAt(value, ["scalar.deeper", "missing"]), []);
    assert.deepEqual(valuesAt(undefined, ["a"]), []);
    assert.deepEqual(valuesAt({ a: 0, b: false, c: "" }, ["a", "b", "c"]), [0, false, ""]);
  });
});

describe("secret leaves in the state (provider/secretValues.ts)", () => {
  it("separate moves each nested secret leaf into secretValues by path; join puts it back", () => {
    const def = definition(oidcSchema());
    const outs = {
      name: "corp",
      token: "top-level-stays",
      data: { issuer: "https://id", client_secret: "c-secret", extra: { pin: "1234", other: "o" } },
      keys: [{ kid: "k", material: "m" }],
    };
    const state = separateSecretValues(def, outs);
    assert.deepEqual(state, {
      name: "corp",
      token: "top-level-stays",
      data: { issuer: "https://id", extra: { other: "o" } },
      keys: [{ kid: "k", material: "m" }],
      [SECRET_VALUES]: { "data.client_secret": "c-secret", "data.extra.pin": "1234" },
    });
    assert.deepEqual(
      outs.data,
      {
        issuer: "https://id",
        client_secret: "c-secret",
        extra: { pin: "1234", other: "o" },
      },
      "the answer is not changed",
    );
    assert.equal(state.keys, outs.keys, "what holds no separated leaf is shared");
    assert.deepEqual(joinSecretValues(def, state), outs);
  });

  it("separate: a leaf that is absent is not recorded; a parent that is no object is left as it is", () => {
    const def = definition(oidcSchema());
    const state = separateSecretValues(def, { name: "n", data: { issuer: "i", extra: "not-an-object" } });
    assert.deepEqual(state, {
      name: "n",
      data: { issuer: "i", extra: "not-an-object" },
      [SECRET_VALUES]: {},
    });
    const noData = separateSecretValues(def, { name: "n" });
    assert.deepEqual(noData, { name: "n", [SECRET_VALUES]: {} });
  });

  it("a schema without nested secrets: the outputs as they are, no secretValues", () => {
    const def = definition(z.object({ name: z.string(), token: secret() }));
    const outs = { name: "n", token: "t" };
    assert.equal(separateSecretValues(def, outs), outs);
    assert.deepEqual(joinSecretValues(def, { ...outs, __provider: "p" }, "__provider"), outs);
  });

  it("join: only declared leaves, only into an object that is there; `drop` and secretValues left out", () => {
    const def = definition(oidcSchema());
    const joined = joinSecretValues(
      def,
      {
        name: "n",
        data: { issuer: "i" },
        auth: "not-an-object",
        __provider: "serialized",
        [SECRET_VALUES]: {
          "data.client_secret": "c",
          "data.extra.pin": "p",
          "undeclared.path": "u",
          "auth.password": "pw",
        },
      },
      "__provider",
    );
    assert.deepEqual(joined, { name: "n", data: { issuer: "i", client_secret: "c" }, auth: "not-an-object" });
  });

  it("join: a leaf whose parent object is absent is not put back (no object made up)", () => {
    const def = definition(oidcSchema());
    const joined = joinSecretValues(def, { name: "n", [SECRET_VALUES]: { "data.client_secret": "c" } });
    assert.deepEqual(joined, { name: "n" });
    const arrayParent = joinSecretValues(def, { data: [1], [SECRET_VALUES]: { "data.client_secret": "c" } });
    assert.deepEqual(arrayParent, { data: [1] });
  });

  it("join: older state whose secretValues is no object keeps it as it is; none at all adds none", () => {
    const def = definition(oidcSchema());
    assert.deepEqual(joinSecretValues(def, { name: "n", [SECRET_VALUES]: "legacy" }), {
      name: "n",
      [SECRET_VALUES]: "legacy",
    });
    assert.deepEqual(joinSecretValues(def, { name: "n", [SECRET_VALUES]: null }), {
      name: "n",
      [SECRET_VALUES]: null,
    });
    const without = joinSecretValues(def, { name: "n" });
    assert.deepEqual(without, { name: "n" });
    assert.ok(!(SECRET_VALUES in without));
  });
});
