// Generates schema.json (Pulumi's package schema) from the same zod definitions the provider validates
// with, so the documented contract and the enforced one cannot drift apart. `npm run schema` writes it;
// a test fails when the committed file differs.

import type { z } from "zod";
import { CONFIG_KEYS } from "./config";
import { functionDefinitions } from "./functions";
import { PACKAGE } from "./packageName";
import { goModulePath, projectRepository } from "./repository";
import type { ResourceDefinition } from "./resource";
import { resourceDefinitions } from "./resources/all";
import { deref, type JsonSchema, jsonSchema, variants } from "./shape";

const token = (name: string) => `${PACKAGE}:index:${name}`;

type Spec = Record<string, unknown>;

/**
 * What the package is, for the registry and the SDKs' package docs. The kinds are listed from the
 * definitions (a hand-written list went stale as kinds were added). This schema is the plugin's, which
 * serves every language; the dynamic provider is a TypeScript-only form of the same package.
 */
function packageDescription(): string {
  const kinds = (api: ResourceDefinition["api"]) =>
    resourceDefinitions
      .filter((def) => def.api === api)
      .map((def) => def.kind)
      .join(", ");
  return (
    "Zero-trust access configuration as code, for every Pulumi language (the provider plugin " +
    `pulumi-resource-frontdoor): NetFoundry Frontdoor (${kinds("frontdoor")}), OpenZiti Edge management ` +
    `(${kinds("edge")}), ${kinds("none")} (made locally, no API), and event search queries.`
  );
}

/**
 * The package schema. `pluginDownloadURL`: where the CLI downloads the plugin when a program needs it
 * (provider/repository.ts decides it); left out when not given.
 */
export function buildSchema(version: string, pluginDownloadURL?: string): Spec {
  const types: Record<string, Spec> = {};
  const resources: Record<string, Spec> = {};
  const functions: Record<string, Spec> = {};
  for (const def of resourceDefinitions) resources[token(def.kind)] = resourceSpec(def, types);
  for (const fn of functionDefinitions) {
    functions[token(fn.name)] = {
      description: fn.description,
      inputs: objectSpec(fn.inputs, `${pascal(fn.name)}Args`, types),
      outputs: objectSpec(fn.outputs, `${pascal(fn.name)}Result`, types),
    };
  }
  return {
    name: PACKAGE,
    displayName: "Frontdoor",
    version,
    description: packageDescription(),
    keywords: ["pulumi", "frontdoor", "openziti", "zero-trust", "category/network", "kind/native"],
    license: "Apache-2.0",
    // Into each SDK's package metadata (npm's repository, which provenance checks, and Python's URLs).
    repository: projectRepository().url,
    homepage: projectRepository().url,
    ...(pluginDownloadURL ? { pluginDownloadURL } : {}),
    config: { variables: configVariables() },
    // The explicit provider resource (`new frontdoor.Provider(...)`, `pulumi:providers:frontdoor`): its
    // inputs are the same settings, so a program can hold one provider per controller or frontdoor.
    provider: providerSpec(),
    types,
    resources,
    functions,
    // supportPack: the generators then write each SDK as a package of its own (a go.mod for the Go
    // module, the schema's version in package.json and pyproject.toml), as `pulumi package gen-sdk` does.
    meta: { supportPack: true },
    // The SDKs generated from this schema (sdk/native/*, `npm run sdks`) are for the plugin; the
    // dynamic provider's TypeScript SDK keeps the npm name pulumi-frontdoor, so the plugin's takes
    // another. The Go module's path derives from package.json's repository (provider/repository.ts); the
    // release publishes it there, at the tag sdk/go/v<version>.
    language: {
      nodejs: { packageName: "pulumi-frontdoor-native" },
      // respectSchemaVersion: the Go SDK then asks the engine for the plugin of this version (with a go
      // section, supportPack alone leaves it unversioned and the state records no provider version).
      go: { importBasePath: `${goModulePath()}/${PACKAGE}`, respectSchemaVersion: true },
      // pyproject: the generator then writes pyproject.toml (PEP 621 metadata the release packages), not setup.py.
      python: { packageName: "pulumi_frontdoor", pyproject: { enabled: true } },
    },
  };
}

function configVariables(): Record<string, Spec> {
  const vars: Record<string, Spec> = {};
  for (const entry of CONFIG_KEYS) {
    vars[entry.key] = {
      type: "string",
      description: `${entry.description} Environment: ${entry.env.join(", ")}.`,
      defaultInfo: { environment: [...entry.env] },
      ...("secret" in entry && entry.secret ? { secret: true } : {}),
    };
  }
  return vars;
}

function providerSpec(): Spec {
  const inputProperties = configVariables();
  for (const spec of Object.values(inputProperties)) delete spec.defaultInfo;
  return {
    description:
      "The frontdoor provider: connection settings for one Frontdoor API, controller and search service.",
    inputProperties,
    // Settings are inputs only: outputs would keep credentials in the state of the provider resource.
    properties: {},
  };
}

function resourceSpec(def: ResourceDefinition<any, any>, types: Record<string, Spec>): Spec {
  const input = members(def.inputs);
  const output = members(def.outputs);
  const replace = new Set(def.replaceOnChanges ?? []);
  const secretOut = new Set(def.secretOutputs ?? []);
  const convert = (name: string, nodes: JsonSchema[], root: JsonSchema, asOutput: boolean): Spec => {
    const spec = propertySpec(nodes, root, `${def.kind}${pascal(name)}`, types);
    if (replace.has(name)) spec[asOutput ? "replaceOnChanges" : "willReplaceOnChanges"] = true;
    if (asOutput && secretOut.has(name)) spec.secret = true;
    return spec;
  };
  const inputProperties: Record<string, Spec> = {};
  const properties: Record<string, Spec> = {};
  for (const [name, nodes] of input.properties) {
    inputProperties[name] = convert(name, nodes, input.root, false);
    properties[name] = convert(name, nodes, input.root, true);
  }
  for (const [name, nodes] of output.properties) properties[name] = convert(name, nodes, output.root, true);
  const requiredInputs = input.required.filter(
    (name) => !(def.api === "frontdoor" && name === "frontdoorId"),
  );
  return {
    description: def.description,
    inputProperties,
    requiredInputs,
    properties,
    required: [...new Set([...input.required, ...output.required])],
  };
}

function objectSpec(schema: z.ZodType, name: string, types: Record<string, Spec>): Spec {
  const { properties, required, root } = members(schema);
  const specs: Record<string, Spec> = {};
  for (const [key, nodes] of properties)
    specs[key] = propertySpec(nodes, root, `${name}${pascal(key)}`, types);
  return { type: "object", properties: specs, required };
}

/** Properties of an object or of every member of a union, with the names required in all members. */
function members(schema: z.ZodType) {
  return membersOf(jsonSchema(schema));
}

function membersOf(node: JsonSchema, root: JsonSchema = node) {
  const all = variants(deref(node, root)).map((v) => deref(v, root));
  const properties = new Map<string, JsonSchema[]>();
  for (const v of all) {
    for (const [name, node] of Object.entries(v.properties ?? {})) {
      properties.set(name, [...(properties.get(name) ?? []), node]);
    }
  }
  const required = [...properties.keys()].filter((name) => all.every((v) => v.required?.includes(name)));
  // A default of a field that only some members have (an MFA posture check's timeoutSeconds) is that
  // member's: stated in the schema, the generated SDKs would send it for every member (a MAC check
  // too), which the provider refuses as an unknown property. The description still says it.
  for (const [name, nodes] of properties)
    if (nodes.length < all.length)
      properties.set(
        name,
        nodes.map(({ default: _, ...node }) => node),
      );
  return { properties, required, root };
}

function propertySpec(
  nodes: JsonSchema[],
  root: JsonSchema,
  nameHint: string,
  types: Record<string, Spec>,
): Spec {
  const distinct = [...new Map(nodes.map((n) => [JSON.stringify(n), n])).values()];
  const first = distinct[0];
  const base = oneOf(distinct.map((n) => typeSpec(n, root, nameHint, types)));
  const resolved = deref(first, root);
  const descriptions = [
    ...new Set(distinct.map((n) => n.description ?? deref(n, root).description).filter(Boolean)),
  ];
  const description = descriptions.join(" Or: ");
  const allowed = distinct.flatMap((n) => literalValues(deref(n, root)));
  const text = [description, allowed.length ? `One of: ${allowed.map((v) => `\`${v}\``).join(", ")}.` : ""]
    .filter(Boolean)
    .join(" ");
  return {
    ...base,
    ...(text ? { description: text } : {}),
    ...(isPrimitive(first.default) ? { default: first.default } : {}),
    ...(first.secret || resolved.secret ? { secret: true } : {}),
  };
}

function typeSpec(node: JsonSchema, root: JsonSchema, nameHint: string, types: Record<string, Spec>): Spec {
  if (typeof node.$ref === "string") {
    const name = node.$ref.replace("#/$defs/", "");
    defineType(name, deref(node, root), root, types);
    return { $ref: `#/types/${token(name)}` };
  }
  const alternatives = (node.anyOf ?? node.oneOf ?? []).filter((n) => n.type !== "null");
  if (alternatives.length === 1) return typeSpec(alternatives[0], root, nameHint, types);
  if (alternatives.length > 1) return oneOf(alternatives.map((n) => typeSpec(n, root, nameHint, types)));
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== "null") : node.type;
  switch (type) {
    case "array":
      return { type: "array", items: typeSpec(node.items ?? {}, root, `${nameHint}Item`, types) };
    case "object":
      if (node.properties) {
        defineType(nameHint, node, root, types);
        return { $ref: `#/types/${token(nameHint)}` };
      }
      return {
        type: "object",
        // Map values that may be null (`tags`, `appData`: string, boolean or null, as the Edge API
        // defines them) are Any: Pulumi's schema has no null type, and a narrower type (string) would
        // make the generated SDKs refuse the booleans and nulls the provider accepts.
        additionalProperties:
          typeof node.additionalProperties === "object" && !admitsNull(node.additionalProperties)
            ? typeSpec(node.additionalProperties, root, `${nameHint}Value`, types)
            : { $ref: "pulumi.json#/Any" },
      };
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return { type };
    default:
      return { $ref: "pulumi.json#/Any" };
  }
}

/**
 * One spec for alternatives, without repeats: a union of literals of one type (keySize: 2048 | 3072 |
 * 4096) is that type, not a `oneOf` of identical members, which Pulumi's Go generator cannot give a
 * default to.
 */
function oneOf(specs: Spec[]): Spec {
  const distinct = [...new Map(specs.map((t) => [JSON.stringify(t), t])).values()];
  return distinct.length > 1 ? { oneOf: distinct } : distinct[0];
}

function defineType(name: string, node: JsonSchema, root: JsonSchema, types: Record<string, Spec>): void {
  const key = token(name);
  if (types[key]) return;
  types[key] = { type: "object" }; // placeholder first: recursive types terminate
  // A union of objects (IdentityEnrollment: one of ott, ottca, updb) is one object type with the
  // properties of every member, as for resources: typed SDKs and YAML can then set any of them.
  const { properties: nodes, required } = membersOf(node, root);
  const properties: Record<string, Spec> = {};
  for (const [prop, children] of nodes) {
    properties[prop] = propertySpec(children, root, `${name}${pascal(prop)}`, types);
  }
  types[key] = {
    type: "object",
    ...(node.description ? { description: node.description } : {}),
    properties,
    required,
  };
}

/** The values of an enum, a constant, or a union of constants (keySize: 2048 | 3072 | 4096); else none. */
function literalValues(node: JsonSchema): unknown[] {
  if (node.const !== undefined) return [node.const];
  if (node.enum) return node.enum;
  const members = (node.anyOf ?? node.oneOf ?? []).filter((n) => n.type !== "null");
  return members.length && members.every((n) => n.const !== undefined || n.enum)
    ? members.flatMap(literalValues)
    : [];
}

/** Whether a JSON Schema node admits null (`type: [..., "null"]` or a null member of a union). */
function admitsNull(node: JsonSchema): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  return types.includes("null") || (node.anyOf ?? node.oneOf ?? []).some((n) => n.type === "null");
}

function pascal(name: string): string {
  return name.replace(/(^|[_-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
}

function isPrimitive(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}
