// Adopting existing objects: `pulumi import` on the command line cannot import dynamic resources
// (the engine's id-only Read carries no `__provider`), but the `import` resource option in a program
// can. This writes that program for you: one `new frontdoor.<Kind>(..., { import: "<id>" })` per
// existing object, with its current settings as the inputs (so the first `up` shows no changes) and
// every secret input as a `config.requireSecret(...)` placeholder to fill in. An object that refers to
// another one in the program (an identity's auth policy, a custom frontend's auth providers, a service's
// configs, a policy's `@id` roles) refers to its variable, not to the literal id, so the engine knows the
// order: create the referenced object first, destroy it last.

// Every piece of data is written as a literal (codeText.ts), never as code: see programText.

import { PACKAGE } from "../packageName";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { importIdOf } from "../resources/common";
import { deref, type JsonSchema, jsonSchema, propertyNames, secretPaths } from "../shape";
import { Identifiers, jsComment, jsString, ResourceNames } from "./codeText";
import { globPattern, listExisting } from "./inventory";
import { checkJsonData, isObject, refuse } from "./stateInput";

export { idsInState } from "./inventory";

export interface SnippetOptions {
  /** Kinds to list (default: every kind that can be listed). */
  kinds?: string[];
  /** Frontdoor whose objects are listed (Frontdoor kinds). */
  frontdoorId?: string;
  /** Name patterns (`*` any text, `?` one character); an object is printed when one matches. */
  names?: string[];
  /** Ids of objects to leave out: those a stack's state already holds (see `idsInState`). */
  excludeIds?: Set<string>;
}

/** An object to declare: its kind, id, settings (the kind's inputs) and unique resource name. */
export interface Found {
  def: ResourceDefinition;
  id: string;
  state: Props;
  name: string;
  /**
   * Paths (keys from the top of `state`) of values that are secrets though the kind's schema does not
   * say so (Terraform's `sensitive_attributes`): each becomes a secret config read, never a literal.
   */
  sensitive?: string[][];
}

/** The existing objects the options select, each with a unique resource name; the kinds not listed. */
async function selectObjects(ctx: ResourceContext, options: SnippetOptions) {
  const patterns = (options.names ?? []).map(globPattern);
  const inventory = await listExisting(ctx, { ...options, skipIds: options.excludeIds });
  const names = new ResourceNames();
  const found: Found[] = inventory.objects
    .filter(({ def, state }) => !patterns.length || patterns.some((p) => p.test(objectName(def, state))))
    .map(({ def, id, state }) => ({ def, id, state, name: names.of(objectName(def, state)) }));
  return { found, unlisted: inventory.unlisted };
}

function importId(def: ResourceDefinition, id: string, state: Props, scope: Props): string {
  return importIdOf(def.api, id, state.frontdoorId ?? scope.frontdoorId);
}

/** Pulumi's import file (`pulumi import --file`), one entry of the provider plugin's type per selected object. */
export interface ImportFile {
  resources: { type: string; name: string; id: string; version?: string }[];
}

/**
 * The objects as `pulumi import --file <file>` takes them: the CLI reads each through the provider
 * plugin (type `frontdoor:index:<Kind>`) and writes the program in the project's language. `version`
 * (the plugin's) makes the CLI record it on the provider. The kinds that could not be listed come back
 * apart, for the caller to report.
 */
export async function importFile(
  ctx: ResourceContext,
  options: SnippetOptions,
  version?: string,
): Promise<{ file: ImportFile; unlisted: { kind: string; reason: string }[] }> {
  const scope = { frontdoorId: options.frontdoorId ?? ctx.settings.frontdoorId };
  const { found, unlisted } = await selectObjects(ctx, options);
  const resources = found.map((f) => ({
    type: `${PACKAGE}:index:${f.def.kind}`,
    name: f.name,
    id: importId(f.def, f.id, f.state, scope),
    ...(version ? { version } : {}),
  }));
  return { file: { resources }, unlisted };
}

/** The program that adopts the listed objects, and the secret config keys it reads. */
export async function importProgram(ctx: ResourceContext, options: SnippetOptions): Promise<Program> {
  const scope = { frontdoorId: options.frontdoorId ?? ctx.settings.frontdoorId };
  const { found, unlisted } = await selectObjects(ctx, options);
  return program(
    found,
    scope,
    unlisted.map(({ kind, reason }) => `${kind}: not listed. ${reason}`),
  );
}

export async function importSnippets(ctx: ResourceContext, options: SnippetOptions): Promise<string> {
  return (await importProgram(ctx, options)).text;
}

/** A generated program and the secret config keys it reads (`pulumi config set --secret <key>`). */
export interface Program {
  text: string;
  /** Each key the program reads with `requireSecret` (a string) or `requireSecretObject` (JSON). */
  secrets: { key: string; json: boolean }[];
}

/**
 * The TypeScript program (dynamic provider) that declares and imports `found`, referenced objects
 * first, each note as a comment before them. Shared by the listing above and the Terraform migration.
 * Every id, name, key and value is a literal (JSON's, with U+2028/U+2029 escaped), every note a
 * comment no character can end, every variable an identifier made valid and unique.
 */
export function programText(found: Found[], scope: Props, notes: string[] = []): string {
  return program(found, scope, notes).text;
}

export function program(found: Found[], scope: Props, notes: string[] = []): Program {
  const lines = [
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as frontdoor from "pulumi-frontdoor";',
    "",
    "const config = new pulumi.Config();",
  ];
  for (const note of notes) lines.push("", jsComment(note));
  const identifiers = new Identifiers();
  const own = found.map((f) => identifiers.of(f.name));
  const variables = new Map(found.map((f, i) => [f.id, own[i]]));
  const configKeys = new Identifiers(new Set());
  const secrets: Program["secrets"] = [];
  const rendered = found.map((f, i) => snippet(f, scope, own[i], variables, configKeys, secrets));
  for (const index of dependencyOrder(
    rendered.map((r) => r.uses),
    own,
  ))
    lines.push("", rendered[index].text);
  return { text: `${lines.join("\n")}\n`, secrets };
}

/**
 * The program text that declares and imports one object, and the variables it refers to. A string
 * that holds the id of another printed object, in a property that takes ids (`...Id`, `...Ids`,
 * `...Roles`, `configs`), becomes a reference to that object's variable; never a value inside a map
 * (tags, appData, a config's data), whose keys are data.
 */
function snippet(
  f: Found,
  scope: Props,
  variable: string,
  variables: Map<string, string>,
  configKeys: Identifiers,
  secrets: Program["secrets"],
): { text: string; uses: Set<string> } {
  const { def, id, state, name } = f;
  const at = `${def.kind} ${jsString(name)}`;
  if (!isObject(state)) refuse(at, "the object's settings are not an object");
  checkJsonData(state, at);
  const inputs: Props = {};
  for (const key of propertyNames(def.inputs)) {
    const value = Object.hasOwn(state, key) ? state[key] : undefined;
    if (value !== undefined && value !== null && !(key === "frontdoorId" && value === scope.frontdoorId))
      inputs[key] = value;
  }
  const uses = new Set<string>();
  const sensitive = new Set((f.sensitive ?? []).map((p) => JSON.stringify(p)));
  const schemaSecrets = new Set(secretPaths(def.inputs));
  const maps = mapPaths(def);
  const literal: Literal = (path, inMap, value) => {
    if (sensitive.has(JSON.stringify(path)) || (!inMap && schemaSecrets.has(path.join(".")))) {
      const key = configKeys.of(`${name}-${path.join("-")}`);
      const json = typeof value !== "string";
      secrets.push({ key, json });
      return `config.${json ? "requireSecretObject" : "requireSecret"}(${jsString(key)})`;
    }
    if (inMap || typeof value !== "string" || !REFERENCE_PROPERTY.test(path[path.length - 1] ?? ""))
      return undefined;
    const role = value.startsWith("@");
    const target = variables.get(role ? value.slice(1) : value);
    if (!target || target === variable) return undefined;
    uses.add(target);
    return role ? `pulumi.interpolate\`@\${${target}.id}\`` : `${target}.id`;
  };
  const body = render(inputs, "  ", [], false, maps, literal);
  const importId = importIdOf(def.api, id, state.frontdoorId ?? scope.frontdoorId);
  const text = `export const ${variable} = new frontdoor.${def.kind}(${jsString(name)}, ${body}, { import: ${jsString(importId)} });`;
  return { text, uses };
}

/** Properties whose strings are ids of other objects (or `@id` roles): signers, a CA to enroll with too. */
const REFERENCE_PROPERTY = /(Ids?|Roles|Signers?|^configs|^ottca)$/;

/** The code for the value at `path` when it is not written as it is (a secret, a reference). */
type Literal = (path: string[], inMap: boolean, value: unknown) => string | undefined;

/**
 * `value` as a TypeScript expression. Bounded recursion: every value was checked by checkJsonData
 * (at most MAX_DEPTH deep). `inMap`: inside a map-typed property (its keys are data, not names).
 */
function render(
  value: unknown,
  indent: string,
  path: string[],
  inMap: boolean,
  maps: Set<string>,
  literal: Literal,
): string {
  const replaced = path.length ? literal(path, inMap, value) : undefined;
  if (replaced) return replaced;
  if (Array.isArray(value)) {
    const items = value.map((v) => render(v, indent, path, inMap, maps, literal));
    return `[${items.join(", ")}]`;
  }
  if (isObject(value)) {
    const childInMap = inMap || (path.length > 0 && maps.has(path.join(".")));
    const entries = Object.keys(value).map(
      (k) =>
        `${indent}  ${propertyKey(k)}: ${render(value[k], `${indent}  `, [...path, k], childInMap, maps, literal)},`,
    );
    return entries.length ? `{\n${entries.join("\n")}\n${indent}}` : "{}";
  }
  if (typeof value === "string") return jsString(value);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : JSON.stringify(value);
  return JSON.stringify(value); // boolean or null: checkJsonData refused anything else
}

/**
 * A key of an object literal: a plain name as it is, any other as a string literal, and `__proto__`
 * computed (`["__proto__"]`), the one form that makes it an own property rather than the prototype.
 */
function propertyKey(key: string): string {
  if (key === "__proto__") return '["__proto__"]';
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : jsString(key);
}

/** Dotted paths of a kind's map-typed inputs (tags, appData, serviceHostingCosts, a config's data). */
function mapPaths(def: ResourceDefinition): Set<string> {
  const root = jsonSchema(def.inputs);
  const paths = new Set<string>();
  const stack: [JsonSchema, string, number][] = [[root, "", 0]];
  while (stack.length) {
    const [node, prefix, depth] = stack.pop()!;
    const json = deref(node, root);
    if (depth > 16) continue; // schemas are a few levels deep; a recursive one stops here
    if (prefix && !json.properties && typeof json.additionalProperties === "object") paths.add(prefix);
    for (const v of [...(json.oneOf ?? []), ...(json.anyOf ?? []), ...(json.allOf ?? [])])
      stack.push([v, prefix, depth + 1]);
    if (json.items) stack.push([json.items, prefix, depth + 1]);
    for (const [key, child] of Object.entries(json.properties ?? {}))
      stack.push([child, prefix ? `${prefix}.${key}` : key, depth + 1]);
  }
  return paths;
}

/**
 * Indexes in an order where every object comes after the ones it refers to: each object in turn,
 * preceded by those of its references not placed yet. Iterative and linear (a long chain of
 * references cannot overflow the stack).
 */
function dependencyOrder(uses: Set<string>[], variables: string[]): number[] {
  const index = new Map(variables.map((v, i) => [v, i]));
  const state = new Uint8Array(variables.length); // 0 new, 1 on the stack, 2 placed
  const order: number[] = [];
  for (let root = 0; root < variables.length; root++) {
    if (state[root]) continue;
    const stack: { i: number; deps: number[]; next: number }[] = [];
    const enter = (i: number) => {
      state[i] = 1;
      const deps = [...uses[i]].map((u) => index.get(u)).filter((d): d is number => d !== undefined);
      stack.push({ i, deps, next: 0 });
    };
    enter(root);
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.next < top.deps.length) {
        const d = top.deps[top.next++];
        // No cycles: an object can only refer to one that existed before it. Should one appear
        // anyway (state 1), it is not followed.
        if (state[d] === 0) enter(d);
        continue;
      }
      stack.pop();
      state[top.i] = 2;
      order.push(top.i);
    }
  }
  return order;
}

function objectName(def: ResourceDefinition, state: Props): string {
  return typeof state.name === "string" && state.name ? state.name : def.kind;
}
