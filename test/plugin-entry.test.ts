// The plugin process's report of a stray rejection (provider/plugin/main.ts): whatever was rejected,
// an Error, a text or nothing at all, the report is one line and never throws (it runs in the
// process's unhandledRejection handler, where a throw would end the plugin mid-call).
import assert from "node:assert/strict";
import { strayRejection } from "../provider/plugin/main";

describe("plugin process: a stray rejection", () => {
  it("is reported in one line for an Error, a text, undefined and null", () => {
    assert.equal(strayRejection(new Error("late")), "pulumi-resource-frontdoor: unhandled: late\n");
    assert.equal(strayRejection("text"), "pulumi-resource-frontdoor: unhandled: text\n");
    assert.equal(strayRejection(undefined), "pulumi-resource-frontdoor: unhandled: undefined\n");
    assert.equal(strayRejection(null), "pulumi-resource-frontdoor: unhandled: null\n");
  });
});
