// The harness reads and writes `Pulumi.<stack>.yaml` as the real CLI does, secrets included (the
// passphrase provider's `secure: v1:...` values): a folder configured with `pulumi config set` runs
// under the harness, and a value the harness sets is read back by `pulumi config get`.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { requirePeers } from "./peers";
import { cliStack } from "./peers/cli";
import { apiConfig } from "./support/engine";

const run = promisify(execFile);
const program = path.join(__dirname, "programs", "readable-drift");
const HARNESS_CLI = path.join(__dirname, "..", "harness", "cli.ts");
const SECRET = "stack-file-client-secret-5d1e";
const PASSPHRASE = "harness-stack-config-passphrase";

async function harnessConfigSet(dir: string, args: string[], passphrase = PASSPHRASE) {
  return run(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", HARNESS_CLI, "config", "set", dir, ...args],
    {
      env: { ...process.env, PULUMI_CONFIG_PASSPHRASE: passphrase },
    },
  );
}

const providers = (mock: MockServer) =>
  mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers") as any[];

describe("harness stack config (Pulumi.<stack>.yaml)", function () {
  this.timeout(300_000);
  let mock: MockServer;
  let dir: string;

  beforeEach(async () => {
    mock = await startMockServer();
    dir = fs.mkdtempSync(path.join(__dirname, "programs", ".work-stackcfg-"));
    for (const file of ["Pulumi.yaml", "package.json", "index.ts"])
      fs.copyFileSync(path.join(program, file), path.join(dir, file));
  });
  afterEach(async () => {
    await mock.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("`harness config set` writes plain and encrypted values that `up` then uses", async () => {
    const c = mock.credentials;
    await harnessConfigSet(dir, ["frontdoor:apiUrl", mock.url]);
    await harnessConfigSet(dir, ["frontdoor:frontdoorId", c.frontdoorId]);
    await harnessConfigSet(dir, ["frontdoor:edgeUrl", mock.url]);
    await harnessConfigSet(dir, ["frontdoor:edgeUsername", c.edgeUsername]);
    await harnessConfigSet(dir, ["--secret", "frontdoor:token", c.frontdoorToken]);
    await harnessConfigSet(dir, ["--secret", "frontdoor:edgePassword", c.edgePassword]);
    await harnessConfigSet(dir, ["--secret", "ssoClientSecret", "--", SECRET]);

    const text = fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8");
    assert.match(text, /^encryptionsalt: v1:/m);
    assert.match(text, /readable-drift:ssoClientSecret:\n\s+secure: v1:/);
    assert.match(text, /frontdoor:apiUrl: http:\/\/127\.0\.0\.1:\d+/);
    for (const secret of [SECRET, c.frontdoorToken, c.edgePassword]) assert.ok(!text.includes(secret));

    const options = {
      programDir: dir,
      stateFile: path.join(dir, "state.json"),
      env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE },
    };
    const up = await runHarness("up", options);
    assert.equal(up.exitCode, 0, up.stdout + up.stderr);
    assert.equal(providers(mock)[0].data.client_secret, SECRET);

    // (A state of its own: the harness's state is encrypted with the passphrase too.)
    const wrong = await runHarness("preview", {
      ...options,
      stateFile: path.join(dir, "other.json"),
      env: { PULUMI_CONFIG_PASSPHRASE: "not-it" },
    });
    assert.notEqual(wrong.exitCode, 0);
    assert.match(wrong.stderr, /incorrect passphrase/);
    const destroy = await runHarness("destroy", options);
    assert.equal(destroy.exitCode, 0, destroy.stdout + destroy.stderr);
  });

  describe("with the real Pulumi CLI", () => {
    before(function () {
      requirePeers(this, "pulumi");
    });

    it("reads what `pulumi config set --secret` wrote, and writes what `pulumi config get` reads", async () => {
      const { config, secretConfig } = apiConfig(mock, "frontdoor", "edge");
      const stack = await cliStack(dir, {
        inPlace: true,
        config,
        secretConfig: { ...secretConfig, "readable-drift:ssoClientSecret": SECRET },
      });
      try {
        const env = { PULUMI_CONFIG_PASSPHRASE: stack.passphrase };
        const options = { programDir: dir, stateFile: path.join(dir, "state.json"), env };
        const up = await runHarness("up", options);
        assert.equal(up.exitCode, 0, up.stdout + up.stderr);
        assert.equal(providers(mock)[0].data.client_secret, SECRET, "the CLI's secure value decrypted");
        const destroy = await runHarness("destroy", options);
        assert.equal(destroy.exitCode, 0, destroy.stdout + destroy.stderr);

        await harnessConfigSet(
          dir,
          ["--secret", "probe", "--", "-----BEGIN set by the harness"],
          stack.passphrase,
        );
        await harnessConfigSet(dir, ["plainProbe", "plain value"], stack.passphrase);
        const secret = await stack.ok(["config", "get", "readable-drift:probe"]);
        assert.equal(secret.stdout.trim(), "-----BEGIN set by the harness");
        const plain = await stack.ok(["config", "get", "readable-drift:plainProbe"]);
        assert.equal(plain.stdout.trim(), "plain value");
        const listed = await stack.ok(["config", "--json"]);
        assert.equal(JSON.parse(listed.stdout)["readable-drift:probe"].secret, true);
      } finally {
        await stack.dispose();
      }
    });
  });
});
