#!/usr/bin/env node
// `npm run sdks`: the plugin's SDKs from schema.json, with Pulumi's own code generators:
//   sdk/native/nodejs   the Node.js SDK (npm package pulumi-frontdoor-native; built by build-nodejs.js)
//   sdk/native/go       the Go SDK module (github.com/<repository>/sdk/go from package.json; in this
//                       repository Go programs use it through a replace; a release publishes it)
//   sdk/native/python   the Python SDK (package pulumi_frontdoor; byte-compiled here, never run: no PyPI)
// sdk/native/ is a build product, not in git: `npm run peers` ends by calling ensure(), and the tests
// that need the SDKs call it through useNativeSdks() (test/support/fixtures.ts). ensure() regenerates
// only when schema.json or the generator changed since the last generation (the stamp file), and
// rebuilds the installed Node.js SDK only when it was built from other sources.
// The generator (scripts/sdkgen, a Go program over pkg/v3's codegen) is built and cached like the
// real peers (scripts/peers/install.js). `node scripts/sdks/generate.js <out dir>` writes elsewhere,
// always; `--force` regenerates sdk/native even when it is up to date.

const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { buildNodejs, installedStamp } = require("./build-nodejs.js");

const root = path.resolve(__dirname, "..", "..");
const generator = path.join(root, ".peers", "bin", "pulumi-frontdoor-sdkgen");
const native = path.join(root, "sdk", "native");
// Beside the three SDK folders: what they were generated from (see stamp()).
const STAMP = ".generated-from";

function log(message) {
  process.stdout.write(`sdks: ${message}\n`);
}

/** Whether the generator peer is linked (`npm run peers` builds it when Go is installed). */
function generatorBuilt() {
  return fs.existsSync(generator);
}

/**
 * What decides the generated code: schema.json's bytes and the generator binary. The peers cache
 * names each build by a hash of its wrapper module and the Go version, so the link's target stands
 * for the generator's version.
 */
function stamp() {
  return crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(root, "schema.json")))
    .update(`\0${fs.realpathSync(generator)}`)
    .digest("hex")
    .slice(0, 16);
}

/** Writes the three SDKs into `out` (each language's folder replaced) and byte-compiles the Python one. */
function generate(out) {
  execFileSync(generator, [path.join(root, "schema.json"), out], { stdio: "inherit" });
  byteCompile(path.join(out, "python"));
}

/** Whether python3 runs here (the Python SDK is byte-compiled only where it does). */
function hasPython() {
  return spawnSync("python3", ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * `python3 -m compileall`: every generated module must at least parse and compile. The bytecode goes
 * to a temp dir (PYTHONPYCACHEPREFIX), not into __pycache__ folders beside the sources. Without
 * python3 it says so and does nothing.
 */
function byteCompile(dir) {
  if (!hasPython()) {
    log(`python3 not found: ${dir} not byte-compiled`);
    return;
  }
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

/**
 * sdk/native up to date with schema.json and the generator, and the Node.js SDK built and installed
 * (node_modules/pulumi-frontdoor-native) from it. Needs the generator (check generatorBuilt()).
 * Answers what it had to do.
 */
function ensure({ force = false } = {}) {
  const want = stamp();
  const stampFile = path.join(native, STAMP);
  const current = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, "utf8").trim() : undefined;
  const regenerate = force || current !== want;
  if (regenerate) {
    // The stamp goes first and comes back last: an interrupted generation is never taken as done.
    fs.rmSync(stampFile, { force: true });
    generate(native);
    fs.writeFileSync(stampFile, `${want}\n`);
    log(`nodejs, go and python generated into ${native}`);
  } else log(`${native} is up to date with schema.json`);
  // Generation replaced sdk/native/nodejs, its build output included; npm ci empties node_modules.
  const rebuild = regenerate || installedStamp() !== want;
  if (rebuild) buildNodejs();
  return { regenerated: regenerate, rebuilt: rebuild };
}

function main() {
  const args = process.argv.slice(2);
  // Builds the generator when its wrapper module changed (cached otherwise), as `npm run peers` does.
  execFileSync(
    process.execPath,
    [path.join(root, "scripts", "peers", "install.js"), "pulumi-frontdoor-sdkgen"],
    {
      stdio: "inherit",
    },
  );
  if (!generatorBuilt()) {
    process.stderr.write("sdks: the generator needs Go (see `npm run peers`)\n");
    process.exit(1);
  }
  const outDir = args.find((a) => !a.startsWith("--"));
  if (outDir) {
    generate(path.resolve(outDir));
    log(`nodejs, go and python written to ${path.resolve(outDir)}`);
  } else ensure({ force: args.includes("--force") });
}

if (require.main === module) main();
module.exports = { generate, byteCompile, hasPython, ensure, generatorBuilt, stamp, STAMP, NATIVE: native };
