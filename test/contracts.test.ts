// The contract copies in test/contracts/ must be the shared specifications, byte for byte, wherever
// the shared folder is beside the checkout (it is on the developers' machines and in CI).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { skipBecause } from "./support/skip";

const shared = path.resolve(__dirname, "..", "..", "shared", "specs");

describe("contract copies", () => {
  for (const file of [
    "openziti-edge-management.json",
    "pulumi-package-metaschema.json",
    "frontdoor-management-api.md",
    "edge-api-and-event-queries.md",
  ]) {
    it(`test/contracts/${file} is the shared spec`, function () {
      // CI lays shared/ beside its clone: there a missing spec fails; elsewhere it skips, loudly.
      if (!fs.existsSync(path.join(shared, file)))
        skipBecause(this, `${path.join(shared, file)} is not there (no shared/ beside this checkout)`);
      const copy = fs.readFileSync(path.join(__dirname, "contracts", file));
      assert.ok(
        copy.equals(fs.readFileSync(path.join(shared, file))),
        `${file} differs from ../shared/specs`,
      );
    });
  }
});
