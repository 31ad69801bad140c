// The reference pages' examples in the provider plugin's languages, and their per-language names, against
// what each SDK accepts. YAML: every block is checked against schema.json as Pulumi YAML reads it (each
// resource type and function exists, every property is one of its inputs with a value of its type, an
// enum value is one of its values, required inputs are set, every `${...}` names something declared).
// Go: every block (generated from the YAML) is compiled, all in ONE module, with `go vet` against the Go
// SDK generated from schema.json, and is laid out as gofmt lays it out. The Go and Python names in the
// property tables are the generated SDKs' own. And `tags` has one type in every layer: the Edge API's
// (string, boolean or null values), which zod checks, schema.json states as a map of Any (Pulumi's schema
// has no null), and the generated SDKs therefore accept.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { allowedValues } from "../provider/docs";
import { goName, pythonName } from "../provider/docsGo";
import { tags } from "../provider/resources/roles";
import { REPO_ROOT } from "./peers";
import { useNativeSdks } from "./support/fixtures";
import { writeGoModule } from "./support/go-module";
import { codeBlocks, markdownFiles } from "./support/markdown";

const yaml = require("js-yaml") as { load: (text: string) => any };
type Spec = Record<string, any>;

const schema: Spec = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
const pages = markdownFiles(REPO_ROOT, "docs/reference").map((file) => ({
  file,
  text: fs.readFileSync(path.join(REPO_ROOT, file), "utf8"),
}));
const blocks = (info: string) =>
  pages.flatMap(({ file, text }) =>
    codeBlocks(text)
      .filter((b) => b.info === info)
      .map((b) => ({ where: `${file}:${b.line}`, code: b.code })),
  );

const typeOf = (ref: string): Spec => schema.types[ref.slice("#/types/".length)];

/** What is wrong with `value` given for a property of `spec` (none: an empty list). */
function valueProblems(value: unknown, spec: Spec, where: string, declared: Set<string>): string[] {
  if (typeof value === "string" && value.includes("${")) {
    const names = [...value.matchAll(/\$\{([^}.]+)/g)].map((m) => m[1]);
    return names.filter((n) => !declared.has(n)).map((n) => `${where}: \${${n}...} is not declared`);
  }
  if (spec.oneOf) {
    const each = spec.oneOf.map((alt: Spec) => valueProblems(value, alt, where, declared));
    return each.some((p: string[]) => p.length === 0) ? [] : each.flat();
  }
  if (spec.$ref === "pulumi.json#/Any") return [];
  if (typeof spec.$ref === "string") return objectProblems(value, typeOf(spec.$ref), where, declared);
  const { values } = allowedValues(spec.description ?? "");
  if (values && !values.includes(String(value)))
    return [`${where}: ${JSON.stringify(value)} is not one of ${values.join(", ")}`];
  switch (spec.type) {
    case "array":
      if (!Array.isArray(value)) return [`${where}: not a list`];
      return value.flatMap((v, i) => valueProblems(v, spec.items, `${where}[${i}]`, declared));
    case "object":
      if (!value || typeof value !== "object" || Array.isArray(value)) return [`${where}: not a map`];
      return Object.entries(value).flatMap(([k, v]) =>
        valueProblems(
          v,
          spec.additionalProperties ?? { $ref: "pulumi.json#/Any" },
          `${where}.${k}`,
          declared,
        ),
      );
    case "integer":
      return Number.isInteger(value) ? [] : [`${where}: not an integer`];
    case "number":
    case "string":
    case "boolean":
      return typeof value === spec.type ? [] : [`${where}: not a ${spec.type}`];
    default:
      return [];
  }
}

/** Problems of an object given for a type, a resource's inputs or a function's arguments. */
function objectProblems(
  value: unknown,
  spec: Spec,
  where: string,
  declared: Set<string>,
  checkRequired = true,
): string[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [`${where}: not an object`];
  const properties: Spec = spec.inputProperties ?? spec.properties ?? {};
  const required: string[] = spec.requiredInputs ?? spec.required ?? [];
  const problems = Object.entries(value).flatMap(([key, v]) =>
    properties[key]
      ? valueProblems(v, properties[key], `${where}.${key}`, declared)
      : [`${where}: no property ${key}`],
  );
  if (checkRequired)
    for (const key of required) if (!(key in value)) problems.push(`${where}: ${key} is required`);
  return problems;
}

/** Problems of a YAML program against schema.json. */
function programProblems(program: Spec, where: string): string[] {
  const declared = new Set([...Object.keys(program.config ?? {}), ...Object.keys(program.variables ?? {})]);
  const problems: string[] = [];
  for (const [name, variable] of Object.entries<Spec>(program.variables ?? {})) {
    const invoke = variable["fn::invoke"];
    const fn = schema.functions[invoke?.function];
    if (!fn) problems.push(`${where}: ${name}: no function ${invoke?.function}`);
    else problems.push(...objectProblems(invoke.arguments ?? {}, fn.inputs, `${where}: ${name}`, declared));
  }
  for (const [name, resource] of Object.entries<Spec>(program.resources ?? {})) {
    const spec = schema.resources[resource.type];
    if (!spec) problems.push(`${where}: ${name}: no resource type ${resource.type}`);
    else if (resource.get)
      problems.push(...valueProblems(resource.get.id, { type: "string" }, name, declared));
    else problems.push(...objectProblems(resource.properties ?? {}, spec, `${where}: ${name}`, declared));
    declared.add(name);
  }
  for (const [name, value] of Object.entries(program.outputs ?? {}))
    problems.push(
      ...valueProblems(value, { $ref: "pulumi.json#/Any" }, `${where}: outputs.${name}`, declared),
    );
  return problems;
}

describe("the reference pages in the plugin's languages", () => {
  const yamlBlocks = blocks("yaml");
  const goBlocks = blocks("go");

  it("have a YAML and a Go example on every resource and function page", () => {
    for (const { file, text } of pages) {
      if (!/\/(resources|functions)\//.test(file)) continue;
      assert.match(text, /### YAML\n/, `${file} has no YAML example`);
      assert.match(text, /### Go\n/, `${file} has no Go example`);
    }
    assert.ok(
      yamlBlocks.length >= 46 && goBlocks.length === yamlBlocks.length,
      `${yamlBlocks.length} YAML blocks`,
    );
  });

  it("YAML: every block is a program that schema.json accepts (types, properties, enums, required inputs)", () => {
    const problems = yamlBlocks.flatMap((b) => programProblems(yaml.load(b.code), b.where));
    assert.deepEqual(problems, []);
    // The checker itself refuses a wrong property, a wrong enum value and a missing required input.
    const bad = yaml.load(
      "resources:\n  x:\n    type: frontdoor:index:ServicePolicy\n    properties:\n      nmae: x\n      type: Dail\n",
    );
    assert.deepEqual(programProblems(bad, "planted"), [
      "planted: x: no property nmae",
      'planted: x.type: "Dail" is not one of Dial, Bind',
      "planted: x: name is required",
    ]);
  });

  describe("Go", () => {
    useNativeSdks("the Go examples are not compiled");

    it("every block compiles (go vet, one module against sdk/native/go) and is gofmt's layout", function () {
      this.timeout(600_000);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-docs-go-"));
      try {
        writeGoModule(dir, "frontdoor.local/docs-examples");
        const where = new Map<string, string>();
        goBlocks.forEach((b, i) => {
          fs.mkdirSync(path.join(dir, `ex${i}`));
          fs.writeFileSync(
            path.join(dir, `ex${i}`, "main.go"),
            b.code.endsWith("\n") ? b.code : `${b.code}\n`,
          );
          where.set(`ex${i}`, b.where);
        });
        const unformatted = execFileSync("gofmt", ["-l", "."], { cwd: dir, encoding: "utf8" })
          .split("\n")
          .filter(Boolean)
          .map((f) => where.get(path.dirname(f)) ?? f);
        assert.deepEqual(unformatted, [], "not as gofmt lays it out");
        try {
          execFileSync("go", ["vet", "./..."], {
            cwd: dir,
            encoding: "utf8",
            stdio: "pipe",
            env: { ...process.env, GOFLAGS: "-mod=readonly" },
          });
        } catch (err) {
          const stderr = String((err as { stderr?: string }).stderr ?? err);
          assert.fail(stderr.replace(/\.\/ex(\d+)\//g, (_m, i) => `${where.get(`ex${i}`)} `));
        }
        // The check can fail: a misspelt field is refused.
        const model = goBlocks.findIndex((b) => /\bName: +pulumi/.test(b.code));
        fs.writeFileSync(
          path.join(dir, `ex${model}`, "main.go"),
          goBlocks[model].code.replace(/\bName: /, "Nmae: "),
        );
        assert.throws(
          () =>
            execFileSync("go", ["vet", `./ex${model}`], {
              cwd: dir,
              stdio: "pipe",
              env: { ...process.env, GOFLAGS: "-mod=readonly" },
            }),
          (err: { stderr?: Buffer }) => /unknown field Nmae/.test(String(err.stderr)),
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("the tables' Go and Python names are the generated SDKs' own, for every property they name", () => {
      const native = path.join(REPO_ROOT, "sdk", "native");
      const read = (dir: string, ext: string) =>
        fs
          .readdirSync(dir, { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(ext))
          .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
          .join("\n");
      // Go: every struct field carries its schema name, `Field Type \`pulumi:"name"\``.
      const goFields = [
        ...read(path.join(native, "go", "frontdoor"), ".go").matchAll(
          /^\s+([A-Z]\w*) +\S+ +`pulumi:"([^"]+)"`/gm,
        ),
      ];
      // Python: a getter names its schema property where the Python name differs.
      const pyGetters = [
        ...read(path.join(native, "python", "pulumi_frontdoor"), ".py").matchAll(
          /@pulumi\.getter\(name="([^"]+)"\)\s*\n\s*def (\w+)\(self\)/g,
        ),
      ];
      assert.ok(
        goFields.length > 500 && pyGetters.length > 200,
        `${goFields.length} Go fields, ${pyGetters.length} getters`,
      );
      const wrong = [
        ...goFields
          .filter(([, field, name]) => goName(name) !== field)
          .map(([, f, n]) => `Go ${n}: ${f}, docs ${goName(n)}`),
        ...pyGetters
          .filter(([, name, def]) => pythonName(name) !== def)
          .map(([, n, d]) => `Python ${n}: ${d}, docs ${pythonName(n)}`),
      ];
      assert.deepEqual([...new Set(wrong)], []);
    });

    it("tags: schema.json's map of Any is what the Node.js SDK declares, and zod admits exactly string, boolean, null", () => {
      for (const [token, spec] of Object.entries<Spec>(schema.resources)) {
        if (!spec.inputProperties.tags) continue;
        assert.deepEqual(spec.inputProperties.tags.additionalProperties, { $ref: "pulumi.json#/Any" }, token);
      }
      const identity = fs.readFileSync(
        path.join(REPO_ROOT, "sdk", "native", "nodejs", "identity.ts"),
        "utf8",
      );
      assert.match(identity, /tags\?: pulumi\.Input<\{\[key: string\]: any\} \| undefined>/);
      // The Edge API: "values are limited to the following types/values: null, string, boolean".
      assert.equal(tags.safeParse({ owner: "alice", managed: true, retired: null }).success, true);
      for (const refused of [{ n: 3 }, { o: { deep: "x" } }, { l: ["x"] }])
        assert.equal(tags.safeParse(refused).success, false, JSON.stringify(refused));
    });
  });
});
