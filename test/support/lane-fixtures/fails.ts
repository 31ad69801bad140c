// A job of the lanes runner's own test: one test passes, one fails.
import assert from "node:assert/strict";

describe("lane fixture: fails", () => {
  it("holds", () => assert.ok(true));
  it("breaks", () => assert.equal("planted", "expected"));
});
