// The harness does what the real CLI does with a program folder: the Pulumi CLI's Node.js language
// host runs nothing without a package.json and reports success with an empty stack (seen with pulumi
// 3.259 on examples/gitops, which lacked one); the harness refuses such a folder, saying why.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";

describe("harness: a program folder without package.json", () => {
  it("is refused with a message naming the missing file, and nothing runs", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "no-package-json-"));
    try {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: no-package-json\nruntime: nodejs\n");
      fs.writeFileSync(path.join(dir, "index.ts"), 'throw new Error("the program ran");\n');
      const result = await runHarness("up", { programDir: dir, stateFile: path.join(dir, "state.json") });
      assert.notEqual(result.exitCode, 0);
      const text = `${result.stdout}\n${result.stderr}`;
      assert.match(text, /no package\.json in .*the Pulumi CLI would run nothing there/);
      assert.doesNotMatch(text, /the program ran/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
