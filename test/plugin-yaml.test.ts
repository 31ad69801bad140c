// The real Pulumi CLI (v3.276) running the YAML examples with the YAML language host (v1.25.0) and the
// provider plugin (bin/plugin on PATH): up; refresh --expect-no-changes (exit 0, only reads sent); a
// change made behind Pulumi's back then preview --refresh --expect-no-changes (non-zero, naming the
// property); up putting it back; the state (frontdoor:index:<Kind> types, the plugin's version on the
// provider) and all output scanned for the secret values used; destroy, nothing left. Frontdoor kinds
// on the mock, Edge kinds on the real controller. Also: two explicit providers in one program, each
// with its own frontdoor.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import type { CliResult, CliStack } from "./peers/cli";
import { type RealController, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { mockConfig } from "./support/engine";
import { EXAMPLES, exampleDirs } from "./support/examples";
import { findLeaks } from "./support/oracles/leaks";
import { assertPluginBuilt, pluginStack } from "./support/plugin";

const ROOT = path.resolve(__dirname, "..");
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;

interface Example {
  dir: string;
  config: Record<string, string>;
  secretConfig: Record<string, string>;
  /** The API that the up must have written to (paths of requests that create). */
  created: RegExp;
  drift: { resource: string; property: string; make: (id: string) => Promise<void> };
  /** Secrets the services made (tokens, JWTs), read from the service itself after up. */
  madeSecrets: (ids: Map<string, string>) => Promise<string[]>;
  gone: (ids: string[]) => Promise<void>;
}

const customResources = (state: any) =>
  (state.deployment.resources ?? []).filter(
    (r: any) => r.custom && !String(r.type).startsWith("pulumi:providers"),
  );

describe("Real Pulumi CLI: YAML programs on the provider plugin", function () {
  this.timeout(900_000);
  let mock: MockServer;
  let ctrl: RealController;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-yaml", "ziti");
    assertPluginBuilt();
    mock = await startMockServer();
    ctrl = await startController();
  });
  after(async () => {
    mock?.close();
    await ctrl?.stop();
  });

  const fd = () => mock.credentials.frontdoorId;
  const EDGE_COLLECTIONS = [
    "identities",
    "auth-policies",
    "services",
    "service-policies",
    "configs",
    "edge-router-policies",
  ];

  const examples = (): Example[] => [
    {
      dir: "yaml-frontdoor",
      config: {
        "frontdoor:apiUrl": mockConfig(mock)["frontdoor:apiUrl"],
        "frontdoor:frontdoorId": fd(),
      },
      secretConfig: {
        "frontdoor:token": mock.credentials.frontdoorToken,
        ssoClientSecret: "yaml-sso-client-secret-4711",
        partnerApiKey: "yaml-partner-api-key-0815-abcdef",
      },
      created: /\/(auth-providers|certificate-request-tokens)$/,
      drift: {
        resource: "partner-api-key",
        property: "name",
        make: async (id) => {
          const found = mock.frontdoor.get(fd(), "auth-providers", id);
          assert.ok(found, `auth provider ${id} is not on the mock`);
          mock.frontdoor.patch(fd(), "auth-providers", id, { name: `${found.name}-renamed` });
        },
      },
      madeSecrets: async (ids) => {
        const token = mock.frontdoor.get(fd(), "certificate-request-tokens", ids.get("device-token")!);
        assert.equal(typeof token?.token, "string");
        return [token!.token as string];
      },
      gone: async (ids) => {
        for (const id of ids)
          for (const collection of ["auth-providers", "certificate-request-tokens"] as const)
            assert.equal(mock.frontdoor.get(fd(), collection, id), undefined, `${id} left behind`);
      },
    },
    {
      dir: "yaml-edge",
      config: {
        "frontdoor:edgeUrl": ctrl.url,
        "frontdoor:edgeUsername": ctrl.username,
        "frontdoor:caBundle": ctrl.caPem,
      },
      secretConfig: { "frontdoor:edgePassword": ctrl.password },
      created: /^\/edge\/management\/v1\//,
      drift: {
        resource: "alice",
        property: "roleAttributes",
        make: async (id) => {
          const answer = await ctrl.admin.call("PATCH", `/identities/${id}`, {
            body: { roleAttributes: ["intruders"] },
          });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
        },
      },
      madeSecrets: async (ids) => {
        const answer = await ctrl.admin.call("GET", `/identities/${ids.get("laptop")}`);
        const jwt = (answer.body as any)?.data?.enrollment?.ott?.jwt;
        assert.equal(typeof jwt, "string", JSON.stringify(answer.body));
        return [jwt];
      },
      gone: async (ids) => {
        for (const id of ids) {
          const answers = await Promise.all(
            EDGE_COLLECTIONS.map((c) => ctrl.admin.call("GET", `/${c}/${id}`)),
          );
          assert.ok(
            answers.every((a) => a.status === 404),
            `${id} left behind on the controller`,
          );
        }
      },
    },
  ];

  it("covers every YAML example directory", () => {
    assert.deepEqual(
      exampleDirs("yaml").sort(),
      examples()
        .map((e) => e.dir)
        .sort(),
    );
  });

  for (const name of ["yaml-frontdoor", "yaml-edge"]) {
    it(`examples/${name}: up, clean refresh, drift found and put back, no secret leaked, destroy`, async () => {
      const example = examples().find((e) => e.dir === name)!;
      const stack: CliStack = await pluginStack(path.join(EXAMPLES, name), {
        config: example.config,
        secretConfig: example.secretConfig,
      });
      const outputs: string[] = [];
      const keep = (result: CliResult) => {
        outputs.push(result.output);
        return result;
      };
      try {
        mock.clearLog();
        // With its preview: the plugin answers unknowns for what only the up computes.
        keep(await stack.ok(["up", "--yes"]));
        if (name === "yaml-frontdoor")
          assert.ok(
            mock.log.some((e) => e.method === "POST" && example.created.test(e.path)),
            "the up created the objects on the mock",
          );

        const state = await stack.exportState();
        const custom = customResources(state);
        assert.ok(custom.length > 0);
        for (const r of custom) assert.match(String(r.type), /^frontdoor:index:[A-Z]\w+$/);
        const providers = state.deployment.resources.filter(
          (r: any) => r.type === "pulumi:providers:frontdoor",
        );
        assert.equal(providers.length, 1);
        assert.equal(providers[0].inputs.version, VERSION, "the plugin's version is recorded in the state");
        const ids = new Map<string, string>(
          custom.map((r: any) => [String(r.urn).split("::").pop(), String(r.id)]),
        );

        mock.clearLog();
        const clean = keep(await stack.run(["refresh", "--yes", "--expect-no-changes"]));
        assert.equal(clean.code, 0, `false drift right after up:\n${clean.output}`);
        if (name === "yaml-frontdoor")
          assert.deepEqual([...new Set(mock.log.map((e) => e.method))], ["GET"], "a refresh only reads");

        await example.drift.make(ids.get(example.drift.resource)!);
        const drift = keep(await stack.run(["preview", "--refresh", "--expect-no-changes", "--diff"]));
        assert.notEqual(drift.code, 0, `drift not reported:\n${drift.output}`);
        assert.match(
          drift.output,
          new RegExp(`\\b${example.drift.property}\\b`),
          `the property is not named:\n${drift.output}`,
        );
        keep(await stack.ok(["up", "--refresh", "--yes", "--skip-preview"]));
        const restored = keep(await stack.run(["refresh", "--yes", "--expect-no-changes"]));
        assert.equal(restored.code, 0, `not put back by up:\n${restored.output}`);

        const exported = JSON.stringify(await stack.exportState());
        const secrets = [...Object.values(example.secretConfig), ...(await example.madeSecrets(ids))];
        for (const secret of secrets) assert.ok(secret.length >= 8);
        // In any encoded form (plain, JSON-escaped, base64, hex, URL-encoded: test/support/oracles/leaks.ts).
        assert.deepEqual(
          findLeaks(
            secrets.map((value, i) => ({ label: `secret #${i}`, value })),
            [
              ["exported state", exported],
              ...outputs.map((text, i): [string, string] => [`CLI output #${i}`, text]),
            ],
          ),
          [],
          `secrets leaked (${name})`,
        );

        keep(await stack.ok(["destroy", "--yes", "--skip-preview"]));
        await example.gone([...ids.values()]);
        assert.equal(customResources(await stack.exportState()).length, 0);
      } finally {
        await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
        await stack.dispose();
      }
    });
  }

  it("two explicit providers in one program, each with its own frontdoor", async () => {
    const second = await startMockServer();
    const stack = await pluginStack(path.join(ROOT, "test", "programs", "yaml-two-providers"), {
      config: { firstApiUrl: mock.url, secondApiUrl: second.url },
      secretConfig: {
        firstToken: mock.credentials.frontdoorToken,
        secondToken: second.credentials.frontdoorToken,
      },
      // Nothing from the stack config or the environment: each provider has only its own inputs.
      env: { FRONTDOOR_API_URL: "", FRONTDOOR_TOKEN: "", FRONTDOOR_ID: "" },
    });
    try {
      mock.clearLog();
      second.clearLog();
      const up = await stack.ok(["up", "--yes", "--skip-preview"]);
      const state = await stack.exportState();
      const providers = state.deployment.resources.filter(
        (r: any) => r.type === "pulumi:providers:frontdoor",
      );
      assert.deepEqual(providers.map((p: any) => String(p.urn).split("::").pop()).sort(), [
        "first",
        "second",
      ]);
      const [a, b] = ["on-first", "on-second"].map((n) =>
        customResources(state).find((r: any) => String(r.urn).endsWith(`::${n}`)),
      );
      assert.ok(mock.frontdoor.get(fd(), "auth-providers", a.id), "on-first is on the first frontdoor");
      assert.equal(second.frontdoor.get(fd(), "auth-providers", a.id), undefined);
      assert.ok(second.frontdoor.get(fd(), "auth-providers", b.id), "on-second is on the second frontdoor");
      assert.equal(mock.frontdoor.get(fd(), "auth-providers", b.id), undefined);
      assert.deepEqual(
        mock.log.filter((e) => e.method === "POST").map((e) => e.body && JSON.parse(e.body).name),
        ["yaml-on-first"],
      );
      assert.deepEqual(
        second.log.filter((e) => e.method === "POST").map((e) => e.body && JSON.parse(e.body).name),
        ["yaml-on-second"],
      );
      const exported = JSON.stringify(state);
      for (const token of [mock.credentials.frontdoorToken, second.credentials.frontdoorToken]) {
        assert.ok(!exported.includes(token), "a provider's token is in the state");
        assert.ok(!up.output.includes(token));
      }
      const clean = await stack.run(["refresh", "--yes", "--expect-no-changes"]);
      assert.equal(clean.code, 0, clean.output);
      await stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.equal(mock.frontdoor.get(fd(), "auth-providers", a.id), undefined);
      assert.equal(second.frontdoor.get(fd(), "auth-providers", b.id), undefined);
    } finally {
      await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await stack.dispose();
      second.close();
    }
  });
});
