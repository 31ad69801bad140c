// From Terraform on the real controller: objects of every resource type of the OpenZiti Terraform
// provider are made first through the Edge API (as Terraform's provider would have made them, bodies
// per the Edge API's swagger), their ids go into the Terraform state fixture (its attributes follow the
// Terraform provider's documented schemas), then, as a user migrates:
// - `pulumi-frontdoor-import --from-terraform` writes the import file and lists what it could not map;
// - the real CLI with the provider plugin imports the file (`pulumi import --file`, writing the YAML
//   program) and `pulumi preview --expect-no-changes` finds nothing to change on the controller;
// - in a Go project, the Go program `pulumi import --out main.go` writes (Pulumi's v3.276.0 Go program
//   generator, scripts/sdkgen/programgen) compiles against the generated Go SDK (`go vet`), and the Go
//   language host runs it for `pulumi preview --expect-no-changes`;
// - the TypeScript program it prints (dynamic provider), whose inputs are the Terraform attributes mapped
//   field by field, imports every object on a first `up` with no change (an input that disagrees with the
//   controller fails the import, naming it) and finds them the same on a second.
// One controller, one import of all kinds at once.
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { runHarness } from "../harness";
import { issueCertificate } from "../mock/edge/pki";
import { TERRAFORM_TYPES } from "../provider/tools/terraform";
import type { CliResult } from "./peers/cli";
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { tempDir, useNativeSdks, useTempDir } from "./support/fixtures";
import { writeGoModule } from "./support/go-module";
import { addGeneratedResources, assertPluginBuilt, pluginStack } from "./support/plugin";
import { PROGRAMGEN_ENV } from "./support/plugin-languages";
import { terraformPlaceholders, terraformState } from "./support/terraform-state";

const ROOT = path.resolve(__dirname, "..");
const IMPORT_CLI = path.join(ROOT, "bin", "provider", "tools", "importCli.js");
const PROGRAMS = path.join(ROOT, "test", "programs");
/** What Terraform keeps in its state that must never come out: the enrollment JWT, a generated password. */
const SECRETS = {
  "secret:enrollment": "tf-enrollment-jwt-5581-secret",
  "secret:password": "tf-random-pw-7723-secret",
};

describe("Real Pulumi CLI: from a Terraform state of the OpenZiti Terraform provider to the plugin", function () {
  this.timeout(900_000);
  let ctrl: RealController;
  const ids: Record<string, string> = {};
  let stateFile: string;
  const workdir = useTempDir(".work-tf-", PROGRAMS);
  // The Go program compiles against the generated Go SDK (sdk/native/go).
  useNativeSdks("the Go program of the import is not built");

  /** Makes an object through the Edge API: its id, recorded for the placeholder `id:<address>`. */
  const make = async (address: string, collection: string, body: Record<string, unknown>) => {
    const made = await ctrl.admin.call("POST", `/${collection}`, { body });
    assert.equal(made.status, 201, `${address}: ${JSON.stringify(made.body)}`);
    ids[`id:${address}`] = String(made.body.data.id);
    return ids[`id:${address}`];
  };

  /** A config type the controller lacks (interfaces.v1, proxy.v1 are not built in everywhere): its id. */
  const configType = async (name: string) => {
    const found = await ctrl.admin.call(
      "GET",
      `/config-types?filter=${encodeURIComponent(`name="${name}"`)}`,
    );
    if (found.body.data.length) return String(found.body.data[0].id);
    const made = await ctrl.admin.call("POST", "/config-types", {
      body: { name, schema: { type: "object" } },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return String(made.body.data.id);
  };

  before(async function () {
    requirePeers(
      this,
      "pulumi",
      "ziti",
      "pulumi-language-yaml",
      "pulumi-language-go",
      "pulumi-language-nodejs-programgen",
    );
    assertPluginBuilt();
    ctrl = await startController();
    const tags = { team: "net" };
    const sso = await make("ziti_external_jwt_signer.sso", "external-jwt-signers", {
      name: "tf-sso",
      issuer: "https://tf-sso.example.com",
      audience: "ziti",
      jwksEndpoint: "https://tf-sso.example.com/jwks",
      claimsProperty: "email",
      useExternalId: true,
      enabled: true,
      externalAuthUrl: "https://tf-sso.example.com/auth",
      clientId: "ziti-cli",
      scopes: ["email", "openid"],
      targetToken: "ID",
      tags,
    });
    // A controller drops a signer's tags at create (see provider/resources/externalJwtSigner.ts): set again.
    await ctrl.admin.call("PATCH", `/external-jwt-signers/${sso}`, { body: { tags } });
    const strict = await make("ziti_auth_policy.strict", "auth-policies", {
      name: "tf-strict",
      primary: {
        cert: { allowed: true, allowExpiredCerts: false },
        extJwt: { allowed: true, allowedSigners: [sso] },
        updb: {
          allowed: true,
          lockoutDurationMinutes: 10,
          maxAttempts: 5,
          minPasswordLength: 8,
          requireMixedCase: true,
          requireNumberChar: true,
          requireSpecialChar: false,
        },
      },
      secondary: { requireTotp: true, requireExtJwtSigner: null },
      tags,
    });
    const pki = issueCertificate({ commonName: "tf partners CA", isCa: true });
    ids["pem:ca"] = pki.certPem;
    const partners = await make("ziti_certificate_authority.partners", "cas", {
      name: "tf-partners",
      certPem: pki.certPem,
      identityRoles: ["partners"],
      isAuthEnabled: true,
      isAutoCaEnrollmentEnabled: false,
      isOttCaEnrollmentEnabled: true,
      identityNameFormat: "[caName]-[commonName]",
      externalIdClaim: {
        location: "COMMON_NAME",
        matcher: "ALL",
        matcherCriteria: "",
        parser: "NONE",
        parserCriteria: "",
        index: 0,
      },
      tags,
    });
    // An ottca enrollment needs a verified CA (Terraform's users verify it outside Terraform).
    const token = (await ctrl.admin.call("GET", `/cas/${partners}`)).body.data.verificationToken;
    const proof = issueCertificate({ commonName: String(token), issuer: pki }).certPem;
    const verified = await ctrl.admin.call("POST", `/cas/${partners}/verify`, { text: proof });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const identity = (name: string, extra: Record<string, unknown>) => ({
      name,
      type: "User",
      isAdmin: false,
      roleAttributes: ["employees"],
      defaultHostingCost: 0,
      defaultHostingPrecedence: "default",
      tags,
      ...extra,
    });
    await make(
      "ziti_identity.alice",
      "identities",
      identity("tf-alice", {
        authPolicyId: strict,
        externalId: "alice@example.com",
        appData: { desk: "4.12" },
        enrollment: { ott: true },
      }),
    );
    await make(
      "ziti_identity_ca.partner_device",
      "identities",
      identity("tf-partner-device", {
        type: "Device",
        roleAttributes: ["partners"],
        enrollment: { ottca: partners },
      }),
    );
    await make(
      "ziti_identity_updb.bob",
      "identities",
      identity("tf-bob", { enrollment: { updb: "tf-bob@example.com" } }),
    );
    await make(
      "ziti_identity_none.robot",
      "identities",
      identity("tf-robot", {
        type: "Service",
        roleAttributes: ["robots"],
        defaultHostingCost: 20,
        defaultHostingPrecedence: "required",
      }),
    );
    await make("ziti_edge_router.edge", "edge-routers", {
      name: "tf-edge",
      roleAttributes: ["public"],
      cost: 10,
      isTunnelerEnabled: false,
      noTraversal: false,
      appData: { site: "eu" },
      tags,
    });
    await make("ziti_edge_router_policy.employees", "edge-router-policies", {
      name: "tf-employees-routers",
      edgeRouterRoles: ["#public"],
      identityRoles: ["#employees"],
      semantic: "AnyOf",
      tags,
    });
    await make("ziti_service_edge_router_policy.web", "service-edge-router-policies", {
      name: "tf-web-routers",
      edgeRouterRoles: ["#public"],
      serviceRoles: ["#web"],
      semantic: "AllOf",
      tags,
    });
    const config = async (address: string, name: string, type: string, data: Record<string, unknown>) =>
      make(address, "configs", { name, configTypeId: await configType(type), data, tags });
    const intercept = await config("ziti_intercept_v1_config.web", "tf-web.intercept.v1", "intercept.v1", {
      addresses: ["web.tf.ziti"],
      protocols: ["tcp"],
      portRanges: [{ low: 443, high: 443 }],
      dialOptions: { connectTimeoutSeconds: 15 },
    });
    const host = await config("ziti_host_v1_config.web", "tf-web.host.v1", "host.v1", {
      address: "localhost",
      port: 8443,
      protocol: "tcp",
      portChecks: [
        {
          address: "localhost:8443",
          interval: "5s",
          timeout: "2s",
          actions: [{ trigger: "fail", duration: "10s", action: "mark unhealthy" }],
        },
      ],
      listenOptions: { connectTimeout: "5s", precedence: "default" },
    });
    await config("ziti_host_v2_config.db", "tf-db.host.v2", "host.v2", {
      terminators: [{ address: "db.internal", port: 5432, protocol: "tcp" }],
    });
    await config("ziti_interfaces_v1_config.lan", "tf-lan.interfaces.v1", "interfaces.v1", {
      interfaces: ["eth0", "eth1"],
    });
    await config("ziti_proxy_v1_config.proxy", "tf-proxy.proxy.v1", "proxy.v1", {
      port: 8000,
      protocols: ["tcp"],
      binding: "transport",
    });
    const web = await make("ziti_service.web", "services", {
      name: "tf-web",
      configs: [intercept, host],
      roleAttributes: ["web"],
      encryptionRequired: true,
      terminatorStrategy: "smartrouting",
      maxIdleTimeMillis: 0,
      tags,
    });
    await make("ziti_service_policy.dial", "service-policies", {
      name: "tf-web-dial",
      type: "Dial",
      semantic: "AnyOf",
      identityRoles: ["#employees"],
      serviceRoles: [`@${web}`],
      postureCheckRoles: ["#laptops"],
      tags,
    });
    const check = (address: string, typeId: string, name: string, fields: Record<string, unknown>) =>
      make(address, "posture-checks", { typeId, name, roleAttributes: ["laptops"], tags, ...fields });
    await check("ziti_posture_check_domains.corp", "DOMAIN", "tf-domain", { domains: ["corp.example.com"] });
    await check("ziti_posture_check_mac_addresses.desk", "MAC", "tf-mac", {
      macAddresses: ["00:1a:2b:3c:4d:5e"],
    });
    await check("ziti_posture_check_mfa.mfa", "MFA", "tf-mfa", {
      timeoutSeconds: 600,
      promptOnWake: true,
      promptOnUnlock: false,
    });
    await check("ziti_posture_check_os.windows", "OS", "tf-os", {
      operatingSystems: [{ type: "Windows", versions: [">=10.0.19041"] }],
    });
    await check("ziti_posture_check_process.agent", "PROCESS", "tf-process", {
      process: { osType: "Linux", path: "/usr/bin/edr-agent" },
    });
    await check("ziti_posture_check_multi_process.agents", "PROCESS_MULTI", "tf-processes", {
      semantic: "AnyOf",
      processes: [
        { osType: "Linux", path: "/usr/bin/edr-agent" },
        { osType: "Windows", path: "C:\\edr\\agent.exe" },
      ],
    });
    // The data source reads the controller's default admin.
    const admins = await ctrl.admin.call(
      "GET",
      `/identities?filter=${encodeURIComponent("isDefaultAdmin=true")}`,
    );
    ids["id:data.ziti_identity.admin"] = String(admins.body.data[0].id);
    const values = { ...ids, ...SECRETS };
    assert.deepEqual(
      terraformPlaceholders().filter((key) => values[key as keyof typeof values] === undefined),
      [],
      "every placeholder of the fixture has its value",
    );
    stateFile = path.join(tempDir("tf-state-", workdir.path), "terraform.tfstate");
    fs.writeFileSync(stateFile, JSON.stringify(terraformState(values), null, 2));
  });

  after(async () => {
    await ctrl?.stop();
  });

  const scan = (what: string, text: string) => {
    for (const secret of [...Object.values(SECRETS), ctrl.password])
      assert.ok(!text.includes(secret), `a secret is in ${what}`);
  };

  /** A program's text with line numbers, for a compiler's message about it. */
  const numbered = (text: string) =>
    text
      .split("\n")
      .map((line, i) => `${i + 1}: ${line}`)
      .join("\n");

  /**
   * The by-hand fix the guide gives for a known bug of Pulumi's Go program generator (pulumi/pulumi#16384,
   * the same generator in every released Go host): a list in a value of type any (a Config's `data`) is
   * written `pulumi.Any{...}`, which is not Go; `pulumi.Any([]interface{}{...})` is what it means.
   * The written program is gofmt's layout: the list closes on the first `},` at the opening line's indent.
   */
  const fixAnyLists = (program: string) => {
    const lines = program.split("\n");
    let closing: string | undefined;
    return lines
      .map((line) => {
        const open = /^(\t*).*pulumi\.Any\{$/.exec(line);
        if (open && closing === undefined) {
          closing = `${open[1]}},`;
          return line.replace(/pulumi\.Any\{$/, "pulumi.Any([]interface{}{");
        }
        if (line === closing) {
          closing = undefined;
          return `${line.slice(0, -2)}}),`;
        }
        return line;
      })
      .join("\n");
  };

  /** The lines of `before` that `after` changes (the same number of lines), trimmed. */
  const diffLines = (before: string, after: string) => {
    const changed = after.split("\n");
    return before
      .split("\n")
      .filter((line, i) => line !== changed[i])
      .map((line) => line.trim());
  };

  /** The stack settings of a plugin program on the controller (its password a secret). */
  const stackConfig = () => {
    const { "frontdoor:edgePassword": password, ...config } = realEdgeConfig(ctrl);
    return { config, secretConfig: { "frontdoor:edgePassword": password } };
  };

  /** `pulumi-frontdoor-import --from-terraform` writing the import file `file`. */
  const writeImportFile = (file: string) =>
    promisify(execFile)("node", [IMPORT_CLI, "--from-terraform", stateFile, "--import-file", file]);

  it("every object of every type: import file, `pulumi import --file` with the plugin (YAML), preview with no changes", async () => {
    const stack = await pluginStack(path.join(PROGRAMS, "yaml-empty"), stackConfig());
    const outputs: CliResult[] = [];
    try {
      const file = path.join(stack.dir, "import.json");
      const tool = await writeImportFile(file);
      scan("the importer's output", tool.stdout + tool.stderr);
      // What it could not map, and why: the data source and the other provider's resource.
      assert.deepEqual(
        tool.stderr.split("\n").filter((l) => l.includes("not mapped")),
        [
          "data.ziti_identity.admin: not mapped: a data source: Terraform only reads it; use a lookup function (e.g. getIdentity) in the program",
          'random_password.bob: not mapped: a resource of provider["registry.terraform.io/hashicorp/random"], not of netfoundry/ziti',
        ],
      );
      assert.match(tool.stderr, /terraform state rm 'ziti_identity\.alice'/);
      const entries = JSON.parse(fs.readFileSync(file, "utf8")).resources as any[];
      const managed = Object.entries(ids).filter(([k]) => !k.startsWith("id:data.") && k.startsWith("id:"));
      assert.equal(managed.length, Object.keys(TERRAFORM_TYPES).length, "one object of every type");
      assert.deepEqual(entries.map((e) => e.id).sort(), managed.map(([, id]) => id).sort());
      scan("the import file", JSON.stringify(entries));

      const out = path.join(stack.dir, "generated.yaml");
      const imported = await stack.run(["import", "--file", file, "--yes", "--protect=false", "--out", out]);
      outputs.push(imported);
      assert.equal(imported.code, 0, imported.output);
      addGeneratedResources(stack.dir, fs.readFileSync(out, "utf8"));
      const state = await stack.exportState();
      const custom = state.deployment.resources.filter(
        (r: any) => r.custom && r.type !== "pulumi:providers:frontdoor",
      );
      assert.deepEqual(
        custom.map((r: any) => `${r.type} ${r.id}`).sort(),
        entries.map((e) => `${e.type} ${e.id}`).sort(),
        "every object is in the state under its Terraform id",
      );
      const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
      outputs.push(preview);
      assert.equal(preview.code, 0, `the generated program is not what was imported:\n${preview.output}`);
      for (const r of outputs) scan("the CLI's output", r.output);
      scan("the stack's state", JSON.stringify(state));
    } finally {
      await stack.dispose();
    }
  });

  it("in a Go project, `pulumi import --out main.go` writes a Go program that compiles against the Go SDK and previews with no changes", async () => {
    const dir = tempDir("go-", workdir.path);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: from-terraform-go\nruntime: go\n");
    writeGoModule(dir, "frontdoor.local/from-terraform");
    const stack = await pluginStack(dir, { ...stackConfig(), inPlace: true });
    const outputs: CliResult[] = [];
    try {
      const file = path.join(dir, "import.json");
      await writeImportFile(file);
      const count = (JSON.parse(fs.readFileSync(file, "utf8")).resources as unknown[]).length;
      // The CLI asks the project's host (runtime: go) to write the program: the generator stands in for it.
      const imported = await stack.run(
        ["import", "--file", file, "--yes", "--protect=false", "--out", "main.go"],
        {
          env: PROGRAMGEN_ENV,
        },
      );
      outputs.push(imported);
      assert.equal(imported.code, 0, imported.output);
      const written = fs.readFileSync(path.join(dir, "main.go"), "utf8");
      // The generator's known bug, where it is (the lists in a config's data), fixed as the guide says.
      const program = fixAnyLists(written);
      assert.deepEqual(
        diffLines(written, program),
        [
          ...["addresses", "portRanges", "protocols"], // intercept.v1
          "portChecks", // host.v1
          "terminators", // host.v2
          "interfaces", // interfaces.v1
          "protocols", // proxy.v1
        ].flatMap((key) => [`"${key}": pulumi.Any{`, "},"]),
      );
      fs.writeFileSync(path.join(dir, "main.go"), program);
      assert.equal(program.match(/frontdoor\.New\w+\(ctx, /g)?.length, count, program);
      scan("the Go program", program);
      // Compiles against the generated SDK (go vet type-checks every call and field) ...
      try {
        execFileSync("go", ["vet", "."], {
          cwd: dir,
          stdio: "pipe",
          env: { ...process.env, GOFLAGS: "-mod=readonly" },
        });
      } catch (err) {
        assert.fail(`${(err as { stderr?: Buffer }).stderr ?? err}\n${numbered(program)}`);
      }
      // ... and, run by the Go language host (it builds the program), declares what was imported.
      const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
      outputs.push(preview);
      assert.equal(preview.code, 0, `the Go program is not what was imported:\n${preview.output}`);
      for (const r of outputs) scan("the CLI's output", r.output);
    } finally {
      await stack.dispose();
    }
  });

  it("the TypeScript program of the mapped attributes imports every object with no change (dynamic provider)", async () => {
    const tool = await promisify(execFile)("node", [IMPORT_CLI, "--from-terraform", stateFile]);
    scan("the program", tool.stdout);
    const dir = tempDir("ts-", workdir.path);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: from-terraform\nruntime: nodejs\n");
    fs.writeFileSync(path.join(dir, "package.json"), '{"name": "from-terraform", "private": true}\n');
    fs.writeFileSync(path.join(dir, "index.ts"), tool.stdout);
    const options = { programDir: dir, stateFile: path.join(dir, "state.json"), ...stackConfig() };
    const count = Object.keys(TERRAFORM_TYPES).length;
    const first = await runHarness("up", options);
    assert.equal(first.exitCode, 0, first.stderr + first.stdout);
    assert.deepEqual(first.report.summary, { import: count });
    const second = await runHarness("up", options);
    assert.equal(second.exitCode, 0, second.stderr + second.stdout);
    assert.deepEqual(second.report.summary, { same: count }, second.stdout);
    scan("the harness state", fs.readFileSync(options.stateFile, "utf8"));
  });
});
