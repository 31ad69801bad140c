// The policy pack (policy/) through the real Pulumi CLI: `pulumi preview --policy-pack policy/` on a
// TypeScript program with the dynamic provider (test/programs/policy-pack) and on a YAML program with
// the provider plugin (test/programs/policy-pack-yaml), each written with one violation of every rule:
// the preview fails and names each rule, resource and property; the fixed program passes. On the mock,
// and the YAML programs again against the real OpenZiti controller (the Frontdoor API stays the mock's),
// with the roles rule reading the controller's objects when the environment gives access to it.
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
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { PEERS_BIN, requirePeers } from "./peers/index";
import { cliSettings, mockConfig } from "./support/engine";
import { assertPluginBuilt, PLUGIN_BIN, pluginStack } from "./support/plugin";
import { installPolicyPack, POLICY_PACK, policyHostBin } from "./support/policyPack";

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

/**
 * A scratch folder with the pack's config (a rule's own settings: the mock's tokens last 7 days; the
 * roles rule made mandatory) and `bin/`, to put first on PATH: the peers' Node.js host plus the RPC that
 * runs policy packs (see test/support/policyLanguageHost.js).
 */
function packScratch(): { scratch: string; hostBin: string; packConfig: string } {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "policy-pack-"));
  const hostBin = policyHostBin(scratch);
  const packConfig = path.join(scratch, "policy-config.json");
  fs.writeFileSync(
    packConfig,
    JSON.stringify({
      "frontdoor-request-token-validity": { maxTokenDays: 1 },
      "frontdoor-policy-roles-match": { enforcementLevel: "mandatory" },
    }),
  );
  return { scratch, hostBin, packConfig };
}

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
    ({ scratch, hostBin, packConfig } = packScratch());
  });
  after(async () => {
    for (const stack of stacks) await stack.dispose();
    mock?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  const preview = (stack: CliStack) =>
    stack.run(["preview", "--policy-pack", POLICY_PACK, "--policy-pack-config", packConfig]);

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

describe("Real OpenZiti controller: the policy pack through the real CLI (YAML, provider plugin)", function () {
  this.timeout(600_000);
  let mock: MockServer;
  let ctrl: RealController;
  let scratch: string;
  let packConfig: string;
  let hostBin: string;
  const stacks: CliStack[] = [];
  /** An attribute only an identity made on the controller (outside any stack) carries. */
  const outsideRole = `pp-outside-${process.pid}`;
  /** The provider's own variables: what gives the pack access to the controller. */
  let controllerEnv: NodeJS.ProcessEnv;
  /** The same variables emptied (the provider reads an empty one as unset). */
  const noControllerEnv = {
    ZITI_EDGE_URL: "",
    ZITI_USERNAME: "",
    ZITI_PASSWORD: "",
    ZITI_IDENTITY_FILE: "",
    ZITI_IDENTITY_JSON: "",
  };
  let settings: Parameters<typeof pluginStack>[1];

  before(async function () {
    requirePeers(this, "ziti", "pulumi", "pulumi-language-nodejs", "pulumi-language-yaml");
    assertPluginBuilt();
    installPolicyPack();
    mock = await startMockServer();
    ctrl = await startController();
    ({ scratch, hostBin, packConfig } = packScratch());
    const made = await ctrl.admin.call("POST", "/identities", {
      body: { name: "pp-enrolled-elsewhere", type: "User", isAdmin: false, roleAttributes: [outsideRole] },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    controllerEnv = {
      ZITI_EDGE_URL: ctrl.url,
      ZITI_USERNAME: ctrl.username,
      ZITI_PASSWORD: ctrl.password,
      FRONTDOOR_CA_BUNDLE: ctrl.caPem,
    };
    // The plugin's settings: the Edge API is the real controller (URL, admin login, its CA), the
    // Frontdoor API the mock's (plain HTTP on loopback).
    const api = cliSettings({ ...mockConfig(mock), ...realEdgeConfig(ctrl) });
    settings = {
      config: { ...api.config, prefix: "pp-real", outsideRole },
      secretConfig: { ...api.secretConfig, apiKey: API_KEY },
      env: { PATH: [hostBin, PLUGIN_BIN, PEERS_BIN, process.env.PATH].join(path.delimiter) },
    };
  });
  after(async () => {
    for (const stack of stacks) await stack.dispose();
    await ctrl?.stop();
    mock?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  const preview = (stack: CliStack, env: NodeJS.ProcessEnv) =>
    stack.run(["preview", "--policy-pack", POLICY_PACK, "--policy-pack-config", packConfig], { env });
  const stack = async (program: string, config: Record<string, string> = {}) => {
    const made = await pluginStack(path.join(PROGRAMS, "policy-pack-yaml", program), {
      ...settings,
      config: { ...settings?.config, ...config },
    });
    stacks.push(made);
    return made;
  };

  it("roles rule: a role only the controller's identity carries passes with controller access, and is flagged without", async () => {
    const roles = await stack("controller-roles");
    const withAccess = await preview(roles, controllerEnv);
    assert.equal(withAccess.code, 0, withAccess.output);
    assert.ok(!withAccess.output.includes("frontdoor-policy-roles-match"), withAccess.output);
    assert.match(withAccess.output, /frontdoor@v0\.1\.0/, `the pack did not run:\n${withAccess.output}`);
    const without = await preview(roles, noControllerEnv);
    assert.notEqual(without.code, 0, without.output);
    assert.ok(
      without.output.includes(
        `ServicePolicy "web-dial" identityRoles: ["#${outsideRole}"] (AllOf) selects no Identity of this stack ` +
          "(controller not consulted: the environment sets neither ZITI_EDGE_URL nor ZITI_IDENTITY_FILE/ZITI_IDENTITY_JSON)",
      ),
      without.output,
    );
    for (const output of [withAccess.output, without.output])
      assert.ok(!output.includes(ctrl.password), "the controller's password is in the output");
  });

  it("every Edge rule fails on the violating program and passes on its fix, previewed against the controller", async () => {
    const violating = await stack("violating", {
      caCertPem: testCa("policy-pack-real-ca").certPem,
      certPem: selfSignedPem("pp-real-long", 800),
    });
    const result = await preview(violating, controllerEnv);
    // With access, the roles rule names the controller it read.
    assertViolations(result, [
      ...YAML_EXPECTED.filter(([rule]) => rule !== "frontdoor-policy-roles-match"),
      [
        "frontdoor-policy-roles-match",
        `ServicePolicy "wiki-dial" identityRoles: ["#contractors"] (AllOf) selects no Identity of this stack or on the controller ${ctrl.url}`,
      ],
    ]);
    const fixed = await stack("fixed", {
      caCertPem: testCa("policy-pack-real-ca2").certPem,
      certPem: selfSignedPem("pp-real-short", 90),
    });
    assertClean(await preview(fixed, controllerEnv));
    assert.ok(!result.output.includes(ctrl.password), "the controller's password is in the output");
  });
});
