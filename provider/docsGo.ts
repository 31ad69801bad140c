// The Go example of a reference page, generated from its YAML example (the YAML a user of the provider
// plugin writes) and schema.json: the same resources, lookups and outputs through the Go SDK that
// Pulumi's generator makes from schema.json (sdk/native/go). Only what the examples use is supported:
// literals, `${resource.property}` and `${config}` references, interpolated strings, `fn::invoke` of the
// package's functions (written in Go's Output form, `LookupXOutput`, so its arguments may be Outputs),
// and `get` of existing resources; anything else is refused, naming the page, so an example never turns
// into Go that means something else. test/docs-languages.test.ts compiles every generated program in one
// Go module against the generated SDK and checks gofmt's layout.

import { goString } from "./tools/codeText";

type Spec = Record<string, any>;

/** A Pulumi YAML program, as parsed (the parts the examples use). */
export interface YamlProgram {
  config?: Record<string, { type?: string; secret?: boolean; default?: unknown }>;
  variables?: Record<string, { "fn::invoke": { function: string; arguments?: Record<string, unknown> } }>;
  resources?: Record<string, { type: string; properties?: Record<string, unknown>; get?: { id: unknown } }>;
  outputs?: Record<string, unknown>;
}

/** The Go import path of the generated SDK's package (schema.json language.go.importBasePath). */
export function goImportPath(schema: Spec): string {
  return schema.language.go.importBasePath;
}

/** Go's name of a property (a struct field): Pulumi's Go generator upper-cases the first letter. */
export function goName(name: string): string {
  return name[0].toUpperCase() + name.slice(1);
}

/**
 * Python's name of a property, as Pulumi's Python generator makes it (snake case; a run of capitals
 * is one word: `isMFAEnabled` is `is_mfa_enabled`).
 */
export function pythonName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

/** Go's name of a function: a `getX` whose X is a resource is `LookupX` (`GetX` is the resource's read). */
export function goFunctionName(schema: Spec, name: string): string {
  const resource = name.startsWith("get") ? name.slice(3) : "";
  return resource && schema.resources[`frontdoor:index:${resource}`] ? `Lookup${resource}` : goName(name);
}

const GO_KEYWORDS = new Set(
  "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var"
    .split(" ")
    .concat(["ctx", "cfg", "err", "pulumi", "frontdoor", "config", "main"]),
);

/** A Go variable name for a YAML name (`app-dial` is `appDial`). */
function goVariable(name: string): string {
  // Only ASCII letters and digits: any other character (a space, a quote) would not be Go.
  const camel = name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w))
    .join("");
  const safe = /^[A-Za-z]/.test(camel) ? camel : `v${camel}`;
  return GO_KEYWORDS.has(safe) ? `${safe}Value` : safe;
}

/** `table[key]` when it is the table's own entry (a YAML key `constructor` is no property of Object's). */
const ownEntry = (table: Spec | undefined, key: string) =>
  table && Object.hasOwn(table, key) ? table[key] : undefined;

const tokenName = (token: string) => token.split(":").pop()!;
/** A Go string literal (strconv.Quote's form: JSON's is not always Go, e.g. a BOM or a lone surrogate). */
const quote = goString;

/** A Go expression and whether it is an Output (else a plain Go value). */
interface Expr {
  code: string;
  output: boolean;
  /** The schema spec of the value (to wrap a plain value as an Input of its type). */
  spec?: Spec;
}

interface Named {
  kind: "resource" | "invoke" | "config";
  go: string;
  /** resource: its spec; invoke: the function's output object spec; config: its declaration. */
  spec: Spec;
  secret?: boolean;
}

export function goProgram(page: string, yaml: YamlProgram, schema: Spec): string {
  const fail = (message: string): never => {
    throw new Error(`reference page ${page}: the YAML example cannot be written in Go: ${message}`);
  };
  const names = new Map<string, Named>();
  const used = new Set<string>();
  // Go variables, one per YAML name: two names may spell the same variable (`a-b`, `a_b`).
  const goVariables = new Set<string>();
  const goVariableOf = (key: string): string => {
    const base = goVariable(key);
    let go = base;
    for (let n = 2; goVariables.has(go); n++) go = `${base}${n}`;
    goVariables.add(go);
    return go;
  };
  const lines: string[] = [];
  let usesConfig = false;

  const resolveType = (spec: Spec): Spec =>
    typeof spec?.$ref === "string" && spec.$ref.startsWith("#/types/")
      ? { ...schema.types[spec.$ref.slice("#/types/".length)], typeName: tokenName(spec.$ref) }
      : spec;

  /** `${a.b}`: a resource's output, an invoke's result field, or a config value. */
  const reference = (ref: string): Expr => {
    const [head, ...path] = ref.split(".");
    const named = names.get(head) ?? fail(`\${${ref}} names nothing declared before it`);
    used.add(head);
    if (named.kind === "config") {
      if (path.length) fail(`\${${ref}}: a config value has no properties`);
      return { code: named.go, output: !!named.secret, spec: { type: "string" } };
    }
    if (path.length !== 1) fail(`\${${ref}}: only one property deep is supported`);
    const prop = path[0];
    if (named.kind === "resource") {
      if (prop === "id") return { code: `${named.go}.ID()`, output: true, spec: { type: "string" } };
      const spec = named.spec.properties[prop] ?? fail(`\${${ref}}: no output ${prop}`);
      return { code: `${named.go}.${goName(prop)}`, output: true, spec };
    }
    const spec = named.spec.properties?.[prop] ?? fail(`\${${ref}}: the result has no ${prop}`);
    return { code: `${named.go}.${goName(prop)}()`, output: true, spec };
  };

  const interpolation = (text: string): { parts: string[]; refs: string[] } | undefined => {
    const parts: string[] = [];
    const refs: string[] = [];
    const re = /\$\{([^}]+)\}/g;
    let last = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      parts.push(text.slice(last, m.index));
      refs.push(m[1]);
      last = m.index + m[0].length;
    }
    if (!refs.length) return undefined;
    parts.push(text.slice(last));
    return { parts, refs };
  };

  /** A plain Go value wrapped as an Input of its type. */
  const asInput = (expr: Expr): string => {
    if (expr.output) return expr.code;
    switch (expr.spec?.type) {
      case "string":
        return `pulumi.String(${expr.code})`;
      case "integer":
        return `pulumi.Int(${expr.code})`;
      case "number":
        return `pulumi.Float64(${expr.code})`;
      case "boolean":
        return `pulumi.Bool(${expr.code})`;
      default:
        return `pulumi.Any(${expr.code})`;
    }
  };

  /** A value given where an Input of `spec` is expected. */
  const input = (value: unknown, spec: Spec | undefined, where: string): string => {
    if (typeof value === "string") {
      const found = interpolation(value);
      if (found) {
        if (found.parts.every((p) => p === "") && found.refs.length === 1)
          return asInput(reference(found.refs[0]));
        const format = found.parts.map((p) => p.replace(/%/g, "%%")).join("%v");
        const args = found.refs.map((r) => reference(r).code);
        return `pulumi.Sprintf(${quote(format)}, ${args.join(", ")})`;
      }
    }
    const resolved = spec ? resolveType(spec) : undefined;
    if (resolved?.oneOf) return input(value, pickAlternative(value, resolved.oneOf, where), where);
    if (value === null) return "nil";
    if (resolved?.typeName) {
      if (typeof value !== "object" || Array.isArray(value)) fail(`${where}: an object is expected`);
      return `&frontdoor.${resolved.typeName}Args{\n${fields(value as Record<string, unknown>, resolved, where)}}`;
    }
    if (Array.isArray(value)) {
      const items = resolved?.items;
      const element = arrayType(items);
      return `${element}{${value.map((v, i) => input(v, items, `${where}[${i}]`)).join(", ")}}`;
    }
    if (typeof value === "object") {
      const ap = resolved?.additionalProperties;
      const map = mapType(ap);
      const entries = Object.entries(value as Record<string, unknown>).map(
        ([k, v]) => `${quote(k)}: ${input(v, ap, `${where}.${k}`)}`,
      );
      return `${map}{\n${entries.join(",\n")},\n}`;
    }
    switch (typeof value) {
      case "string":
        return `pulumi.String(${quote(value)})`;
      case "boolean":
        return `pulumi.Bool(${value})`;
      case "number":
        return resolved?.type === "number" || !Number.isInteger(value)
          ? `pulumi.Float64(${value})`
          : `pulumi.Int(${value})`;
      default:
        return fail(`${where}: a value of type ${typeof value}`);
    }
  };

  const pickAlternative = (value: unknown, alternatives: Spec[], where: string): Spec => {
    for (const alt of alternatives) {
      const resolved = resolveType(alt);
      if (resolved.typeName) {
        if (value && typeof value === "object" && !Array.isArray(value))
          if (Object.keys(value).every((k) => k in (resolved.properties ?? {}))) return alt;
        continue;
      }
      if (resolved.type === typeof value || (resolved.type === "integer" && typeof value === "number"))
        return alt;
    }
    return fail(`${where}: ${JSON.stringify(value)} matches none of its types`);
  };

  const arrayType = (items: Spec | undefined): string => {
    const resolved = items ? resolveType(items) : undefined;
    if (resolved?.typeName) return `frontdoor.${resolved.typeName}Array`;
    return (
      {
        string: "pulumi.StringArray",
        integer: "pulumi.IntArray",
        number: "pulumi.Float64Array",
        boolean: "pulumi.BoolArray",
      }[resolved?.type as string] ?? "pulumi.Array"
    );
  };

  const mapType = (values: Spec | undefined): string => {
    const resolved = values ? resolveType(values) : undefined;
    return (
      {
        string: "pulumi.StringMap",
        integer: "pulumi.IntMap",
        number: "pulumi.Float64Map",
        boolean: "pulumi.BoolMap",
      }[resolved?.type as string] ?? "pulumi.Map"
    );
  };

  /** The fields of an args struct. */
  const fields = (values: Record<string, unknown>, spec: Spec, where: string): string =>
    Object.entries(values)
      .map(([key, value]) => {
        const prop = ownEntry(spec.properties, key) ?? ownEntry(spec.inputProperties, key);
        if (!prop) fail(`${where}: there is no property ${key}`);
        return `${goName(key)}: ${input(value, prop, `${where}.${key}`)},\n`;
      })
      .join("");

  for (const [key, decl] of Object.entries(yaml.config ?? {})) {
    usesConfig = true;
    const go = goVariableOf(key);
    names.set(key, { kind: "config", go, spec: decl, secret: decl.secret });
    if (decl.secret) lines.push(`${go} := cfg.RequireSecret(${quote(key)})`);
    else if (decl.default !== undefined)
      lines.push(
        `${go} := cfg.Get(${quote(key)})`,
        `if ${go} == "" {`,
        `${go} = ${quote(String(decl.default))}`,
        "}",
      );
    else lines.push(`${go} := cfg.Require(${quote(key)})`);
  }

  for (const [key, variable] of Object.entries(yaml.variables ?? {})) {
    const invoke = variable["fn::invoke"] ?? fail(`variable ${key} is not an fn::invoke`);
    const fnName = tokenName(invoke.function);
    const fn = schema.functions[`frontdoor:index:${fnName}`] ?? fail(`no function ${invoke.function}`);
    const go = goVariableOf(key);
    const goFn = `${goFunctionName(schema, fnName)}Output`;
    // The Output form of the invoke: its arguments may be Outputs (a secret config value, another
    // resource's id) and its result's fields are Outputs, as in the YAML.
    names.set(key, { kind: "invoke", go, spec: fn.outputs });
    lines.push(
      `${go} := frontdoor.${goFn}(ctx, frontdoor.${goFn}Args{\n${fields(invoke.arguments ?? {}, fn.inputs, key)}})`,
    );
  }

  const resourceLines: { key: string; go: string; call: string }[] = [];
  for (const [key, resource] of Object.entries(yaml.resources ?? {})) {
    const kind = tokenName(resource.type);
    const spec = schema.resources[`frontdoor:index:${kind}`] ?? fail(`no resource type ${resource.type}`);
    const go = goVariableOf(key);
    let call: string;
    if (resource.get) {
      const id = input(resource.get.id, { type: "string" }, `${key}.get.id`);
      call = `frontdoor.Get${kind}(ctx, ${quote(key)}, ${id.replace(/^pulumi\.String\(/, "pulumi.ID(")}, nil)`;
    } else {
      call = `frontdoor.New${kind}(ctx, ${quote(key)}, &frontdoor.${kind}Args{\n${fields(resource.properties ?? {}, spec, key)}})`;
    }
    names.set(key, { kind: "resource", go, spec });
    resourceLines.push({ key, go, call });
  }

  const exports = Object.entries(yaml.outputs ?? {}).map(
    ([key, value]) => `ctx.Export(${quote(key)}, ${input(value, undefined, `outputs.${key}`)})`,
  );

  // A resource nobody refers to is declared without a variable (Go refuses unused ones).
  for (const { key, go, call } of resourceLines) {
    if (used.has(key)) lines.push(`${go}, err := ${call}`, "if err != nil {", "return err", "}");
    else lines.push(`if _, err := ${call}; err != nil {`, "return err", "}");
  }
  for (const [key, named] of names)
    if (named.kind !== "resource" && !used.has(key)) lines.push(`_ = ${named.go}`);
  lines.push(...exports, "return nil");

  const imports = [
    quote(goImportPath(schema)),
    quote("github.com/pulumi/pulumi/sdk/v3/go/pulumi"),
    ...(usesConfig ? [quote("github.com/pulumi/pulumi/sdk/v3/go/pulumi/config")] : []),
  ];
  return [
    "package main",
    "",
    "import (",
    ...imports.map((i) => `\t${i}`),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...(usesConfig ? ['\t\tcfg := config.New(ctx, "")'] : []),
    ...indent(lines, 2),
    "\t})",
    "}",
  ].join("\n");
}

/**
 * The layout gofmt gives: one tab more after a line that ends with an opening brace or parenthesis,
 * one less from a line that starts with a closing one; in a run of one-line `Key: value` entries at
 * the same depth, the values aligned (an entry spanning lines stands alone, as gofmt leaves it). The
 * docs test runs gofmt on every generated program, so a difference fails there.
 */
function indent(lines: string[], base: number): string[] {
  let depth = base;
  const laid: { depth: number; text: string }[] = [];
  for (const line of lines.flatMap((l) => l.split("\n"))) {
    const text = line.trim();
    if (/^[}\])]/.test(text)) depth--;
    laid.push({ depth, text });
    if (/[{([]$/.test(text)) depth++;
  }
  const key = /^("[^"]*"|[A-Z]\w*): /;
  const entry = (l: { text: string }) => key.test(l.text) && !/[{([]$/.test(l.text);
  const out: string[] = [];
  for (let i = 0; i < laid.length; ) {
    let j = i;
    while (j < laid.length && entry(laid[j]) && laid[j].depth === laid[i].depth) j++;
    if (j === i) {
      out.push(`${"\t".repeat(laid[i].depth)}${laid[i].text}`);
      i++;
      continue;
    }
    const colonOf = (text: string) => key.exec(text)![1].length;
    const width = Math.max(...laid.slice(i, j).map((l) => colonOf(l.text)));
    for (const l of laid.slice(i, j)) {
      const colon = colonOf(l.text);
      out.push(
        `${"\t".repeat(l.depth)}${l.text.slice(0, colon + 1).padEnd(width + 2)}${l.text.slice(colon + 2)}`,
      );
    }
    i = j;
  }
  return out;
}
