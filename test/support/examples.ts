// The example programs of the dynamic provider: those whose package.json depends on its SDK
// (pulumi-frontdoor). The plugin's examples (YAML, Go, the generated Node.js SDK) have suites of
// their own (test/plugin-*.test.ts), so the suites that cover "every example" cover these.
import * as fs from "node:fs";
import * as path from "node:path";

const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");

export function dynamicProviderExamples(): string[] {
  return fs.readdirSync(EXAMPLES).filter((dir) => {
    const manifest = path.join(EXAMPLES, dir, "package.json");
    if (!fs.existsSync(path.join(EXAMPLES, dir, "Pulumi.yaml")) || !fs.existsSync(manifest)) return false;
    const { dependencies = {} } = JSON.parse(fs.readFileSync(manifest, "utf8"));
    return "pulumi-frontdoor" in dependencies;
  });
}
