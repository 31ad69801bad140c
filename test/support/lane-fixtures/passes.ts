// A job of the lanes runner's own test (test/test-lanes.test.ts): two passing tests.
import assert from "node:assert/strict";

describe("lane fixture: passes", () => {
  it("adds", () => assert.equal(1 + 1, 2));
  it("waits a little, so that the other lane's job ends first", async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
});
