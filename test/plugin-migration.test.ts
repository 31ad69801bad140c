// Moving a stack from the dynamic provider to the provider plugin, with the real CLI, without recreating
// anything: the TypeScript example examples/frontdoor-basic is up on the dynamic provider; then, in the
// same stack, as docs/guides/native-plugin.md says: export the state, `pulumi-frontdoor-import
// --from-state ... --import-file ...`, the program becomes a plugin program (YAML, or TypeScript over
// the generated Node.js SDK: test/support/plugin-languages.ts), `pulumi import --file` writes it, the
// dynamic resources forgotten with the `pulumi state delete` lines the tool printed. Then the stack
// shows no changes, and the mock's request log proves no object was created or deleted.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { type MockServer, startMockServer } from "../mock/server";
import { requirePeers } from "./peers/index";
import { EXAMPLES } from "./support/examples";
import { assertPluginBuilt, pluginStack } from "./support/plugin";
import { PLUGIN_LANGUAGES, type PluginLanguage } from "./support/plugin-languages";

const ROOT = path.resolve(__dirname, "..");
const SECRETS = {
  ssoClientSecret: "migrate-sso-client-secret-2718",
  partnerApiKey: "migrate-partner-api-key-1618",
};

describe("Real Pulumi CLI: a dynamic-provider stack moved to the provider plugin", function () {
  this.timeout(600_000);
  let mock: MockServer;

  before(async function () {
    requirePeers(
      this,
      "pulumi",
      "pulumi-language-nodejs",
      "pulumi-resource-pulumi-nodejs",
      ...PLUGIN_LANGUAGES.flatMap((l) => l.peers),
    );
    assertPluginBuilt();
    mock = await startMockServer();
  });
  after(() => mock?.close());

  const migrate = async (language: PluginLanguage) => {
    const stack = await pluginStack(path.join(EXAMPLES, "frontdoor-basic"), {
      config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": mock.credentials.frontdoorId },
      secretConfig: { "frontdoor:token": mock.credentials.frontdoorToken, ...SECRETS },
    });
    const outputs: string[] = [];
    try {
      outputs.push((await stack.ok(["up", "--yes", "--skip-preview"])).output);
      const before = (await stack.exportState()).deployment.resources.filter((r: any) =>
        String(r.type).startsWith("pulumi-nodejs:dynamic/frontdoor:"),
      );
      assert.equal(before.length, 2);

      mock.clearLog();
      const stateFile = path.join(stack.dir, "dynamic-state.json");
      await stack.ok(["stack", "export", "--file", stateFile]);
      const importFile = path.join(stack.dir, "import.json");
      const tool = await promisify(execFile)("node", [
        path.join(ROOT, "bin", "provider", "tools", "importCli.js"),
        "--from-state",
        stateFile,
        "--import-file",
        importFile,
      ]);
      // The program now uses the plugin: same project, same stack and config, in the language.
      language.emptyInPlace(stack.dir, "frontdoor-basic");
      const generated = path.join(stack.dir, language.generatedFile);
      outputs.push(
        (
          await stack.ok(["import", "--file", importFile, "--yes", "--protect=false", "--out", generated], {
            env: language.importEnv,
          })
        ).output,
      );
      language.addGenerated(stack.dir, fs.readFileSync(generated, "utf8"));
      const forget = [...tool.stderr.matchAll(/pulumi state delete --yes '([^']+)'/g)].map((m) => m[1]);
      assert.deepEqual(
        forget.slice(0, 2).sort(),
        before.map((r: any) => r.urn).sort(),
        `the tool names every dynamic resource:\n${tool.stderr}`,
      );
      for (const urn of forget) outputs.push((await stack.ok(["state", "delete", "--yes", urn])).output);

      const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
      outputs.push(preview.output);
      assert.equal(preview.code, 0, `changes after the move:\n${preview.output}`);
      outputs.push((await stack.ok(["up", "--yes", "--skip-preview"])).output);
      const refresh = await stack.run(["refresh", "--yes", "--expect-no-changes"]);
      outputs.push(refresh.output);
      assert.equal(refresh.code, 0, refresh.output);

      // Nothing was created, changed or deleted on the API: reads only.
      assert.deepEqual([...new Set(mock.log.map((e) => e.method))], ["GET"], JSON.stringify(mock.log));
      const state = await stack.exportState();
      const after = state.deployment.resources.filter(
        (r: any) => r.custom && !String(r.type).startsWith("pulumi:providers"),
      );
      assert.deepEqual(
        after.map((r: any) => `${r.type} ${String(r.urn).split("::").pop()} ${r.id}`).sort(),
        before
          .map((r: any) => `frontdoor:index:AuthProvider ${String(r.urn).split("::").pop()} ${r.id}`)
          .sort(),
        "the same objects, under the same names, now of the plugin's type",
      );
      assert.ok(!state.deployment.resources.some((r: any) => String(r.type).includes("pulumi-nodejs")));
      assert.ok(!JSON.stringify(state).includes("__provider"));
      const exported = JSON.stringify(state);
      for (const secret of [...Object.values(SECRETS), mock.credentials.frontdoorToken]) {
        assert.ok(!exported.includes(secret), "a secret is in the exported state");
        for (const text of outputs) assert.ok(!text.includes(secret), "a secret is in the CLI's output");
      }

      outputs.push((await stack.ok(["destroy", "--yes", "--skip-preview"])).output);
      for (const r of before)
        assert.equal(mock.frontdoor.get(mock.credentials.frontdoorId, "auth-providers", r.id), undefined);
    } finally {
      await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await stack.dispose();
    }
  };

  for (const language of PLUGIN_LANGUAGES)
    it(`examples/frontdoor-basic to ${language.name}: same objects, same names, no create or delete, then no changes`, () =>
      migrate(language));
});
