// schema.json is generated from the zod definitions; the committed file must be exactly what the
// generator produces, and it must be a valid Pulumi package schema. (The reference pages generated from
// it are checked in test/docs.test.ts.)
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { pluginDownloadUrl } from "../provider/repository";
import { resourceDefinition, resourceKinds } from "../provider/resources";
import { resourceDefinitions } from "../provider/resources/all";
import { buildSchema } from "../provider/schema";
import { secretPaths } from "../provider/shape";
import { edgeObjects } from "./support/edge-objects";

const root = path.resolve(__dirname, "..");
const committed = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

describe("the registry of resource kinds", () => {
  const schemaKinds = Object.keys(committed.resources).map((t) => t.replace(/^frontdoor:index:/, ""));

  it("serves exactly the kinds of schema.json, each by its own definition, in the generators' list too", () => {
    assert.deepEqual([...resourceKinds].sort(), [...schemaKinds].sort());
    assert.deepEqual(resourceDefinitions.map((d) => d.kind).sort(), [...schemaKinds].sort());
    for (const kind of schemaKinds) assert.equal(resourceDefinition(kind).kind, kind);
    for (const kind of ["", "service", "constructor", "__proto__", "toString"])
      assert.throws(
        () => resourceDefinition(kind),
        new RegExp(`^ProviderError: unknown resource kind ${kind}$`),
      );
  });

  it("loads only the kind asked for (a host serving services does not build every kind's schemas)", function () {
    this.timeout(60_000);
    const script = `require("./provider/resources").resourceDefinition("Service");
      const loaded = Object.keys(require.cache).filter((f) => /provider[\\/]resources[\\/]/.test(f));
      console.log(JSON.stringify(loaded.map((f) => f.split(/[\\/]/).pop())));`;
    const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    const loaded: string[] = JSON.parse(out);
    assert.ok(loaded.includes("service.ts"), out);
    for (const other of ["identity.ts", "postureCheck.ts", "customFrontend.ts", "ca.ts", "all.ts"])
      assert.ok(!loaded.includes(other), `${other} loaded: ${out}`);
  });
});

describe("schema.json", () => {
  it("is what `npm run schema` generates from the zod definitions", () => {
    assert.deepEqual(
      committed,
      JSON.parse(JSON.stringify(buildSchema(version, pluginDownloadUrl()))),
      "run `npm run schema` and commit",
    );
  });

  it("validates against Pulumi's package metaschema", () => {
    const metaschemaPath = path.join(root, "test/contracts/pulumi-package-metaschema.json");
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    const validate = ajv.compile(JSON.parse(fs.readFileSync(metaschemaPath, "utf8")));
    assert.ok(validate(committed), JSON.stringify(validate.errors, null, 2));
  });

  it("describes every resource kind, with its required inputs and replace-on-change fields", () => {
    for (const def of resourceDefinitions) {
      const spec = committed.resources[`frontdoor:index:${def.kind}`];
      assert.ok(spec, `${def.kind} missing`);
      assert.ok(spec.description.length > 20, `${def.kind} has no description`);
      for (const name of def.replaceOnChanges ?? []) {
        assert.equal(spec.inputProperties[name].willReplaceOnChanges, true, `${def.kind}.${name}`);
      }
      for (const name of def.secretOutputs ?? []) assert.equal(spec.properties[name].secret, true);
    }
  });

  it("marks secret fields, including nested ones", () => {
    const oidc = committed.types["frontdoor:index:OidcData"];
    assert.equal(oidc.properties.client_secret.secret, true);
    assert.equal(committed.config.variables.token.secret, true);
    const authProvider = resourceDefinitions.find((d) => d.kind === "AuthProvider")!;
    assert.deepEqual(secretPaths(authProvider.inputs).sort(), ["data.api_key", "data.client_secret"]);
  });

  it("gives no function result a union of object types: YAML and the typed SDKs could read none of its fields", () => {
    // `${found.data.client_secret}` on a union of OidcData and ApiKeyData: the YAML host refuses it
    // ("Cannot access into found.data of type Union<...>"), and the Go and Python SDKs give no field.
    const ref = (s: any) => (s.$ref ? committed.types[s.$ref.replace("#/types/", "")] : s);
    const unions: string[] = [];
    const walk = (spec: any, at: string, seen: Set<string>): void => {
      if (!spec || typeof spec !== "object") return;
      if (spec.oneOf?.some((m: any) => ref(m)?.type === "object" && ref(m)?.properties)) unions.push(at);
      if (spec.$ref?.startsWith("#/types/")) {
        if (seen.has(spec.$ref)) return;
        seen = new Set([...seen, spec.$ref]);
      }
      const s = ref(spec);
      for (const [name, p] of Object.entries<any>(s?.properties ?? {})) walk(p, `${at}.${name}`, seen);
      if (s?.items) walk(s.items, `${at}[]`, seen);
      for (const m of spec.oneOf ?? []) walk(m, at, seen);
    };
    for (const [token, fn] of Object.entries<any>(committed.functions)) walk(fn.outputs, token, new Set());
    assert.deepEqual(unions, []);
  });

  it("an auth provider's lookup result: data is one object, every field of each type readable and optional, its secrets marked", () => {
    // FD "Auth provider": data of type OIDC is issuer, client_id, client_secret (secret), scopes,
    // supports_pkce; an API_KEY provider's key (api_key) is secret as the independent table says.
    for (const [fn, result] of [
      ["getAuthProvider", (o: any) => o],
      ["getAuthProviders", (o: any) => o.properties.items.items],
    ] as const) {
      const outputs = result(committed.functions[`frontdoor:index:${fn}`].outputs);
      const one = outputs.$ref ? committed.types[outputs.$ref.replace("#/types/", "")] : outputs;
      const data = committed.types[one.properties.data.$ref.replace("#/types/", "")];
      assert.ok(data, `${fn}: data is one named object type`);
      for (const field of ["issuer", "client_id", "client_secret", "scopes", "supports_pkce", "api_key"])
        assert.ok(field in data.properties, `${fn}: data.${field}`);
      assert.deepEqual(
        data.required ?? [],
        [],
        `${fn}: no field of data is required (each type has its own)`,
      );
      const secret = Object.keys(data.properties).filter((k) => data.properties[k].secret);
      assert.deepEqual(secret.sort(), ["api_key", "client_secret"], fn);
      assert.ok(
        Object.values<any>(data.properties).every((p) => !("default" in p)),
        `${fn}: no default of one type (supports_pkce) stated for every type`,
      );
    }
  });

  it("states only defaults that every variant accepts: the generated SDKs send them whatever the variant", () => {
    // One valid object of each Edge kind (a MAC posture check among them), with the schema's defaults
    // filled in as a generated SDK does: the provider's inputs must still accept it.
    for (const [kind, inputs] of edgeObjects("schema-defaults")) {
      const spec = committed.resources[`frontdoor:index:${kind}`].inputProperties;
      const defaults = Object.fromEntries(
        Object.entries(spec).flatMap(([name, p]: [string, any]) =>
          "default" in p ? [[name, p.default]] : [],
        ),
      );
      const def = resourceDefinitions.find((d) => d.kind === kind)!;
      const parsed = def.inputs.safeParse({ ...defaults, ...inputs });
      assert.ok(
        parsed.success,
        `${kind} with the schema's defaults ${JSON.stringify(defaults)}: ${parsed.error}`,
      );
    }
  });
});
