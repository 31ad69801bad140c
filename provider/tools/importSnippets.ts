// Adopting existing objects: `pulumi import` on the command line cannot import dynamic resources
// (the engine's id-only Read carries no `__provider`), but the `import` resource option in a program
// can. This writes that program for you: one `new frontdoor.<Kind>(..., { import: "<id>" })` per
// existing object, with its current settings as the inputs (so the first `up` shows no changes) and
// every secret input as a `config.requireSecret(...)` placeholder to fill in.

import { ListUnavailableError } from "../http/errors";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { resourceDefinitions } from "../resources";
import { propertyNames, secretPaths } from "../shape";

export interface SnippetOptions {
  /** Kinds to list (default: every kind that can be listed). */
  kinds?: string[];
  /** Frontdoor whose objects are listed (Frontdoor kinds). */
  frontdoorId?: string;
}

export async function importSnippets(ctx: ResourceContext, options: SnippetOptions): Promise<string> {
  const lines = [
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as frontdoor from "pulumi-frontdoor";',
    "",
    "const config = new pulumi.Config();",
  ];
  const scope = { frontdoorId: options.frontdoorId ?? ctx.settings.frontdoorId };
  const names = new Set<string>();
  for (const def of resourceDefinitions) {
    if (!def.list || (options.kinds && !options.kinds.includes(def.kind))) continue;
    if (def.api === "frontdoor" && !scope.frontdoorId) continue;
    let ids: string[];
    try {
      ids = await def.list(ctx, scope);
    } catch (err) {
      // A list the API does not document and the server lacks: asked for by kind, that is an error;
      // otherwise the program says which kind was left out and how to import it by id.
      if (!(err instanceof ListUnavailableError) || options.kinds) throw err;
      lines.push("", `// ${def.kind}: not listed. ${err.message}`.replace(/\n/g, " "));
      continue;
    }
    for (const id of ids) {
      const state = await def.read(ctx, id, scope);
      if (state) lines.push("", snippet(def, id, state, scope, names));
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The program text that declares and imports one object. */
export function snippet(
  def: ResourceDefinition,
  id: string,
  state: Props,
  scope: Props,
  taken: Set<string>,
): string {
  const name = uniqueName(String(state.name ?? def.kind), taken);
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
  const body = render(inputs, "  ", "", (path) =>
    secrets.has(path) ? `config.requireSecret("${configKey(name, path)}")` : undefined,
  );
  const importId = def.api === "frontdoor" ? `${state.frontdoorId ?? scope.frontdoorId}/${id}` : id;
  return `export const ${identifier(name)} = new frontdoor.${def.kind}("${name}", ${body}, { import: "${importId}" });`;
}

type SecretFor = (path: string) => string | undefined;

function render(value: unknown, indent: string, path: string, secretFor: SecretFor): string {
  const secret = path ? secretFor(path) : undefined;
  if (secret) return secret;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) return JSON.stringify(value);
    return `[${value.map((v) => render(v, indent, path, secretFor)).join(", ")}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => {
      const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
      return `${indent}  ${key}: ${render(v, `${indent}  `, path ? `${path}.${k}` : k, secretFor)},`;
    });
    return `{\n${entries.join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function uniqueName(base: string, taken: Set<string>): string {
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
