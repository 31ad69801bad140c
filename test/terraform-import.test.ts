// From Terraform, in process: a Terraform state of the OpenZiti Terraform provider (the fixture follows
// the provider's documented resource schemas, docs/resources/<type>.md of netfoundry/terraform-provider-ziti)
// maps every resource type to a kind, each attribute to an input the kind's schema accepts, and lists
// what it could not map with the reason. The real controller and CLI run in real-terraform-import.test.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { resourceDefinitions } from "../provider/resources/all";
import { checkConfigData } from "../provider/resources/configData";
import {
  describe as describeEntry,
  migrationFromTerraform,
  TERRAFORM_TYPES,
  terraformImportFile,
  terraformProgram,
} from "../provider/tools/terraform";
import { testCa } from "./edge-support";
import { tempDir } from "./support/fixtures";
import { terraformPlaceholders, terraformState } from "./support/terraform-state";

const SECRET = "tf-state-secret-8271";

let caPem: string | undefined;

/** The fixture with made-up ids (`id-<n>`), the secrets Terraform keeps as SECRET (one CA for all). */
function fixture() {
  caPem ??= testCa("tf partners").certPem;
  const values: Record<string, string> = { "pem:ca": caPem };
  let n = 0;
  for (const key of terraformPlaceholders())
    if (key.startsWith("id:")) values[key] = `id-${++n}`;
    else if (key.startsWith("secret:")) values[key] = SECRET;
  return { values, state: terraformState(values) as any };
}

/** A minimal state of format 4 with `resources`. */
const stateOf = (resources: unknown[]) => ({ version: 4, terraform_version: "1.9.8", serial: 1, resources });
const ZITI = 'provider["registry.terraform.io/netfoundry/ziti"]';

describe("From Terraform: mapping a state of the OpenZiti Terraform provider", () => {
  it("maps every resource type of netfoundry/ziti to its kind (the provider's 23 documented resources)", () => {
    // The documented resource types (docs/resources/*.md) and the kind each one is, written out here.
    const expected: Record<string, string> = {
      ziti_auth_policy: "AuthPolicy",
      ziti_certificate_authority: "Ca",
      ziti_edge_router: "EdgeRouter",
      ziti_edge_router_policy: "EdgeRouterPolicy",
      ziti_external_jwt_signer: "ExternalJwtSigner",
      ziti_host_v1_config: "Config",
      ziti_host_v2_config: "Config",
      ziti_identity: "Identity",
      ziti_identity_ca: "Identity",
      ziti_identity_none: "Identity",
      ziti_identity_updb: "Identity",
      ziti_intercept_v1_config: "Config",
      ziti_interfaces_v1_config: "Config",
      ziti_posture_check_domains: "PostureCheck",
      ziti_posture_check_mac_addresses: "PostureCheck",
      ziti_posture_check_mfa: "PostureCheck",
      ziti_posture_check_multi_process: "PostureCheck",
      ziti_posture_check_os: "PostureCheck",
      ziti_posture_check_process: "PostureCheck",
      ziti_proxy_v1_config: "Config",
      ziti_service: "Service",
      ziti_service_edge_router_policy: "ServiceEdgeRouterPolicy",
      ziti_service_policy: "ServicePolicy",
    };
    assert.deepEqual(
      Object.fromEntries(Object.entries(TERRAFORM_TYPES).map(([type, m]) => [type, m.kind])),
      expected,
    );
    const { state, values } = fixture();
    const migration = migrationFromTerraform(state);
    // The fixture has one object of each type, under the id the state gives it.
    assert.deepEqual(
      migration.objects.map((o) => `${o.address.split(".")[0]} ${o.kind} ${o.id}`).sort(),
      Object.entries(expected)
        .map(([type, kind]) => {
          const address = Object.keys(values).find((k) => k.startsWith(`id:${type}.`))!;
          return `${type} ${kind} ${values[address]}`;
        })
        .sort(),
    );
  });

  it("maps every attribute to an input of the kind: the inputs pass the kind's schema, config data its type's", () => {
    const migration = migrationFromTerraform(fixture().state);
    for (const o of migration.objects) {
      const def = resourceDefinitions.find((d) => d.kind === o.kind)!;
      const parsed = def.inputs.safeParse(o.inputs);
      assert.ok(parsed.success, `${o.address}: ${JSON.stringify(parsed.error?.issues)}`);
      if (
        o.kind === "Config" &&
        ["host.v1", "host.v2", "intercept.v1"].includes(String(o.inputs.configTypeName))
      )
        assert.deepEqual(checkConfigData(String(o.inputs.configTypeName), o.inputs.data), [], o.address);
    }
    // Nothing of a resource of netfoundry/ziti is left out: every documented attribute has its input.
    assert.deepEqual(
      migration.notMapped.filter((e) => e.attribute),
      [],
      migration.notMapped.map(describeEntry).join("\n"),
    );
  });

  it("renames what is not plain snake_case, nested too, and leaves out what Terraform computes", () => {
    const { state, values } = fixture();
    const byAddress = new Map(migrationFromTerraform(state).objects.map((o) => [o.address, o.inputs]));
    // Expected inputs written from the Terraform docs (auth_policy.md, identity_ca.md, service.md,
    // service_policy.md, posture_check_process.md, intercept_v1_config.md) and this provider's reference.
    assert.deepEqual(byAddress.get("ziti_auth_policy.strict"), {
      name: "tf-strict",
      primary: {
        cert: { allowed: true, allowExpiredCerts: false },
        extJwt: { allowed: true, allowedSigners: [values["id:ziti_external_jwt_signer.sso"]] },
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
      secondary: { requireTotp: true },
      tags: { team: "net" },
    });
    const device = byAddress.get("ziti_identity_ca.partner_device")!;
    assert.deepEqual(device.enrollment, { ottca: values["id:ziti_certificate_authority.partners"] });
    assert.equal(device.type, "Device");
    assert.deepEqual(byAddress.get("ziti_identity_updb.bob")!.enrollment, { updb: "tf-bob@example.com" });
    assert.deepEqual(byAddress.get("ziti_identity.alice")!.enrollment, { ott: true });
    assert.equal(byAddress.get("ziti_identity_none.robot")!.enrollment, undefined);
    assert.equal(byAddress.get("ziti_identity.alice")!.authPolicyId, values["id:ziti_auth_policy.strict"]);
    assert.equal(byAddress.get("ziti_identity.alice")!.enrollmentToken, undefined, "computed, not an input");
    assert.equal(byAddress.get("ziti_service.web")!.maxIdleTimeMillis, 0);
    assert.deepEqual(byAddress.get("ziti_service_policy.dial"), {
      name: "tf-web-dial",
      type: "Dial",
      semantic: "AnyOf",
      identityRoles: ["#employees"],
      serviceRoles: [`@${values["id:ziti_service.web"]}`],
      postureCheckRoles: ["#laptops"],
      tags: { team: "net" },
    });
    assert.deepEqual(byAddress.get("ziti_posture_check_process.agent"), {
      typeId: "PROCESS",
      name: "tf-process",
      roleAttributes: ["laptops"],
      tags: { team: "net" },
      process: { osType: "Linux", path: "/usr/bin/edr-agent" },
    });
    assert.deepEqual(byAddress.get("ziti_intercept_v1_config.web"), {
      name: "tf-web.intercept.v1",
      tags: { team: "net" },
      configTypeName: "intercept.v1",
      data: {
        addresses: ["web.tf.ziti"],
        protocols: ["tcp"],
        portRanges: [{ low: 443, high: 443 }],
        dialOptions: { connectTimeoutSeconds: 15 },
      },
    });
  });

  it("lists what it cannot map, with the reason: data sources, other providers, unknown types and attributes, tainted and deposed objects", () => {
    const { state } = fixture();
    const identity = state.resources.find((r: any) => r.type === "ziti_identity" && r.mode === "managed");
    const withExtras = stateOf([
      ...state.resources,
      // An attribute a newer provider may have; a type it may add; objects Terraform is replacing.
      { ...identity, name: "carol", instances: [{ attributes: { id: "c1", name: "carol", mood: "happy" } }] },
      {
        mode: "managed",
        type: "ziti_router_enrollment",
        name: "x",
        provider: ZITI,
        instances: [{ attributes: { id: "e1" } }],
      },
      {
        ...identity,
        name: "dave",
        instances: [{ status: "tainted", attributes: { id: "d1", name: "dave" } }],
      },
      {
        ...identity,
        name: "erin",
        instances: [{ deposed: "0a1b2c3d", attributes: { id: "e2", name: "erin" } }],
      },
    ]);
    const migration = migrationFromTerraform(withExtras);
    assert.deepEqual(migration.notMapped.map(describeEntry), [
      "data.ziti_identity.admin: not mapped: a data source: Terraform only reads it; use a lookup function (e.g. getIdentity) in the program",
      'random_password.bob: not mapped: a resource of provider["registry.terraform.io/hashicorp/random"], not of netfoundry/ziti',
      "ziti_identity.carol mood: not mapped: Identity has no counterpart",
      "ziti_router_enrollment.x: not mapped: ziti_router_enrollment is not a resource type of netfoundry/ziti that this importer knows",
      "ziti_identity.dave: not mapped: tainted: Terraform would replace it on the next apply (apply or untaint it first)",
      "ziti_identity.erin (deposed 0a1b2c3d): not mapped: a deposed object: Terraform destroys it on the next apply",
    ]);
    const carol = migration.objects.find((o) => o.address === "ziti_identity.carol")!;
    assert.deepEqual(
      carol.inputs,
      { name: "carol", enrollment: { ott: true } },
      "the unknown attribute is left out",
    );
    assert.ok(!migration.objects.some((o) => ["d1", "e2", "e1"].includes(o.id)));
  });

  it("refuses a state that is not of format version 4", () => {
    assert.throws(
      () => migrationFromTerraform({ version: 3, modules: [] }),
      /not a Terraform state of format version 4 \(found version 3\)/,
    );
    assert.throws(() => migrationFromTerraform({ deployment: {} }), /format version 4/);
  });

  it("names resources after Terraform's names: modules and keys kept, a name several types share gets the type", () => {
    const identity = (name: string, extra: object = {}) => ({
      mode: "managed",
      type: "ziti_identity",
      name,
      provider: ZITI,
      ...extra,
    });
    const migration = migrationFromTerraform(
      stateOf([
        identity("web", { instances: [{ attributes: { id: "a", name: "a" } }] }),
        { ...identity("web"), type: "ziti_service", instances: [{ attributes: { id: "b", name: "b" } }] },
        identity("team", {
          module: "module.net.module.users",
          instances: [
            { index_key: "alice", attributes: { id: "c", name: "c" } },
            { index_key: 0, attributes: { id: "d", name: "d" } },
          ],
        }),
      ]),
    );
    assert.deepEqual(
      migration.objects.map((o) => [o.address, o.name]),
      [
        ["ziti_identity.web", "identity-web"],
        ["ziti_service.web", "service-web"],
        ['module.net.module.users.ziti_identity.team["alice"]', "net-users-team-alice"],
        ["module.net.module.users.ziti_identity.team[0]", "net-users-team-0"],
      ],
    );
  });

  it("writes the plugin's import file and a TypeScript program that refers to objects by variable, with no secret of the state", () => {
    const { state, values } = fixture();
    const migration = migrationFromTerraform(state);
    const file = terraformImportFile(migration, "1.2.3");
    assert.equal(file.resources.length, 23);
    for (const entry of file.resources) {
      assert.match(entry.type, /^frontdoor:index:[A-Z]\w+$/);
      assert.equal(entry.version, "1.2.3");
    }
    assert.equal(new Set(file.resources.map((e) => e.name)).size, 23, "unique names");
    assert.deepEqual(
      file.resources.find((e) => e.id === values["id:ziti_identity.alice"]),
      {
        type: "frontdoor:index:Identity",
        name: "alice",
        id: values["id:ziti_identity.alice"],
        version: "1.2.3",
      },
    );
    const program = terraformProgram(migration);
    assert.ok(
      !JSON.stringify(file).includes(SECRET) && !program.includes(SECRET),
      "a secret of the state is out",
    );
    const alice = program.split("\n\n").find((d) => d.startsWith("export const alice ="));
    assert.match(String(alice), /^export const alice = new frontdoor\.Identity\("alice", \{\n/);
    assert.match(String(alice), /\n {4}authPolicyId: strict\.id,\n/);
    assert.match(String(alice), /\{ import: "id-\d+" \}\);$/);
    assert.match(program, /allowedSigners: \[sso\.id\]/);
    assert.match(
      program,
      /configs: \[web\.id, web2\.id\]|configs: \[interceptV1ConfigWeb\.id, hostV1ConfigWeb\.id\]/,
    );
    assert.match(program, /serviceRoles: \[pulumi\.interpolate`@\$\{serviceWeb\.id\}`\]/);
    assert.match(program, /ottca: partners\.id/);
    // Referenced objects come first.
    assert.ok(program.indexOf("const strict =") < program.indexOf("const alice ="));
    assert.ok(program.indexOf("const serviceWeb =") < program.indexOf("const dial ="));
    assert.match(program, /\/\/ data\.ziti_identity\.admin: not mapped: a data source/);
  });

  it("the command: the program on stdout, what is not mapped on stderr; filters of the listing are refused", () => {
    const file = path.join(tempDir("tfstate-"), "terraform.tfstate");
    fs.writeFileSync(file, JSON.stringify(fixture().state));
    const cli = path.join(__dirname, "..", "bin", "provider", "tools", "importCli.js");
    const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
    const printed = run("--from-terraform", file);
    assert.equal(printed.status, 0, printed.stderr);
    assert.match(printed.stdout, /^import \* as pulumi from "@pulumi\/pulumi";/);
    assert.equal((printed.stdout.match(/\{ import: "/g) ?? []).length, 23);
    assert.deepEqual(
      printed.stderr
        .trim()
        .split("\n")
        .map((l) => l.split(":")[0]),
      ["data.ziti_identity.admin", "random_password.bob"],
    );
    assert.ok(!printed.stdout.includes(SECRET) && !printed.stderr.includes(SECRET));
    const filtered = run("--from-terraform", file, "--kind", "Identity");
    assert.equal(filtered.status, 1);
    assert.match(filtered.stderr, /--from-state and --from-terraform take only --import-file/);
  });
});
