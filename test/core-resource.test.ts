// The resource mechanism (provider/resource.ts): check and diff over definitions made here. From the
// contracts (DESIGN.md): bad input fails at check naming the property, unknown values (preview) are
// not judged; no drift false positives: server defaults left unset are not compared, set-valued arrays
// ignore order, null, undefined, "", [] and {} are all empty; replaceOnChanges and deleteBeforeReplace.
// Definitions are made anew in each test: their rules are cached per definition object, and a mutation
// run repeats the tests in one process.
import assert from "node:assert/strict";
import { z } from "zod";
import {
  checkInputs,
  containsUnknown,
  diffInputs,
  type ResourceDefinition,
  sameValue,
  UNKNOWN,
} from "../provider/resource";
import { testDefinition } from "./support/definitions";

function definition(extra: Partial<ResourceDefinition> = {}): ResourceDefinition {
  const inputs = z.strictObject({
    name: z.string().min(1),
    size: z.number().optional(),
    roles: z.array(z.string()).optional(),
    config: z
      .object({
        mode: z.string().optional(),
        level: z.number().optional(),
        hosts: z.array(z.string()).optional(),
      })
      .optional(),
    note: z.string().optional(),
  });
  return testDefinition("Thing", inputs, extra);
}

describe("resource mechanism: check and diff (provider/resource.ts)", () => {
  it("check: failures name the property; unknown keys by name; whole-input failures as (inputs)", () => {
    const def = definition();
    const { failures } = checkInputs(def, { name: "", size: "big", extra: 1 });
    const byProperty = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    assert.ok(byProperty.name, JSON.stringify(failures));
    assert.ok(byProperty.size, JSON.stringify(failures));
    assert.equal(byProperty.extra, 'unknown property "extra"');
    const nested = checkInputs(def, { name: "n", config: { level: "high" } }).failures;
    assert.deepEqual(
      nested.map((f) => f.property),
      ["config.level"],
    );
    const whole = checkInputs(definition({ inputs: z.string() as never }), { name: "n" }).failures;
    assert.deepEqual(
      whole.map((f) => f.property),
      ["(inputs)"],
    );
  });

  it("check: a value not known yet (preview) is not judged; its siblings are", () => {
    const def = definition();
    const { failures } = checkInputs(def, { name: "", roles: [UNKNOWN] as never, size: UNKNOWN as never });
    assert.deepEqual(
      failures.map((f) => f.property),
      ["name"],
    );
    const nested = checkInputs(def, { name: "n", config: { mode: UNKNOWN, level: "x" } }).failures;
    assert.deepEqual(nested, [], "config holds an unknown value: config is judged in the update");
  });

  it("check: validate's failures; a valid input gets its stamp, in the returned inputs", () => {
    const def = definition({
      validate: (inputs) => (inputs.size === 13 ? [{ property: "size", reason: "unlucky" }] : []),
      checkStamp: () => ({ stampedAt: "now" }),
    });
    assert.deepEqual(checkInputs(def, { name: "n", size: 13 }), {
      inputs: { name: "n", size: 13 },
      failures: [{ property: "size", reason: "unlucky" }],
    });
    assert.deepEqual(checkInputs(def, { name: "n", size: 1 }), {
      inputs: { name: "n", size: 1, stampedAt: "now" },
      failures: [],
    });
  });

  it("check: keys no input may have (e.g. __proto__) fail before the schema", () => {
    const news = JSON.parse('{"name":"n","__proto__":{"x":1}}');
    const { inputs, failures } = checkInputs(definition(), news);
    assert.ok(failures.length > 0);
    assert.equal(inputs, news);
  });

  it("containsUnknown: the placeholder anywhere in arrays and objects", () => {
    assert.equal(containsUnknown(UNKNOWN), true);
    assert.equal(containsUnknown([1, [2, UNKNOWN]]), true);
    assert.equal(containsUnknown({ a: { b: UNKNOWN } }), true);
    assert.equal(containsUnknown({ a: [{ b: "x" }], c: null }), false);
    assert.equal(containsUnknown(`${UNKNOWN}x`), false);
  });

  it("diff: changed properties; an unknown one is changed; replaceOnChanges and deleteBeforeReplace", () => {
    const def = definition({ replaceOnChanges: ["name"], deleteBeforeReplace: true });
    const olds = { name: "a", size: 1, roles: ["x"] };
    assert.deepEqual(diffInputs(def, olds, { name: "a", size: 1, roles: ["x"] }), {
      changes: false,
      changed: [],
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepEqual(diffInputs(def, olds, { name: "a", size: 2, roles: ["x"] }), {
      changes: true,
      changed: ["size"],
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepEqual(diffInputs(def, olds, { name: "b", size: 1, roles: ["x"] }), {
      changes: true,
      changed: ["name"],
      replaces: ["name"],
      deleteBeforeReplace: true,
    });
    const notFirst = definition({ replaceOnChanges: ["name"] });
    assert.equal(diffInputs(notFirst, olds, { name: "b", size: 1, roles: ["x"] }).deleteBeforeReplace, false);
    assert.deepEqual(diffInputs(def, olds, { name: "a", size: UNKNOWN, roles: ["x"] }).changed, ["size"]);
  });

  it("diff: replacementsDue and updatesDue add their properties once", () => {
    const def = definition({
      replacementsDue: () => ["note"],
      updatesDue: () => ["size", "note"],
    });
    const outcome = diffInputs(def, { name: "a", size: 1 }, { name: "a", size: 1 });
    assert.deepEqual(outcome.changed, ["note", "size"]);
    assert.deepEqual(outcome.replaces, ["note"]);
  });

  it("diff: a server default left unset is not compared; set, it is", () => {
    const def = definition({ serverDefaults: ["size", "config.level"] });
    assert.deepEqual(diffInputs(def, { name: "a", size: 7 }, { name: "a" }).changed, []);
    assert.deepEqual(diffInputs(def, { name: "a", size: 7 }, { name: "a", size: 8 }).changed, ["size"]);
    const plain = definition();
    assert.deepEqual(diffInputs(plain, { name: "a", size: 7 }, { name: "a" }).changed, ["size"]);
    // Nested: config.level filled in by the server, unset in the program: not a change.
    assert.deepEqual(
      diffInputs(def, { name: "a", config: { mode: "m", level: 3 } }, { name: "a", config: { mode: "m" } })
        .changed,
      [],
    );
    assert.deepEqual(
      diffInputs(
        def,
        { name: "a", config: { mode: "m", level: 3 } },
        { name: "a", config: { mode: "m", level: 4 } },
      ).changed,
      ["config"],
    );
    assert.deepEqual(
      diffInputs(def, { name: "a", config: { mode: "m", level: 3 } }, { name: "a", config: { mode: "n" } })
        .changed,
      ["config"],
    );
    assert.deepEqual(
      diffInputs(plain, { name: "a", config: { mode: "m", level: 3 } }, { name: "a", config: { mode: "m" } })
        .changed,
      ["config"],
      "without the server default, the stored level is a difference",
    );
  });

  it("diff: set-valued arrays ignore order, at the top and nested; others do not", () => {
    const def = definition({ setProperties: ["roles", "config.hosts"] });
    assert.deepEqual(
      diffInputs(def, { name: "a", roles: ["x", "y"] }, { name: "a", roles: ["y", "x"] }).changed,
      [],
    );
    assert.deepEqual(
      diffInputs(
        def,
        { name: "a", config: { hosts: ["h1", "h2"] } },
        { name: "a", config: { hosts: ["h2", "h1"] } },
      ).changed,
      [],
    );
    assert.deepEqual(
      diffInputs(
        def,
        { name: "a", config: { hosts: ["h1", "h2"] } },
        { name: "a", config: { hosts: ["h2", "h3"] } },
      ).changed,
      ["config"],
    );
    const ordered = definition();
    assert.deepEqual(
      diffInputs(ordered, { name: "a", roles: ["x", "y"] }, { name: "a", roles: ["y", "x"] }).changed,
      ["roles"],
    );
    assert.deepEqual(
      diffInputs(
        ordered,
        { name: "a", config: { hosts: ["h1", "h2"] } },
        { name: "a", config: { hosts: ["h2", "h1"] } },
      ).changed,
      ["config"],
    );
  });

  it("sameValue: empty values are alike; deep equality otherwise; arrays by length and order", () => {
    for (const a of [undefined, null, "", [], {}])
      for (const b of [undefined, null, "", [], {}]) assert.ok(sameValue(a, b));
    assert.equal(sameValue("", "x"), false);
    assert.equal(sameValue([], ["x"]), false);
    assert.equal(sameValue({}, { a: 1 }), false);
    assert.equal(sameValue([1, 2], [1, 2, 3]), false);
    assert.equal(sameValue([1, 2, 3], [1, 2]), false);
    assert.equal(sameValue([1, 2], [1, 3]), false);
    assert.equal(sameValue([1, 2], [2, 1]), false);
    assert.equal(sameValue([1, 2], [2, 1], true), true);
    assert.equal(sameValue([{ b: 1 }, { a: 1 }], [{ a: 1 }, { b: 1 }], true), true);
    assert.equal(sameValue({ a: 1 }, { a: 1, b: 2 }), false, "a key only on the right");
    assert.equal(sameValue({ a: 1, b: 2 }, { a: 1 }), false, "a key only on the left");
    assert.equal(sameValue({ a: 1, b: null }, { a: 1 }), true, "an empty member is no member");
    assert.equal(sameValue({ a: 1 }, { a: 1, b: [] }), true);
    assert.equal(sameValue([1], "1"), false);
    assert.equal(sameValue({ a: { s: ["x", "y"] } }, { a: { s: ["y", "x"] } }, false, ["a.s"]), true);
    assert.equal(sameValue({ a: { s: ["x", "y"] } }, { a: { s: ["y", "z"] } }, false, ["a.s"]), false);
    assert.equal(sameValue({ t: ["x", "y"] }, { t: ["y", "x"] }, false, ["t"]), true);
    assert.equal(
      sameValue({ t: ["x", "y"], u: ["a", "b"] }, { t: ["y", "x"], u: ["b", "a"] }, false, ["t"]),
      false,
    );
  });
});
