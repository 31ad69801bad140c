// The plugin tarball (`npm run plugin:package`, here its packaging step on the built tree): what it holds
// (the launcher, package.json with the version, schema.json, the compiled provider and only runtime
// packages), installed by the real CLI with `pulumi plugin install resource frontdoor <version> --file`
// into the stack's own PULUMI_HOME, and then used from there by a YAML program, with no bin/plugin on
// PATH and no node_modules above the plugin's folder: the tarball is self-contained.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { cliStack } from "./peers/cli";
import { requirePeers } from "./peers/index";
import { EXAMPLES } from "./support/examples";
import { assertPluginBuilt, PLUGIN_BIN } from "./support/plugin";

const ROOT = path.resolve(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const TARBALL = path.join(ROOT, "bin", `pulumi-resource-frontdoor-v${pkg.version}.tgz`);

describe("Provider plugin tarball", function () {
  this.timeout(600_000);
  let entries: string[] = [];

  before(() => {
    assertPluginBuilt();
    fs.rmSync(TARBALL, { force: true });
    execFileSync("node", [path.join(ROOT, "scripts", "plugin.js"), "package"], { cwd: ROOT, stdio: "pipe" });
    entries = execFileSync("tar", ["-tzvf", TARBALL], { encoding: "utf8" }).split("\n").filter(Boolean);
  });

  const has = (file: string) => entries.some((line) => line.endsWith(` ./${file}`));

  it("holds the launcher, the version, the schema, the compiled provider and only runtime packages", () => {
    const launcher = entries.find((line) => line.endsWith(" ./pulumi-resource-frontdoor"));
    assert.ok(launcher, "the launcher is at the top of the tarball");
    assert.match(launcher, /^-rwx/, "the launcher is executable");
    for (const file of [
      "package.json",
      "schema.json",
      "bin/provider/plugin/main.js",
      "bin/provider/engine.js",
    ])
      assert.ok(has(file), `${file} is in the tarball`);
    const packaged = JSON.parse(
      execFileSync("tar", ["-xzOf", TARBALL, "./package.json"], { encoding: "utf8" }),
    );
    assert.equal(packaged.version, pkg.version);
    for (const runtime of [...Object.keys(pkg.dependencies), "@grpc/grpc-js", "google-protobuf"])
      assert.ok(has(`node_modules/${runtime}/package.json`), `${runtime} is in the tarball`);
    for (const dev of Object.keys(pkg.devDependencies).filter((d) => d !== "@pulumi/pulumi"))
      assert.ok(!has(`node_modules/${dev}/package.json`), `the dev dependency ${dev} is in the tarball`);
    // Of @pulumi/pulumi, only its generated gRPC code: not the SDK.
    assert.ok(has("node_modules/@pulumi/pulumi/proto/provider_grpc_pb.js"));
    assert.ok(!has("node_modules/@pulumi/pulumi/index.js"));
    const extra = entries.filter((line) => /\.d\.ts$|\.map$| \.\/bin\/(sdk|mock)\//.test(line));
    assert.deepEqual(extra, [], "no declarations, source maps, SDK or mock server");
    const size = fs.statSync(TARBALL).size;
    assert.ok(size < 8 * 1024 * 1024, `the tarball is ${size} bytes`);
  });

  describe("installed with the real CLI", () => {
    let mock: MockServer;
    before(async function () {
      requirePeers(this, "pulumi", "pulumi-language-yaml");
      mock = await startMockServer();
    });
    after(() => mock?.close());

    it("`pulumi plugin install ... --file` installs it, and a YAML program runs on it (not from PATH)", async () => {
      const pathWithoutPlugin = (process.env.PATH ?? "")
        .split(path.delimiter)
        .filter((dir) => path.resolve(dir) !== PLUGIN_BIN)
        .join(path.delimiter);
      const stack = await cliStack(path.join(EXAMPLES, "yaml-frontdoor"), {
        config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": mock.credentials.frontdoorId },
        secretConfig: {
          "frontdoor:token": mock.credentials.frontdoorToken,
          ssoClientSecret: "package-sso-secret-0001",
          partnerApiKey: "package-partner-key-0002",
        },
        env: { PATH: `${path.join(ROOT, ".peers", "bin")}${path.delimiter}${pathWithoutPlugin}` },
      });
      try {
        await stack.ok(["plugin", "install", "resource", "frontdoor", pkg.version, "--file", TARBALL]);
        const listed = await stack.ok(["plugin", "ls", "--json"]);
        const plugins = JSON.parse(listed.stdout) as { name: string; kind: string; version: string }[];
        const installed = plugins.find((p) => p.name === "frontdoor" && p.kind === "resource");
        assert.ok(installed, listed.stdout);
        assert.equal(installed.version, pkg.version);

        mock.clearLog();
        const up = await stack.ok(["up", "--yes", "--skip-preview"]);
        assert.doesNotMatch(
          up.output,
          /pulumi-resource-frontdoor from \$PATH/,
          "the installed plugin is used, not one on PATH",
        );
        assert.ok(mock.log.some((e) => e.method === "POST"));
        const state = await stack.exportState();
        const provider = state.deployment.resources.find((r: any) => r.type === "pulumi:providers:frontdoor");
        assert.equal(provider.inputs.version, pkg.version);
        await stack.ok(["destroy", "--yes", "--skip-preview"]);
      } finally {
        await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
        await stack.dispose();
      }
    });
  });
});
