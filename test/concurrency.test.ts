// Two resources with the same unique name in one program, applied with the engine's concurrency
// (parallel 16, both creates in flight together): one create wins, the other fails with an error
// naming the clash; the state holds exactly the winner (the id of the one object in the mock); after
// the program is fixed, `up` converges, refresh is clean, and destroy leaves nothing behind.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type HarnessResult, readState, runHarness } from "../harness";
import { useHarnessSetup, useMock } from "./support/fixtures";

const PROGRAM = path.join(__dirname, "programs", "faults-clash");
const PREFIX = "clash";

describe("concurrency: two resources with the same unique name", function () {
  // Five harness runs; on a loaded 2-core machine one takes 10-15 s.
  this.timeout(180_000);
  const mock = useMock();
  const setup = useHarnessSetup(mock, "clash-", () => ({ config: { prefix: PREFIX } }));

  const stateFile = () => path.join(setup.dir, "state.json");
  const run = (
    command: "up" | "refresh" | "destroy",
    clash: boolean,
    extra: { expectNoChanges?: boolean } = {},
  ) =>
    runHarness(command, {
      programDir: PROGRAM,
      stateFile: stateFile(),
      config: { ...setup.config, clash: String(clash) },
      secretConfig: setup.secretConfig,
      parallel: 16,
      ...extra,
    });
  const output = (r: HarnessResult) => `${r.stdout}\n${r.stderr}`;

  const authInMock = () =>
    mock.frontdoor
      .list(mock.credentials.frontdoorId, "auth-providers")
      .filter((r) => String(r.name).startsWith(`${PREFIX}-`))
      .map((r) => ({ id: String(r.id), name: String(r.name) }));
  const identitiesInMock = () =>
    mock.edge
      .list("identities")
      .filter((r) => String(r.name).startsWith(`${PREFIX}-`))
      .map((r) => ({ id: String(r.id), name: String(r.name) }));
  /** Custom resources in the state: logical name -> id. */
  const inState = (): Record<string, string> =>
    Object.fromEntries(
      readState(stateFile())
        .resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))
        .map((r) => [String(r.urn).split("::").pop(), String(r.id)]),
    );

  it("fails the loser with a clear conflict, keeps the winner in state, converges once fixed", async () => {
    const up = await run("up", true);
    assert.equal(up.exitCode, 1, output(up));
    const failures = up.report.failures.filter((f) => f.name);
    assert.deepEqual(failures.map((f) => f.name?.replace(/-[ab]$/, "")).sort(), ["auth", "identity"]);
    for (const failure of failures) {
      // The message says what clashed: the kind, the name, and that it is taken.
      const kind = failure.name?.startsWith("auth") ? "AuthProvider" : "Identity";
      const name = failure.name?.startsWith("auth") ? `${PREFIX}-auth-a` : `${PREFIX}-identity-a`;
      assert.match(failure.message, new RegExp(`${kind} "${name}"`), failure.message);
      assert.match(failure.message, /409|already|exists|unique|duplicate|conflict/i, failure.message);
    }

    // Exactly one object per name in the mock; the state holds it (and only it) under the winner.
    const state = inState();
    for (const [kind, objects] of [
      ["auth", authInMock()],
      ["identity", identitiesInMock()],
    ] as const) {
      assert.equal(objects.length, 1, `${kind}: ${JSON.stringify(objects)}`);
      const holders = Object.entries(state).filter(([name]) => name.startsWith(`${kind}-`));
      assert.equal(holders.length, 1, `${kind} in state: ${JSON.stringify(state)}`);
      assert.equal(holders[0][1], objects[0].id, `${kind}: the state's id is not the object in the mock`);
      const loser = failures.find((f) => f.name?.startsWith(`${kind}-`))?.name;
      assert.notEqual(holders[0][0], loser);
    }

    // Fixed program: b gets a name of its own. One up converges (whichever of a and b won before).
    const fixed = await run("up", false);
    assert.equal(fixed.exitCode, 0, output(fixed));
    assert.deepEqual(
      authInMock()
        .map((o) => o.name)
        .sort(),
      [`${PREFIX}-auth-a`, `${PREFIX}-auth-b`],
    );
    assert.deepEqual(
      identitiesInMock()
        .map((o) => o.name)
        .sort(),
      [`${PREFIX}-identity-a`, `${PREFIX}-identity-b`],
    );
    const converged = inState();
    assert.deepEqual(Object.keys(converged).sort(), ["auth-a", "auth-b", "identity-a", "identity-b"]);
    const ids = new Map([...authInMock(), ...identitiesInMock()].map((o) => [o.name, o.id]));
    assert.equal(converged["auth-a"], ids.get(`${PREFIX}-auth-a`));
    assert.equal(converged["auth-b"], ids.get(`${PREFIX}-auth-b`));
    assert.equal(converged["identity-a"], ids.get(`${PREFIX}-identity-a`));
    assert.equal(converged["identity-b"], ids.get(`${PREFIX}-identity-b`));

    const again = await run("up", false);
    assert.equal(again.exitCode, 0, output(again));
    assert.deepEqual(again.report.summary, { same: 4 });
    const refresh = await run("refresh", false, { expectNoChanges: true });
    assert.equal(refresh.exitCode, 0, output(refresh));

    const destroy = await run("destroy", false);
    assert.equal(destroy.exitCode, 0, output(destroy));
    assert.deepEqual(authInMock(), []);
    assert.deepEqual(identitiesInMock(), []);
  });
});
