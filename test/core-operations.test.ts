// What follows a create (provider/resources/operations.ts): once the server has an object, its id must
// reach the engine even when a later step fails (DESIGN.md: "never leaves orphans or duplicates when
// a call fails half way"), so the failure is a PartialFailureError carrying the id and the state known
// so far; the objects of this run are held (never adopted by a name clash); errors name the object.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { PartialFailureError } from "../provider/http/errors";
import {
  completeCreate,
  isHeld,
  markHeld,
  NamedCollection,
  partialFailure,
  releaseHeld,
} from "../provider/resources/operations";

describe("create outcomes and held objects (provider/resources/operations.ts)", () => {
  it("a finished create gives its id and outputs", async () => {
    const done = await completeCreate(
      'Thing "t"',
      "id-1",
      { name: "t" },
      () => ({}),
      async () => ({ name: "t", x: 1 }),
    );
    assert.deepEqual(done, { id: "id-1", outs: { name: "t", x: 1 } });
  });

  it("a create that fails after the POST keeps the id and the known state, and says what happened", async () => {
    const err = await completeCreate(
      'AuthProvider "corp"',
      "ap-7",
      { name: "corp", secret: "s" },
      () => ({ name: "corp", id: "ap-7" }),
      async () => {
        throw new Error("read-back failed (HTTP 500)");
      },
    ).catch((e) => e);
    assert.ok(err instanceof PartialFailureError, String(err));
    assert.equal(err.id, "ap-7");
    assert.deepEqual(err.properties, { name: "corp", id: "ap-7" });
    assert.equal(
      err.message,
      'AuthProvider "corp" (id ap-7) exists, but its create did not complete: read-back failed (HTTP 500). ' +
        "It is kept in the state: the next up completes it, a refresh reads it.",
    );
    assert.deepEqual(err.reasons, [err.message]);
  });

  it("when the known state cannot be built, the inputs stand in (a copy); a non-Error is named as it is", () => {
    const inputs = { name: "n", tags: { a: "1" } };
    const err = partialFailure(
      'Service "n"',
      "svc-1",
      inputs,
      () => {
        throw new Error("cannot build");
      },
      "a string thrown",
      "update",
    );
    assert.deepEqual(err.properties, inputs);
    assert.notEqual(err.properties, inputs, "a copy, not the caller's object");
    assert.equal(
      err.message,
      'Service "n" (id svc-1) exists, but its update did not complete: a string thrown. ' +
        "It is kept in the state: the next up completes it, a refresh reads it.",
    );
  });

  it("a PartialFailureError already made (a deeper step's) passes as it is", () => {
    const inner = new PartialFailureError("inner", "id-9", { a: 1 });
    assert.equal(
      partialFailure("X", "id-1", {}, () => ({}), inner),
      inner,
    );
  });

  it("objects are held by kind and id until released", () => {
    const id = randomUUID();
    assert.equal(isHeld("AuthProvider", id), false);
    markHeld("AuthProvider", id);
    assert.equal(isHeld("AuthProvider", id), true);
    assert.equal(isHeld("EdgeService", id), false, "the kind is part of the key");
    assert.equal(isHeld("AuthProvider", `${id}x`), false);
    releaseHeld("AuthProvider", id);
    assert.equal(isHeld("AuthProvider", id), false);
  });

  it("errors name an object by kind and name, or by kind alone", () => {
    const c = new NamedCollection("AuthProvider", "auth-providers");
    assert.equal(c.label({ name: "corp-sso" }), 'AuthProvider "corp-sso"');
    assert.equal(c.label({}), "AuthProvider");
    assert.equal(c.label({ name: 42 }), "AuthProvider");
    assert.equal(c.collection, "auth-providers");
  });
});
