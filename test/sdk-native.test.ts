// The plugin's SDKs (sdk/native/{nodejs,go,python}) are generated from schema.json by Pulumi's own
// code generators (`npm run sdks`, scripts/sdkgen). The committed trees must be exactly what the
// generator makes of the committed schema.json: regenerated into a temp dir and compared file for
// file. The Node.js SDK must compile and export every kind and function the schema names; the
// Python SDK must byte-compile (it is never run here: no PyPI). The Go SDK is built by the Go
// example's suite (test/plugin-go.test.ts). Without Go (no generator) the suite skips, loudly.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, requirePeers } from "./peers";

const NATIVE = path.join(REPO_ROOT, "sdk", "native");
const { generate, byteCompile } = require("../scripts/sdks/generate.js") as {
  generate: (out: string) => void;
  byteCompile: (dir: string) => void;
};

/** Every file under `dir`, relative, sorted; build output and caches are not part of the SDK. */
function tree(dir: string, under = ""): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const rel = path.join(under, entry.name);
    if (entry.isDirectory()) {
      if (["node_modules", "__pycache__"].includes(entry.name) || rel === path.join("nodejs", "bin"))
        continue;
      files.push(...tree(dir, rel));
    } else files.push(rel);
  }
  return files.sort();
}

/** `frontdoor:index:AuthProvider` -> `AuthProvider`; functions keep their (camel-case) name. */
const member = (token: string) => token.split(":")[2];

describe("the plugin's generated SDKs (sdk/native)", function () {
  this.timeout(600_000);
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
  let scratch: string;

  before(function () {
    requirePeers(this, "pulumi-frontdoor-sdkgen");
    // Inside the repository (a git-ignored folder), so that the compiled SDK resolves @pulumi/pulumi.
    scratch = path.join(REPO_ROOT, "test", "programs", `.work-sdk-native-${process.pid}`);
    fs.mkdirSync(scratch, { recursive: true });
  });
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("are exactly what schema.json generates (run `npm run sdks` and commit when this fails)", () => {
    const fresh = path.join(scratch, "generated");
    generate(fresh);
    const committed = tree(NATIVE);
    assert.deepEqual(
      committed,
      tree(fresh),
      "the generated file list differs: run `npm run sdks` and commit",
    );
    const differing = committed.filter(
      (file) => !fs.readFileSync(path.join(NATIVE, file)).equals(fs.readFileSync(path.join(fresh, file))),
    );
    assert.deepEqual(differing, [], "these files differ from what schema.json generates: run `npm run sdks`");
  });

  it("ask the engine for the plugin of the schema's name and version", () => {
    const expected = { resource: true, name: schema.name, version: schema.version };
    const nodePackage = JSON.parse(fs.readFileSync(path.join(NATIVE, "nodejs", "package.json"), "utf8"));
    assert.equal(nodePackage.name, schema.language.nodejs.packageName);
    assert.deepEqual(nodePackage.pulumi, expected);
    for (const file of ["go/frontdoor/pulumi-plugin.json", "python/pulumi_frontdoor/pulumi-plugin.json"])
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(NATIVE, file), "utf8")), expected, file);
    const goMod = fs.readFileSync(path.join(NATIVE, "go", "go.mod"), "utf8");
    assert.match(goMod, new RegExp(`^module ${path.posix.dirname(schema.language.go.importBasePath)}$`, "m"));
  });

  it("Node.js: compiles with tsc and exports every resource kind and function of the schema", () => {
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

  it("Python: every module byte-compiles and registers every resource kind (not run here: no PyPI)", () => {
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
