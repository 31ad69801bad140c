// The plugin's SDKs (sdk/native/{nodejs,go,python}) are generated from schema.json by Pulumi's own
// code generators (`npm run sdks`, scripts/sdkgen); they are a build product, not in git, and the
// fixture (useNativeSdks) regenerates them when schema.json changed. Here, that they and schema.json
// agree: generation is deterministic and sdk/native is what the current schema generates; the
// Node.js SDK declares every resource, function and input property of the schema (read from the
// schema JSON, not from the provider's code), compiles with tsc and exports every kind and function;
// examples/ts-native type-checks against it; the Go SDK passes `go vet`; the Python SDK byte-compiles
// (it is never run here: no PyPI). Without Go (no generator) the suite skips, loudly.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { REPO_ROOT } from "./peers";
import { useNativeSdks } from "./support/fixtures";
import { argsMismatches, declaredArgs } from "./support/nativeSdk";
import { skipBecause } from "./support/skip";

const { generate, byteCompile, hasPython, STAMP, NATIVE } = require("../scripts/sdks/generate.js") as {
  generate: (out: string) => void;
  byteCompile: (dir: string) => void;
  hasPython: () => boolean;
  STAMP: string;
  NATIVE: string;
};

/** Every file under `dir`, relative, sorted; build output, caches and the stamp are not part of the SDK. */
function tree(dir: string, under = ""): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const rel = path.join(under, entry.name);
    if (entry.isDirectory()) {
      if (["node_modules", "__pycache__"].includes(entry.name) || rel === path.join("nodejs", "bin"))
        continue;
      files.push(...tree(dir, rel));
    } else if (rel !== STAMP) files.push(rel);
  }
  return files.sort();
}

/** The files of `b` whose bytes differ from the same file of `a` (both trees have the same list). */
function differing(a: string, b: string): string[] {
  return tree(a).filter((f) => !fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f))));
}

/** `frontdoor:index:AuthProvider` -> `AuthProvider`; functions keep their (camel-case) name. */
const member = (token: string) => token.split(":")[2];

describe("the plugin's generated SDKs (sdk/native)", function () {
  this.timeout(600_000);
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
  let scratch: string;

  useNativeSdks("schema.json and the generated SDKs are not compared");
  before(() => {
    // Inside the repository (a git-ignored folder), so that the compiled SDK resolves @pulumi/pulumi.
    scratch = path.join(REPO_ROOT, "test", "programs", `.work-sdk-native-${process.pid}`);
    fs.mkdirSync(scratch, { recursive: true });
  });
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("are generated deterministically, and sdk/native is what the current schema.json generates", () => {
    const [first, second] = ["first", "second"].map((name) => path.join(scratch, name));
    generate(first);
    generate(second);
    assert.deepEqual(tree(second), tree(first), "two generations wrote different file lists");
    assert.deepEqual(differing(first, second), [], "two generations from one schema.json differ");
    assert.deepEqual(
      tree(NATIVE),
      tree(first),
      "sdk/native has another file list than schema.json generates",
    );
    assert.deepEqual(
      differing(first, NATIVE),
      [],
      "sdk/native is stale: these files differ from a generation",
    );
  });

  it("ask the engine for the plugin of the schema's name and version", () => {
    // The plugin's download URL too (schema.json's pluginDownloadURL): the CLI fetches the plugin from it.
    const expected = {
      resource: true,
      name: schema.name,
      version: schema.version,
      server: schema.pluginDownloadURL,
    };
    const nodePackage = JSON.parse(fs.readFileSync(path.join(NATIVE, "nodejs", "package.json"), "utf8"));
    assert.equal(nodePackage.name, schema.language.nodejs.packageName);
    assert.deepEqual(nodePackage.pulumi, expected);
    for (const file of ["go/frontdoor/pulumi-plugin.json", "python/pulumi_frontdoor/pulumi-plugin.json"])
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(NATIVE, file), "utf8")), expected, file);
    const goMod = fs.readFileSync(path.join(NATIVE, "go", "go.mod"), "utf8");
    assert.match(goMod, new RegExp(`^module ${path.posix.dirname(schema.language.go.importBasePath)}$`, "m"));
  });

  describe("Node.js", () => {
    it("declares every input of schema.json: each resource's, the provider's, each function's and object type's properties, optionality and type", () => {
      const declared = declaredArgs(path.join(NATIVE, "nodejs"));
      assert.deepEqual(argsMismatches(schema, declared), []);
      // Every resource and function has its interface (the comparison above covers them all).
      assert.ok(declared.has("IdentityArgs") && declared.has("GetIdentityOutputArgs"));
    });

    it("would notice an SDK that disagrees with schema.json (the comparison itself)", () => {
      const declared = declaredArgs(path.join(NATIVE, "nodejs"));
      const identity = (s: any) => s.resources["frontdoor:index:Identity"];
      // Each change of a copy of the schema, and what the comparison must then report.
      const cases: [(s: any) => void, string[]][] = [
        [
          (s) => Object.assign(identity(s).inputProperties, { nickname: { type: "string" } }),
          ["IdentityArgs: schema inputs missing from the SDK: nickname"],
        ],
        [(s) => identity(s).requiredInputs.push("isAdmin"), ["IdentityArgs.isAdmin: required in the schema"]],
        [
          (s) => Object.assign(identity(s).inputProperties, { isAdmin: { type: "string" } }),
          ["IdentityArgs.isAdmin: type pulumi.Input<boolean | undefined> lacks string"],
        ],
        [
          (s) => delete s.types["frontdoor:index:IdentityEnrollment"].properties.ott,
          ["IdentityEnrollmentArgs: SDK properties the schema does not have: ott"],
        ],
        [
          (s) => delete s.functions["frontdoor:index:getTopTalkers"],
          [
            "GetTopTalkersArgs: declared by the SDK, not an input of the schema",
            "GetTopTalkersOutputArgs: declared by the SDK, not an input of the schema",
          ],
        ],
      ];
      for (const [change, expected] of cases) {
        const copy = structuredClone(schema);
        change(copy);
        assert.deepEqual(argsMismatches(copy, declared), expected);
      }
    });

    it("compiles with tsc and exports every resource kind and function of the schema", () => {
      const out = path.join(scratch, "nodejs");
      execFileSync(
        process.execPath,
        [
          require.resolve("typescript/bin/tsc"),
          "-p",
          path.join(NATIVE, "nodejs", "tsconfig.json"),
          "--outDir",
          out,
        ],
        { stdio: "pipe" },
      );
      fs.copyFileSync(path.join(NATIVE, "nodejs", "package.json"), path.join(out, "package.json"));
      const sdk = require(path.join(out, "index.js"));
      for (const token of Object.keys(schema.resources)) {
        const kind = sdk[member(token)];
        assert.equal(typeof kind, "function", `${token} is not exported`);
        assert.equal(kind.__pulumiType, token, `${member(token)} registers another type`);
      }
      for (const token of Object.keys(schema.functions))
        assert.equal(typeof sdk[member(token)], "function", `${token} is not exported`);
      assert.equal(typeof sdk.Provider, "function", "no explicit provider resource");
    });

    it("examples/ts-native type-checks, strict, against it (the root typecheck leaves it out: the SDK is generated)", () => {
      const program = ts.createProgram([path.join(REPO_ROOT, "examples", "ts-native", "index.ts")], {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        strict: true,
        esModuleInterop: true,
        skipLibCheck: true,
        noEmit: true,
        types: ["node"],
        baseUrl: REPO_ROOT,
        paths: { "pulumi-frontdoor-native": [path.join(NATIVE, "nodejs", "index.ts")] },
      });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
      assert.deepEqual(errors, []);
      const sdkFile = program.getSourceFile(path.join(NATIVE, "nodejs", "identity.ts"));
      assert.ok(sdkFile, "the example was not checked against sdk/native/nodejs");
    });
  });

  it("Go: go vet passes on the SDK package (in examples/go-edge's module, whose go.sum pins its dependencies)", () => {
    execFileSync("go", ["vet", `${schema.language.go.importBasePath}`], {
      cwd: path.join(REPO_ROOT, "examples", "go-edge"),
      stdio: "pipe",
      env: { ...process.env, GOFLAGS: "-mod=readonly" },
    });
  });

  it("Python: every module byte-compiles and registers every resource kind (not run here: no PyPI)", function () {
    if (!hasPython()) skipBecause(this, "python3 not found, so the Python SDK is not byte-compiled");
    const python = path.join(NATIVE, "python", "pulumi_frontdoor");
    byteCompile(python);
    // The package registers its resource classes by token in __init__.py (for rehydrating resources).
    const init = fs.readFileSync(path.join(python, "__init__.py"), "utf8");
    const registered = JSON.parse(/resource_modules="""([\s\S]*?)"""/.exec(init)?.[1] ?? "[]");
    const classes: Record<string, string> = Object.assign({}, ...registered.map((m: any) => m.classes));
    assert.deepEqual(Object.keys(classes).sort(), Object.keys(schema.resources).sort());
    const sources = tree(python)
      .filter((f) => f.endsWith(".py"))
      .map((f) => fs.readFileSync(path.join(python, f), "utf8"))
      .join("\n");
    for (const [token, name] of Object.entries(classes))
      assert.match(
        sources,
        new RegExp(`^class ${name}\\(pulumi\\.CustomResource\\):`, "m"),
        `${token}: no class`,
      );
  });
});
