// The release's own checks of dist/, after it is built (release.js) and before anything is published:
// every file's checksum in SHA256SUMS, what npm would publish (`npm publish --dry-run` of each
// tarball), each plugin archive's layout and executable format, the Go module's proxy files, the
// Python wheel and sdist, and that every artifact states the one release version. Answers a list of
// problems (empty: the release is consistent).
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { escapeModulePath } = require("./goproxy.js");
const { listFiles } = require("./zip.js");

const SUMS = "SHA256SUMS";
const PLUGIN = "pulumi-resource-frontdoor";

function sha256(file) {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Writes SHA256SUMS (`sha256sum -c` reads it) over every file under `dir`, relative paths, sorted. */
function writeSums(dir) {
  const lines = listFiles(dir)
    .filter((file) => file !== SUMS)
    .map((file) => `${sha256(path.join(dir, file))}  ${file}`);
  fs.writeFileSync(path.join(dir, SUMS), `${lines.join("\n")}\n`);
}

function checkSums(dir, problems) {
  const file = path.join(dir, SUMS);
  if (!fs.existsSync(file)) return problems.push(`${SUMS} is missing`);
  const listed = new Map();
  for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const found = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!found) problems.push(`${SUMS}: malformed line ${JSON.stringify(line)}`);
    else listed.set(found[2], found[1]);
  }
  for (const name of listFiles(dir).filter((f) => f !== SUMS)) {
    if (!listed.has(name)) problems.push(`${name} is not in ${SUMS}`);
    else if (listed.get(name) !== sha256(path.join(dir, name)))
      problems.push(`${name}: checksum differs from ${SUMS}`);
    listed.delete(name);
  }
  for (const name of listed.keys()) problems.push(`${SUMS} lists ${name}, which is not in the release`);
}

/** A file inside a .tar.gz / .tgz, as a Buffer (tar's own reader). */
function fromTar(archive, member) {
  return execFileSync("tar", ["-xzOf", archive, member], { maxBuffer: 512 * 1024 * 1024 });
}

/** A file inside a zip, as a Buffer (unzip's own reader). */
function fromZip(archive, member) {
  return execFileSync("unzip", ["-p", archive, member], { maxBuffer: 256 * 1024 * 1024 });
}

/** `npm publish --dry-run --json` of a tarball: the name, version and files npm would publish. */
function dryRun(tarball, registry, version) {
  // npm refuses a pre-release without a dist-tag; the workflow publishes those as `next`.
  const tag = version.includes("-") ? "next" : "latest";
  const args = ["publish", "--dry-run", "--json", "--ignore-scripts", "--tag", tag, tarball];
  if (registry) args.push("--registry", registry);
  const out = execFileSync("npm", args, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const json = JSON.parse(out.slice(out.indexOf("{")));
  // npm 11 keys the answer by package name; earlier versions answer the package itself.
  const result = json.id ? json : Object.values(json)[0];
  return { name: result.name, version: result.version, files: result.files.map((f) => f.path) };
}

const NPM_PACKAGES = {
  "pulumi-frontdoor": [
    "package.json",
    "README.md",
    "schema.json",
    "bin/sdk/index.js",
    "bin/sdk/index.d.ts",
    "bin/mock/index.js",
    "bin/provider/plugin/main.js",
  ],
  "pulumi-frontdoor-native": ["package.json", "index.js", "index.d.ts", "provider.js", "identity.js"],
};

function checkNpm(dir, version, problems, registry) {
  for (const [name, needed] of Object.entries(NPM_PACKAGES)) {
    const file = `${name}-${version}.tgz`;
    if (!fs.existsSync(path.join(dir, file))) {
      problems.push(`${file} is missing`);
      continue;
    }
    const published = dryRun(path.join(dir, file), registry, version);
    if (published.name !== name || published.version !== version)
      problems.push(`${file}: npm would publish ${published.name}@${published.version}`);
    for (const f of needed)
      if (!published.files.includes(f)) problems.push(`${file}: npm would not publish ${f}`);
    const stray = published.files.filter(
      (f) => (/\.ts$/.test(f) && !f.endsWith(".d.ts")) || f.startsWith("."),
    );
    if (stray.length)
      problems.push(`${file}: TypeScript sources or dotfiles in the package: ${stray.join(", ")}`);
  }
  const dynamic = path.join(dir, `pulumi-frontdoor-${version}.tgz`);
  if (fs.existsSync(dynamic)) {
    const schema = JSON.parse(fromTar(dynamic, "package/schema.json").toString());
    if (schema.version !== version)
      problems.push(`pulumi-frontdoor's schema.json says version ${schema.version}`);
  }
  const native = path.join(dir, `pulumi-frontdoor-native-${version}.tgz`);
  if (fs.existsSync(native)) {
    const manifest = JSON.parse(fromTar(native, "package/package.json").toString());
    if (manifest.pulumi?.version !== version || manifest.pulumi?.name !== "frontdoor")
      problems.push(`pulumi-frontdoor-native asks the engine for plugin ${JSON.stringify(manifest.pulumi)}`);
  }
}

/** The magic bytes of an executable of each operating system. */
const FORMATS = {
  linux: [Buffer.from([0x7f, 0x45, 0x4c, 0x46])], // ELF
  darwin: [Buffer.from([0xcf, 0xfa, 0xed, 0xfe])], // Mach-O 64-bit, little-endian
  windows: [Buffer.from("MZ")], // PE
};

/**
 * Plugin archives: pulumi-resource-frontdoor-v<version>-<os>-<arch>.tar.gz with the executable at the
 * top (`.exe` on Windows) in that system's format. A stand-in archive (the Node.js launcher tarball of
 * `npm run plugin:package`, made only with --plugin-standin while the binaries' script is missing) is
 * named ...-standin-launcher.tar.gz and holds the launcher script.
 */
function checkPlugins(dir, version, problems) {
  const prefix = `${PLUGIN}-v${version}-`;
  const archives = fs.readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith(".tar.gz"));
  if (archives.length === 0) problems.push(`no plugin archive ${prefix}<os>-<arch>.tar.gz`);
  for (const archive of archives) {
    const platform = archive.slice(prefix.length, -".tar.gz".length);
    const standin = platform === "standin-launcher";
    const os = platform.split("-")[0];
    if (!standin && !FORMATS[os]) {
      problems.push(`${archive}: unknown platform ${platform}`);
      continue;
    }
    const binary = os === "windows" ? `${PLUGIN}.exe` : PLUGIN;
    const listing = execFileSync("tar", ["-tvzf", path.join(dir, archive)], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const entry = listing
      .split("\n")
      .find((line) => new RegExp(`\\s(\\./)?${binary.replace(".", "\\.")}$`).test(line));
    if (!entry) {
      problems.push(`${archive}: no ${binary} at the top`);
      continue;
    }
    if (!/^-rwx/.test(entry))
      problems.push(`${archive}: ${binary} is not executable (${entry.split(/\s+/)[0]})`);
    const member = /\s(\S+)$/.exec(entry)[1];
    const head = fromTar(path.join(dir, archive), member).subarray(0, 4);
    const ok = standin
      ? head.subarray(0, 2).toString() === "#!"
      : FORMATS[os].some((magic) => head.subarray(0, magic.length).equals(magic));
    if (!ok)
      problems.push(`${archive}: ${binary} is not a ${standin ? "launcher script" : `${os} executable`}`);
  }
}

function checkGo(dir, version, modulePath, problems) {
  const at = path.join(dir, "goproxy", escapeModulePath(modulePath), "@v");
  const tag = `v${version}`;
  for (const ext of ["info", "mod", "zip"])
    if (!fs.existsSync(path.join(at, `${tag}.${ext}`)))
      problems.push(`goproxy: ${modulePath}/@v/${tag}.${ext} is missing`);
  if (problems.some((p) => p.startsWith("goproxy:"))) return;
  const info = JSON.parse(fs.readFileSync(path.join(at, `${tag}.info`), "utf8"));
  if (info.Version !== tag) problems.push(`goproxy: ${tag}.info says ${info.Version}`);
  if (!fs.readFileSync(path.join(at, "list"), "utf8").split("\n").includes(tag))
    problems.push(`goproxy: list lacks ${tag}`);
  const zip = path.join(at, `${tag}.zip`);
  const names = execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).split("\n").filter(Boolean);
  const outside = names.filter((n) => !n.startsWith(`${modulePath}@${tag}/`));
  if (outside.length)
    problems.push(`goproxy: zip entries outside ${modulePath}@${tag}/: ${outside.join(", ")}`);
  if (!fromZip(zip, `${modulePath}@${tag}/go.mod`).equals(fs.readFileSync(path.join(at, `${tag}.mod`))))
    problems.push(`goproxy: ${tag}.mod differs from the zip's go.mod`);
  const plugin = JSON.parse(fromZip(zip, `${modulePath}@${tag}/frontdoor/pulumi-plugin.json`).toString());
  if (plugin.version !== version)
    problems.push(`goproxy: the Go SDK asks for plugin version ${plugin.version}`);
}

function checkPython(dir, version, python, problems) {
  const { wheel, sdist, project } = python;
  for (const file of [wheel, sdist])
    if (!fs.existsSync(path.join(dir, file))) return problems.push(`${file} is missing`);
  // Python spells pre-releases its own way (PEP 440: 1.2.3-rc.1 is 1.2.3rc1): the release part must agree.
  const release = version.split(/[-+]/)[0];
  if (version === release ? project.version !== version : !project.version.startsWith(release))
    problems.push(`${wheel}: Python version ${project.version} is not release ${version}`);
  const base = wheel.replace(/-py3-none-any\.whl$/, "");
  const metadata = fromZip(path.join(dir, wheel), `${base}.dist-info/METADATA`).toString();
  if (!metadata.includes(`\nVersion: ${project.version}\n`))
    problems.push(`${wheel}: METADATA has another version`);
  const pkgInfo = fromTar(path.join(dir, sdist), `${base}/PKG-INFO`).toString();
  if (pkgInfo !== metadata) problems.push(`${sdist}: PKG-INFO differs from the wheel's METADATA`);
  const plugin = JSON.parse(fromZip(path.join(dir, wheel), "pulumi_frontdoor/pulumi-plugin.json").toString());
  if (plugin.version !== version)
    problems.push(`${wheel}: the Python SDK asks for plugin version ${plugin.version}`);
}

/**
 * Every check of the release in `dir` (its release.json says what it holds). `registry`: where
 * `npm publish --dry-run` asks about the packages (default: npm's configured one).
 */
function checkRelease(dir, { registry } = {}) {
  const problems = [];
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "release.json"), "utf8"));
  const { version } = manifest;
  checkSums(dir, problems);
  checkNpm(dir, version, problems, registry);
  checkPlugins(dir, version, problems);
  checkGo(dir, version, manifest.go.module, problems);
  checkPython(dir, version, manifest.python, problems);
  return problems;
}

module.exports = { checkRelease, checkSums, checkPlugins, writeSums, sha256, SUMS, fromTar, fromZip };
