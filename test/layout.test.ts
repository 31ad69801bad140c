// The architecture as the file tree shows it (docs/guides/how-it-works.md): the mock and the harness are products in
// folders of their own, the mock is an independent implementation of the contracts (nothing from
// provider/ or sdk/), the harness knows the provider only through the programs it runs, and test/
// holds tests and their helpers only.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..");

/** Files under `dir` whose names match `pattern`, leaving out what is not ours or not written by hand. */
function filesUnder(dir: string, pattern: RegExp): string[] {
  const skipped = new Set(["node_modules", "native", "contracts", "mutation", "bin", ".peers", "verdaccio"]);
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) out.push(...filesUnder(rel, pattern));
    } else if (pattern.test(entry.name)) out.push(rel);
  }
  return out;
}

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourcesUnder(rel));
    else if (/\.(ts|js)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** Every module a file names in an import, export-from or require, resolved against the repository root. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)"([^"]+)"/g)].map((m) => m[1]);
  return specifiers
    .filter((s) => s.startsWith("."))
    .map((s) => path.relative(root, path.resolve(root, path.dirname(file), s)));
}

function crossings(dir: string, forbidden: string[]): string[] {
  return sourcesUnder(dir).flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.some((f) => target === f || target.startsWith(`${f}/`)))
      .map((target) => `${file} -> ${target}`),
  );
}

describe("repository layout", () => {
  it("the mock imports nothing from provider/, sdk/ or harness/ (an independent implementation)", () => {
    assert.deepEqual(crossings("mock", ["provider", "sdk", "harness"]), []);
  });

  it("the mock reaches into test/ only for the optional swagger checks", () => {
    const intoTest = crossings("mock", ["test"]);
    assert.deepEqual(intoTest, ["mock/edge/index.ts -> test/conformance/swagger"]);
  });

  it("the harness imports nothing from provider/, sdk/, mock/ or test/ (it knows the provider through the program)", () => {
    assert.deepEqual(crossings("harness", ["provider", "sdk", "mock", "test"]), []);
  });

  it("provider/ and sdk/ import nothing from the mock, the harness or the tests", () => {
    assert.deepEqual(crossings("provider", ["mock", "harness", "test"]), []);
    assert.deepEqual(crossings("sdk", ["mock", "harness", "test"]), []);
  });

  it("the mock and the harness each have a README saying what they are", () => {
    for (const dir of ["mock", "harness"]) {
      const readme = fs.readFileSync(path.join(root, dir, "README.md"), "utf8");
      assert.match(readme, /\*\*Imports\*\*/, `${dir}/README.md says what it imports`);
      assert.match(readme, /\*\*Imported by\*\*/, `${dir}/README.md says what imports it`);
    }
  });

  it("test/ holds no product entry point (no server, no CLI of the products)", () => {
    for (const gone of ["test/mock", "test/harness"])
      assert.equal(fs.existsSync(path.join(root, gone)), false, gone);
  });

  it("no shipped path has `test` in it", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    const shipped = JSON.stringify([pkg.main, pkg.types, pkg.exports, pkg.bin, pkg.files]);
    assert.doesNotMatch(shipped, /\btest\//);
    const mockEntry = JSON.parse(fs.readFileSync(path.join(root, "mock", "package.json"), "utf8"));
    assert.doesNotMatch(JSON.stringify(mockEntry), /\btest\//);
  });

  it("sources and docs cite only what the repository holds (no design notes, issue numbers or machine paths)", () => {
    // Built from pieces, so that this test does not find itself.
    const outside = [
      ["a design document outside the repository", new RegExp(["DESIGN", "\\.md"].join(""))],
      ["an issue number of the tracker", new RegExp(["\\b[Ii]ssue", " #?\\d+"].join(""))],
      ["a machine path", new RegExp(["/w", "ork/|/ro", "ot/|/ch", "eck/"].join(""))],
      [
        'a "seed" document (the API descriptions are test/contracts/*.md)',
        new RegExp(["\\bthe ", "seed\\b"].join(""), "i"),
      ],
    ] as const;
    const files = [
      ...["provider", "sdk", "mock", "harness", "scripts", "bench", "test", "docs", "examples"].flatMap(
        (dir) => filesUnder(dir, /\.(ts|js|md|yaml|go)$/),
      ),
      "README.md",
    ];
    // Files the mutation step re-tests when their text changes (test/mutation/groups.json): their
    // comments are reworded with the next change that re-runs those groups anyway, not before.
    const rewordedWithTheNextMutationRun = new Set([
      "provider/functions/certificates.ts",
      "provider/functions/events.ts",
      "test/certificate-token-answers.test.ts",
      "test/core-engine-survivors.test.ts",
      "test/core-engine.test.ts",
      "test/core-http-client-wire.test.ts",
      "test/core-http-client.test.ts",
      "test/core-operations.test.ts",
      "test/core-resource.test.ts",
      "test/core-retry.test.ts",
      "test/core-shape.test.ts",
      "test/core-stored-inputs.test.ts",
      "test/core-survivors-rest.test.ts",
      "test/lookups-frontdoor.test.ts",
    ]);
    const found = files
      .filter((file) => !rewordedWithTheNextMutationRun.has(file))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(root, file), "utf8")
          .split("\n")
          .flatMap((line, i) =>
            outside.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${i + 1}: ${what}`),
          ),
      );
    assert.deepEqual(found, []);
  });
});
