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
