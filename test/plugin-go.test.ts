// A Go program over the provider plugin through the generated Go SDK (examples/go-edge), run by the
// real CLI and the Go language host (built from sdk/v3 v3.60.0; the program itself is built against
// sdk/v3 v3.259.0): the scenario of test/support/sdkProgram.ts. The host runs `go build` in the
// program's folder, from the module cache (and the module proxy when the cache is cold).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./peers/index";
import { describeSdkProgram } from "./support/sdkProgram";

describeSdkProgram({
  title: "Go program with the generated Go SDK, through the real CLI, the Go language host and the plugin",
  programDir: path.join(REPO_ROOT, "examples", "go-edge"),
  languageHost: "pulumi-language-go",
  namePrefix: "go-edge",
  // The work copy sits elsewhere in the tree than examples/go-edge: its replace points at the SDK by
  // absolute path instead of the example's relative one. (Without a replace, from a module proxy made
  // by the release: test/release-registry.test.ts.)
  prepare: (stack) => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
    const modulePath = path.posix.dirname(schema.language.go.importBasePath);
    execFileSync(
      "go",
      ["mod", "edit", `-replace=${modulePath}=${path.join(REPO_ROOT, "sdk", "native", "go")}`],
      {
        cwd: stack.dir,
      },
    );
  },
});
