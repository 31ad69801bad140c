// The project's own policy pack (policy/, default settings) over every example program (examples/, each
// folder with a Pulumi.yaml at any depth): the TypeScript ones of the dynamic provider, the GitOps
// example's controller side (examples/gitops/controller-setup), and the provider plugin's in YAML
// (yaml-edge, yaml-frontdoor), Go (go-edge, through the generated Go SDK and the Go language host) and
// TypeScript over the generated Node.js SDK (ts-native). Through the real Pulumi CLI against one mock
// (Frontdoor and Edge APIs), as test/policy-pack.test.ts runs it: `pulumi preview --policy-pack` must
// pass with no violation at all (a mandatory one fails the preview, an advisory one this test), so an
// example that stops following the guardrails fails CI. Both hosts are judged by the same rules (the
// plugin's resources are `frontdoor:index:<Kind>`, the dynamic provider's
// `pulumi-nodejs:dynamic/frontdoor:<Kind>`): the controller setup without its second factor, and
// yaml-edge with an all-to-all dial policy, show that a violation does fail on each.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliResult, type CliStack, cliStack } from "./peers/cli";
import { PEERS_BIN, requirePeers } from "./peers/index";
import { cliSettings, mockConfig } from "./support/engine";
import { EXAMPLES, itCoversEveryExample } from "./support/examples";
import { useNativeSdks } from "./support/fixtures";
import { writeGoModule } from "./support/go-module";
import { assertPluginBuilt, PLUGIN_BIN } from "./support/plugin";
import { installPolicyPack, POLICY_PACK, policyHostBin } from "./support/policyPack";

/** Each example's own settings beside the mock's (what its README has users set). */
const EXAMPLE_SETTINGS: Record<
  string,
  {
    config?: Record<string, string>;
    secretConfig?: Record<string, string>;
    env?: NodeJS.ProcessEnv;
    /**
     * Applied (without the pack) before the preview: a value the rules read is computed by another
     * object of the stack (a certificate from a KeyPair), unknown in a first preview, where a mandatory
     * rule that cannot judge fails; a pull request previews against the applied stack.
     */
    applyFirst?: boolean;
    /** A program of the provider plugin (bin/plugin first on PATH), not of the dynamic provider. */
    plugin?: boolean;
    /** It declares no resource (only functions: search queries): the pack has nothing to judge. */
    noResources?: boolean;
    /** Anything the work copy needs before the CLI runs it (the Go module's replace path). */
    prepare?: (stack: CliStack) => void;
  }
> = {
  "custom-frontend": { secretConfig: { apiKey: "examples-policy-api-key", ssoClientSecret: "sso-secret" } },
  "edge-access": {},
  "event-report": { noResources: true },
  "frontdoor-basic": {
    secretConfig: { partnerApiKey: "partner-api-key-0123", ssoClientSecret: "sso-secret" },
  },
  "frontdoor-mtls": { applyFirst: true },
  gitops: { env: { FRONTDOOR_OIDC_CLIENT_SECRET: "oidc-client-secret" } },
  "gitops/controller-setup": { config: { audience: "openziti-acme-infra", repository: "acme/infra" } },
  "zero-trust-app": {},
  // The plugin's: the mock serves both APIs (mockConfig), so the Edge functions they call in the
  // preview (yaml-edge's getAuthPolicy, the SDK programs' getService) answer from it.
  "yaml-edge": { plugin: true },
  "yaml-frontdoor": {
    plugin: true,
    secretConfig: { ssoClientSecret: "sso-secret", partnerApiKey: "partner-api-key-0123" },
  },
  // The Go language host runs `go build` in the work copy (from the module cache): its go.mod's
  // replace points at sdk/native/go by absolute path there.
  "go-edge": {
    plugin: true,
    secretConfig: { ssoClientSecret: "sso-secret" },
    prepare: (stack) => writeGoModule(stack.dir),
  },
  "ts-native": { plugin: true, secretConfig: { ssoClientSecret: "sso-secret" } },
};

/** The rules' names, any of which in the output is a violation (the pack lists no rule otherwise). */
const RULES = (require("../provider/policy/rules") as typeof import("../provider/policy/rules")).RULES.map(
  (r) => r.name,
);

describe("Real Pulumi CLI: the policy pack passes on every example", function () {
  this.timeout(900_000);
  let mock: MockServer;
  let scratch: string;
  let hostBin: string;
  const stacks: CliStack[] = [];
  // go-edge and ts-native import the plugin's generated SDKs (sdk/native, generated from schema.json).
  useNativeSdks("the examples over the generated SDKs (go-edge, ts-native) are not judged");

  before(async function () {
    requirePeers(
      this,
      "pulumi",
      "pulumi-language-nodejs",
      "pulumi-resource-pulumi-nodejs",
      "pulumi-language-yaml",
      "pulumi-language-go",
    );
    assertPluginBuilt();
    installPolicyPack();
    mock = await startMockServer();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "examples-policy-"));
    hostBin = policyHostBin(scratch);
  });
  after(async () => {
    for (const stack of stacks) await stack.dispose();
    await mock?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  itCoversEveryExample(() => Object.keys(EXAMPLE_SETTINGS));

  /** `pulumi preview --policy-pack policy/` of the example (a copy of it, in `programDir`). */
  async function preview(example: string, programDir = path.join(EXAMPLES, example)): Promise<CliResult> {
    const own = EXAMPLE_SETTINGS[example];
    const settings = cliSettings(mockConfig(mock));
    const stack = await cliStack(programDir, {
      // The provider's Edge variables emptied: the pack judges the program, not this machine's controller.
      env: {
        PATH: [hostBin, ...(own.plugin ? [PLUGIN_BIN] : []), PEERS_BIN, process.env.PATH].join(
          path.delimiter,
        ),
        ZITI_EDGE_URL: "",
        ZITI_EDGE_JWT_AUDIENCE: "",
        ...own.env,
      },
    });
    stacks.push(stack);
    // Every setting in one `pulumi config set-all` (one CLI start, not one per key: ~0.5 s each).
    const pairs = (flag: string, values: Record<string, string>) =>
      Object.entries(values).map(([key, value]) => `--${flag}=${key}=${value}`);
    await stack.ok([
      "config",
      "set-all",
      ...pairs("plaintext", { ...settings.config, ...own.config }),
      ...pairs("secret", { ...settings.secretConfig, ...own.secretConfig }),
    ]);
    own.prepare?.(stack);
    if (own.applyFirst) await stack.ok(["up", "--yes", "--skip-preview"]);
    // --show-sames: an applied stack's resources are listed too (with their types, checked below).
    return stack.run(["preview", "--show-sames", "--policy-pack", POLICY_PACK]);
  }

  for (const example of Object.keys(EXAMPLE_SETTINGS)) {
    it(`${example}: no rule of the pack reports anything`, async () => {
      const result = await preview(example);
      assert.equal(result.code, 0, `the preview failed:\n${result.output}`);
      assert.match(result.output, /frontdoor@v0\.1\.0/, `the pack did not run:\n${result.output}`);
      const reported = RULES.filter((rule) => result.output.includes(rule));
      assert.deepEqual(reported, [], result.output);
      // The host it ran on, by the resources' types in the preview.
      const own = EXAMPLE_SETTINGS[example];
      const type = own.plugin ? /frontdoor:index:[A-Z]/ : /pulumi-nodejs:dynamic\/frontdoor:[A-Z]/;
      // One that declares none says so in the table (and must stay so: a resource added is judged).
      if (own.noResources) assert.doesNotMatch(result.output, /frontdoor:index:|dynamic\/frontdoor:/);
      else assert.match(result.output, type, `not the expected host's resources:\n${result.output}`);
    });
  }

  /** A copy of the example with one edit to its `file` (which must change it). */
  function edited(example: string, file: string, edit: (source: string) => string): string {
    // cliStack copies it again beside test/programs (so it resolves the repository's node_modules).
    const copy = path.join(scratch, `${example.replace("/", "-")}-violating`);
    fs.cpSync(path.join(EXAMPLES, example), copy, { recursive: true });
    const source = fs.readFileSync(path.join(copy, file), "utf8");
    const changed = edit(source);
    assert.notEqual(changed, source, `the edit does not apply to examples/${example}/${file}`);
    fs.writeFileSync(path.join(copy, file), changed);
    return copy;
  }

  it("a violation fails (dynamic provider): the controller setup without its second factor", async () => {
    const copy = edited("gitops/controller-setup", "index.ts", (source) =>
      source.replace(/^\s*secondary: \{ requireExtJwtSigner: signer\.id \},\n/m, ""),
    );
    const result = await preview("gitops/controller-setup", copy);
    assert.notEqual(result.code, 0, result.output);
    assert.match(result.output, /\[mandatory\]\s+frontdoor-admin-second-factor/);
    assert.match(
      result.output,
      /AuthPolicy "pipelines" secondary: requires no second factor, yet admin identity "pipeline-main" uses it/,
    );
  });

  it("a violation fails (provider plugin, YAML): yaml-edge with a dial policy of #all identities to #all services", async () => {
    const copy = edited("yaml-edge", "Pulumi.yaml", (source) =>
      source.replace(
        /identityRoles: \['#employees'\]\n(\s*)serviceRoles: \['#app'\]/,
        "identityRoles: ['#all']\n$1serviceRoles: ['#all']",
      ),
    );
    const result = await preview("yaml-edge", copy);
    assert.notEqual(result.code, 0, result.output);
    assert.match(result.output, /\[mandatory\]\s+frontdoor-no-all-to-all-service-policy/);
    assert.ok(
      result.output.includes(
        'ServicePolicy "app-dial" identityRoles, serviceRoles: gives #all identities #all services',
      ),
      result.output,
    );
  });
});
