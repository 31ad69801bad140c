// Secret scan over every example in examples/: each runs against the mock through the real
// dynamic-provider host (up, refresh, destroy, plus one run provoked to fail with a 401), with the
// provider's debug log on. The plaintext of every secret used must appear nowhere: not in the state
// file, not in any `__provider`, not in anything the harness or the provider printed, not in an error.
// Secrets: the config secrets passed, and every value at a secret path, where the secret paths come
// from schema.json (resource properties and nested type properties marked `secret: true`), so a new
// secret field is covered without touching this test.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  type Command,
  type HarnessOptions,
  type HarnessResult,
  readState,
  runHarness as runHarnessLibrary,
} from "../harness";
import { isSecret } from "../harness/secrets";
import { type MockServer, startMockServer } from "../mock/server";
import { mockConfig } from "./support/engine";
import { exampleDirs } from "./support/examples";

const ROOT = path.resolve(__dirname, "..");
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8"));

type Json = Record<string, any>;

/** Schema type of a property: its `$ref`'d types (one, or a union's), by token. */
function refTypes(property: Json): Json[] {
  const refs = [property.$ref, ...(property.oneOf ?? []).map((p: Json) => p.$ref), property.items?.$ref]
    .filter((ref): ref is string => typeof ref === "string")
    .map((ref) => decodeURIComponent(ref.replace(/^#\/types\//, "")));
  return refs.map((token) => schema.types?.[token]).filter(Boolean);
}

/** Secret property names of an object schema (resource or type), and nested types that hold secrets. */
function secretShape(properties: Json): { secret: Set<string>; nested: Map<string, Json[]> } {
  const secret = new Set<string>();
  const nested = new Map<string, Json[]>();
  for (const [name, property] of Object.entries(properties ?? {}) as Array<[string, Json]>) {
    if (property.secret) secret.add(name);
    const types = refTypes(property);
    if (types.length) nested.set(name, types);
  }
  return { secret, nested };
}

/** Every string at a secret path of `value` (schema `properties` of its kind or type). */
function secretValues(value: unknown, properties: Json, out: Set<string>, underSecret = false): void {
  const plain = isSecret(value) ? (value as { value: unknown }).value : value;
  if (plain === null || plain === undefined) return;
  if (typeof plain === "string") {
    if (underSecret) out.add(plain);
    return;
  }
  if (typeof plain !== "object" || Array.isArray(plain)) return;
  const { secret, nested } = secretShape(properties);
  for (const [key, item] of Object.entries(plain as Json)) {
    const itemPlain = isSecret(item) ? (item as { value: unknown }).value : item;
    if (secret.has(key) && typeof itemPlain === "string") out.add(itemPlain);
    for (const type of nested.get(key) ?? []) secretValues(item, type.properties, out, false);
  }
}

/** What to search for: a secret as is, and for PEM text each base64 line (JSON escapes the newlines). */
function needlesOf(secrets: Iterable<string>): string[] {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (secret.includes("-----BEGIN")) {
      for (const line of secret.split(/\r?\n/))
        if (line.length >= 40 && !line.startsWith("-----")) needles.add(line);
    } else if (secret.length >= 8) {
      needles.add(secret);
    }
  }
  return [...needles];
}

/** `runHarness` with `--debug`: the host's output, with the provider's debug log, is captured too. */
const runHarness = (command: Command, opts: HarnessOptions) =>
  runHarnessLibrary(command, { ...opts, debug: true });

interface Example {
  dir: string;
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  env?: Record<string, string>;
  /** Wrong credentials, so that `up` fails with a 401 (the wrong values are scanned for too). */
  badSecretConfig: Record<string, string>;
  /** Config of the failing run instead (e.g. a name clash: 409). */
  badConfig?: Record<string, string>;
  /** What the failing run's error says. */
  badError?: RegExp;
  /** Runs that have no resources (queries only): nothing to refresh or destroy. */
  queriesOnly?: boolean;
}

describe("secret scan: no secret in plaintext anywhere, for every example", function () {
  this.timeout(120_000);
  let mock: MockServer;
  let work: string;
  let frontdoorCfg: Record<string, string>;
  let frontdoorSecret: Record<string, string>;
  let edgeCfg: Record<string, string>;
  let edgeSecret: Record<string, string>;
  let searchCfg: Record<string, string>;
  let searchSecret: Record<string, string>;

  before(async () => {
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 50 } });
    work = fs.mkdtempSync(path.join(os.tmpdir(), "secrets-scan-"));
    const c = mockConfig(mock);
    frontdoorCfg = {
      "frontdoor:apiUrl": c["frontdoor:apiUrl"],
      "frontdoor:frontdoorId": c["frontdoor:frontdoorId"],
    };
    frontdoorSecret = { "frontdoor:token": c["frontdoor:token"] };
    edgeCfg = {
      "frontdoor:edgeUrl": c["frontdoor:edgeUrl"],
      "frontdoor:edgeUsername": c["frontdoor:edgeUsername"],
    };
    edgeSecret = { "frontdoor:edgePassword": c["frontdoor:edgePassword"] };
    searchCfg = {
      "frontdoor:searchUrl": c["frontdoor:searchUrl"],
      "frontdoor:searchUsername": c["frontdoor:searchUsername"],
    };
    searchSecret = { "frontdoor:searchPassword": c["frontdoor:searchPassword"] };
  });
  after(() => mock?.close());

  const examples = (): Example[] => [
    {
      dir: "frontdoor-basic",
      config: frontdoorCfg,
      secretConfig: {
        ...frontdoorSecret,
        ssoClientSecret: "scan-sso-client-secret-4711",
        partnerApiKey: "scan-partner-api-key-0815-abcdef",
      },
      badSecretConfig: { "frontdoor:token": "scan-wrong-frontdoor-token-0001" },
    },
    {
      dir: "frontdoor-mtls",
      config: frontdoorCfg,
      secretConfig: frontdoorSecret,
      badSecretConfig: { "frontdoor:token": "scan-wrong-frontdoor-token-0002" },
    },
    {
      dir: "custom-frontend",
      config: { ...frontdoorCfg, hostname: "scan.apps.example.com" },
      secretConfig: {
        ...frontdoorSecret,
        ssoClientSecret: "scan-cf-sso-secret-9876",
        apiKey: "scan-cf-api-key-0123456789",
      },
      // A 409 instead of a 401: the same hostname again, under other auth-provider names. (With a 401
      // the auth providers fail and the harness waits forever for the frontend that depends on them.)
      badSecretConfig: {},
      badConfig: { namePrefix: "scan-bad" },
      badError: /409|already exists/,
    },
    {
      dir: "edge-access",
      config: edgeCfg,
      secretConfig: edgeSecret,
      badSecretConfig: { "frontdoor:edgePassword": "scan-wrong-edge-password-0004" },
    },
    {
      dir: "zero-trust-app",
      config: { ...edgeCfg, namePrefix: "scan-zt" },
      secretConfig: edgeSecret,
      badSecretConfig: { "frontdoor:edgePassword": "scan-wrong-edge-password-0007" },
    },
    {
      dir: "event-report",
      config: searchCfg,
      secretConfig: searchSecret,
      badSecretConfig: { "frontdoor:searchPassword": "scan-wrong-search-password-0005" },
      queriesOnly: true,
    },
    {
      dir: "gitops",
      config: frontdoorCfg,
      secretConfig: frontdoorSecret,
      env: { FRONTDOOR_OIDC_CLIENT_SECRET: "scan-gitops-oidc-secret-2468" },
      badSecretConfig: { "frontdoor:token": "scan-wrong-frontdoor-token-0006" },
    },
  ];

  it("covers every TypeScript example directory", () => {
    // The YAML examples run on the provider plugin: test/plugin-yaml.test.ts.
    assert.deepEqual(
      exampleDirs("nodejs").sort(),
      examples()
        .map((e) => e.dir)
        .sort(),
    );
  });

  it("finds secret paths in schema.json (resources and nested types)", () => {
    const found = new Set<string>();
    secretValues(
      { data: { client_secret: "a-secret-value", client_id: "not-secret" }, name: "n" },
      schema.resources["frontdoor:index:AuthProvider"].properties,
      found,
    );
    assert.deepEqual([...found], ["a-secret-value"]);
  });

  for (const name of [
    "frontdoor-basic",
    "frontdoor-mtls",
    "custom-frontend",
    "edge-access",
    "event-report",
    "gitops",
    "zero-trust-app",
  ]) {
    it(`examples/${name}: up, refresh, a failing up and destroy leak no secret`, async () => {
      const example = examples().find((e) => e.dir === name)!;
      const stateFile = path.join(work, `${name}.json`);
      const env = { FRONTDOOR_DEBUG: "1", ...example.env };
      const base = { programDir: path.join(ROOT, "examples", name), config: example.config, env };
      const texts: Array<[string, string]> = [];
      const record = (what: string, r: HarnessResult) => {
        texts.push([`${what} stdout`, r.stdout], [`${what} stderr`, r.stderr]);
        for (const f of r.report?.failures ?? []) texts.push([`${what} error`, f.message]);
        return r;
      };
      const ok = (r: HarnessResult, what: string) =>
        assert.equal(r.exitCode, 0, `${what}: ${r.stderr.slice(-3000)}`);

      const badRun = {
        ...base,
        config: { ...example.config, ...example.badConfig },
        stateFile: path.join(work, `${name}-bad.json`),
        secretConfig: { ...example.secretConfig, ...example.badSecretConfig },
      };
      let destroyed = false;
      try {
        const up = record(
          "up",
          await runHarness("up", { ...base, stateFile, secretConfig: example.secretConfig }),
        );
        ok(up, "up");
        assert.ok(
          /->/.test(up.stderr) || example.queriesOnly,
          "the provider's debug log is not in the output",
        );

        // Secret values: config secrets passed, env secrets, and every value at a schema secret path.
        const secrets = new Set<string>([
          ...Object.values(example.secretConfig ?? {}),
          ...Object.values(example.env ?? {}).filter((v) => v !== "1"),
          ...Object.values(example.badSecretConfig),
        ]);
        const state = readState(stateFile);
        const atSecretPaths = new Set<string>();
        for (const resource of state.resources) {
          const kind = /frontdoor:(\w+)$/.exec(resource.type)?.[1];
          const def = kind && schema.resources[`frontdoor:index:${kind}`];
          if (!def) continue;
          const shape = { ...def.inputProperties, ...def.properties };
          secretValues(resource.outputs, shape, atSecretPaths);
          secretValues(resource.inputs, shape, atSecretPaths);
        }
        if (!example.queriesOnly)
          assert.ok(
            atSecretPaths.size > 0,
            "no value at a secret path in the state: the scan would be vacuous",
          );
        for (const secret of atSecretPaths) secrets.add(secret);
        const providers = state.resources.map((r) =>
          JSON.stringify((r.outputs as Json)?.__provider ?? (r.inputs as Json)?.__provider ?? ""),
        );

        const refresh = record(
          "refresh",
          await runHarness("refresh", {
            ...base,
            stateFile,
            secretConfig: example.secretConfig,
            expectNoChanges: true,
          }),
        );
        ok(refresh, "refresh");

        // A run that fails (on a fresh state): wrong credentials -> 401, or a name clash -> 409.
        const bad = record("failing up", await runHarness("up", badRun));
        assert.equal(bad.exitCode, 1, `the failing run did not fail: ${bad.stdout.slice(0, 2000)}`);
        assert.match(
          `${bad.stdout}${bad.stderr}`,
          example.badError ?? /401|unauthori[sz]ed|credentials|authenticat/i,
        );

        const stateText = fs.readFileSync(stateFile, "utf8");
        const destroy = record(
          "destroy",
          await runHarness("destroy", { ...base, stateFile, secretConfig: example.secretConfig }),
        );
        ok(destroy, "destroy");
        destroyed = true;

        texts.push(
          ["state file", stateText],
          [
            "failing up state",
            fs.existsSync(badRun.stateFile) ? fs.readFileSync(badRun.stateFile, "utf8") : "",
          ],
        );
        for (const [i, provider] of providers.entries()) texts.push([`__provider #${i}`, provider]);
        const needles = needlesOf(secrets);
        assert.ok(needles.length > 0);
        const hits: string[] = [];
        for (const needle of needles) {
          for (const [where, text] of texts)
            if (text.includes(needle)) hits.push(`${where}: ${needle.slice(0, 12)}...`);
        }
        assert.deepEqual(hits, [], `secrets in plaintext (${needles.length} secrets scanned)`);
      } finally {
        // Leave nothing behind for the next example (some share names), even after a failure.
        if (!destroyed)
          await runHarness("destroy", { ...base, stateFile, secretConfig: example.secretConfig });
        if (example.badConfig) await runHarness("destroy", { ...badRun, secretConfig: example.secretConfig });
      }
    });
  }
});
