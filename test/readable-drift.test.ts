// Drift that a person can read: an out-of-band change of a non-secret leaf of an object (an OIDC
// provider's `data.issuer`, an auth policy's `primary.updb.maxAttempts`) is shown by its path with both
// values, while a secret leaf (`data.client_secret`) is kept in the secret property `secretValues` and
// shown only as changed. Through the engine harness (text and JSON report), and with the real Pulumi
// CLI (`pulumi preview --refresh --diff`), whose display is the one users see.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type HarnessOptions, readState, runHarness } from "../harness";
import { formatReport } from "../harness/format";
import { SIG_KEY } from "../harness/secrets";
import { type MockServer, startMockServer } from "../mock/server";
import { requirePeers } from "./peers";
import { type CliStack, cliStack } from "./peers/cli";
import { apiConfig } from "./support/engine";

const program = path.join(__dirname, "programs", "readable-drift");
const CLIENT_SECRET = "readable-drift-client-secret-7f3a";
const ROTATED_SECRET = "rotated-outside-pulumi-9c1d";
const OLD_ISSUER = "https://login.example.com/realms/corp";
const NEW_ISSUER = "https://evil.example.com/realms/corp";

/** The out-of-band changes: issuer, the client secret, and the policy's maximum attempts. */
function changeBehindPulumisBack(mock: MockServer, ssoId: string, policyId: string): void {
  const fd = mock.credentials.frontdoorId;
  const sso = mockGet(mock, ssoId);
  mock.frontdoor.patch(fd, "auth-providers", ssoId, {
    data: { ...sso.data, issuer: NEW_ISSUER, client_secret: ROTATED_SECRET },
  });
  const policy = mock.edge.get("auth-policies", policyId) as any;
  mock.edge.patch("auth-policies", policyId, {
    primary: { ...policy.primary, updb: { ...policy.primary.updb, maxAttempts: 9 } },
  } as any);
}

function mockGet(mock: MockServer, id: string): any {
  return (mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers") as any[]).find(
    (p) => p.id === id,
  );
}

/** The Frontdoor and Edge settings (the program declares objects of both), secrets apart. */
function connection(mock: MockServer) {
  return apiConfig(mock, "frontdoor", "edge");
}

describe("readable drift", function () {
  this.timeout(300_000);
  let mock: MockServer;

  beforeEach(async () => {
    mock = await startMockServer();
  });
  afterEach(() => mock.close());

  describe("through the engine harness", () => {
    let stateFile: string;
    const opts = (extra: Partial<HarnessOptions> = {}): HarnessOptions => {
      const { config, secretConfig } = connection(mock);
      return {
        programDir: program,
        stateFile,
        config,
        secretConfig: { ...secretConfig, ssoClientSecret: CLIENT_SECRET },
        ...extra,
      };
    };

    beforeEach(() => {
      stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fd-readable-")), "dev.json");
    });
    afterEach(() => fs.rmSync(path.dirname(stateFile), { recursive: true, force: true }));

    it("stores data in the open and its secret leaf in the secret property secretValues", async () => {
      const up = await runHarness("up", opts());
      assert.equal(up.exitCode, 0, up.stdout + up.stderr);
      const sso = readState(stateFile).resources.find((r) => r.name === "sso")!;
      assert.equal(sso.outputs.data[SIG_KEY], undefined, "data as a whole is not a secret");
      assert.equal(sso.outputs.data.issuer, OLD_ISSUER);
      assert.equal(sso.outputs.data.client_secret, undefined, "the secret leaf is moved out of data");
      assert.ok(sso.outputs.secretValues[SIG_KEY], "secretValues is a secret");
      assert.ok(!fs.readFileSync(stateFile, "utf8").includes(CLIENT_SECRET), "plaintext secret in state");
      const clean = await runHarness("refresh", opts({ expectNoChanges: true }));
      assert.equal(clean.exitCode, 0, clean.stdout + clean.stderr);
    });

    it("reports each changed leaf by its path, and a changed secret only as changed", async () => {
      const up = await runHarness("up", opts());
      assert.equal(up.exitCode, 0, up.stdout + up.stderr);
      changeBehindPulumisBack(mock, up.report.outputs.ssoId, up.report.outputs.policyId);

      const result = await runHarness("refresh", opts({ expectNoChanges: true }));
      assert.notEqual(result.exitCode, 0);
      // The CLI's text output (runHarness reads its --json document; the text is made from it).
      const text = formatReport(result.report);
      assert.ok(text.includes(`~ data.issuer: ${OLD_ISSUER} => ${NEW_ISSUER}`), text);
      assert.ok(text.includes("~ secretValues: [secret] => [secret]"), text);
      assert.ok(text.includes("~ primary.updb.maxAttempts: 3 => 9"), text);
      assert.doesNotMatch(text, /minPasswordLength|client_id/, "unchanged leaves are not listed");

      const leaves = Object.fromEntries(
        result.report.changes.flatMap((c) =>
          c.properties.flatMap((p) => p.leaves.map((l) => [`${c.name}:${l.path}`, [l.old, l.new]])),
        ),
      );
      assert.deepEqual(leaves, {
        "sso:data.issuer": [OLD_ISSUER, NEW_ISSUER],
        "sso:secretValues": ["[secret]", "[secret]"],
        "policy:primary.updb.maxAttempts": [3, 9],
      });
      for (const secret of [CLIENT_SECRET, ROTATED_SECRET]) {
        assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret), "secret in the output");
        assert.ok(!text.includes(secret), "secret in the text output");
        assert.ok(!fs.readFileSync(stateFile, "utf8").includes(secret), "plaintext secret in state");
      }

      // `up` puts the declaration back, the secret included.
      const restore = await runHarness("up", opts());
      assert.equal(restore.exitCode, 0, restore.stdout + restore.stderr);
      assert.equal(mockGet(mock, up.report.outputs.ssoId).data.client_secret, CLIENT_SECRET);
      const clean = await runHarness("refresh", opts({ expectNoChanges: true }));
      assert.equal(clean.exitCode, 0, clean.stdout + clean.stderr);
    });
  });

  describe("with the real Pulumi CLI", () => {
    let stack: CliStack | undefined;
    before(function () {
      requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    });
    afterEach(async () => {
      if (stack) await stack.run(["destroy", "--yes"]);
      await stack?.dispose();
      stack = undefined;
    });

    it("`preview --refresh --diff` names the changed leaves and keeps the secret secret", async () => {
      const { config, secretConfig } = connection(mock);
      stack = await cliStack(program, {
        config,
        secretConfig: { ...secretConfig, "readable-drift:ssoClientSecret": CLIENT_SECRET },
      });
      await stack.ok(["up", "--yes", "--skip-preview"]);
      const exported = await stack.exportState();
      const sso = exported.deployment.resources.find((r: any) => String(r.urn).endsWith("::sso"));
      assert.equal(sso.outputs.data[SIG_KEY], undefined, "data as a whole is not a secret");
      assert.ok(sso.outputs.secretValues[SIG_KEY], "secretValues is a secret");
      assert.ok(!JSON.stringify(exported).includes(CLIENT_SECRET), "plaintext secret in the CLI's state");

      changeBehindPulumisBack(mock, await stack.idOf("sso"), await stack.idOf("policy"));
      const preview = await stack.run(["preview", "--refresh", "--expect-no-changes", "--diff"]);
      assert.notEqual(preview.code, 0, preview.output);
      assert.match(
        preview.output,
        /~ issuer\s*: "https:\/\/login\.example\.com\/realms\/corp" => "https:\/\/evil\.example\.com\/realms\/corp"/,
      );
      assert.match(preview.output, /~ maxAttempts\s*: 3 => 9/);
      for (const secret of [CLIENT_SECRET, ROTATED_SECRET]) assert.ok(!preview.output.includes(secret));

      await stack.ok(["up", "--refresh", "--yes", "--skip-preview"]);
      const clean = await stack.run(["refresh", "--expect-no-changes", "--yes"]);
      assert.equal(clean.code, 0, clean.output);

      // A secret rotated behind Pulumi's back alone: the CLI never displays secret values (not even as
      // changed), but the drift is found and the plan updates the auth provider.
      const ssoId = await stack.idOf("sso");
      mock.frontdoor.patch(mock.credentials.frontdoorId, "auth-providers", ssoId, {
        data: { ...mockGet(mock, ssoId).data, client_secret: ROTATED_SECRET },
      });
      const secretOnly = await stack.run(["preview", "--refresh", "--expect-no-changes", "--diff"]);
      assert.notEqual(secretOnly.code, 0, secretOnly.output);
      assert.match(secretOnly.output, /~ pulumi-nodejs:dynamic\/frontdoor:AuthProvider: \(update\)/);
      assert.ok(!secretOnly.output.includes(ROTATED_SECRET) && !secretOnly.output.includes(CLIENT_SECRET));
    });
  });
});
