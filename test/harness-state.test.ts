// The harness's state store: a snapshot plus a journal of what changed, so the bytes written grow
// linearly with the number of steps (not with steps x state size), an interrupted run's journal is
// replayed on the next load, and no secret is written in plaintext in either file.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeSecret } from "../harness/secrets";
import { emptyState, type HarnessState, type StateResource, StateStore } from "../harness/state";
import { useStateFile } from "./support/fixtures";

const SECRET = "journal-secret-value-3b9";

function resource(i: number, extra: Partial<StateResource> = {}): StateResource {
  return {
    urn: `urn:pulumi:dev::p::pulumi-nodejs:dynamic/frontdoor:AuthProvider::ap-${i}`,
    type: "pulumi-nodejs:dynamic/frontdoor:AuthProvider",
    name: `ap-${i}`,
    id: `id-${i}`,
    inputs: { name: `ap-${i}`, data: { client_id: `c-${i}`, client_secret: makeSecret(SECRET) } },
    outputs: { name: `ap-${i}`, secretValues: makeSecret({ "data.client_secret": SECRET }) },
    dependencies: [],
    ...extra,
  };
}

describe("harness state store (snapshot + journal)", () => {
  const file = useStateFile("harness-state-", "state-store-test");

  it("writes bytes linear in the number of steps: 2000 single-resource steps", () => {
    const store = new StateStore(file.path);
    const state: HarnessState = emptyState("p", "dev");
    for (let i = 0; i < 2000; i++) {
      state.resources = [...state.resources, resource(i)];
      store.save(state);
    }
    store.save(state, true);
    const finalSize = fs.statSync(file.path).size;
    // Rewriting the whole state at every step would write ~1000 times the final size.
    assert.ok(
      store.bytesWritten < 8 * finalSize,
      `${store.bytesWritten} bytes written for a ${finalSize}-byte state (${(store.bytesWritten / finalSize).toFixed(1)}x)`,
    );
    assert.ok(!fs.existsSync(store.journalFile), "the final write leaves no journal");
    assert.equal(new StateStore(file.path).load("p", "dev").resources.length, 2000);
  });

  it("replays the journal of an interrupted run (changes, deletions, outputs; a torn last line ignored)", () => {
    const store = new StateStore(file.path);
    const state: HarnessState = emptyState("p", "dev");
    state.resources = [resource(1), resource(2), resource(3)];
    store.save(state); // the snapshot
    state.resources = [
      resource(1),
      { ...state.resources[1], id: "id-2-replaced", outputs: { name: "renamed" } },
      resource(4, { dependencies: [resource(1).urn] }),
    ];
    state.outputs = { ssoId: "id-1" };
    state.config = { "p:token": makeSecret("cfg-secret-7") };
    store.save(state); // journal only: the run is then "killed" (no final write)
    assert.ok(fs.existsSync(store.journalFile));
    fs.appendFileSync(store.journalFile, '{"put":{"urn":"urn:torn');

    const loaded = new StateStore(file.path).load("p", "dev");
    assert.deepEqual(
      loaded.resources.map((r) => [r.name, r.id]),
      [
        ["ap-1", "id-1"],
        ["ap-2", "id-2-replaced"],
        ["ap-4", "id-4"],
      ],
    );
    assert.deepEqual(loaded.resources[1].outputs, { name: "renamed" });
    assert.deepEqual(loaded.outputs, { ssoId: "id-1" });
    assert.deepEqual(loaded.config, { "p:token": makeSecret("cfg-secret-7") });
    assert.deepEqual(loaded.resources[2].inputs.data.client_secret, makeSecret(SECRET));

    for (const text of [fs.readFileSync(file.path, "utf8"), fs.readFileSync(store.journalFile, "utf8")]) {
      assert.ok(!text.includes(SECRET) && !text.includes("cfg-secret-7"), "a secret in plaintext");
      assert.match(text, /ciphertext/);
    }
  });

  it("keeps the salt of a secret first seen after the snapshot in the journal", () => {
    const store = new StateStore(file.path);
    const state: HarnessState = emptyState("p", "dev");
    state.resources = [{ ...resource(1), inputs: {}, outputs: {} }];
    store.save(state); // no secrets yet: no salt in the snapshot
    state.resources = [...state.resources, resource(2)];
    store.save(state);
    const loaded = new StateStore(file.path).load("p", "dev");
    assert.deepEqual(loaded.resources[1].inputs.data.client_secret, makeSecret(SECRET));
  });
});
