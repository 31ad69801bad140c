// Property-based: seeded hostile strings (quotes, backticks, `${}`, `*/`, CR, LF, U+2028/U+2029, NUL,
// ANSI escapes, `__proto__`, `constructor`, `--`, very long) in every place a Terraform state, a stack
// export or a controller's answer can put them, through every generator of the import tool. Each
// generated program compiles with tsc, runs against stub SDKs without writing the sentinel, and
// declares exactly the input's values; each printed shell line passes exactly its argument to the
// stubbed command. The cases are batched (one tsc, one node, one bash per generator).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { goProgram, type YamlProgram } from "../../provider/docsGo";
import { resourceDefinition } from "../../provider/resources";
import { program } from "../../provider/tools/importSnippets";
import {
  commandsAfter,
  gofmtErrors,
  hostileStrings,
  importCli,
  type Recorded,
  runPrograms,
  runShell,
  withSecrets,
  workspace,
  ZITI,
} from "./support";

const SEED = 38;
const COUNT = 80;

/** NUL and lone surrogates: no argument can hold them (the tool prints a comment instead). */
const unpassable = (s: string) => s.includes("\0") || /\p{Cs}/u.test(s);

/** HCL's quoted string read back (the inverse of how Terraform writes an instance key). */
function hclUnquote(quoted: string): string {
  assert.ok(quoted.startsWith('"') && quoted.endsWith('"'), quoted);
  return quoted
    .slice(1, -1)
    .replace(/\\(u[0-9a-f]{4}|U[0-9a-f]{8}|.)|\$\$\{|%%\{/gs, (m, e: string | undefined) => {
      if (m === "$${") return "${";
      if (m === "%%{") return "%{";
      if (e!.length > 1) return String.fromCodePoint(Number.parseInt(e!.slice(1), 16));
      return { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" }[e!] ?? assert.fail(`unknown escape \\${e}`);
    });
}

describe("hostile input: every generator, seeded hostile strings in every place", function () {
  this.timeout(120_000);
  let ws: ReturnType<typeof workspace>;
  let strings: string[];
  before(() => {
    ws = workspace();
    strings = hostileStrings(ws.sentinel, SEED, COUNT);
  });
  afterEach(() => assert.ok(!fs.existsSync(ws.sentinel), "an injection wrote the sentinel"));

  it("--from-terraform: the program declares every value exactly, sensitive ones as secret config reads; the shell lines remove exactly each address", () => {
    const resources: unknown[] = [];
    const expected = new Map<string, { kind: string; args: Record<string, unknown>; secret?: string }>();
    const addresses = new Map<string, { prefix: string; key: string }>();
    strings.forEach((h, k) => {
      const module = k % 3 === 0 ? `module.m${k}` : undefined;
      const name = k % 2 ? h : `r${k}`;
      const identityId = `id-${k}-${h}`;
      resources.push({
        ...(module ? { module } : {}),
        mode: "managed",
        type: "ziti_identity",
        name,
        provider: ZITI,
        instances: [
          {
            index_key: h,
            schema_version: 0,
            attributes: {
              id: identityId,
              name: h,
              role_attributes: [h],
              tags: { [h]: h, plain: h },
              app_data: { [h]: h, secret: `s3cr3t-${k}` },
              service_hosting_costs: { [h]: 7 },
              [`x_${h}`]: "an attribute with no counterpart",
            },
            sensitive_attributes: [
              [
                { type: "get_attr", value: "app_data" },
                { type: "index", value: { value: "secret", type: "string" } },
              ],
            ],
          },
        ],
      });
      expected.set(identityId, {
        kind: "Identity",
        args: {
          name: h,
          roleAttributes: [h],
          tags: { [h]: h, plain: h },
          appData: { [h]: h, secret: `s3cr3t-${k}` },
          serviceHostingCosts: { [h]: 7 },
          enrollment: { ott: true },
        },
        secret: "appData.secret",
      });
      addresses.set(identityId, { prefix: `${module ? `${module}.` : ""}ziti_identity.${name}`, key: h });
      const configId = `cfg-${k}-${h}`;
      const serviceId = `svc-${k}-${h}`;
      const policyId = `sp-${k}-${h}`;
      const plain = (type: string, n: string, attributes: Record<string, unknown>) =>
        resources.push({ mode: "managed", type, name: n, provider: ZITI, instances: [{ attributes }] });
      plain("ziti_intercept_v1_config", `c${k}`, {
        id: configId,
        name: h,
        addresses: [h],
        protocols: ["tcp"],
        port_ranges: [{ low: 1, high: 2 }],
        tags: { [h]: h },
      });
      expected.set(configId, {
        kind: "Config",
        args: {
          name: h,
          tags: { [h]: h },
          configTypeName: "intercept.v1",
          data: { addresses: [h], protocols: ["tcp"], portRanges: [{ low: 1, high: 2 }] },
        },
      });
      plain("ziti_service", `s${k}`, { id: serviceId, name: h, configs: [configId], role_attributes: [h] });
      expected.set(serviceId, {
        kind: "Service",
        args: { name: h, configs: [configId], roleAttributes: [h] },
      });
      plain("ziti_service_policy", `p${k}`, {
        id: policyId,
        name: h,
        type: "Dial",
        serviceroles: [`@${serviceId}`],
        identityroles: [`#${h}`],
      });
      expected.set(policyId, {
        kind: "ServicePolicy",
        args: { name: h, type: "Dial", serviceRoles: [`@${serviceId}`], identityRoles: [`#${h}`] },
      });
      for (const [id, { prefix }] of [
        [configId, { prefix: `ziti_intercept_v1_config.c${k}` }],
        [serviceId, { prefix: `ziti_service.s${k}` }],
        [policyId, { prefix: `ziti_service_policy.p${k}` }],
      ] as const)
        addresses.set(id, { prefix, key: "" });
      // Only notes: another provider's name, an unknown type, a data source of a hostile name.
      resources.push({
        mode: "managed",
        type: "random_password",
        name: `o${k}`,
        provider: `provider["registry.terraform.io/hashicorp/${h}"]`,
        instances: [{ attributes: { id: "x" } }],
      });
      resources.push({
        mode: "managed",
        type: h,
        name: `t${k}`,
        provider: ZITI,
        instances: [{ attributes: { id: "y" } }],
      });
      resources.push({
        mode: "data",
        type: "ziti_identity",
        name: h,
        provider: ZITI,
        instances: [{ attributes: {} }],
      });
    });
    const stateFile = path.join(ws.dir, "terraform.tfstate");
    fs.writeFileSync(
      stateFile,
      JSON.stringify({ version: 4, terraform_version: "1.9.8", serial: 1, resources }),
    );

    // The program, on stdout; the secret config keys, as commands on stderr.
    const printed = importCli("--from-terraform", stateFile);
    assert.equal(printed.status, 0, printed.stderr.slice(0, 3000));
    assert.ok(!printed.stdout.includes("s3cr3t-"), "a sensitive value is in the program");
    const { records, error } = runPrograms(ws.dir, { terraform: printed.stdout }).terraform;
    assert.equal(error, undefined, error);
    const secretKeys = new Set<string>();
    const seen = new Set<string>();
    for (const r of records as Recorded[]) {
      const id = String(r.opts.import);
      const want = expected.get(id);
      assert.ok(want, `an object not in the state: ${JSON.stringify(id)}`);
      assert.ok(!seen.has(id), `declared twice: ${JSON.stringify(id)}`);
      seen.add(id);
      assert.equal(r.kind, want.kind);
      const { value, found } = withSecrets(r.args, want.args);
      assert.deepEqual(value, want.args, `the values of ${JSON.stringify(id)}`);
      assert.deepEqual(
        found.map((f) => f.path),
        want.secret ? [want.secret] : [],
      );
      for (const f of found) {
        assert.ok(!secretKeys.has(f.marker.__secret), "one config key per secret");
        secretKeys.add(f.marker.__secret);
      }
    }
    assert.equal(seen.size, expected.size, "every object is declared");
    const configCalls = runShell(ws.dir, commandsAfter(printed.stderr, /set the secret config keys/));
    assert.deepEqual(
      configCalls.map((c) => c.join(" ")),
      [...secretKeys].map((key) => `pulumi config set --secret ${key}`),
    );

    // The import file, and the lines that make Terraform forget the objects.
    const importFile = path.join(ws.dir, "import.json");
    const written = importCli("--from-terraform", stateFile, "--import-file", importFile);
    assert.equal(written.status, 0, written.stderr.slice(0, 3000));
    const file = JSON.parse(fs.readFileSync(importFile, "utf8"));
    assert.deepEqual(new Set(file.resources.map((e: { id: string }) => e.id)), new Set(expected.keys()));
    for (const e of file.resources) assert.equal(e.type, `frontdoor:index:${expected.get(e.id)!.kind}`);
    const calls = runShell(ws.dir, commandsAfter(written.stderr, /remove them from the Terraform state/));
    const removed = calls.map((c) => {
      assert.deepEqual(c.slice(0, 3), ["terraform", "state", "rm"]);
      assert.equal(c.length, 4, "one address per line");
      return c[3];
    });
    // Every object's address once, in the state's order; an address with NUL or a lone surrogate raw
    // in it (a key is escaped: only the resource's name can) is a comment line instead.
    const want = [...addresses.values()].filter((a) => !unpassable(a.prefix));
    assert.equal(removed.length, want.length);
    removed.forEach((address, i) => {
      const { prefix, key } = want[i];
      assert.ok(address.startsWith(prefix), `${JSON.stringify(address)} is not of ${JSON.stringify(prefix)}`);
      if (key) assert.equal(hclUnquote(address.slice(prefix.length + 1, -1)), key);
      else assert.equal(address, prefix);
    });
  });

  it("the controller listing's program: hostile ids, names, tags, notes are declared exactly, secrets as config reads", () => {
    const identity = resourceDefinition("Identity");
    const authProvider = resourceDefinition("AuthProvider");
    const found = strings.flatMap((h, k) => [
      {
        def: identity,
        id: `${h}-${k}`,
        name: `n${k}-${h}`,
        state: {
          name: h,
          roleAttributes: [h],
          tags: { [h]: h },
          appData: { [h]: true }, // the previous identity, by variable
          authPolicyId: k > 0 ? `${strings[k - 1]}-${k - 1}` : "default",
        },
      },
      {
        def: authProvider,
        id: `ap-${k}-${h}`,
        name: h,
        state: {
          name: h,
          type: "OIDC",
          frontdoorId: "fd-hostile",
          data: { issuer: h, client_id: h, client_secret: `s3cr3t-${k}` },
        },
      },
    ]);
    // Names are unique in the listing (ResourceNames): the same here.
    const names = new Set<string>();
    for (const f of found) {
      let n = f.name;
      for (let i = 2; names.has(n); i++) n = `${f.name}-${i}`;
      names.add(n);
      f.name = n;
    }
    const notes = strings.map((h) => `${h}: not listed. ${h}`);
    const printed = program(found, { frontdoorId: "fd-hostile" }, notes);
    assert.ok(!printed.text.includes("s3cr3t-"));
    const { records, error } = runPrograms(ws.dir, { listing: printed.text }).listing;
    assert.equal(error, undefined, error);
    assert.equal(records!.length, found.length);
    const byImport = new Map(records!.map((r) => [String(r.opts.import), r]));
    for (const f of found) {
      const importId = f.def.kind === "AuthProvider" ? `fd-hostile/${f.id}` : f.id;
      const r = byImport.get(importId);
      assert.ok(r, `no declaration imports ${JSON.stringify(importId)}`);
      assert.equal(r.name, f.name);
      const want = { ...f.state } as Record<string, unknown>;
      delete want.frontdoorId; // the scope's frontdoor: not repeated
      const { value, found: markers } = withSecrets(r.args, want);
      assert.deepEqual(value, want);
      assert.deepEqual(
        markers.map((m) => m.path),
        f.def.kind === "AuthProvider" ? ["data.client_secret"] : [],
      );
    }
    assert.deepEqual(
      new Set(printed.secrets.map((s) => s.key)).size,
      strings.length,
      "one config key per secret",
    );
  });

  it("--from-state: the import file keeps every name and id; the state delete lines forget exactly each URN", () => {
    const urns: string[] = [];
    const provider = "urn:pulumi:dev::p::pulumi:providers:pulumi-nodejs::default_3_0_0";
    const resources: unknown[] = [{ urn: provider, type: "pulumi:providers:pulumi-nodejs", id: "p" }];
    const entries: { name: string; id: string }[] = [];
    strings.forEach((h, k) => {
      const name = `${h.replace(/::/g, ":")}${k}`;
      const urn = `urn:pulumi:dev::p::pulumi-nodejs:dynamic/frontdoor:Identity::${name}`;
      resources.push({
        urn,
        type: "pulumi-nodejs:dynamic/frontdoor:Identity",
        id: `${h}-${k}`,
        outputs: { name: h },
      });
      urns.unshift(urn);
      entries.push({ name, id: `${h}-${k}` });
    });
    const stateFile = path.join(ws.dir, "stack.json");
    fs.writeFileSync(stateFile, JSON.stringify({ version: 3, deployment: { resources } }));
    const importFile = path.join(ws.dir, "from-state.json");
    const written = importCli("--from-state", stateFile, "--import-file", importFile);
    assert.equal(written.status, 0, written.stderr.slice(0, 3000));
    const file = JSON.parse(fs.readFileSync(importFile, "utf8"));
    assert.deepEqual(
      file.resources.map((e: { name: string; id: string }) => ({ name: e.name, id: e.id })),
      entries,
    );
    const calls = runShell(ws.dir, commandsAfter(written.stderr, /forget the dynamic resources/));
    const want = [...urns, provider].filter((u) => !unpassable(u));
    assert.deepEqual(
      calls,
      want.map((urn) => ["pulumi", "state", "delete", "--yes", urn]),
    );
  });

  it("the reference pages' Go: hostile names, keys and values are Go string literals and identifiers that parse", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "schema.json"), "utf8"));
    // Left out: a lone surrogate (no UTF-8: refused) and `${` (a reference in Pulumi YAML).
    const usable = strings.filter(
      (h) => !/[\ud800-\udfff]/.test(h.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")) && !h.includes("${"),
    );
    const yaml: YamlProgram = {
      config: Object.fromEntries(usable.map((h, k) => [`c${k}${h}`, { type: "string" }])),
      resources: Object.fromEntries(
        usable.map((h, k) => [
          `r${k}${h}`,
          { type: "frontdoor:index:Identity", properties: { name: h, tags: { [h]: h } } },
        ]),
      ),
      outputs: Object.fromEntries(usable.map((h, k) => [`o${k}${h}`, h])),
    };
    const go = goProgram("Hostile", yaml, schema);
    assert.equal(gofmtErrors(ws.dir, go), "");
  });
});
