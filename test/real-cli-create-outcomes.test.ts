// Create outcomes with the real Pulumi CLI (v3.276, built by `npm run peers`) against the mock: what the
// docs (guides/reliability-and-recovery.md) promise is what `pulumi` itself does and shows.
// - A create whose read-back fails after the POST: `pulumi up` fails, the object is in the stack's
//   state with its initialization error, the next `pulumi up` updates it (although nothing changed)
//   and succeeds; nothing is duplicated.
// - An object of the declared name made by another stack: adopted, and the provider's warning is in
//   the CLI's output.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliStack, cliStack } from "./peers/cli";
import { requirePeers } from "./peers/index";
import { mockConfig } from "./support/engine";

const PROGRAM = path.join(__dirname, "programs", "faults-all");

describe("Real Pulumi CLI: partial creates and adoption", function () {
  this.timeout(600_000);
  let mock: MockServer;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    mock = await startMockServer();
  });
  after(() => mock?.close());
  afterEach(() => mock?.faults.clear());

  const stackFor = (prefix: string) => {
    const { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword, ...plain } = mockConfig(mock);
    return cliStack(PROGRAM, {
      stack: "ci",
      config: { ...plain, prefix, counts: JSON.stringify({ AuthProvider: 1, Identity: 2 }) },
      secretConfig: { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword },
    });
  };
  const identities = (prefix: string) =>
    mock.edge.list("identities").filter((r) => String(r.name).startsWith(`${prefix}-`));

  it("a failed read-back keeps the object with its init error; the next up updates it", async () => {
    const stack: CliStack = await stackFor("cli-partial");
    try {
      mock.faults.inject({ method: "GET", path: /\/identities\/[^/]+$/, kind: "500", count: 1 });
      const up = await stack.run(["up", "--yes", "--skip-preview"]);
      assert.notEqual(up.code, 0, up.output);
      assert.match(up.output, /exists, but its create did not complete/);
      const state = await stack.exportState();
      const failed = state.deployment.resources.filter((r: any) => (r.initErrors ?? []).length > 0);
      assert.equal(failed.length, 1, JSON.stringify(state.deployment.resources.map((r: any) => r.urn)));
      assert.equal(identities("cli-partial").length, 2);
      assert.ok(identities("cli-partial").some((r) => r.id === failed[0].id));

      const again = await stack.run(["up", "--yes", "--skip-preview"]);
      assert.equal(again.code, 0, again.output);
      assert.match(again.output, /1 updated/, again.output);
      const after = await stack.exportState();
      assert.deepEqual(
        after.deployment.resources.filter((r: any) => (r.initErrors ?? []).length > 0),
        [],
      );
      assert.equal(identities("cli-partial").length, 2, "nothing duplicated");
      const clean = await stack.run(["refresh", "--yes", "--expect-no-changes"]);
      assert.equal(clean.code, 0, clean.output);
      await stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.equal(identities("cli-partial").length, 0);
    } finally {
      await stack.dispose();
    }
  });

  it("an identical object made by another stack is adopted, and the CLI shows the provider's warning", async () => {
    const theirs: CliStack = await stackFor("cli-adopt");
    try {
      await theirs.ok(["up", "--yes", "--skip-preview"]);
    } finally {
      await theirs.dispose(); // its state goes; its objects stay on the server
    }
    const made = identities("cli-adopt").map((r) => r.id);
    assert.equal(made.length, 2);
    const ours: CliStack = await stackFor("cli-adopt");
    try {
      const up = await ours.ok(["up", "--yes", "--skip-preview"]);
      // The CLI prints each one with the progress and again under Diagnostics.
      const warnings = [
        ...new Set(
          up.output
            .split("\n")
            .filter((line) => line.includes("adopted instead of created"))
            .map((line) => line.slice(line.indexOf("[frontdoor] warning:"))),
        ),
      ];
      assert.equal(warnings.length, 3, up.output);
      for (const id of made)
        assert.ok(
          warnings.some((w) => w.includes(`(id ${id})`)),
          up.output,
        );
      assert.deepEqual(
        identities("cli-adopt")
          .map((r) => r.id)
          .sort(),
        [...made].sort(),
      );
      await ours.ok(["destroy", "--yes", "--skip-preview"]);
      assert.equal(identities("cli-adopt").length, 0);
    } finally {
      await ours.dispose();
    }
  });
});
