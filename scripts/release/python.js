// The Python SDK (sdk/native/python, generated with its pyproject.toml) as a wheel and an sdist, made
// here because these machines reach no PyPI (no `build`, no `wheel` package): a wheel is a zip of the
// package with a `.dist-info` folder (METADATA, WHEEL, RECORD: PEP 427 / PEP 491), an sdist a tar.gz
// of the sources with PKG-INFO (PEP 625 / PEP 643). The metadata (core metadata 2.1) comes from the
// generated pyproject.toml's [project] table, read by Python's own tomllib; pip installs the wheel and
// importlib.metadata reads it back in test/release-registry.test.ts.
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const zlib = require("node:zlib");
const { listFiles, writeZip } = require("./zip.js");

/** pyproject.toml's tables as JSON, read by python3's tomllib (Python 3.11+). */
function readPyproject(dir) {
  const script = "import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))";
  return JSON.parse(
    execFileSync("python3", ["-c", script, path.join(dir, "pyproject.toml")], { encoding: "utf8" }),
  );
}

/** A distribution name as wheel and sdist file names spell it (PEP 427, PEP 625): runs of -_. -> _, lower case. */
function distName(name) {
  return name.replace(/[-_.]+/g, "_").toLowerCase();
}

/** Core metadata 2.1 (METADATA in the wheel, PKG-INFO in the sdist) from the [project] table and the README. */
function coreMetadata(project, readme) {
  const lines = ["Metadata-Version: 2.1", `Name: ${project.name}`, `Version: ${project.version}`];
  if (project.description) lines.push(`Summary: ${project.description}`);
  if (project.keywords?.length) lines.push(`Keywords: ${project.keywords.join(",")}`);
  const license = typeof project.license === "string" ? project.license : project.license?.text;
  if (license) lines.push(`License: ${license}`);
  for (const [label, url] of Object.entries(project.urls ?? {})) lines.push(`Project-URL: ${label}, ${url}`);
  if (project["requires-python"]) lines.push(`Requires-Python: ${project["requires-python"]}`);
  for (const requirement of project.dependencies ?? []) lines.push(`Requires-Dist: ${requirement}`);
  if (readme !== undefined) lines.push("Description-Content-Type: text/markdown");
  return `${lines.join("\n")}\n\n${readme ?? ""}`;
}

/** The package's files: what is under its import packages, without bytecode. */
function packageFiles(dir, packages) {
  return packages.flatMap((pkg) =>
    listFiles(path.join(dir, pkg))
      .filter((file) => !file.split("/").includes("__pycache__") && !file.endsWith(".pyc"))
      .map((file) => `${pkg}/${file}`),
  );
}

/** The import packages: folders at the top with an __init__.py. */
function importPackages(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, "__init__.py")))
    .map((e) => e.name)
    .sort();
}

function recordHash(data) {
  return `sha256=${crypto.createHash("sha256").update(data).digest("base64url")}`;
}

/**
 * Writes `<name>-<version>-py3-none-any.whl` and `<name>-<version>.tar.gz` of the SDK in `dir` into
 * `out`; answers their paths and the [project] table they were made from.
 */
function buildPython(dir, out) {
  const { project } = readPyproject(dir);
  if (!project?.name || !project.version)
    throw new Error(`${dir}/pyproject.toml has no [project] name and version`);
  // The generator names a README.md it does not write (Pulumi's provider repositories copy one in):
  // where it is missing, one made of the package's description takes its place, in the sdist too
  // (setuptools would not build an sdist whose readme is missing).
  const readmeName = typeof project.readme === "string" ? project.readme : undefined;
  const readmeFile = readmeName && path.join(dir, readmeName);
  const readme = !readmeFile
    ? undefined
    : fs.existsSync(readmeFile)
      ? fs.readFileSync(readmeFile, "utf8")
      : `# ${project.name}\n\n${project.description ?? ""}\n`;
  const metadata = coreMetadata(project, readme);
  const base = `${distName(project.name)}-${project.version}`;
  const packages = importPackages(dir);
  if (packages.length === 0) throw new Error(`${dir} has no Python package (a folder with __init__.py)`);
  const files = packageFiles(dir, packages);

  // The wheel: the packages, then .dist-info with RECORD last (it lists every other file's hash).
  const info = `${base}.dist-info`;
  const entries = files.map((file) => ({ name: file, data: fs.readFileSync(path.join(dir, file)) }));
  entries.push(
    { name: `${info}/METADATA`, data: Buffer.from(metadata) },
    {
      name: `${info}/WHEEL`,
      data: Buffer.from(
        "Wheel-Version: 1.0\nGenerator: pulumi-frontdoor release\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
      ),
    },
    { name: `${info}/top_level.txt`, data: Buffer.from(`${packages.join("\n")}\n`) },
  );
  const record = entries.map((e) => `${e.name},${recordHash(e.data)},${e.data.length}`);
  record.push(`${info}/RECORD,,`);
  entries.push({ name: `${info}/RECORD`, data: Buffer.from(`${record.join("\n")}\n`) });
  const wheel = path.join(out, `${base}-py3-none-any.whl`);
  writeZip(wheel, entries);

  // The sdist: pyproject.toml, the README and the packages under <base>/, with PKG-INFO.
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-sdist-"));
  try {
    const top = path.join(stage, base);
    for (const file of ["pyproject.toml", ...files]) {
      fs.mkdirSync(path.dirname(path.join(top, file)), { recursive: true });
      fs.copyFileSync(path.join(dir, file), path.join(top, file));
    }
    if (readmeName) fs.writeFileSync(path.join(top, readmeName), readme);
    fs.writeFileSync(path.join(top, "PKG-INFO"), metadata);
    const tar = execFileSync(
      "tar",
      [
        "--sort=name",
        "--owner=0",
        "--group=0",
        "--numeric-owner",
        "--mtime=@0",
        "--format=gnu",
        "-cf",
        "-",
        base,
      ],
      { cwd: stage, maxBuffer: 256 * 1024 * 1024 },
    );
    const sdist = path.join(out, `${base}.tar.gz`);
    fs.writeFileSync(sdist, zlib.gzipSync(tar, { level: 9 }));
    return { wheel, sdist, project };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

module.exports = { buildPython, readPyproject, distName, coreMetadata };
