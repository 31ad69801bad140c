// Adopting existing objects: `pulumi import` on the command line cannot import dynamic resources
// (the engine's id-only Read carries no `__provider`), but the `import` resource option in a program
// can. This writes that program for you: one `new frontdoor.<Kind>(..., { import: "<id>" })` per
// existing object, with its current settings as the inputs (so the first `up` shows no changes) and
// every secret input as a `config.requireSecret(...)` placeholder to fill in. An object that refers to
// another one in the program (an identity's auth policy, a custom frontend's auth providers, a service's
// configs, a policy's `@id` roles) refers to its variable, not to the literal id, so the engine knows the
// order: create the referenced object first, destroy it last.

import { PACKAGE } from "../packageName";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { importIdOf } from "../resources/common";
import { propertyNames, secretPaths } from "../shape";
import { globPattern, listExisting } from "./inventory";

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
}

/** The existing objects the options select, each with a unique resource name; the kinds not listed. */
async function selectObjects(ctx: ResourceContext, options: SnippetOptions) {
  const patterns = (options.names ?? []).map(globPattern);
  const inventory = await listExisting(ctx, { ...options, skipIds: options.excludeIds });
  const names = new Set<string>();
  const found: Found[] = inventory.objects
    .filter(({ def, state }) => !patterns.length || patterns.some((p) => p.test(objectName(def, state))))
    .map(({ def, id, state }) => ({ def, id, state, name: uniqueName(objectName(def, state), names) }));
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

export async function importSnippets(ctx: ResourceContext, options: SnippetOptions): Promise<string> {
  const scope = { frontdoorId: options.frontdoorId ?? ctx.settings.frontdoorId };
  const { found, unlisted } = await selectObjects(ctx, options);
  return programText(
    found,
    scope,
    unlisted.map(({ kind, reason }) => `${kind}: not listed. ${reason}`),
  );
}

/**
 * The TypeScript program (dynamic provider) that declares and imports `found`, referenced objects
 * first, each note as a comment before them. Shared by the listing above and the Terraform migration.
 */
export function programText(found: Found[], scope: Props, notes: string[] = []): string {
  const lines = [
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as frontdoor from "pulumi-frontdoor";',
    "",
    "const config = new pulumi.Config();",
  ];
  for (const note of notes) lines.push("", `// ${note.replace(/\n/g, " ")}`);
  const variables = new Map(found.map((f) => [f.id, identifier(f.name)]));
  const rendered = found.map((f) => snippet(f.def, f.id, f.state, scope, f.name, variables));
  for (const index of dependencyOrder(
    rendered.map((r) => r.uses),
    found.map((f) => identifier(f.name)),
  ))
    lines.push("", rendered[index].text);
  return `${lines.join("\n")}\n`;
}

/**
 * The program text that declares and imports one object, and the variables it refers to. A string
 * that holds the id of another printed object, in a property that takes ids (`...Id`, `...Ids`,
 * `...Roles`, `configs`), becomes a reference to that object's variable.
 */
export function snippet(
  def: ResourceDefinition,
  id: string,
  state: Props,
  scope: Props,
  name: string,
  variables: Map<string, string> = new Map(),
): { text: string; uses: Set<string> } {
  const inputs: Props = {};
  for (const key of propertyNames(def.inputs)) {
    if (
      state[key] !== undefined &&
      state[key] !== null &&
      !(key === "frontdoorId" && state[key] === scope.frontdoorId)
    ) {
      inputs[key] = state[key];
    }
  }
  const secrets = new Set(secretPaths(def.inputs));
  const uses = new Set<string>();
  const replace: Replace = (path, value) => {
    if (secrets.has(path)) return `config.requireSecret("${configKey(name, path)}")`;
    if (typeof value !== "string" || !REFERENCE_PROPERTY.test(path.split(".").pop() ?? "")) return undefined;
    const role = value.startsWith("@");
    const variable = variables.get(role ? value.slice(1) : value);
    if (!variable || variable === identifier(name)) return undefined;
    uses.add(variable);
    return role ? `pulumi.interpolate\`@\${${variable}.id}\`` : `${variable}.id`;
  };
  const body = render(inputs, "  ", "", replace);
  const text = `export const ${identifier(name)} = new frontdoor.${def.kind}("${name}", ${body}, { import: "${importId(def, id, state, scope)}" });`;
  return { text, uses };
}

/** Properties whose strings are ids of other objects (or `@id` roles): signers, a CA to enroll with too. */
const REFERENCE_PROPERTY = /(Ids?|Roles|Signers?|^configs|^ottca)$/;

type Replace = (path: string, value: unknown) => string | undefined;

function render(value: unknown, indent: string, path: string, replace: Replace): string {
  const replaced = path ? replace(path, value) : undefined;
  if (replaced) return replaced;
  if (Array.isArray(value)) {
    const items = value.map((v) => replace(path, v) ?? render(v, indent, path, replace));
    return `[${items.join(", ")}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => {
      const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
      return `${indent}  ${key}: ${render(v, `${indent}  `, path ? `${path}.${k}` : k, replace)},`;
    });
    return `{\n${entries.join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** Indexes in an order where every object comes after the ones it refers to (stable otherwise). */
function dependencyOrder(uses: Set<string>[], variables: string[]): number[] {
  const order: number[] = [];
  const placed = new Set<string>();
  const pending = variables.map((_, i) => i);
  while (pending.length > 0) {
    const ready = pending.findIndex((i) => [...uses[i]].every((u) => placed.has(u)));
    // No cycles: an object can only refer to one that existed before it. Should one appear anyway, the
    // rest keep their order rather than loop.
    const next = pending.splice(Math.max(ready, 0), 1)[0];
    order.push(next);
    placed.add(variables[next]);
  }
  return order;
}

function objectName(def: ResourceDefinition, state: Props): string {
  return String(state.name ?? def.kind);
}

/** `base` as a resource name (lowercase, `-` for the rest) not in `taken`, which it joins. */
export function uniqueName(base: string, taken: Set<string>): string {
  const slug =
    base
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "object";
  let name = slug;
  for (let i = 2; taken.has(name); i++) name = `${slug}-${i}`;
  taken.add(name);
  return name;
}

function identifier(name: string): string {
  const camel = name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
  return /^[A-Za-z_$]/.test(camel) ? camel : `_${camel}`;
}

function configKey(name: string, path: string): string {
  return identifier(`${name}-${path.replace(/[._]/g, "-")}`);
}
