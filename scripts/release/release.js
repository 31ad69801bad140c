#!/usr/bin/env node
// `npm run release -- <version> [--out <dir>] [--platforms <list>] [--plugin-standin] [--registry <url>]`
//
// One command for a release: sets <version> everywhere (version.js), moves CHANGELOG.md's Unreleased
// notes under it (changelog.js), builds every artifact into dist/ (or --out), writes SHA256SUMS and
// release.json (what the release workflow publishes), and checks them (checks.js). It exits non-zero
// on the first failure or with the list of problems the checks found.
//
// dist/ after a release of 1.2.3:
//   pulumi-frontdoor-1.2.3.tgz                 the dynamic provider (npm)
//   pulumi-frontdoor-native-1.2.3.tgz          the plugin's Node.js SDK (npm)
//   pulumi-resource-frontdoor-v1.2.3-<os>-<arch>.tar.gz   the plugin, one per platform
//   pulumi_frontdoor-1.2.3-py3-none-any.whl, pulumi_frontdoor-1.2.3.tar.gz   the Python SDK
//   goproxy/<module>/@v/{list,v1.2.3.info,v1.2.3.mod,v1.2.3.zip}   the Go SDK as a module proxy serves it
//   release.json, SHA256SUMS
//
// `--build-only` builds and checks the version package.json already has, changing no file of the
// checkout but build products (bin/, sdk/native/, dist/): what the tests run.
//
// The plugin binaries come from scripts/release/plugin-binaries.js (`--platforms` goes to it). Where
// that script is missing the release fails, unless --plugin-standin (tests only): the Node.js launcher
// tarball of `npm run plugin:package` then takes the binaries' place, named
// pulumi-resource-frontdoor-v<version>-standin-launcher.tar.gz, and release.json says standin: true.
// Needs the SDK generator (`npm run peers`, Go) and python3 (3.11+: tomllib).
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { releaseChangelog } = require("./changelog.js");
const { checkRelease, writeSums, SUMS } = require("./checks.js");
const { writeGoProxy } = require("./goproxy.js");
const { buildPython } = require("./python.js");
const { setVersion, checkVersion } = require("./version.js");
const { listFiles } = require("./zip.js");

const ROOT = path.resolve(__dirname, "..", "..");
const PLUGIN_BINARIES = path.join(__dirname, "plugin-binaries.js");

function log(message) {
  process.stdout.write(`release: ${message}\n`);
}

function parseArgs(argv) {
  const options = {
    out: path.join(ROOT, "dist"),
    platforms: undefined,
    standin: false,
    registry: undefined,
    buildOnly: false,
  };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out") options.out = path.resolve(argv[++i]);
    else if (arg === "--platforms") options.platforms = argv[++i];
    else if (arg === "--registry") options.registry = argv[++i];
    else if (arg === "--plugin-standin") options.standin = true;
    else if (arg === "--build-only") options.buildOnly = true;
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
    else rest.push(arg);
  }
  const current = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
  if (options.buildOnly && rest.length === 0) rest.push(current);
  if (rest.length !== 1)
    throw new Error("usage: npm run release -- <version> [--out <dir>] [--platforms <list>] [--build-only]");
  options.version = checkVersion(rest[0].replace(/^v/, ""));
  if (options.buildOnly && options.version !== current)
    throw new Error(`--build-only builds package.json's version ${current}, not ${options.version}`);
  return options;
}

function run(command, args, options = {}) {
  execFileSync(command, args, { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], ...options });
}

/** The release date: SOURCE_DATE_EPOCH (reproducible builds) or today, UTC. */
function releaseTime() {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return epoch ? new Date(Number(epoch) * 1000) : new Date();
}

/** `npm pack` of a package folder into `out`, without its scripts (everything is built already). */
function npmPack(dir, out) {
  const json = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out, dir], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(json.slice(json.indexOf("[")))[0].filename;
}

/**
 * Whether the plugin binaries' script is there (true), or the stand-in is asked for (false); throws
 * otherwise, before the release changes or builds anything.
 */
function pluginBinariesAvailable(options, script = PLUGIN_BINARIES) {
  if (fs.existsSync(script)) return true;
  if (options.standin) return false;
  throw new Error(
    `${path.relative(ROOT, script)} is missing: it builds the self-contained plugin binaries a ` +
      "release ships (docs/guides/releasing.md). Refusing to release without them.",
  );
}

function pluginArchives(options) {
  if (pluginBinariesAvailable(options)) {
    const args = [PLUGIN_BINARIES, "--version", options.version, "--out", options.out];
    if (options.platforms) args.push("--platforms", options.platforms);
    run(process.execPath, args);
    return false;
  }
  log("!!! STAND-IN: no plugin binaries script; the launcher tarball takes their place (tests only)");
  run(process.execPath, [path.join(ROOT, "scripts", "plugin.js"), "package"]);
  const made = path.join(ROOT, "dist", `pulumi-resource-frontdoor-v${options.version}.tgz`);
  const to = path.join(options.out, `pulumi-resource-frontdoor-v${options.version}-standin-launcher.tar.gz`);
  fs.copyFileSync(made, to);
  fs.rmSync(made);
  return true;
}

/** Sets the version everywhere and releases CHANGELOG.md's Unreleased notes under it. */
function prepare(options) {
  const { version } = options;
  const time = releaseTime();
  const changed = setVersion(ROOT, version);
  log(`version ${version} set in ${changed.length ? changed.join(", ") : "nothing (already set)"}`);

  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const repositoryUrl = manifest.homepage;
  const changelogFile = path.join(ROOT, "CHANGELOG.md");
  const changelog = fs.readFileSync(changelogFile, "utf8");
  const date = time.toISOString().slice(0, 10);
  const updated = releaseChangelog(changelog, { version, date, repositoryUrl });
  if (updated !== changelog) {
    fs.writeFileSync(changelogFile, updated);
    log(`CHANGELOG.md: Unreleased is now ${version} - ${date}`);
  }
}

/** Every artifact of package.json's version into options.out, SHA256SUMS, release.json, checked. */
function build(options) {
  const { version, out } = options;
  const time = releaseTime();

  const sdks = require("../sdks/generate.js");
  if (!sdks.generatorBuilt())
    throw new Error("the SDK generator is not built: run `npm run peers` (needs Go)");
  sdks.ensure();
  run("npm", ["run", "--silent", "build"]);

  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const nativeDir = path.join(ROOT, "sdk", "native", "nodejs", "bin");
  // The stamp build-nodejs.js leaves beside the built SDK says what it was built from: not for users.
  fs.writeFileSync(path.join(nativeDir, ".npmignore"), ".generated-from\n");
  const npm = [npmPack(ROOT, out), npmPack(nativeDir, out)];
  const standin = pluginArchives(options);
  const go = writeGoProxy({
    moduleDir: path.join(ROOT, "sdk", "native", "go"),
    version,
    proxyDir: path.join(out, "goproxy"),
    time,
  });
  const python = buildPython(path.join(ROOT, "sdk", "native", "python"), out);
  const goTagPrefix = path.posix.relative(`${go.modulePath.split("/").slice(0, 3).join("/")}`, go.modulePath);
  const record = {
    version,
    tag: `v${version}`,
    npm,
    plugins: fs.readdirSync(out).filter((f) => f.startsWith("pulumi-resource-frontdoor-")),
    standin,
    go: { module: go.modulePath, tag: `${goTagPrefix}/v${version}`, zip: path.relative(out, go.zip) },
    python: {
      wheel: path.basename(python.wheel),
      sdist: path.basename(python.sdist),
      project: python.project,
    },
  };
  fs.writeFileSync(path.join(out, "release.json"), `${JSON.stringify(record, null, 2)}\n`);
  writeSums(out);

  const problems = checkRelease(out, { registry: options.registry });
  if (problems.length) throw new Error(`the release in ${out} does not check:\n  ${problems.join("\n  ")}`);
  for (const file of [...listFiles(out).filter((f) => f !== SUMS), SUMS])
    log(`${file} (${fs.statSync(path.join(out, file)).size} bytes)`);
  log(
    `v${version} built and checked in ${out}${standin ? " (STAND-IN plugin archive: not for publishing)" : ""}`,
  );
  return record;
}

function release(options) {
  pluginBinariesAvailable(options);
  if (!options.buildOnly) prepare(options);
  return build(options);
}

if (require.main === module) {
  try {
    release(parseArgs(process.argv.slice(2)));
  } catch (error) {
    process.stderr.write(`release: ${error.message}\n`);
    process.exit(1);
  }
}
module.exports = { release, prepare, build, parseArgs, pluginBinariesAvailable };
