// The example programs under examples/, by language: the TypeScript ones run on the dynamic provider
// (harness and CLI suites), the YAML ones on the provider plugin (test/plugin-yaml.test.ts).
import * as fs from "node:fs";
import * as path from "node:path";

export const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");

/** Example directories whose Pulumi.yaml says `runtime: <runtime>`. */
export function exampleDirs(runtime: "nodejs" | "yaml"): string[] {
  return fs.readdirSync(EXAMPLES).filter((dir) => {
    const project = path.join(EXAMPLES, dir, "Pulumi.yaml");
    return (
      fs.existsSync(project) &&
      new RegExp(`^runtime:\\s*${runtime}\\s*$`, "m").test(fs.readFileSync(project, "utf8"))
    );
  });
}
