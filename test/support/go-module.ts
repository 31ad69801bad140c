// A Go module over the plugin's generated Go SDK (sdk/native/go), for a Go program written or copied
// outside examples/go-edge: that example's go.mod and go.sum (its go.sum pins every dependency, its
// replace names the SDK's module path), with the replace pointing at the SDK by absolute path instead
// of the example's relative one. The one place the suites derive a Go program's module from.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../peers/index";

const EXAMPLE = path.join(REPO_ROOT, "examples", "go-edge");
export const GO_SDK = path.join(REPO_ROOT, "sdk", "native", "go");

/** Writes go.mod and go.sum into `dir`: examples/go-edge's, named `module` when given. */
export function writeGoModule(dir: string, module?: string): void {
  let goMod = fs
    .readFileSync(path.join(EXAMPLE, "go.mod"), "utf8")
    .replace(/=> \.\.\/\.\.\/sdk\/native\/go$/m, `=> ${GO_SDK}`);
  if (!goMod.includes(`=> ${GO_SDK}`))
    throw new Error(`${EXAMPLE}/go.mod: no replace to ../../sdk/native/go`);
  if (module) goMod = goMod.replace(/^module .*$/m, `module ${module}`);
  fs.writeFileSync(path.join(dir, "go.mod"), goMod);
  fs.copyFileSync(path.join(EXAMPLE, "go.sum"), path.join(dir, "go.sum"));
}
