#!/usr/bin/env node
// Builds the generated Node.js SDK (sdk/native/nodejs) the way Pulumi's own provider repositories
// do: `tsc` with the SDK's generated tsconfig into its bin/, then package.json and README.md copied
// into bin/ (the SDK reads its version, which is the plugin version it asks the engine for, from
// ./package.json beside its compiled files). bin/ is then the package: `npm install <dir>/bin`, or,
// inside this repository, the copy this script installs into node_modules/pulumi-frontdoor-native
// for examples/ts-native and the tests (as scripts/install-local.js does for the dynamic SDK).
// The installed copy carries the stamp of the sources it was built from (generate.js), so that
// `npm run build` rebuilds it only when they changed. sdk/native is not in git: where it was never
// generated (no Go, so no generator), `npm run build` says so and goes on without it.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const sdk = path.join(root, "sdk", "native", "nodejs");
const out = path.join(sdk, "bin");
const installed = path.join(root, "node_modules", "pulumi-frontdoor-native");
// generate.js writes it beside the SDK folders; the installed copy keeps the one it was built from.
const STAMP = ".generated-from";
const sourcesStamp = path.join(root, "sdk", "native", STAMP);

const readStamp = (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : undefined);

/** The stamp of the sources the installed Node.js SDK was built from, if one is installed. */
function installedStamp() {
  return readStamp(path.join(installed, STAMP));
}

/**
 * Compiles a generated Node.js SDK (a folder inside this repository, so that its imports resolve from
 * the root node_modules) into its bin/, the package: answers bin/.
 */
function compile(sdkDir) {
  const bin = path.join(sdkDir, "bin");
  fs.rmSync(bin, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "-p", path.join(sdkDir, "tsconfig.json")],
    {
      stdio: "inherit",
    },
  );
  for (const file of ["package.json", "README.md"])
    fs.copyFileSync(path.join(sdkDir, file), path.join(bin, file));
  return bin;
}

function buildNodejs() {
  const { name } = JSON.parse(fs.readFileSync(path.join(sdk, "package.json"), "utf8"));
  if (path.join(root, "node_modules", name) !== installed)
    throw new Error(`sdk/native/nodejs is package ${name}, not pulumi-frontdoor-native`);
  compile(sdk);
  if (fs.existsSync(sourcesStamp)) fs.copyFileSync(sourcesStamp, path.join(out, STAMP));
  fs.rmSync(installed, { recursive: true, force: true });
  fs.cpSync(out, installed, { recursive: true });
  process.stdout.write(`sdks: ${name} built and installed into ${installed}\n`);
}

function main() {
  if (!fs.existsSync(path.join(sdk, "package.json"))) {
    process.stdout.write(
      "sdks: sdk/native/nodejs is not generated (the generator needs Go: `npm run peers`), so " +
        "pulumi-frontdoor-native is not built; its tests and examples will skip, loudly\n",
    );
    return;
  }
  const stamp = readStamp(sourcesStamp);
  if (stamp !== undefined && stamp === installedStamp()) {
    process.stdout.write("sdks: pulumi-frontdoor-native is up to date with sdk/native/nodejs\n");
    return;
  }
  buildNodejs();
}

if (require.main === module) main();
module.exports = { buildNodejs, compile, installedStamp };
