// The access a change adds or removes, predicted from a preview, with the real peers (built by
// `npm run peers`): the real Pulumi CLI's `pulumi preview --json` (v3.276) for
// test/programs/access-preview against the mock, and the harness scenario of
// test/access-preview-support.ts against a real OpenZiti controller. The prediction must equal the
// diff measured around the up that applies the change, and a role list computed from a new object's
// id must be reported as unknown until applied.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { describePreviewScenario, PROGRAM, short } from "./access-preview-support";
import { type Audit, auditOn, auditWith } from "./access-support";
import { type CliStack, cliStack } from "./peers/cli";
import { realEdgeConfig, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { mockConfig } from "./support/engine";

const OWNER_TAG = "owner-tag-s3cret-cli-5d21";

describePreviewScenario(
  "Real OpenZiti controller: access --preview (harness) predicts what up does",
  async (ctx) => {
    requirePeers(ctx, "ziti");
    const ctrl = await startController();
    const { "frontdoor:edgePassword": edgePassword, ...config } = realEdgeConfig(ctrl);
    return {
      config,
      secretConfig: { "frontdoor:edgePassword": edgePassword },
      audit: auditWith({
        ZITI_EDGE_URL: ctrl.url,
        ZITI_USERNAME: ctrl.username,
        ZITI_PASSWORD: ctrl.password,
        FRONTDOOR_CA_BUNDLE: ctrl.caPem,
      }),
      close: () => ctrl.stop(),
    };
  },
);

describe("Real Pulumi CLI: access --preview from `pulumi preview --json`", function () {
  this.timeout(900_000);
  let mock: MockServer;
  let audit: Audit;
  let stack: CliStack;
  let dir: string;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    mock = await startMockServer();
    audit = auditOn(mock);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "real-access-preview-"));
    // The Edge API's settings only: the program declares no Frontdoor object.
    const {
      "frontdoor:edgeUrl": edgeUrl,
      "frontdoor:edgeUsername": edgeUsername,
      "frontdoor:edgePassword": edgePassword,
    } = mockConfig(mock);
    const plain = { "frontdoor:edgeUrl": edgeUrl, "frontdoor:edgeUsername": edgeUsername };
    stack = await cliStack(PROGRAM, {
      config: { ...plain, stage: "1" },
      secretConfig: { "frontdoor:edgePassword": edgePassword, ownerTag: OWNER_TAG },
    });
    await stack.ok(["up", "--yes", "--skip-preview"]);
  });
  after(async () => {
    if (stack) {
      await stack.run(["destroy", "--yes", "--skip-preview"]);
      await stack.dispose();
    }
    await mock?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const json = async (...args: string[]) => {
    const r = await audit(...args, "--json");
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  /** Saves the live matrix, sets the stage, previews it with the CLI and predicts from that. */
  const predict = async (stage: number) => {
    const before = path.join(dir, `stage${stage}-before.json`);
    fs.writeFileSync(before, (await audit("access", "--json")).stdout);
    await stack.ok(["config", "set", "stage", String(stage)]);
    const preview = await stack.ok(["preview", "--json"]);
    const file = path.join(dir, `stage${stage}-preview.json`);
    fs.writeFileSync(file, preview.stdout);
    assert.ok(!preview.stdout.includes(OWNER_TAG), "the CLI's preview JSON holds the secret");
    return { before, file, predicted: await json("access", "--preview", file) };
  };

  it("predicts a group's new Dial policy, an identity leaving a group and a new @id grant; up then does exactly that", async () => {
    const { before, file, predicted } = await predict(2);
    const steps = JSON.parse(fs.readFileSync(file, "utf8")).steps as any[];
    const dial = steps.find((s) => s.urn.endsWith("::reports-dial"));
    assert.ok(dial, "the CLI's preview has the new policy");
    assert.deepEqual(dial.newState.inputs.identityRoles, ["04da6b54-80e4-46f7-96ec-b56ff0331ba9"]);
    assert.equal(steps.find((s) => s.urn.endsWith("::db"))?.op, "replace");
    assert.deepEqual(predicted.unresolved, []);
    assert.deepEqual(predicted.unknown, []);
    assert.deepEqual(predicted.added.map(short), ["Dial ap-db ap-carol", "Dial ap-reports ap-reporter"]);
    assert.deepEqual(predicted.removed.map(short), ["Dial ap-web ap-bob"]);
    assert.deepEqual(predicted.changed, []);
    const text = await audit("access", "--preview", file);
    assert.match(
      text.stdout,
      /^\| added \| ap-reports \| Dial \| ap-reporter \| ap-reports-dial \| ap-router \| — \|$/m,
    );
    assert.ok(!text.stdout.includes(OWNER_TAG));

    await stack.ok(["up", "--yes", "--skip-preview"]);
    const { added, removed, changed } = predicted;
    assert.deepEqual(
      { added, removed, changed },
      await json("access", "--before", before),
      "predicted == applied",
    );
  });

  it("reports a role list computed from a new object's id as unknown until applied", async () => {
    const { before, predicted } = await predict(3);
    assert.deepEqual(predicted.added, []);
    assert.deepEqual(predicted.unresolved, [
      { resource: "audit-web", kind: "ServicePolicy", property: "identityRoles", from: ["auditor"] },
    ]);
    const unknown = predicted.unknown.map((u: any) => `${u.status}: ${short(u.line)}`);
    assert.ok(unknown.includes("may be granted: Dial ap-web ap-auditor"), unknown.join("\n"));
    await stack.ok(["up", "--yes", "--skip-preview"]);
    const actual = await json("access", "--before", before);
    assert.deepEqual(actual.added.map(short), ["Dial ap-web ap-auditor"]);
  });

  it("predicts what deleting objects removes; up then does exactly that", async () => {
    const { before, predicted } = await predict(1);
    assert.deepEqual(predicted.unknown, []);
    assert.deepEqual(predicted.added.map(short), ["Dial ap-web ap-bob"]);
    await stack.ok(["up", "--yes", "--skip-preview"]);
    const { added, removed, changed } = predicted;
    assert.deepEqual({ added, removed, changed }, await json("access", "--before", before));
  });
});
