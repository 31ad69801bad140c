// A program that uses every resource and every function of schema.json through the package's public
// types, for type-checking a user's project (test/user-project.test.ts): a new kind cannot be left out.
/** Functions without an `...Output` variant, by design (see sdk/enrollment.ts: an ott is single-use). */
const WITHOUT_OUTPUT_VARIANT = new Set(["enrollIdentity"]);

const camel = (name: string) => name[0].toLowerCase() + name.slice(1);

/**
 * A program using every resource and function of schema.json: each resource declared with its Args
 * type and every output read, each function called (and its Output variant) and every result field
 * read. `@ts-expect-error` lines prove the types are real (not `any`): an unknown argument, a missing
 * required one and an unknown output must each be refused.
 */
export function everyTypeProgram(schema: any): string {
  const lines = [
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as frontdoor from "pulumi-frontdoor";',
    'import { startMockServer, type MockServer } from "pulumi-frontdoor/mock";',
    "",
    "export const mock: Promise<MockServer> = startMockServer({ tls: false });",
    "// @ts-expect-error: the mock's options are typed",
    'startMockServer({ port: "eighty" });',
  ];
  for (const [token, spec] of Object.entries<any>(schema.resources)) {
    const kind = token.split(":")[2];
    const v = camel(kind);
    lines.push(
      "",
      `declare const ${v}Args: frontdoor.${kind}Args;`,
      `const ${v} = new frontdoor.${kind}("${v}", ${v}Args, { protect: false });`,
      `export const ${v}Outputs: pulumi.Output<unknown>[] = [${v}.id, ${v}.urn, ${Object.keys(spec.properties)
        .map((p) => `${v}.${p}`)
        .join(", ")}];`,
      "// @ts-expect-error: the arguments are typed",
      `new frontdoor.${kind}("${v}-bad", { ...${v}Args, notAnInput: 1 });`,
      "// @ts-expect-error: the outputs are typed",
      `${v}.notAnOutput;`,
    );
    if (spec.requiredInputs.length)
      lines.push(
        `// @ts-expect-error: ${spec.requiredInputs.join(", ")} required`,
        `new frontdoor.${kind}("${v}-empty", {});`,
      );
  }
  for (const [token, spec] of Object.entries<any>(schema.functions)) {
    const fn = token.split(":")[2];
    const fields = Object.keys(spec.outputs.properties);
    const read = `(r) => [${fields.map((f) => `r.${f}`).join(", ")}]`;
    lines.push(
      "",
      `declare const ${fn}Args: Parameters<typeof frontdoor.${fn}>[0] & {};`,
      `export const ${fn}Result: Promise<unknown[]> = frontdoor.${fn}(${fn}Args).then(${read});`,
      "// @ts-expect-error: the arguments are typed",
      `frontdoor.${fn}({ ...${fn}Args, notAnArg: 1 });`,
      "// @ts-expect-error: the result is typed",
      `frontdoor.${fn}(${fn}Args).then((r) => r.notAField);`,
    );
    if (!WITHOUT_OUTPUT_VARIANT.has(fn))
      lines.push(
        `export const ${fn}Output: pulumi.Output<unknown[]> = frontdoor.${fn}Output(${fn}Args).apply(${read});`,
      );
  }
  return `${lines.join("\n")}\n`;
}
