// The settings as a user meets them through the real Pulumi CLI, with the provider plugin (YAML
// programs) and the dynamic provider (TypeScript programs), against the mock: a missing setting fails
// `pulumi preview` naming it and its environment variable; a misspelled `frontdoor:` key fails with the
// key meant; a base URL pasted with its API path (the OpenZiti Terraform provider's `host`) works, with
// a warning; a failed call names the URL it requested; the Terraform provider's ZITI_API_* variables
// are read. Nothing of a failed preview reaches the mock.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliStack, cliStack } from "./peers/cli";
import { requirePeers } from "./peers/index";
import { EXAMPLES } from "./support/examples";
import { assertPluginBuilt, pluginStack } from "./support/plugin";

/** No connection setting from the environment of whoever runs the tests. */
const NO_ENV: NodeJS.ProcessEnv = {
  FRONTDOOR_API_URL: "",
  FRONTDOOR_ID: "",
  FRONTDOOR_TOKEN: "",
  NETFOUNDRY_API_TOKEN: "",
  ZITI_EDGE_URL: "",
  ZITI_USERNAME: "",
  ZITI_PASSWORD: "",
  ZITI_API_HOST: "",
  ZITI_API_USERNAME: "",
  ZITI_API_PASSWORD: "",
};

describe("Settings through the real Pulumi CLI (plugin and dynamic provider, mock on 127.0.0.1)", function () {
  this.timeout(600_000);
  let mock: MockServer;

  before(async function () {
    requirePeers(
      this,
      "pulumi",
      "pulumi-language-yaml",
      "pulumi-language-nodejs",
      "pulumi-resource-pulumi-nodejs",
    );
    assertPluginBuilt();
    mock = await startMockServer();
  });
  after(() => mock?.close());

  const frontdoorConfig = () => ({
    "frontdoor:apiUrl": mock.url,
    "frontdoor:frontdoorId": mock.credentials.frontdoorId,
    "frontdoor:caBundle": mock.caPem ?? "",
  });
  const programSecrets = {
    ssoClientSecret: "cli-sso-secret-4711",
    partnerApiKey: "cli-partner-key-0815-abcdef",
  };

  /** Each host: the plugin with a YAML program, the dynamic provider with the same program in TypeScript. */
  const hosts: { name: string; stack: (o: Parameters<typeof cliStack>[1]) => Promise<CliStack> }[] = [
    { name: "plugin (YAML)", stack: (o) => pluginStack(path.join(EXAMPLES, "yaml-frontdoor"), o) },
    {
      name: "dynamic provider (TypeScript)",
      stack: (o) => cliStack(path.join(EXAMPLES, "frontdoor-basic"), o),
    },
  ];

  async function withStack<T>(
    host: (typeof hosts)[number],
    options: Parameters<typeof cliStack>[1],
    body: (stack: CliStack) => Promise<T>,
  ): Promise<T> {
    const stack = await host.stack({ ...options, env: { ...NO_ENV, ...options?.env } });
    try {
      return await body(stack);
    } finally {
      await stack.dispose();
    }
  }

  for (const host of hosts) {
    describe(host.name, () => {
      it("a missing token fails the preview, naming the setting and its environment variables", async () => {
        await withStack(host, { config: frontdoorConfig(), secretConfig: programSecrets }, async (stack) => {
          mock.clearLog();
          const preview = await stack.run(["preview"]);
          assert.notEqual(preview.code, 0, preview.output);
          assert.match(
            preview.output,
            /Frontdoor API credentials are missing: set frontdoor:token \(FRONTDOOR_TOKEN/,
          );
          assert.deepEqual(mock.log, [], "no request");
        });
      });

      it("a missing apiUrl fails the preview, naming frontdoor:apiUrl and FRONTDOOR_API_URL", async () => {
        const { "frontdoor:apiUrl": _, ...config } = frontdoorConfig();
        await withStack(
          host,
          { config, secretConfig: { ...programSecrets, "frontdoor:token": mock.credentials.frontdoorToken } },
          async (stack) => {
            const preview = await stack.run(["preview"]);
            assert.notEqual(preview.code, 0, preview.output);
            assert.match(preview.output, /frontdoor:apiUrl.*is not set.*FRONTDOOR_API_URL/s);
          },
        );
      });

      it("a misspelled frontdoor: key fails the preview with the key meant", async () => {
        await withStack(
          host,
          {
            config: { ...frontdoorConfig(), "frontdoor:retryTimeoutSecond": "30" },
            secretConfig: { ...programSecrets, "frontdoor:token": mock.credentials.frontdoorToken },
          },
          async (stack) => {
            const preview = await stack.run(["preview"]);
            assert.notEqual(preview.code, 0, preview.output);
            assert.match(
              preview.output,
              /frontdoor:retryTimeoutSecond\b.*is no setting of this provider: did you mean `frontdoor:retryTimeoutSeconds`\?/,
            );
          },
        );
      });

      it("complete settings: the preview passes (the keys the engine adds are no unknown key)", async () => {
        await withStack(
          host,
          {
            config: frontdoorConfig(),
            secretConfig: { ...programSecrets, "frontdoor:token": mock.credentials.frontdoorToken },
          },
          async (stack) => {
            const preview = await stack.ok(["preview"]);
            assert.match(preview.output, /\d+ to create/);
            assert.doesNotMatch(preview.output, /is no setting of this provider|is not set/);
          },
        );
      });

      it("an apiUrl pasted with /frontdoor/<id>: used without that path, with a warning; up works", async () => {
        const pasted = `${mock.url}/frontdoor/${mock.credentials.frontdoorId}`;
        await withStack(
          host,
          {
            config: { ...frontdoorConfig(), "frontdoor:apiUrl": pasted },
            secretConfig: { ...programSecrets, "frontdoor:token": mock.credentials.frontdoorToken },
          },
          async (stack) => {
            mock.clearLog();
            const up = await stack.ok(["up", "--yes", "--skip-preview"]);
            assert.ok(
              mock.log.some(
                (e) =>
                  e.method === "POST" &&
                  e.path === `/frontdoor/${mock.credentials.frontdoorId}/auth-providers`,
              ),
              `the creates went to the API's own path: ${mock.log.map((e) => e.path).join(" ")}`,
            );
            // The dynamic host's stderr reaches the CLI's output, the plugin's does not (settings-schema.test.ts sees its warning).
            if (host.name.startsWith("dynamic"))
              assert.match(
                up.output,
                /frontdoor:apiUrl: .* ends in the API path \/frontdoor\/\S+, which the provider adds itself/,
              );
            await stack.ok(["destroy", "--yes"]);
          },
        );
      });

      it("a failed call names the URL it requested (method and full URL)", async () => {
        const wrong = `${mock.url}/not-the-api`;
        await withStack(
          host,
          {
            config: { ...frontdoorConfig(), "frontdoor:apiUrl": wrong, "frontdoor:maxRetries": "0" },
            secretConfig: { ...programSecrets, "frontdoor:token": mock.credentials.frontdoorToken },
          },
          async (stack) => {
            const up = await stack.run(["up", "--yes", "--skip-preview"]);
            assert.notEqual(up.code, 0, up.output);
            const requested = `${wrong}/frontdoor/${mock.credentials.frontdoorId}/auth-providers`;
            // The first request is the check's proof of the credentials (provider/preflight.ts): a read.
            assert.ok(up.output.includes(`GET ${requested} failed (HTTP 404`), up.output);
          },
        );
      });
    });
  }

  describe("Edge settings as the OpenZiti Terraform provider has them", () => {
    const edge = () => ({ "frontdoor:caBundle": mock.caPem ?? "", namePrefix: "cli-tf" });
    /** The OpenZiti Terraform provider's variables, its host with the API path, and nothing else. */
    const terraformEnv = () => ({
      ...NO_ENV,
      ZITI_API_HOST: `${mock.url}/edge/management/v1`,
      ZITI_API_USERNAME: mock.credentials.edgeUsername,
      ZITI_API_PASSWORD: mock.credentials.edgePassword,
    });

    it("plugin: ZITI_API_HOST (with /edge/management/v1), ZITI_API_USERNAME, ZITI_API_PASSWORD; the preview's lookup logs in", async () => {
      // yaml-edge looks up the controller's default auth policy (an Invoke), which runs at preview.
      const stack = await pluginStack(path.join(EXAMPLES, "yaml-edge"), {
        config: edge(),
        env: terraformEnv(),
      });
      try {
        mock.clearLog();
        await stack.ok(["preview"]);
        const paths = [...new Set(mock.log.map((e) => `${e.method} ${e.path}`))];
        assert.ok(
          paths.includes("POST /edge/management/v1/authenticate"),
          `logged in at the API's path: ${paths.join(" ")}`,
        );
        assert.ok(!paths.some((p) => p.includes("/edge/management/v1/edge/")), "the path is not doubled");
        const login = mock.log.find((e) => e.path === "/edge/management/v1/authenticate")!;
        assert.equal(
          JSON.parse(login.body!).username,
          mock.credentials.edgeUsername,
          "ZITI_API_USERNAME is the login",
        );
      } finally {
        await stack.dispose();
      }
    });

    for (const [name, program, make] of [
      ["plugin (YAML)", "yaml-edge", pluginStack],
      ["dynamic provider (TypeScript)", "edge-access", cliStack],
    ] as const)
      it(`${name}: no controller and no login fail the preview, naming frontdoor:edgeUrl and the login settings`, async () => {
        const stack = await make(path.join(EXAMPLES, program), { config: edge(), env: NO_ENV });
        try {
          mock.clearLog();
          const preview = await stack.run(["preview"]);
          assert.notEqual(preview.code, 0, preview.output);
          assert.match(preview.output, /frontdoor:edgeUrl.*is not set.*ZITI_EDGE_URL \/ ZITI_API_HOST/s);
          assert.match(preview.output, /Edge API credentials are missing: set frontdoor:edgeUsername/);
          assert.deepEqual(mock.log, [], "no request");
        } finally {
          await stack.dispose();
        }
      });

    it("dynamic provider: ZITI_API_* are read (the preview passes without any frontdoor: Edge setting)", async () => {
      const stack = await cliStack(path.join(EXAMPLES, "edge-access"), {
        config: edge(),
        env: terraformEnv(),
      });
      try {
        const preview = await stack.ok(["preview"]);
        assert.match(preview.output, /\d+ to create/);
      } finally {
        await stack.dispose();
      }
    });
  });
});
