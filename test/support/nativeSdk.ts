// What schema.json says the generated Node.js SDK (sdk/native/nodejs) must declare, and what it does
// declare: every argument interface (a resource's `XArgs`, the provider's `ProviderArgs`, a
// function's `FArgs` and `FOutputArgs`, each object type's `types.input.XArgs`) with its properties,
// which of them are optional, and the TypeScript type each one must mention. The expectations come
// from the schema JSON itself, never from the provider's code; the declarations are read from the
// generated sources with TypeScript's parser.
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

/** Interface name -> property name -> how it is declared ("?" when optional, then the type text). */
export type Declared = Map<string, Map<string, { optional: boolean; type: string }>>;

/** The exported interfaces of the SDK's top-level files and of types/input.ts. */
export function declaredArgs(nodejsDir: string): Declared {
  const files = [
    ...fs
      .readdirSync(nodejsDir)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join(nodejsDir, f)),
    path.join(nodejsDir, "types", "input.ts"),
  ];
  const declared: Declared = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      if (!ts.isInterfaceDeclaration(statement) || !/Args$/.test(statement.name.text)) continue;
      if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const props = new Map<string, { optional: boolean; type: string }>();
      for (const member of statement.members)
        if (ts.isPropertySignature(member))
          props.set(member.name.getText(source).replace(/^"|"$/g, ""), {
            optional: member.questionToken !== undefined,
            type: member.type?.getText(source) ?? "",
          });
      if (declared.has(statement.name.text))
        throw new Error(`${statement.name.text} is declared twice (${path.basename(file)})`);
      declared.set(statement.name.text, props);
    }
  }
  return declared;
}

type Property = Record<string, any>;
/** `frontdoor:index:Identity` or `#/types/frontdoor:index:IdentityEnrollment` -> the last part. */
const typeName = (ref: string) => ref.split(":").pop() as string;
const upperFirst = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Texts the TypeScript type of an input property must contain, from its schema. */
function expectedTypeTexts(prop: Property): string[] {
  if (prop.$ref === "pulumi.json#/Any") return ["any"];
  if (prop.$ref) return [`inputs.${typeName(prop.$ref)}Args`];
  if (prop.oneOf) return prop.oneOf.flatMap(expectedTypeTexts);
  switch (prop.type) {
    case "string":
      return ["string"];
    case "integer":
    case "number":
      return ["number"];
    case "boolean":
      return ["boolean"];
    case "array":
      return [...expectedTypeTexts(prop.items), "[]"];
    case "object":
      return ["{[key: string]:", ...expectedTypeTexts(prop.additionalProperties)];
    default:
      throw new Error(`schema property of unknown shape: ${JSON.stringify(prop)}`);
  }
}

/** Interface name -> the properties schema.json gives it, and which are required. */
export function expectedArgs(
  schema: any,
): Map<string, { properties: Record<string, Property>; required: string[] }> {
  const expected = new Map<string, { properties: Record<string, Property>; required: string[] }>();
  for (const [token, resource] of Object.entries<any>(schema.resources))
    expected.set(`${typeName(token)}Args`, {
      properties: resource.inputProperties ?? {},
      required: resource.requiredInputs ?? [],
    });
  expected.set("ProviderArgs", {
    properties: schema.provider.inputProperties ?? {},
    required: schema.provider.requiredInputs ?? [],
  });
  for (const [token, fn] of Object.entries<any>(schema.functions)) {
    const inputs = { properties: fn.inputs?.properties ?? {}, required: fn.inputs?.required ?? [] };
    expected.set(`${upperFirst(typeName(token))}Args`, inputs);
    expected.set(`${upperFirst(typeName(token))}OutputArgs`, inputs);
  }
  // The object types that inputs use, directly or inside another type: types.input.XArgs.
  const refs = (props: Record<string, Property>): string[] =>
    Object.values(props).flatMap((p) =>
      [p, p.items, p.additionalProperties, ...(p.oneOf ?? [])]
        .filter((q) => q?.$ref?.startsWith("#/types/"))
        .map((q) => q.$ref.replace(/^#\/types\//, "")),
    );
  const pending = [...expected.values()].flatMap((e) => refs(e.properties));
  for (let token = pending.pop(); token !== undefined; token = pending.pop()) {
    const name = `${typeName(token)}Args`;
    if (expected.has(name)) continue;
    const type = schema.types[token];
    if (!type) throw new Error(`schema.json refers to ${token}, which it does not define`);
    expected.set(name, { properties: type.properties ?? {}, required: type.required ?? [] });
    pending.push(...refs(type.properties ?? {}));
  }
  return expected;
}

/** Every way the declared argument interfaces differ from schema.json's inputs, one line each. */
export function argsMismatches(schema: any, declared: Declared): string[] {
  const problems: string[] = [];
  const expected = expectedArgs(schema);
  for (const [name, { properties, required }] of expected) {
    const props = declared.get(name);
    if (!props) {
      problems.push(`${name}: not declared by the SDK`);
      continue;
    }
    const missing = Object.keys(properties).filter((p) => !props.has(p));
    const extra = [...props.keys()].filter((p) => !(p in properties));
    if (missing.length) problems.push(`${name}: schema inputs missing from the SDK: ${missing.join(", ")}`);
    if (extra.length) problems.push(`${name}: SDK properties the schema does not have: ${extra.join(", ")}`);
    for (const [prop, spec] of Object.entries(properties)) {
      const got = props.get(prop);
      if (!got) continue;
      if (got.optional === required.includes(prop))
        problems.push(`${name}.${prop}: ${required.includes(prop) ? "required" : "optional"} in the schema`);
      for (const text of expectedTypeTexts(spec))
        if (!got.type.includes(text)) problems.push(`${name}.${prop}: type ${got.type} lacks ${text}`);
    }
  }
  for (const name of declared.keys())
    if (!expected.has(name)) problems.push(`${name}: declared by the SDK, not an input of the schema`);
  return problems;
}
