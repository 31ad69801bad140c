// Values at the edges: undefined items of a list in an answer (Struct conversion cannot carry them, so
// they are dropped, as undefined properties are), and an import id whose frontdoor part is empty.
import assert from "node:assert/strict";
import { ProviderError } from "../provider/http/errors";
import { toPlainData } from "../provider/resource";
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
