// The CLI's own import, with the provider plugin, into a program in each language the CLI writes
// (test/support/plugin-languages.ts: YAML, and TypeScript over the generated Node.js SDK): existing
// objects of every kind (Frontdoor kinds on the mock, Edge kinds on the real controller), made once per
// language, imported
// - one by one: `pulumi import frontdoor:index:<Kind> <name> <id>` (Frontdoor ids `<frontdoorId>/<id>`);
// - all at once: `pulumi import --file` with the file `pulumi-frontdoor-import --import-file` writes;
// the CLI writes the program, which then previews with no changes. A KeyPair (it exists only in a
// state) is refused with the reason. State and CLI output hold no secret value in plain text.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { type MockServer, startMockServer } from "../mock/server";
import type { Props } from "../provider/resource";
import { resourceDefinitions } from "../provider/resources/all";
import type { CliResult, CliStack } from "./peers/cli";
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { EDGE_COLLECTIONS } from "./support/collections";
import { edgeObjects } from "./support/edge-objects";
import { configureFor, createChecked, engine, mockConfig } from "./support/engine";
import { assertPluginBuilt, pluginStack } from "./support/plugin";
import { PLUGIN_LANGUAGES, type PluginLanguage } from "./support/plugin-languages";

const ROOT = path.resolve(__dirname, "..");
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;

interface Made {
  language: PluginLanguage["name"];
  kind: string;
  /** The id `pulumi import` takes. */
  importId: string;
  id: string;
  outs: Props;
}

describe("Real Pulumi CLI: import with the provider plugin (YAML, TypeScript)", function () {
  this.timeout(900_000);
  let mock: MockServer;
  let ctrl: RealController;
  const made: Made[] = [];
  const madeSecrets: string[] = [];
  let config: Record<string, string> = {};
  let secretConfig: Record<string, string> = {};

  before(async function () {
    requirePeers(this, "pulumi", "ziti", ...PLUGIN_LANGUAGES.flatMap((l) => l.peers));
    assertPluginBuilt();
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 50 } });
    ctrl = await startController();
    const fdConfig = mockConfig(mock);
    const settings: Record<string, string> = {
      "frontdoor:apiUrl": fdConfig["frontdoor:apiUrl"],
      "frontdoor:frontdoorId": fdConfig["frontdoor:frontdoorId"],
      "frontdoor:token": fdConfig["frontdoor:token"],
      ...realEdgeConfig(ctrl),
    };
    const { "frontdoor:token": token, "frontdoor:edgePassword": password, ...plain } = settings;
    config = plain;
    secretConfig = { "frontdoor:token": token, "frontdoor:edgePassword": password };
    // The objects to import exist before any stack: made through the provider's engine in this process,
    // one set per language (names prefixed with it).
    await configureFor(settings);
    for (const language of PLUGIN_LANGUAGES) await makeObjects(language.name);
  });

  const makeObjects = async (language: PluginLanguage["name"]) => {
    const PREFIX = prefixOf(language);
    const SSO_SECRET = `${PREFIX}-sso-secret-3141`;
    madeSecrets.push(SSO_SECRET);
    const fd = mock.credentials.frontdoorId;
    const add = async (kind: string, inputs: Props) => {
      const { id, outs } = await createChecked(kind, inputs);
      const api = resourceDefinitions.find((d) => d.kind === kind)!.api;
      made.push({ language, kind, id, outs, importId: api === "frontdoor" ? `${fd}/${id}` : id });
      return { id, outs };
    };
    await add("AuthProvider", {
      name: `${PREFIX}-sso`,
      type: "OIDC",
      data: { issuer: "https://login.example.com/corp", client_id: "fd", client_secret: SSO_SECRET },
    });
    const requestToken = await add("CertificateRequestToken", {
      name: `${PREFIX}-token`,
      commonName: "device-1",
    });
    madeSecrets.push(String(requestToken.outs.token));
    const key = await createChecked("KeyPair", { commonName: `${PREFIX}-partner` });
    await add("ClientCertificate", { name: `${PREFIX}-partner`, value: key.outs.csrPem });
    await add("CustomFrontend", { hostname: `${PREFIX}.apps.example.com` });
    for (const [kind, inputs] of edgeObjects(PREFIX)) {
      const object = await add(kind, inputs);
      if (typeof object.outs.enrollmentJwt === "string") madeSecrets.push(object.outs.enrollmentJwt);
    }
    const kinds = resourceDefinitions.filter((d) => d.api !== "none").map((d) => d.kind);
    assert.deepEqual(
      [...new Set(madeFor(language).map((m) => m.kind))].sort(),
      kinds.sort(),
      "one object of every kind",
    );
  };

  after(async () => {
    // Whatever a failed test left: removed through the engine (gone already is fine).
    for (const m of made.reverse()) await engine.remove(m.kind, m.id, m.outs).catch(() => undefined);
    mock?.close();
    await ctrl?.stop();
  });

  const prefixOf = (language: PluginLanguage["name"]) =>
    `plugin-import-${language === "YAML" ? "yaml" : "ts"}`;
  const madeFor = (language: PluginLanguage["name"]) => made.filter((m) => m.language === language);

  const scan = async (stack: CliStack, outputs: CliResult[]) => {
    const exported = JSON.stringify(await stack.exportState());
    for (const secret of [...madeSecrets, ...Object.values(secretConfig)]) {
      assert.ok(secret.length >= 8);
      assert.ok(!exported.includes(secret), "a secret is in the exported state");
      for (const r of outputs) assert.ok(!r.output.includes(secret), "a secret is in the CLI's output");
    }
  };

  /** Every object in the state, with one (default) provider: `pulumi import <type>` names no version. */
  const assertAllImported = async (stack: CliStack, language: PluginLanguage["name"]) => {
    const state = await stack.exportState();
    const custom = state.deployment.resources.filter(
      (r: any) => r.custom && r.type !== "pulumi:providers:frontdoor",
    );
    assert.deepEqual(
      custom.map((r: any) => `${r.type} ${r.id}`).sort(),
      madeFor(language)
        .map((m) => `frontdoor:index:${m.kind} ${m.id}`)
        .sort(),
      "every object is in the state, under its plain id",
    );
    assert.equal(
      state.deployment.resources.filter((r: any) => r.type === "pulumi:providers:frontdoor").length,
      1,
    );
  };

  const importEach = async (language: PluginLanguage) => {
    const stack = await pluginStack(language.emptyProgram, { config, secretConfig });
    const outputs: CliResult[] = [];
    try {
      for (const m of madeFor(language.name)) {
        const out = path.join(stack.dir, `${m.kind}-${language.generatedFile}`);
        const name = `${m.kind.toLowerCase()}-imported`;
        // Flags first, then `--`: an OpenZiti id may begin with "-" (its alphabet has "-" and "_"),
        // and the CLI would read such an id as a flag.
        const imported = await stack.run(
          [
            "import",
            "--yes",
            "--protect=false",
            "--out",
            out,
            "--",
            `frontdoor:index:${m.kind}`,
            name,
            m.importId,
          ],
          { env: language.importEnv },
        );
        outputs.push(imported);
        assert.equal(imported.code, 0, `import of ${m.kind} ${m.importId} failed:\n${imported.output}`);
        const generated = fs.readFileSync(out, "utf8");
        assert.match(generated, language.declares(m.kind));
        if (m.kind === "AuthProvider")
          assert.match(generated, language.secretMark, "the secret read is marked secret in the program");
        language.addGenerated(stack.dir, generated);
      }
      // A KeyPair exists only in the state that made it: refused, saying why.
      const keyPair = await stack.run(["import", "frontdoor:index:KeyPair", "kp", "0123abcd", "--yes"], {
        env: language.importEnv,
      });
      outputs.push(keyPair);
      assert.notEqual(keyPair.code, 0);
      assert.match(keyPair.output, /a KeyPair cannot be imported: its private key exists only in the state/);

      await assertAllImported(stack, language.name);
      const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
      outputs.push(preview);
      assert.equal(preview.code, 0, `the generated program is not what was imported:\n${preview.output}`);
      await scan(stack, outputs);
    } finally {
      await stack.dispose(); // the objects stay, for the next test
    }
  };

  const importFile = async (language: PluginLanguage) => {
    const stack = await pluginStack(language.emptyProgram, { config, secretConfig });
    const outputs: CliResult[] = [];
    try {
      const file = path.join(stack.dir, "import.json");
      // As a user runs the generator: connection settings from the environment.
      const tool = await promisify(execFile)(
        "node",
        [
          path.join(ROOT, "bin", "provider", "tools", "importCli.js"),
          "--import-file",
          file,
          "--name",
          `${prefixOf(language.name)}-*`,
        ],
        {
          env: {
            ...process.env,
            FRONTDOOR_API_URL: mock.url,
            FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
            FRONTDOOR_ID: mock.credentials.frontdoorId,
            ZITI_EDGE_URL: ctrl.url,
            ZITI_USERNAME: ctrl.username,
            ZITI_PASSWORD: ctrl.password,
            FRONTDOOR_CA_BUNDLE: ctrl.caPem,
          },
        },
      );
      const entries = JSON.parse(fs.readFileSync(file, "utf8")).resources as any[];
      // Every listable object (a custom frontend has no name to match, and its list is not documented).
      const listable = madeFor(language.name).filter((m) => m.kind !== "CustomFrontend");
      assert.deepEqual(
        entries.map((e) => `${e.type} ${e.id}`).sort(),
        listable.map((m) => `frontdoor:index:${m.kind} ${m.importId}`).sort(),
        tool.stderr,
      );
      assert.ok(entries.every((e) => e.version === VERSION && /^[a-z0-9-]+$/.test(e.name)));

      const out = path.join(stack.dir, language.generatedFile);
      const imported = await stack.run(["import", "--file", file, "--yes", "--protect=false", "--out", out], {
        env: language.importEnv,
      });
      outputs.push(imported);
      assert.equal(imported.code, 0, imported.output);
      language.addGenerated(stack.dir, fs.readFileSync(out, "utf8"));
      const fileImported = (await stack.exportState()).deployment.resources.filter(
        (r: any) => r.custom && r.type !== "pulumi:providers:frontdoor",
      );
      assert.equal(fileImported.length, listable.length);
      const provider = (await stack.exportState()).deployment.resources.find(
        (r: any) => r.type === "pulumi:providers:frontdoor",
      );
      assert.equal(provider.inputs.version, VERSION, "the import file's version is recorded");
      const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
      outputs.push(preview);
      assert.equal(preview.code, 0, `the generated program is not what was imported:\n${preview.output}`);
      await scan(stack, outputs);

      // Imported objects are managed: destroy deletes them (the custom frontend, not imported here, stays).
      outputs.push(await stack.ok(["destroy", "--yes", "--skip-preview"]));
      const fd = mock.credentials.frontdoorId;
      for (const m of listable) {
        const gone =
          resourceDefinitions.find((d) => d.kind === m.kind)!.api === "frontdoor"
            ? mock.log.some((e) => e.method === "DELETE" && e.path.endsWith(`/${m.id}`)) &&
              !["auth-providers", "client-certificates", "certificate-request-tokens"].some((c) =>
                mock.frontdoor.get(fd, c as any, m.id),
              )
            : (await Promise.all(EDGE_COLLECTIONS.map((c) => ctrl.admin.call("GET", `/${c}/${m.id}`)))).every(
                (a) => a.status === 404,
              );
        assert.ok(gone, `${m.kind} ${m.id} not deleted by destroy`);
      }
    } finally {
      await stack.dispose();
    }
  };

  for (const language of PLUGIN_LANGUAGES) {
    it(`${language.name}: \`pulumi import frontdoor:index:<Kind> <name> <id>\` for every kind writes a program that previews with no changes`, () =>
      importEach(language));
    it(`${language.name}: \`pulumi import --file\` with the file of \`pulumi-frontdoor-import --import-file\`; destroy removes them all`, () =>
      importFile(language));
  }
});
