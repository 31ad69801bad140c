// The provider's list of secrets (schema.json, and the schema its definitions generate now) against
// the independent table of test/support/oracles/secrets.ts, in both directions: a field the contracts
// call secret that the provider stops marking (or never marked) fails here, and so does a field the
// provider marks that the table does not know (judge it, then add it to the table with its source).
// Also: the table's anchors in the contracts, and the leak scan's encoded forms.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSchema } from "../provider/schema";
import { encodedForms, findLeaks, valuesAtPath } from "./support/oracles/leaks";
import {
  CONFIG_SECRETS,
  FUNCTION_SECRETS,
  RESOURCE_SECRETS,
  SERVER_SECRET_FIELDS,
} from "./support/oracles/secrets";

const ROOT = path.resolve(__dirname, "..");
const CONTRACTS = path.join(ROOT, "test", "contracts");

type Json = Record<string, any>;

/** Secret paths of an object schema, following `$ref`s into types, union members and array items. */
function secretPathsOf(schema: Json, properties: Json | undefined, prefix = "", seen = new Set<string>()) {
  const out: string[] = [];
  for (const [name, property] of Object.entries(properties ?? {}) as Array<[string, Json]>) {
    const at = `${prefix}${name}`;
    if (property.secret) out.push(at);
    const items = property.items;
    const refs = [property, ...(property.oneOf ?? []), ...(items ? [items] : [])]
      .map((p: Json) => p.$ref)
      .filter((ref): ref is string => typeof ref === "string");
    for (const ref of refs) {
      const token = decodeURIComponent(ref.replace(/^#\/types\//, ""));
      if (seen.has(token)) continue;
      const type = schema.types?.[token];
      if (type) out.push(...secretPathsOf(schema, type.properties, `${at}.`, new Set([...seen, token])));
    }
  }
  return [...new Set(out)].sort();
}

/**
 * The provider's secret list from a package schema. Resource outputs: nested secret leaves count only
 * when `secretValues` (where provider/secretValues.ts keeps them in the state) is itself secret, since
 * that property, not the leaf's place in `data`, is what the state stores.
 */
function providerSecrets(schema: Json) {
  const resources: Record<string, { inputs: string[]; outputs: string[] }> = {};
  for (const [token, def] of Object.entries(schema.resources) as Array<[string, Json]>) {
    const kind = token.replace(/^frontdoor:index:/, "");
    const inputs = secretPathsOf(schema, def.inputProperties);
    const all = secretPathsOf(schema, def.properties);
    const nestedKept = def.properties.secretValues?.secret === true;
    const outputs = all.filter((p) => p !== "secretValues" && (!p.includes(".") || nestedKept));
    resources[kind] = { inputs, outputs };
  }
  const functions: Record<string, { inputs: string[]; outputs: string[] }> = {};
  for (const [token, def] of Object.entries(schema.functions) as Array<[string, Json]>) {
    functions[token.replace(/^frontdoor:index:/, "")] = {
      inputs: secretPathsOf(schema, def.inputs?.properties),
      outputs: secretPathsOf(schema, def.outputs?.properties).map((p) =>
        p.replace(/^items\.items\./, "items."),
      ),
    };
  }
  const config = Object.entries(schema.config.variables as Json)
    .filter(([, v]) => v.secret)
    .map(([k]) => k)
    .sort();
  return { resources, functions, config };
}

const sorted = (xs: string[]) => [...xs].sort();
const table = {
  resources: Object.fromEntries(
    Object.entries(RESOURCE_SECRETS).map(([k, v]) => [
      k,
      { inputs: sorted(v.inputs), outputs: sorted(v.outputs) },
    ]),
  ),
  functions: Object.fromEntries(
    Object.entries(FUNCTION_SECRETS).map(([k, v]) => [
      k,
      { inputs: sorted(v.inputs), outputs: sorted(v.outputs) },
    ]),
  ),
  config: sorted(Object.keys(CONFIG_SECRETS)),
};

describe("secret oracle: the provider's secret list against the independent table", () => {
  const sources: Array<[string, Json]> = [
    ["schema.json (committed)", JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8"))],
    ["the schema the definitions generate now", JSON.parse(JSON.stringify(buildSchema("0.0.0")))],
  ];
  for (const [what, schema] of sources) {
    it(`${what}: the same kinds, functions and secret fields as the table, in both directions`, () => {
      const provider = providerSecrets(schema);
      assert.deepEqual(sorted(Object.keys(provider.resources)), sorted(Object.keys(table.resources)));
      assert.deepEqual(sorted(Object.keys(provider.functions)), sorted(Object.keys(table.functions)));
      for (const kind of Object.keys(table.resources))
        assert.deepEqual(provider.resources[kind], table.resources[kind], `resource ${kind}`);
      for (const fn of Object.keys(table.functions))
        assert.deepEqual(provider.functions[fn], table.functions[fn], `function ${fn}`);
      assert.deepEqual(provider.config, table.config, "config keys");
    });
  }

  it("the Edge fields the table names are the swagger's (test/contracts copy of the controller's API)", () => {
    const swagger = JSON.parse(
      fs.readFileSync(path.join(ROOT, "test", "contracts", "openziti-edge-management.json"), "utf8"),
    );
    const fields = (name: string) => {
      const d = swagger.definitions[name];
      return Object.assign({}, d.properties, ...(d.allOf ?? []).map((a: Json) => a.properties ?? {}));
    };
    const definitions: Record<string, string> = {
      enrollments: "enrollmentDetail",
      cas: "caDetail",
      "edge-routers": "edgeRouterDetail",
    };
    for (const [collection, paths] of Object.entries(SERVER_SECRET_FIELDS.edge))
      for (const field of paths)
        assert.ok(field in fields(definitions[collection]), `${definitions[collection]}.${field}`);
  });

  it("the API descriptions call these fields secret (test/contracts)", () => {
    const fd = fs.readFileSync(path.join(CONTRACTS, "frontdoor-management-api.md"), "utf8");
    const edge = fs.readFileSync(path.join(CONTRACTS, "edge-api-and-event-queries.md"), "utf8");
    assert.match(fd, /`client_secret` \(string, secret\)/);
    assert.match(fd, /\| token \| string \| secret;/);
    assert.match(edge, /verificationToken \(string, secret\)/);
    assert.match(edge, /ott \{expiresAt, id, jwt, token\}/);
    assert.match(edge, /enrollmentJwt, enrollmentToken/);
  });
});

describe("leak scan: encoded forms", () => {
  const secret = "Zq9/leak value+with=odd&chars";

  it("finds a secret plain, JSON-escaped, in base64, base64url, hex and URL-encoded; nothing else", () => {
    const bytes = Buffer.from(secret);
    const texts: Array<[string, string]> = [
      ["plain", `x ${secret} y`],
      ["json", JSON.stringify({ v: `"${secret}"` })],
      ["base64", bytes.toString("base64")],
      ["base64url", bytes.toString("base64url")],
      ["hex", bytes.toString("hex")],
      ["url", `/items/${encodeURIComponent(secret)}`],
      ["form", new URLSearchParams({ q: secret }).toString()],
    ];
    const hits = findLeaks([{ label: "s", value: secret }], texts);
    assert.deepEqual(
      hits.map((h) => h.split(":")[0]),
      texts.map(([w]) => w),
    );
    assert.deepEqual(findLeaks([{ label: "s", value: secret }], [["clean", "[secret] and more"]]), []);
  });

  it("finds a PEM's body without its header lines, line by line and joined", () => {
    const body = Buffer.alloc(96, 7).toString("base64");
    const pem = `-----BEGIN PRIVATE KEY-----\n${body.slice(0, 64)}\n${body.slice(64)}\n-----END PRIVATE KEY-----\n`;
    assert.ok(encodedForms(pem).includes(body.slice(0, 64)));
    assert.equal(findLeaks([{ label: "k", value: pem }], [["one line", body.slice(0, 64)]]).length, 1);
    assert.equal(findLeaks([{ label: "k", value: pem }], [["joined", body]]).length, 1);
  });

  it("valuesAtPath unwraps secret markers and steps into `items`", () => {
    const marker = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value: "s3cr3t-value",
    };
    assert.deepEqual(valuesAtPath({ data: { client_secret: marker } }, "data.client_secret"), [
      "s3cr3t-value",
    ]);
    assert.deepEqual(valuesAtPath({ items: [{ t: "a-token-1" }, { t: "a-token-2" }] }, "items.t"), [
      "a-token-1",
      "a-token-2",
    ]);
  });
});
