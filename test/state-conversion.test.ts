// The conversions every provider call makes between API answers and Pulumi state: plain data for the
// host (copy on write), and nested secret leaves moved into `secretValues` and back. They share objects
// where they can (the CRUD profile), so these tests also pin down that no caller's object is changed.
import assert from "node:assert/strict";
import { toPlainData } from "../provider/resource";
import { resourceDefinition } from "../provider/resources";
import { joinSecretValues, SECRET_VALUES, separateSecretValues } from "../provider/secretValues";

describe("state conversion: plain data and secret leaves", () => {
  it("toPlainData returns plain data as it is, and copies only the path to a value it converts", () => {
    const plain = { x: 1, y: { z: [1, 2, { q: "s" }] }, e: [] as unknown[] };
    assert.equal(toPlainData(plain), plain);

    const at = new Date(0);
    const given: Record<string, any> = {
      keep: { same: [1, { deep: true }] },
      gone: undefined,
      change: { when: at, list: [1, undefined, 2n] },
      map: new Map([["a", 1]]),
      bytes: Buffer.from("hi"),
    };
    const out = toPlainData(given) as Record<string, any>;
    assert.deepEqual(out, {
      keep: { same: [1, { deep: true }] },
      change: { when: at.toISOString(), list: [1, "2"] },
      map: { a: 1 },
      bytes: Buffer.from("hi").toString("base64"),
    });
    assert.ok(!("gone" in out));
    assert.equal(out.keep, given.keep, "an unchanged branch is shared");
    assert.notEqual(out.change, given.change);
    // The input is untouched.
    assert.equal(given.change.when, at);
    assert.deepEqual(given.change.list, [1, undefined, 2n]);
    assert.deepEqual(toPlainData([undefined, 1, undefined]), [1]);
  });

  it("secret leaves move into secretValues and back, without changing the objects given", () => {
    const def = resourceDefinition("AuthProvider");
    const data = {
      issuer: "https://login.example.com",
      client_id: "c",
      client_secret: "s3cret",
      scopes: ["openid"],
    };
    const outs = { name: "corp", type: "OIDC", data };
    const state = separateSecretValues(def, outs);
    assert.deepEqual(state, {
      name: "corp",
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "c", scopes: ["openid"] },
      [SECRET_VALUES]: { "data.client_secret": "s3cret" },
    });
    assert.equal(outs.data, data, "the answer's object is not edited");
    assert.equal(data.client_secret, "s3cret");

    const stored = { ...state, __provider: "require(...)" };
    const joined = joinSecretValues(def, stored, "__provider");
    assert.deepEqual(joined, outs);
    assert.ok(!("__provider" in joined) && !(SECRET_VALUES in joined));
    assert.ok(!("client_secret" in (state.data as object)), "the stored state is not edited");
  });

  it("a secretValues that is not an object is left as it is, and an undeclared leaf is not joined", () => {
    const def = resourceDefinition("AuthProvider");
    assert.deepEqual(joinSecretValues(def, { name: "a", [SECRET_VALUES]: null }), {
      name: "a",
      [SECRET_VALUES]: null,
    });
    const joined = joinSecretValues(def, {
      data: { issuer: "i" },
      [SECRET_VALUES]: { "data.client_secret": "s", "data.other": "x" },
    });
    assert.deepEqual(joined, { data: { issuer: "i", client_secret: "s" } });
  });
});
