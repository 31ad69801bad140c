// Sets the release version everywhere the repository states it: package.json and package-lock.json
// (the npm package, and the version the plugin reports), the examples' and test programs' dependency
// ranges on pulumi-frontdoor / pulumi-frontdoor-native and the plugin version their Pulumi.yaml pins,
// the commands of README.md's Install section, then schema.json (and docs/reference) regenerated
// from package.json. The SDKs take the schema's version when they are generated (release.js).
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

/** Semantic Versioning 2.0.0, without a leading `v`. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

function checkVersion(version) {
  if (!SEMVER.test(version))
    throw new Error(`${version} is not a semantic version (like 1.2.3 or 1.2.3-rc.1)`);
  return version;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The folders of example and test programs (each may have a package.json and a Pulumi.yaml). */
function programDirs(root) {
  return ["examples", path.join("test", "programs")].flatMap((parent) =>
    fs.existsSync(path.join(root, parent))
      ? fs
          .readdirSync(path.join(root, parent), { withFileTypes: true })
          .filter((e) => e.isDirectory() && !e.name.startsWith("."))
          .map((e) => path.join(root, parent, e.name))
      : [],
  );
}

/**
 * Writes `version` into the files of `root` (a checkout) and answers the files it changed, relative.
 * `regenerate` (default true) runs `npm run schema` for schema.json and docs/reference.
 */
function setVersion(root, version, { regenerate = true } = {}) {
  checkVersion(version);
  const changed = new Set();
  const update = (file, transform) => {
    const before = fs.readFileSync(file, "utf8");
    const after = transform(before);
    if (after !== before) {
      fs.writeFileSync(file, after);
      changed.add(path.relative(root, file));
    }
  };
  const manifestFile = path.join(root, "package.json");
  const old = JSON.parse(fs.readFileSync(manifestFile, "utf8")).version;
  update(manifestFile, (text) => `${JSON.stringify({ ...JSON.parse(text), version }, null, 2)}\n`);
  const lockFile = path.join(root, "package-lock.json");
  if (fs.existsSync(lockFile))
    update(lockFile, (text) => {
      const lock = JSON.parse(text);
      lock.version = version;
      if (lock.packages?.[""]) lock.packages[""].version = version;
      return `${JSON.stringify(lock, null, 2)}\n`;
    });
  for (const dir of programDirs(root)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg))
      update(pkg, (text) => {
        const manifest = JSON.parse(text);
        const names = ["pulumi-frontdoor", "pulumi-frontdoor-native"].filter(
          (name) => manifest.dependencies?.[name] && manifest.dependencies[name] !== `^${version}`,
        );
        if (names.length === 0) return text; // untouched, whatever its formatting
        for (const name of names) manifest.dependencies[name] = `^${version}`;
        return `${JSON.stringify(manifest, null, 2)}\n`;
      });
    // The plugin version a YAML program pins (`options: version: x`) is the frontdoor plugin's.
    const yaml = path.join(dir, "Pulumi.yaml");
    if (fs.existsSync(yaml) && old !== version)
      update(yaml, (text) =>
        text.replace(new RegExp(`^(\\s+version:\\s*)${escapeRegExp(old)}\\s*$`, "gm"), `$1${version}`),
      );
  }
  // README: only the Install section's commands name the version (other sections are edited by hand).
  const readme = path.join(root, "README.md");
  if (fs.existsSync(readme) && old !== version)
    update(readme, (text) => {
      const start = text.indexOf("\n## Install\n");
      if (start === -1) return text;
      const end = text.indexOf("\n## ", start + 1);
      const section = text.slice(start, end === -1 ? undefined : end);
      const updated = section.replace(
        new RegExp(`(?<=[\\s@v-])${escapeRegExp(old)}(?=[\\s\`.-])`, "g"),
        version,
      );
      return text.slice(0, start) + updated + (end === -1 ? "" : text.slice(end));
    });
  if (regenerate)
    update(path.join(root, "schema.json"), () => {
      execFileSync("npm", ["run", "--silent", "schema"], {
        cwd: root,
        stdio: ["ignore", "ignore", "inherit"],
      });
      return fs.readFileSync(path.join(root, "schema.json"), "utf8");
    });
  return [...changed].sort();
}

module.exports = { setVersion, checkVersion, SEMVER };
