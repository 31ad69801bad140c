// The typed config data (provider/resources/configData.ts) against the JSON schemas a real controller
// holds for its built-in config types, read live from `GET /config-types` of each release: the same
// fields, types, bounds, enums and required lists (as the flattened trees below), the same verdict
// on sample data (check versus the controller's POST /configs), unknown fields refused naming them.
// The mock's built-in types must be the controller's, schema for schema.
import assert from "node:assert/strict";
import { z } from "zod";
import { type MockServer, startMockServer } from "../mock/server";
import { BUILT_IN_CONFIG_TYPES, TYPED_DATA } from "../provider/resources/configData";
import { engine } from "./edge-support";
import { CONTROLLER_RELEASES } from "./peers/index";
import { EdgeClient } from "./support/edgeClient";
import { configureForCheckOnly } from "./support/engine";
import { useController } from "./support/fixtures";

type Schema = Record<string, any>;
/** What is compared of each node of a schema tree. */
const COMPARED = [
  "type",
  "enum",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "pattern",
  "required",
  "additionalProperties",
  "uniqueItems",
] as const;

/**
 * Differences kept on purpose (docs/guides/controller-fidelity.md): the controller's schema leaves
 * the proxy object open, the provider refuses unknown fields there as everywhere.
 */
const ACCEPTED_DIFFERENCES: Record<string, Schema> = {
  "host.v1.proxy": { additionalProperties: false },
  "host.v2.terminators[].proxy": { additionalProperties: false },
};

/** A schema node with `$ref`s followed, `allOf`s merged, `const` as a one-value enum, nullable as a type. */
function resolve(node: Schema, root: Schema): Schema {
  if (node.$ref) {
    const name = String(node.$ref).split("/").pop() as string;
    const { $ref: _ref, ...rest } = node;
    return resolve({ ...(root.definitions ?? root.$defs)[name], ...rest }, root);
  }
  if (node.allOf) {
    const { allOf, ...out } = node;
    for (const part of allOf.map((p: Schema) => resolve(p, root))) {
      if (part.properties) out.properties = { ...out.properties, ...part.properties };
      if (part.items) out.items = part.items;
      if (part.required) out.required = [...new Set([...(out.required ?? []), ...part.required])];
      for (const key of COMPARED)
        if (!(key in out) && key in part && key !== "required") out[key] = part[key];
    }
    return out;
  }
  if (node.anyOf?.some((b: Schema) => b.type === "null")) {
    const other = resolve(
      node.anyOf.find((b: Schema) => b.type !== "null"),
      root,
    );
    return { ...other, type: [other.type, "null"] };
  }
  if ("const" in node) {
    const { const: value, ...rest } = node;
    return { ...rest, enum: [value] };
  }
  return node;
}

/** Every node of a schema as `path -> compared keywords` (`a.b`, `list[]` for items). */
function flatten(schema: Schema, path: string, out: Record<string, Schema> = {}, root = schema) {
  const node = resolve(schema, root);
  const kept: Schema = {};
  for (const key of COMPARED) {
    if (!(key in node)) continue;
    let value = node[key];
    if (key === "additionalProperties" && value !== false) continue; // only "closed" is a rule
    // zod's int() bounds every integer by the safe range: that is no bound of the controller's.
    if (Math.abs(value) === Number.MAX_SAFE_INTEGER) continue;
    if (key === "type" && Array.isArray(value)) value = [...value].sort();
    if (key === "required") {
      if (value.length === 0) continue;
      value = [...value].sort();
    }
    kept[key] = value;
  }
  out[path] = kept;
  for (const [name, child] of Object.entries(node.properties ?? {}))
    flatten(child as Schema, `${path}.${name}`, out, root);
  if (node.items) flatten(node.items, `${path}[]`, out, root);
  return out;
}

/** Fields of ours a release does not have (docs/guides/controller-fidelity.md): v1.6.0 added them. */
const NOT_IN_RELEASE: Record<string, string[]> = {
  "v1.5.0": ["intercept.v1.allowedSourceAddresses", "intercept.v1.allowedSourceAddresses[]"],
};

function ours(name: string, release: string): Record<string, Schema> {
  const json = z.toJSONSchema(TYPED_DATA[name], { target: "draft-7", io: "input", unrepresentable: "any" });
  const flat = flatten(json as Schema, name);
  for (const [path, keywords] of Object.entries(ACCEPTED_DIFFERENCES)) {
    if (!path.startsWith(`${name}.`) || !flat[path]) continue;
    for (const key of Object.keys(keywords)) delete flat[path][key];
  }
  for (const path of NOT_IN_RELEASE[release] ?? []) delete flat[path];
  return flat;
}

/** A valid data sample per type, and data each release refuses, with the field our check names. */
const VALID: Record<string, Schema> = {
  "intercept.v1": {
    protocols: ["tcp", "udp"],
    addresses: ["app.internal", "10.0.0.0/24"],
    portRanges: [{ low: 443, high: 443 }],
    dialOptions: { identity: "$dst_ip", connectTimeoutSeconds: 10 },
    sourceIp: "$src_ip:$src_port",
    allowedSourceAddresses: ["192.168.1.0/24"],
  },
  "host.v1": {
    forwardProtocol: true,
    allowedProtocols: ["tcp"],
    address: "app.internal",
    port: 8443,
    listenOptions: { connectTimeout: "5s", precedence: "required", cost: 10 },
    httpChecks: [{ url: "http://localhost/health", interval: "5s", timeout: "1s", method: "GET" }],
    portChecks: [
      {
        address: "localhost:8443",
        interval: "10s",
        timeout: "2s",
        actions: [{ trigger: "fail", action: "mark unhealthy", consecutiveEvents: 3 }],
      },
    ],
    proxy: { type: "http", address: "proxy.internal:3128" },
  },
  "host.v2": { terminators: [{ protocol: "udp", address: "dns.internal", port: 53 }] },
  "ziti-tunneler-client.v1": { hostname: "app.ziti", port: 443 },
  "ziti-tunneler-server.v1": { hostname: "localhost", port: 8080, protocol: "tcp" },
};
const REFUSED: [string, Schema, string][] = [
  ["intercept.v1", { ...VALID["intercept.v1"], protocols: ["tcp", "tcp"] }, "data.protocols"],
  ["intercept.v1", { ...VALID["intercept.v1"], extra: 1 }, "data.extra"],
  ["intercept.v1", { ...VALID["intercept.v1"], dialOptions: { timeout: 5 } }, "data.dialOptions.timeout"],
  ["host.v1", { ...VALID["host.v1"], forwardPort: false }, "data.forwardPort"],
  ["host.v1", { ...VALID["host.v1"], port: 70000 }, "data.port"],
  ["host.v1", { ...VALID["host.v1"], listenOptions: { connectTimeout: "soon" } }, "data.listenOptions"],
  ["host.v2", { terminators: [{ ...VALID["host.v1"], zone: "a" }] }, "data.terminators.0.zone"],
  ["ziti-tunneler-client.v1", { hostname: "app.ziti" }, "data.port"],
];

async function checkFailures(name: string, data: Schema) {
  const checked = await engine.check("Config", {}, { name: "schema-sample", configTypeName: name, data });
  return checked.failures;
}

describe("Config data types: the provider's schemas, the mock's and the controller's", () => {
  let mock: MockServer;
  let mockApi: EdgeClient;
  before(async () => {
    mock = await startMockServer();
    mockApi = new EdgeClient(mock.url, mock.caPem);
    await mockApi.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
  });
  after(() => mock?.close());

  it("every type the mock ships has typed data and the controller's fixed id", async () => {
    const types = (await mockApi.call("GET", "/config-types?limit=500")).body.data;
    assert.deepEqual(types.map((t: Schema) => t.name).sort(), Object.keys(TYPED_DATA).sort());
    for (const t of types) assert.equal(BUILT_IN_CONFIG_TYPES[t.name], t.id, t.name);
  });

  it("unknown fields are refused at check, naming the field (each type, top level and nested)", async () => {
    await configureForCheckOnly();
    for (const [name, data] of Object.entries(VALID)) {
      assert.deepEqual(await checkFailures(name, data), [], `${name}: valid sample refused`);
      const failures = await checkFailures(name, { ...data, notAField: 1 });
      assert.deepEqual(
        failures.map((f) => f.property),
        ["data.notAField"],
        name,
      );
      assert.match(
        failures[0].reason,
        new RegExp(`unknown property "notAField" for ${name.replace(".", "\\.")}`),
      );
    }
  });

  for (const { release } of CONTROLLER_RELEASES) {
    describe(`a real controller ${release}`, function () {
      this.timeout(300_000);
      const ctrl = useController({ release });
      let types: Schema[];
      before(async () => {
        types = (await ctrl.admin.call("GET", "/config-types?limit=500")).body.data;
      });

      it("ships exactly the typed config types, with the ids the provider knows", () => {
        assert.deepEqual(types.map((t) => t.name).sort(), Object.keys(TYPED_DATA).sort());
        for (const t of types) assert.equal(BUILT_IN_CONFIG_TYPES[t.name], t.id, t.name);
      });

      it("each type's data schema has the fields, types, bounds and enums of the controller's", () => {
        for (const t of types) assert.deepEqual(ours(t.name, release), flatten(t.schema, t.name), t.name);
      });

      it("the mock imitating this release has the controller's built-in types, schema for schema", async () => {
        const imitation = await startMockServer({ edge: { release } });
        const api = new EdgeClient(imitation.url, imitation.caPem);
        await api.login(imitation.credentials.edgeUsername, imitation.credentials.edgePassword);
        const mocked = (await api.call("GET", "/config-types?limit=500")).body.data;
        imitation.close();
        const shape = (list: Schema[]) =>
          Object.fromEntries(list.map((t) => [t.name, { id: t.id, schema: t.schema, target: t.target }]));
        assert.deepEqual(shape(mocked), shape(types));
      });

      it("the controller takes the valid samples and refuses the data check refuses", async () => {
        const made: string[] = [];
        try {
          for (const [name, sample] of Object.entries(VALID)) {
            // Without the fields this release does not have; it refuses them, naming them.
            const missing = (NOT_IN_RELEASE[release] ?? [])
              .filter((path) => path.startsWith(`${name}.`) && !path.endsWith("[]"))
              .map((path) => path.slice(name.length + 1));
            const data = Object.fromEntries(Object.entries(sample).filter(([key]) => !missing.includes(key)));
            for (const field of missing) {
              const refused = await ctrl.admin.call("POST", "/configs", {
                body: { name: `refused-${field}`, configTypeId: BUILT_IN_CONFIG_TYPES[name], data: sample },
              });
              assert.equal(refused.status, 400, `${release} took ${name}.${field}`);
              assert.match(JSON.stringify(refused.body.error), new RegExp(field));
            }
            const answer = await ctrl.admin.call("POST", "/configs", {
              body: { name: `sample-${name}`, configTypeId: BUILT_IN_CONFIG_TYPES[name], data },
            });
            assert.equal(answer.status, 201, `${name}: ${JSON.stringify(answer.body)}`);
            made.push(answer.body.data.id);
          }
          for (const [index, [name, data, field]] of REFUSED.entries()) {
            const failures = await checkFailures(name, data);
            assert.ok(
              failures.some((f) => f.property.startsWith(field)),
              `${name} ${JSON.stringify(data)}: check did not name ${field}: ${JSON.stringify(failures)}`,
            );
            const answer = await ctrl.admin.call("POST", "/configs", {
              body: { name: `refused-${index}`, configTypeId: BUILT_IN_CONFIG_TYPES[name], data },
            });
            assert.notEqual(answer.status, 201, `${name}: the controller took ${JSON.stringify(data)}`);
          }
        } finally {
          for (const id of made) await ctrl.admin.call("DELETE", `/configs/${id}`);
        }
      });
    });
  }
});
