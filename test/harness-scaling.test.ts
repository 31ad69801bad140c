// What lets the harness scale linearly: steps edit the state in place, in any order, and the store
// writes only what changed; the dependency order is established once, when a snapshot is written. And
// what a program keeps per resource while it runs: no stack frames unless asked for.
// (Times and memory are measured in bench/scaling.ts, not here.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type HarnessOptions, runHarness } from "../harness";
import {
  dependencyOrder,
  emptyState,
  type HarnessState,
  type StateResource,
  StateStore,
} from "../harness/state";
import { tempDir, useStateFile } from "./support/fixtures";

function resource(
  name: string,
  dependencies: string[] = [],
  extra: Partial<StateResource> = {},
): StateResource {
  return {
    urn: urn(name),
    type: "pulumi-nodejs:dynamic/frontdoor:AuthProvider",
    name,
    id: `id-${name}`,
    inputs: { name },
    outputs: { name },
    dependencies: dependencies.map(urn),
    ...extra,
  };
}

function urn(name: string): string {
  return `urn:pulumi:dev::p::pulumi-nodejs:dynamic/frontdoor:AuthProvider::${name}`;
}

const names = (rs: StateResource[]) => rs.map((r) => `${r.name}${r.pendingDelete ? "(old)" : ""}`);

describe("harness state at scale", () => {
  const file = useStateFile("harness-scaling-", "scaling-test");

  it("journals only the resources a step replaced in place, and writes snapshots in dependency order", () => {
    const store = new StateStore(file.path);
    const state: HarnessState = emptyState("p", "dev");
    // In memory a dependent may come first (steps put results where they are, or at the end).
    state.resources = [resource("b", ["a"]), resource("a"), resource("c")];
    store.save(state);
    assert.deepEqual(names(new StateStore(file.path).load("p", "dev").resources), ["a", "b", "c"]);

    // Steps replace b in place and append d, which a depends on now: only those two are journaled.
    state.resources[0] = { ...state.resources[0], id: "id-b2" };
    state.resources[1] = resource("a", ["d"]);
    state.resources.push(resource("d"));
    store.save(state);
    const lines = fs.readFileSync(store.journalFile, "utf8").trim().split("\n");
    const journaled = lines.flatMap((l) => {
      const parsed = JSON.parse(l);
      return (Array.isArray(parsed) ? parsed : [parsed]).filter((e) => e.put).map((e) => e.put.name);
    });
    assert.deepEqual(journaled.sort(), ["a", "b", "d"], "c is unchanged and not written again");

    // A journal replay and the final snapshot both come back in dependency order.
    assert.deepEqual(names(new StateStore(file.path).load("p", "dev").resources), ["d", "a", "b", "c"]);
    store.save(state, true);
    const loaded = new StateStore(file.path).load("p", "dev");
    assert.deepEqual(names(loaded.resources), ["d", "a", "b", "c"]);
    assert.equal(loaded.resources.find((r) => r.name === "b")?.id, "id-b2");
  });

  it("orders every resource exactly once: cycles, and the old half of a replace beside its successor", () => {
    const ordered = dependencyOrder([
      resource("x", ["y"]),
      resource("y", ["x"]),
      resource("z", ["w"]),
      resource("w", [], { pendingDelete: true }),
      resource("w"),
      resource("v", ["missing"]),
    ]);
    assert.deepEqual(names(ordered), ["y", "x", "w(old)", "w", "z", "v"]);
  });

  it("orders 20000 resources in a dependency chain given in reverse", () => {
    // One visited set for the whole walk: a long chain is ordered without a set per resource.
    const n = 20_000;
    const chain = Array.from({ length: n }, (_, i) => resource(`r${i}`, i > 0 ? [`r${i - 1}`] : []));
    const ordered = dependencyOrder([...chain].reverse());
    assert.equal(ordered.length, n);
    assert.deepEqual(names(ordered.slice(0, 3)), ["r0", "r1", "r2"]);
  });
});

describe("harness: stack frames while the program runs", () => {
  const programDir = path.join(__dirname, "programs", "harness-stack-frames");
  let dir: string;
  beforeEach(() => {
    dir = tempDir("harness-frames-");
  });

  const up = (extra: Partial<HarnessOptions> = {}) =>
    runHarness("up", { programDir, stateFile: path.join(dir, "state.json"), ...extra });

  it("keeps none by default (Pulumi's per-promise traces), all of them with --debug or PULUMI_DEBUG_PROMISE_LEAKS", async () => {
    const plain = await up();
    assert.equal(plain.exitCode, 0, plain.stderr);
    assert.deepEqual(plain.report.outputs, { stackTraceLimit: 0, frames: 0 });
    for (const extra of [{ debug: true }, { env: { PULUMI_DEBUG_PROMISE_LEAKS: "1" } }]) {
      const kept = await up(extra);
      assert.equal(kept.exitCode, 0, kept.stderr);
      assert.equal(kept.report.outputs.stackTraceLimit, 10, JSON.stringify(extra));
      assert.ok(kept.report.outputs.frames > 0, JSON.stringify(extra));
    }
  });

  it("still reports a program's error with its whole message", async () => {
    const failed = await up({ config: { fail: "no frames needed" } });
    assert.equal(failed.exitCode, 1);
    assert.deepEqual(
      failed.report.failures.map((f: { message: string }) => f.message),
      ["program failed: refused by the program: no frames needed"],
    );
  });
});
