// The Go SDK as a module proxy serves it (https://go.dev/ref/mod#goproxy-protocol), in a folder that
// `GOPROXY=file://<dir>` reads: <module>/@v/list, v<version>.info, .mod and .zip. The zip holds the
// module's files under `<module>@v<version>/` (https://go.dev/ref/mod#zip-files). A Go program then
// requires the SDK by its module path and version with no `replace` (test/release-registry.test.ts);
// the release workflow publishes the same files at the tag sdk/go/v<version>.
const fs = require("node:fs");
const path = require("node:path");
const { listFiles, writeZip } = require("./zip.js");

/** A module path as the proxy protocol spells it in URLs and folders: `A` -> `!a`. */
function escapeModulePath(modulePath) {
  return modulePath.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** The module path a go.mod declares. */
function moduleOf(goMod) {
  const found = /^module\s+(\S+)\s*$/m.exec(goMod);
  if (!found) throw new Error("go.mod declares no module");
  return found[1];
}

/**
 * Writes the proxy files of the module in `moduleDir` (its go.mod at the top) at `version` (semver,
 * no `v`) into `proxyDir`, published at `time` (a Date). Answers the module path and the zip's path.
 * Files below a folder with a go.mod of its own belong to another module and are left out, as Go does.
 */
function writeGoProxy({ moduleDir, version, proxyDir, time }) {
  const goMod = fs.readFileSync(path.join(moduleDir, "go.mod"), "utf8");
  const modulePath = moduleOf(goMod);
  const major = Number(version.split(".")[0]);
  if (major >= 2 && !modulePath.endsWith(`/v${major}`))
    throw new Error(
      `version ${version}: a Go module of major version ${major} needs the path suffix /v${major}`,
    );
  const tag = `v${version}`;
  const files = listFiles(moduleDir).filter((file) => {
    const dirs = file.split("/").slice(0, -1);
    return !dirs.some((_, i) => fs.existsSync(path.join(moduleDir, ...dirs.slice(0, i + 1), "go.mod")));
  });
  const at = path.join(proxyDir, escapeModulePath(modulePath), "@v");
  fs.mkdirSync(at, { recursive: true });
  const zip = path.join(at, `${tag}.zip`);
  writeZip(
    zip,
    files.map((file) => ({
      name: `${modulePath}@${tag}/${file}`,
      data: fs.readFileSync(path.join(moduleDir, file)),
    })),
  );
  fs.writeFileSync(path.join(at, `${tag}.mod`), goMod);
  fs.writeFileSync(
    path.join(at, `${tag}.info`),
    `${JSON.stringify({ Version: tag, Time: time.toISOString() })}\n`,
  );
  const listFile = path.join(at, "list");
  const listed = fs.existsSync(listFile) ? fs.readFileSync(listFile, "utf8").split("\n").filter(Boolean) : [];
  fs.writeFileSync(listFile, `${[...new Set([...listed, tag])].join("\n")}\n`);
  return { modulePath, zip };
}

module.exports = { writeGoProxy, escapeModulePath, moduleOf };
