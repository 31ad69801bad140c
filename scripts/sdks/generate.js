#!/usr/bin/env node
// `npm run sdks`: the plugin's SDKs from schema.json, with Pulumi's own code generators:
//   sdk/native/nodejs   the Node.js SDK (npm package pulumi-frontdoor-native; built by build-nodejs.js)
//   sdk/native/go       the Go SDK module (frontdoor.local/sdk/go; Go programs use it through a replace)
//   sdk/native/python   the Python SDK (package pulumi_frontdoor; byte-compiled here, never run: no PyPI)
// The generator (scripts/sdkgen, a Go program over pkg/v3's codegen) is built and cached like the
// real peers (scripts/peers/install.js). `node scripts/sdks/generate.js <out dir>` writes elsewhere:
// test/sdk-native.test.ts regenerates into a temp dir and compares with what is committed.

const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const generator = path.join(root, ".peers", "bin", "pulumi-frontdoor-sdkgen");

/** Writes the three SDKs into `out` (each language's folder replaced) and byte-compiles the Python one. */
function generate(out) {
  execFileSync(generator, [path.join(root, "schema.json"), out], { stdio: "inherit" });
  byteCompile(path.join(out, "python"));
}

/**
 * `python3 -m compileall`: every generated module must at least parse and compile. The bytecode goes
 * to a temp dir (PYTHONPYCACHEPREFIX), not into __pycache__ folders beside the sources.
 */
function byteCompile(dir) {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-pycache-"));
  try {
    execFileSync("python3", ["-m", "compileall", "-q", dir], {
      stdio: "inherit",
      env: { ...process.env, PYTHONPYCACHEPREFIX: cache },
    });
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

function main() {
  // Builds the generator when its wrapper module changed (cached otherwise), as `npm run peers` does.
  execFileSync(
    process.execPath,
    [path.join(root, "scripts", "peers", "install.js"), "pulumi-frontdoor-sdkgen"],
    {
      stdio: "inherit",
    },
  );
  if (!fs.existsSync(generator)) {
    process.stderr.write("sdks: the generator needs Go (see `npm run peers`)\n");
    process.exit(1);
  }
  const out = path.resolve(process.argv[2] ?? path.join(root, "sdk", "native"));
  generate(out);
  process.stdout.write(`sdks: nodejs, go and python written to ${out}\n`);
  // Generation replaced sdk/native/nodejs, its build output included: build it again.
  if (!process.argv[2])
    execFileSync(process.execPath, [path.join(__dirname, "build-nodejs.js")], { stdio: "inherit" });
}

if (require.main === module) main();
module.exports = { generate, byteCompile };
