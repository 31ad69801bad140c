// The policy pack (policy/) through the real Pulumi CLI: `pulumi preview --policy-pack policy/` on a
// TypeScript program with the dynamic provider (test/programs/policy-pack) and on a YAML program with
// the provider plugin (test/programs/policy-pack-yaml), each written with one violation of every rule:
// the preview fails and names each rule, resource and property; the fixed program passes. On the mock.
// The TypeScript stack is applied first (without the pack): a certificate request token's expiry is
// known only once it exists, and its `@<id>` roles are then real ids; the YAML one is only previewed,
// so there every object is new and its ids unknown.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { testCa } from "./edge-support";
import { selfSignedPem } from "./frontdoor-pki";
import { type CliResult, type CliStack, cliStack } from "./peers/cli";
import { PEERS_BIN, requirePeers } from "./peers/index";
import { cliSettings, mockConfig } from "./support/engine";
import { assertPluginBuilt, PLUGIN_BIN, pluginStack } from "./support/plugin";
import { installPolicyPack, POLICY_PACK } from "./support/policyPack";

const PROGRAMS = path.join(__dirname, "programs");
const API_KEY = "policy-pack-api-key-0123456789";

/** What each rule must say about the violating program: the rule, and the message's start. */
type Expected = [rule: string, message: string][];

const COMMON: Expected = [
  [
    "frontdoor-no-all-to-all-service-policy",
    'ServicePolicy "everyone" identityRoles, serviceRoles: gives #all identities #all services',
  ],
  [
    "frontdoor-policy-roles-match",
    'ServicePolicy "wiki-dial" identityRoles: ["#contractors"] (AllOf) selects no Identity of this stack',
  ],
  [
    "frontdoor-admin-second-factor",
    'AuthPolicy "admin-login" secondary: requires no second factor, yet admin identity "root-admin" uses it',
  ],
  [
    "frontdoor-admin-no-password",
    'Identity "root-admin" enrollment.updb: an admin identity enrolled with a password',
  ],
  [
    "frontdoor-admin-no-password",
    'AuthPolicy "admin-login" primary.updb.allowed: allows password login for admin identity "root-admin"',
  ],
  [
    "frontdoor-ca-auto-enrollment",
    'Ca "branch-ca" identityRoles: auto-enrollment gives every identity with a certificate it signed',
  ],
  [
    "frontdoor-jwt-signer-https",
    'ExternalJwtSigner "idp" jwksEndpoint: http://idp.example.com/jwks is not https',
  ],
  [
    "frontdoor-client-certificate-validity",
    'ClientCertificate "device-cert" value: the certificate is valid for 800 days, more than 398',
  ],
  [
    "frontdoor-custom-frontend-auth",
    'CustomFrontend "portal" authProviderIds: the frontend has no auth provider',
  ],
];

const TS_EXPECTED: Expected = [
  ...COMMON,
  [
    "frontdoor-sensitive-service-posture",
    'ServicePolicy "payroll-dial" postureCheckRoles: lets Identity "alice", identities outside this stack dial sensitive Service "payroll" without posture checks',
  ],
  [
    "frontdoor-enrollment-expiry",
    'Identity "alice" reissueExpiredEnrollment: re-issues the enrollment whenever it expires',
  ],
  [
    "frontdoor-request-token-validity",
    'CertificateRequestToken "enroll-token" expiresAt: the token is usable for 7 days, more than 1',
  ],
];

const YAML_EXPECTED: Expected = [
  ...COMMON,
  // `@<id>` roles of objects not created yet, tied to them through the properties' dependencies.
  [
    "frontdoor-sensitive-service-posture",
    'ServicePolicy "payroll-dial" postureCheckRoles: lets Identity "alice" dial sensitive Service "payroll" without posture checks',
  ],
  [
    "frontdoor-enrollment-expiry",
    'Identity "alice" enrollmentMinutes: 10080 minutes is longer than the bound of 1440',
  ],
];

/** Every rule appears in the violating programs (a new rule needs a violation here). */
const RULES = [
  "frontdoor-no-all-to-all-service-policy",
  "frontdoor-policy-roles-match",
  "frontdoor-admin-second-factor",
  "frontdoor-admin-no-password",
  "frontdoor-sensitive-service-posture",
  "frontdoor-enrollment-expiry",
  "frontdoor-ca-auto-enrollment",
  "frontdoor-jwt-signer-https",
  "frontdoor-client-certificate-validity",
  "frontdoor-request-token-validity",
  "frontdoor-custom-frontend-auth",
];

describe("Real Pulumi CLI: the policy pack (pulumi preview --policy-pack)", function () {
  this.timeout(900_000);
  let mock: MockServer;
  let scratch: string;
  let packConfig: string;
  /** First on PATH: the peers' Node.js host plus the RPC that runs policy packs (see its header). */
  let hostBin: string;
  const stacks: CliStack[] = [];
  const ca = testCa("policy-pack-ca");
  const longCert = selfSignedPem("policy-pack-long", 800);
  const shortCert = selfSignedPem("policy-pack-short", 90);

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-language-yaml");
    assertPluginBuilt();
    installPolicyPack();
    mock = await startMockServer();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "policy-pack-"));
    hostBin = path.join(scratch, "bin");
    fs.mkdirSync(hostBin);
    const host = path.join(__dirname, "support", "policyLanguageHost.js");
    fs.writeFileSync(
      path.join(hostBin, "pulumi-language-nodejs"),
      `#!/bin/sh\nexec "${process.execPath}" "${host}" "$@"\n`,
      { mode: 0o755 },
    );
    // The pack's config: a rule's own settings (the mock's tokens last 7 days) and a level changed.
    packConfig = path.join(scratch, "policy-config.json");
    fs.writeFileSync(
      packConfig,
      JSON.stringify({
        "frontdoor-request-token-validity": { maxTokenDays: 1 },
        "frontdoor-policy-roles-match": { enforcementLevel: "mandatory" },
      }),
    );
  });
  after(async () => {
    for (const stack of stacks) await stack.dispose();
    mock?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  const preview = (stack: CliStack) =>
    stack.run(["preview", "--policy-pack", POLICY_PACK, "--policy-pack-config", packConfig]);

  /** Each expected violation is reported under its rule, naming resource and property. */
  function assertViolations(result: CliResult, expected: Expected): void {
    assert.notEqual(result.code, 0, `the preview passed:\n${result.output}`);
    for (const [rule, message] of expected) {
      assert.ok(result.output.includes(rule), `${rule} is not reported:\n${result.output}`);
      assert.ok(result.output.includes(message), `not reported: ${message}\n${result.output}`);
    }
    // Each is mandatory (the roles rule by the pack's config): the preview fails for them.
    assert.match(result.output, /\[mandatory\]\s+frontdoor-policy-roles-match/);
  }

  function assertClean(result: CliResult): void {
    assert.equal(result.code, 0, `the fixed program does not pass:\n${result.output}`);
    for (const rule of RULES) assert.ok(!result.output.includes(rule), `${rule} reported:\n${result.output}`);
    assert.match(result.output, /frontdoor@v0\.1\.0/, `the pack did not run:\n${result.output}`);
  }

  it("covers every rule of the pack in both violating programs", () => {
    const { RULES: rules } = require("../provider/policy/rules") as typeof import("../provider/policy/rules");
    assert.deepEqual(rules.map((r) => r.name).sort(), [...RULES].sort());
    const covered = (e: Expected) => [...new Set(e.map(([rule]) => rule))].sort();
    assert.deepEqual(covered(TS_EXPECTED), [...RULES].sort());
    // The token's expiry is an output: a preview of a new token cannot judge it.
    assert.deepEqual(
      covered(YAML_EXPECTED),
      RULES.filter((r) => r !== "frontdoor-request-token-validity").sort(),
    );
  });

  it("TypeScript, dynamic provider: every rule fails on the violating stack, and the fixed one passes", async () => {
    const settings = cliSettings(mockConfig(mock));
    const stack = await cliStack(path.join(PROGRAMS, "policy-pack"), {
      config: {
        ...settings.config,
        prefix: "pp-ts",
        caCertPem: ca.certPem,
        longCertPem: longCert,
        shortCertPem: shortCert,
      },
      secretConfig: { ...settings.secretConfig, apiKey: API_KEY },
      env: { PATH: [hostBin, PEERS_BIN, process.env.PATH].join(path.delimiter) },
    });
    stacks.push(stack);
    await stack.ok(["up", "--yes", "--skip-preview"]);
    assertViolations(await preview(stack), TS_EXPECTED);
    await stack.ok(["config", "set", "fixed", "true"]);
    assertClean(await preview(stack));
  });

  it("YAML, provider plugin: every rule a preview can judge fails on the violating program, and the fixed one passes", async () => {
    const api = cliSettings(mockConfig(mock));
    const settings = {
      config: { ...api.config, prefix: "pp-yaml", caCertPem: ca.certPem, certPem: longCert },
      secretConfig: { ...api.secretConfig, apiKey: API_KEY },
      env: { PATH: [hostBin, PLUGIN_BIN, PEERS_BIN, process.env.PATH].join(path.delimiter) },
    };
    const violating = await pluginStack(path.join(PROGRAMS, "policy-pack-yaml", "violating"), settings);
    stacks.push(violating);
    assertViolations(await preview(violating), YAML_EXPECTED);
    const fixed = await pluginStack(path.join(PROGRAMS, "policy-pack-yaml", "fixed"), {
      ...settings,
      config: { ...settings.config, certPem: shortCert },
    });
    stacks.push(fixed);
    assertClean(await preview(fixed));
  });
});
