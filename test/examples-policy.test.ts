// The project's own policy pack (policy/, default settings) over every TypeScript example of the dynamic
// provider and the GitOps example's controller side (examples/gitops/controller-setup), through the real
// Pulumi CLI against the mock, as test/policy-pack.test.ts runs it: `pulumi preview --policy-pack`
// must pass with no violation at all (a mandatory one fails the preview, an advisory one this test), so
// an example that stops following the guardrails fails CI. The controller setup without its second
// factor shows that a violation does fail.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliResult, type CliStack, cliStack } from "./peers/cli";
import { PEERS_BIN, requirePeers } from "./peers/index";
import { cliSettings, mockConfig } from "./support/engine";
import { EXAMPLES, itCoversEveryDynamicProviderExample } from "./support/examples";
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
  }
> = {
  "custom-frontend": { secretConfig: { apiKey: "examples-policy-api-key", ssoClientSecret: "sso-secret" } },
  "edge-access": {},
  "event-report": {},
  "frontdoor-basic": {
    secretConfig: { partnerApiKey: "partner-api-key-0123", ssoClientSecret: "sso-secret" },
  },
  "frontdoor-mtls": { applyFirst: true },
  gitops: { env: { FRONTDOOR_OIDC_CLIENT_SECRET: "oidc-client-secret" } },
  "gitops/controller-setup": { config: { audience: "openziti-acme-infra", repository: "acme/infra" } },
  "zero-trust-app": {},
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

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
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

  itCoversEveryDynamicProviderExample(() =>
    Object.keys(EXAMPLE_SETTINGS).filter((example) => !example.includes("/")),
  );

  /** `pulumi preview --policy-pack policy/` of the example (a copy of it, in `programDir`). */
  async function preview(example: string, programDir = path.join(EXAMPLES, example)): Promise<CliResult> {
    const own = EXAMPLE_SETTINGS[example];
    const settings = cliSettings(mockConfig(mock));
    const stack = await cliStack(programDir, {
      config: { ...settings.config, ...own.config },
      secretConfig: { ...settings.secretConfig, ...own.secretConfig },
      // The provider's Edge variables emptied: the pack judges the program, not this machine's controller.
      env: {
        PATH: [hostBin, PEERS_BIN, process.env.PATH].join(path.delimiter),
        ZITI_EDGE_URL: "",
        ZITI_EDGE_JWT_AUDIENCE: "",
        ...own.env,
      },
    });
    stacks.push(stack);
    if (own.applyFirst) await stack.ok(["up", "--yes", "--skip-preview"]);
    return stack.run(["preview", "--policy-pack", POLICY_PACK]);
  }

  for (const example of Object.keys(EXAMPLE_SETTINGS)) {
    it(`${example}: no rule of the pack reports anything`, async () => {
      const result = await preview(example);
      assert.equal(result.code, 0, `the preview failed:\n${result.output}`);
      assert.match(result.output, /frontdoor@v0\.1\.0/, `the pack did not run:\n${result.output}`);
      const reported = RULES.filter((rule) => result.output.includes(rule));
      assert.deepEqual(reported, [], result.output);
    });
  }

  it("a violation fails: the controller setup without its second factor", async () => {
    // cliStack copies it again beside test/programs (so it resolves the repository's node_modules).
    const copy = path.join(scratch, "controller-setup-no-second-factor");
    fs.cpSync(path.join(EXAMPLES, "gitops", "controller-setup"), copy, { recursive: true });
    const index = path.join(copy, "index.ts");
    const source = fs.readFileSync(index, "utf8");
    const without = source.replace(/^\s*secondary: \{ requireExtJwtSigner: signer\.id \},\n/m, "");
    assert.notEqual(without, source, "the example has no secondary factor to remove");
    fs.writeFileSync(index, without);
    const result = await preview("gitops/controller-setup", copy);
    assert.notEqual(result.code, 0, result.output);
    assert.match(result.output, /\[mandatory\]\s+frontdoor-admin-second-factor/);
    assert.match(
      result.output,
      /AuthPolicy "pipelines" secondary: requires no second factor, yet admin identity "pipeline-main" uses it/,
    );
  });
});
