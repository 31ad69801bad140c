// Edge cases of state conversion and the diff's equality that answers from the API can produce: a
// null anywhere in an answer, an AuthProvider answer without `data`, state written before nested
// secrets were kept apart (no `secretValues`, or one that is not an object), a list property removed.
// AuthProvider is the kind with nested secret leaves (data.client_secret, data.api_key).
import assert from "node:assert/strict";
import { sameValue, toPlainData } from "../provider/resource";
import { resourceDefinition } from "../provider/resources";
import { joinSecretValues, separateSecretValues } from "../provider/secretValues";

describe("state conversion and equality: edge cases of real answers and older state", () => {
  const def = resourceDefinition("AuthProvider");

  it("a null in an answer stays null, at the top, nested and in a list", () => {
    const answer = { name: "n", description: null, data: { issuer: null }, tags: [null, "a"] };
    assert.deepEqual(toPlainData(answer), {
      name: "n",
      description: null,
      data: { issuer: null },
      tags: [null, "a"],
    });
  });

  it("an answer without data (or with data null) is stored as it is, with no secret taken apart", () => {
    assert.deepEqual(separateSecretValues(def, { name: "n", data: null }), {
      name: "n",
      data: null,
      secretValues: {},
    });
  });

  it("state without secretValues (older state) is used as it is; a secretValues that is not an object is kept", () => {
    assert.deepEqual(joinSecretValues(def, { name: "n", data: { issuer: "i" } }), {
      name: "n",
      data: { issuer: "i" },
    });
    assert.deepEqual(joinSecretValues(def, { name: "n", secretValues: "kept" }), {
      name: "n",
      secretValues: "kept",
    });
  });

  it("a secret leaf whose object is gone from the state is not put back (no data made up for it)", () => {
    const state = { name: "n", secretValues: { "data.client_secret": "leaf-secret-1" } };
    assert.deepEqual(joinSecretValues(def, state), { name: "n" });
  });

  it("a list is never equal to a missing value or to a string of the same length", () => {
    assert.equal(sameValue(["a"], undefined), false);
    assert.equal(sameValue(undefined, ["a"]), false);
    assert.equal(sameValue(["y"], "y"), false);
    assert.equal(sameValue(["a", "b"], ["a", "b"]), true);
  });
});
