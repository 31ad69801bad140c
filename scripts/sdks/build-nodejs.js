#!/usr/bin/env node
// Builds the generated Node.js SDK (sdk/native/nodejs) the way Pulumi's own provider repositories
// do: `tsc` with the SDK's generated tsconfig into its bin/, then package.json and README.md copied
// into bin/ (the SDK reads its version, which is the plugin version it asks the engine for, from
// ./package.json beside its compiled files). bin/ is then the package: `npm install <dir>/bin`, or,
// inside this repository, the copy this script installs into node_modules/pulumi-frontdoor-native
// for examples/ts-native and the tests (as scripts/install-local.js does for the dynamic SDK).
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const sdk = path.join(root, "sdk", "native", "nodejs");
const out = path.join(sdk, "bin");
const { name } = JSON.parse(fs.readFileSync(path.join(sdk, "package.json"), "utf8"));

fs.rmSync(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [require.resolve("typescript/bin/tsc"), "-p", path.join(sdk, "tsconfig.json")],
  {
    stdio: "inherit",
  },
);
for (const file of ["package.json", "README.md"]) fs.copyFileSync(path.join(sdk, file), path.join(out, file));

const installed = path.join(root, "node_modules", name);
fs.rmSync(installed, { recursive: true, force: true });
fs.cpSync(out, installed, { recursive: true });
