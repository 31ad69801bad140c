// The example programs under examples/, by language: the TypeScript ones of the dynamic provider run
// in the harness and CLI suites; the plugin's (YAML, Go, TypeScript over the generated SDK) in
// test/plugin-yaml.test.ts, test/plugin-go.test.ts and test/plugin-ts.test.ts; every one of them
// (both hosts, and the programs in an example's subfolders) in test/examples-policy.test.ts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

export const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");

/** Example directories whose Pulumi.yaml says `runtime: <runtime>`. */
export function exampleDirs(runtime: "nodejs" | "yaml" | "go"): string[] {
  return fs.readdirSync(EXAMPLES).filter((dir) => {
    const project = path.join(EXAMPLES, dir, "Pulumi.yaml");
    return (
      fs.existsSync(project) &&
      new RegExp(`^runtime:\\s*${runtime}\\s*$`, "m").test(fs.readFileSync(project, "utf8"))
    );
  });
}

/**
 * Every Pulumi program under examples/: each folder with a Pulumi.yaml, at any depth (an example's own
 * subfolder, as gitops/controller-setup), as its path below examples/ with "/" between the parts.
 */
export function allExamples(dir = EXAMPLES): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const sub = path.join(dir, entry.name);
    if (fs.existsSync(path.join(sub, "Pulumi.yaml")))
      found.push(path.relative(EXAMPLES, sub).split(path.sep).join("/"));
    found.push(...allExamples(sub));
  }
  return found;
}

/** The TypeScript examples of the dynamic provider: their package.json depends on its SDK, pulumi-frontdoor. */
export function dynamicProviderExamples(): string[] {
  return exampleDirs("nodejs").filter((dir) => {
    const manifest = path.join(EXAMPLES, dir, "package.json");
    if (!fs.existsSync(manifest)) return false;
    const { dependencies = {} } = JSON.parse(fs.readFileSync(manifest, "utf8"));
    return "pulumi-frontdoor" in dependencies;
  });
}

/**
 * A test that the suite's table of examples (`covered()`, read when the test runs) holds every
 * TypeScript example of the dynamic provider and no other: a new example cannot go unchecked.
 */
export function itCoversEveryDynamicProviderExample(covered: () => string[]): void {
  it("covers every TypeScript example of the dynamic provider", () => {
    // The plugin's examples (YAML, Go, TypeScript with the generated SDK) have suites of their own.
    assert.deepEqual(dynamicProviderExamples().sort(), covered().sort());
  });
}

/**
 * A test that the suite's table of examples (`covered()`, read when the test runs) holds every program
 * under examples/ (allExamples: both hosts, every language, subfolders too) and no other.
 */
export function itCoversEveryExample(covered: () => string[]): void {
  it("covers every example program under examples/ (dynamic provider and plugin, every language)", () => {
    assert.deepEqual(allExamples().sort(), covered().sort());
  });
}
