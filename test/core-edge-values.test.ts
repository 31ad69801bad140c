// Values at the edges: undefined items and Dates in a list of an answer (Struct conversion cannot carry them, so
// they are dropped, as undefined properties are), an import id whose frontdoor part is empty, and
// a secret leaf whose object is null in older state.
import assert from "node:assert/strict";
import { ProviderError } from "../provider/http/errors";
import { toPlainData } from "../provider/resource";
import { resourceDefinition } from "../provider/resources";
import { joinSecretValues } from "../provider/secretValues";
import { configureFor, engine, mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";

describe("values at the edges", function () {
  this.timeout(60_000);

  it("undefined items of a list are dropped, wherever they are in it", () => {
    assert.deepEqual(toPlainData({ tags: [undefined, "a"], more: ["b", undefined] }), {
      tags: ["a"],
      more: ["b"],
    });
  });

  it("a Date in a list becomes its ISO text, also when it is the list's first item", () => {
    const when = new Date(0);
    assert.deepEqual(toPlainData({ times: [when, "x"] }), { times: ["1970-01-01T00:00:00.000Z", "x"] });
  });

  it("a secret leaf whose object is null in the state is not put back (null stays null)", () => {
    const state = { name: "n", data: null, secretValues: { "data.client_secret": "null-parent-secret" } };
    assert.deepEqual(joinSecretValues(resourceDefinition("AuthProvider"), state), { name: "n", data: null });
  });

  describe("an import id `/<id>` (an empty frontdoor part; mock on 127.0.0.1)", () => {
    const mock = useMock();
    it("is refused naming the empty frontdoorId, before any request", async () => {
      await configureFor(mockConfig(mock));
      mock.clearLog();
      const err = await engine.read("AuthProvider", "/abc", {}).catch((e) => e);
      assert.ok(err instanceof ProviderError, String(err));
      assert.equal(err.message, 'AuthProvider: frontdoorId "" must not be empty');
      assert.deepEqual(mock.log, []);
    });
  });
});
