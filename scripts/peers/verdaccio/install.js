// Verdaccio 6, a real npm registry server, for the suites that publish the release's npm packages
// and install them by name (test/release-registry.test.ts). It lives in this folder with its own
// package.json and lockfile (about 60 MB of packages that neither the provider nor its other tests
// need); `npm run peers` calls ensure(), which runs `npm ci` here when the lockfile changed since the
// last install (the stamp in node_modules). Pinned to 6.8.0 with node-fetch 2.7.0: Verdaccio 6.10
// wants Node 22, and its default node-fetch range does not install on this npm.
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const STAMP = path.join(__dirname, "node_modules", ".installed-from");

function lockHash() {
  return crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(__dirname, "package-lock.json")))
    .digest("hex");
}

/** The verdaccio package folder when installed from the current lockfile, else undefined. */
function installed() {
  return fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8").trim() === lockHash()
    ? path.join(__dirname, "node_modules", "verdaccio")
    : undefined;
}

function ensure() {
  if (installed()) {
    process.stdout.write("peers: verdaccio: installed\n");
    return;
  }
  process.stdout.write("peers: verdaccio: npm ci in scripts/peers/verdaccio\n");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: __dirname,
    stdio: "inherit",
  });
  fs.writeFileSync(STAMP, `${lockHash()}\n`);
}

if (require.main === module) ensure();
module.exports = { ensure, installed };
