// A Go program over the provider plugin through the generated Go SDK (examples/go-edge), run by the
// real CLI and the Go language host (built from sdk/v3 v3.60.0; the program itself is built against
// sdk/v3 v3.276.0): the scenario of test/support/sdkProgram.ts. The host runs `go build` in the
// program's folder, from the module cache (and the module proxy when the cache is cold).
import * as path from "node:path";
import { REPO_ROOT } from "./peers/index";
import { writeGoModule } from "./support/go-module";
import { describeSdkProgram } from "./support/sdkProgram";

describeSdkProgram({
  title: "Go program with the generated Go SDK, through the real CLI, the Go language host and the plugin",
  programDir: path.join(REPO_ROOT, "examples", "go-edge"),
  languageHost: "pulumi-language-go",
  namePrefix: "go-edge",
  // The work copy sits elsewhere in the tree than examples/go-edge: its replace points at the SDK by
  // absolute path instead of the example's relative one.
  prepare: (stack) => writeGoModule(stack.dir),
});
