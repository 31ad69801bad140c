// The import helper prints a program that adopts existing objects: current settings as inputs,
// secrets as config placeholders (never their values), and an import id that carries the frontdoor.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runHarness } from "../harness";
import type { MockServer } from "../mock/server";
import { context } from "../provider/engine";
import { idsInState, importSnippets } from "../provider/tools/importSnippets";
import { createChecked, engine } from "./support/engine";
import { frontdoorApi, harnessConfig, tempDir, useMockProvider, useTempDir } from "./support/fixtures";

/**
 * Writes a printed program into `dir` as a Pulumi project named `name` and returns the options of a
 * harness run of it against `mock`: the provider's credentials and the placeholders' values apart, as
 * `pulumi config set --secret` keeps them.
 */
function adoptingProgram(
  mock: MockServer,
  dir: string,
  name: string,
  text: string,
  placeholders: Record<string, string> = {},
) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(dir, "package.json"), `{"name": "${name}", "private": true}\n`);
  fs.writeFileSync(path.join(dir, "index.ts"), text);
  const { config, secretConfig } = harnessConfig(mock);
  return {
    programDir: dir,
    stateFile: path.join(dir, "state.json"),
    config,
    secretConfig: { ...secretConfig, ...placeholders },
  };
}

/** A first `up` of an adopting program imports `count` objects; a second finds all of them the same. */
async function adoptsUnchanged(opts: Parameters<typeof runHarness>[1], count: number): Promise<void> {
  const first = await runHarness("up", opts);
  assert.equal(first.exitCode, 0, first.stderr + first.stdout);
  assert.deepEqual(first.report.summary, { import: count });
  const second = await runHarness("up", opts);
  assert.equal(second.exitCode, 0, second.stderr + second.stdout);
  assert.deepEqual(second.report.summary, { same: count }, second.stdout);
}

describe("import snippets", () => {
  const mock = useMockProvider();

  it("prints one adopting declaration per existing auth provider, secrets as placeholders", async () => {
    const sso = await createChecked("AuthProvider", {
      name: "Corp SSO",
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "fd", client_secret: "snippet-secret-1" },
    });
    const key = await createChecked("AuthProvider", {
      name: "partner",
      type: "API_KEY",
      enabled: false,
      data: { header_name: "x-api-key", api_key: "snippet-api-key-0123456789" },
    });
    const text = await importSnippets(context(), { kinds: ["AuthProvider"] });
    const fd = mock.credentials.frontdoorId;
    assert.match(
      text,
      new RegExp(
        `new frontdoor\\.AuthProvider\\("corp-sso", \\{[^]*\\}, \\{ import: "${fd}/${sso.id}" \\}\\);`,
      ),
    );
    assert.match(
      text,
      new RegExp(
        `new frontdoor\\.AuthProvider\\("partner", [^]*enabled: false,[^]*import: "${fd}/${key.id}"`,
      ),
    );
    assert.match(text, /client_secret: config\.requireSecret\("corpSsoDataClientSecret"\)/);
    assert.match(text, /api_key: config\.requireSecret\("partnerDataApiKey"\)/);
    assert.doesNotMatch(text, /snippet-secret-1|snippet-api-key/);
    await engine.remove("AuthProvider", sso.id, sso.outs);
    await engine.remove("AuthProvider", key.id, key.outs);
  });
});

describe("import snippets, adopted through the dynamic-provider host", function () {
  this.timeout(120_000);
  const mock = useMockProvider();
  const workdir = useTempDir(".work-import-", path.join(__dirname, "programs"));

  it("prints a program that the harness imports without a change, for Frontdoor and Edge objects", async () => {
    await createChecked("AuthProvider", {
      name: "sso",
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "fd", client_secret: "adopt-secret-1" },
    });
    await createChecked("CertificateRequestToken", { name: "device-7", commonName: "device-7.example.com" });
    const policy = await createChecked("AuthPolicy", { name: "strict", secondary: { requireTotp: true } });
    await createChecked("Identity", {
      name: "alice",
      type: "User",
      authPolicyId: policy.id,
      roleAttributes: ["staff"],
    });
    await createChecked("EdgeRouterPolicy", {
      name: "staff-routers",
      identityRoles: ["#staff"],
      edgeRouterRoles: ["#all"],
    });

    // Made outside Pulumi, with only the required OIDC fields (no scopes, no PKCE flag).
    const made = await frontdoorApi(mock, "POST", "auth-providers", {
      name: "legacy",
      type: "OIDC",
      data: { issuer: "https://old.example.com", client_id: "legacy", client_secret: "legacy-secret-2" },
    });
    assert.equal(made.status, 201);

    const kinds = ["AuthProvider", "CertificateRequestToken", "AuthPolicy", "Identity", "EdgeRouterPolicy"];
    const text = await importSnippets(context(), { kinds });
    assert.doesNotMatch(text, /adopt-secret-1|legacy-secret-2/);
    const opts = adoptingProgram(mock, workdir.path, "adopted", text, {
      ssoDataClientSecret: "adopt-secret-1",
      legacyDataClientSecret: "legacy-secret-2",
    });
    await adoptsUnchanged(opts, 6);
  });

  it("adopts services, their configs and policies; the built-in config types are left out", async () => {
    const type = await createChecked("ConfigType", {
      name: "acme-proxy.v1",
      schema: { type: "object", properties: { upstream: { type: "string" } } },
    });
    const intercept = await createChecked("Config", {
      name: "web-intercept",
      configTypeName: "intercept.v1",
      data: { protocols: ["tcp"], addresses: ["web.ziti"], portRanges: [{ low: 80, high: 80 }] },
    });
    const proxy = await createChecked("Config", {
      name: "web-proxy",
      configTypeId: type.id,
      data: { upstream: "http://10.0.0.5" },
    });
    await createChecked("Service", {
      name: "web",
      configs: [intercept.id, proxy.id],
      roleAttributes: ["web"],
    });
    await createChecked("ServicePolicy", {
      name: "web-dial",
      type: "Dial",
      identityRoles: ["#staff"],
      serviceRoles: ["#web"],
    });
    await createChecked("ServiceEdgeRouterPolicy", {
      name: "web-routers",
      serviceRoles: ["#web"],
      edgeRouterRoles: ["#all"],
    });

    const kinds = ["ConfigType", "Config", "Service", "ServicePolicy", "ServiceEdgeRouterPolicy"];
    const text = await importSnippets(context(), { kinds });
    assert.match(text, /new frontdoor\.ConfigType\("acme-proxy-v1"/);
    assert.doesNotMatch(text, /new frontdoor\.ConfigType\("(intercept|host)/);
    assert.match(text, /configTypeName: "intercept\.v1"/);
    const opts = adoptingProgram(mock, tempDir("zt-", workdir.path), "adopted-zt", text);
    await adoptsUnchanged(opts, 6);
  });
});

describe("import snippets for edge routers, external JWT signers and posture checks", function () {
  this.timeout(120_000);
  const mock = useMockProvider();
  const workdir = useTempDir(".work-import-", path.join(__dirname, "programs"));

  it("prints declarations (no enrollment JWT) that the harness imports without a change", async () => {
    const router = await createChecked("EdgeRouter", { name: "west-1", roleAttributes: ["west"], cost: 3 });
    await createChecked("ExternalJwtSigner", {
      name: "keycloak",
      issuer: "https://login.example.com",
      audience: "ziti",
      jwksEndpoint: "https://login.example.com/certs",
      scopes: ["openid"],
    });
    await createChecked("PostureCheck", {
      name: "edr",
      typeId: "PROCESS_MULTI",
      processes: [{ osType: "Linux", path: "/opt/edr" }],
    });
    await createChecked("PostureCheck", { name: "mfa", typeId: "MFA", promptOnWake: true });
    const text = await importSnippets(context(), {
      kinds: ["EdgeRouter", "ExternalJwtSigner", "PostureCheck"],
    });
    assert.match(
      text,
      new RegExp(`new frontdoor\\.EdgeRouter\\("west-1", [^]*cost: 3,[^]*import: "${router.id}"`),
    );
    assert.match(
      text,
      /new frontdoor\.PostureCheck\("mfa", \{[\s\S]*typeId: "MFA",[\s\S]*promptOnWake: true,/,
    );
    assert.doesNotMatch(text, /enrollmentJwt|reEnrollmentTrigger/);
    assert.doesNotMatch(text, new RegExp(String(router.outs.enrollmentJwt)));
    const opts = adoptingProgram(mock, workdir.path, "adopted-edge", text);
    await adoptsUnchanged(opts, 4);
  });
});

describe("import snippets: references, filters and objects a stack already holds", function () {
  this.timeout(180_000);
  const mock = useMockProvider({ frontdoor: { customFrontendReadyAfterMs: 50 } });
  const workdir = useTempDir(".work-import-", path.join(__dirname, "programs"));

  const harnessOptions = (dir: string, text: string) =>
    adoptingProgram(mock, dir, "adopted-refs", text, { ssoDataClientSecret: "refs-secret-1" });

  it("refers to imported objects by variable, declares them first, and destroys in that order", async () => {
    // Made in an order the program must not copy: the identity and the frontdoor before what they use
    // would be impossible, so the references alone must order the printed program.
    const policy = await createChecked("AuthPolicy", { name: "strict", secondary: { requireTotp: true } });
    const sso = await createChecked("AuthProvider", {
      name: "sso",
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "fd", client_secret: "refs-secret-1" },
    });
    await createChecked("CustomFrontend", { hostname: "app.refs.example.com", authProviderIds: [sso.id] });
    await createChecked("Identity", { name: "alice", type: "User", authPolicyId: policy.id });
    const intercept = await createChecked("Config", {
      name: "web-intercept",
      configTypeName: "intercept.v1",
      data: { protocols: ["tcp"], addresses: ["web.ziti"], portRanges: [{ low: 443, high: 443 }] },
    });
    const web = await createChecked("Service", { name: "web", configs: [intercept.id] });
    await createChecked("ServicePolicy", {
      name: "web-dial",
      type: "Dial",
      identityRoles: ["#staff"],
      serviceRoles: [`@${web.id}`],
    });

    const kinds = [
      "AuthPolicy",
      "AuthProvider",
      "CustomFrontend",
      "Identity",
      "Config",
      "Service",
      "ServicePolicy",
    ];
    const text = await importSnippets(context(), { kinds });
    assert.match(text, /authProviderIds: \[sso\.id\]/);
    assert.match(text, /authPolicyId: strict\.id/);
    assert.match(text, /configs: \[webIntercept\.id\]/);
    assert.match(text, /serviceRoles: \[pulumi\.interpolate`@\$\{web\.id\}`\]/);
    // Ids appear only as import ids, never as literal references.
    const withoutImports = text.replace(/\{ import: "[^"]*" \}/g, "");
    for (const id of [policy.id, sso.id, intercept.id, web.id])
      assert.ok(!withoutImports.includes(id), `literal id ${id} in:\n${text}`);
    const position = (variable: string) => text.indexOf(`export const ${variable} =`);
    assert.ok(position("strict") < position("alice"), "the auth policy comes before the identity");
    assert.ok(
      position("sso") < text.indexOf("new frontdoor.CustomFrontend("),
      "the auth provider comes before the frontend",
    );
    assert.ok(position("webIntercept") < position("web") && position("web") < position("webDial"));

    const opts = harnessOptions(path.join(workdir.path, "refs"), text);
    await adoptsUnchanged(opts, 7);
    // The references are dependencies in the state, so destroy removes users before what they use.
    const destroyed = await runHarness("destroy", opts);
    assert.equal(destroyed.exitCode, 0, destroyed.stderr + destroyed.stdout);
    assert.deepEqual(mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers"), []);
    assert.deepEqual(mock.edge.list("services"), []);
  });

  it("prints only objects whose name matches, and none that a given state already holds", async () => {
    const managed = await createChecked("AuthPolicy", { name: "team-a-policy" });
    await createChecked("AuthPolicy", { name: "team-b-policy" });
    await createChecked("AuthPolicy", { name: "other" });

    const matching = await importSnippets(context(), { kinds: ["AuthPolicy"], names: ["team-*"] });
    assert.match(matching, /"team-a-policy"/);
    assert.match(matching, /"team-b-policy"/);
    assert.doesNotMatch(matching, /"other"/);

    // A stack that holds team-a-policy: its state (harness file or `pulumi stack export`) excludes it.
    const harnessState = {
      resources: [{ urn: "urn:pulumi:dev::x::frontdoor:AuthPolicy::a", id: managed.id }],
    };
    const exported = {
      version: 3,
      deployment: { resources: [{ urn: "urn:x", id: managed.id }, { urn: "urn:y" }] },
    };
    for (const state of [harnessState, exported]) {
      const rest = await importSnippets(context(), {
        kinds: ["AuthPolicy"],
        names: ["team-*"],
        excludeIds: idsInState(state),
      });
      assert.doesNotMatch(rest, /"team-a-policy"/);
      assert.match(rest, /"team-b-policy"/);
    }
    assert.throws(() => idsInState({ something: "else" }), /not a stack state/);
  });
});
