// The release tooling's parts (scripts/release), each against an outside reader: the changelog edit,
// the version set in every file that states it, the zip writer (unzip, Python's zipfile), the Go
// module proxy files (the go command itself fetches and builds from them), SHA256SUMS (sha256sum -c)
// and the checks that refuse a broken release. The whole release, installed from registries, is
// test/release-registry.test.ts.
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./peers";
import { tempDir } from "./support/fixtures";
import { skipBecause } from "./support/skip";

const release = (name: string) => require(path.join(REPO_ROOT, "scripts", "release", name));
const { releaseChangelog, releaseNotes } = release("changelog.js");
const { setVersion, checkVersion } = release("version.js");
const { writeZip } = release("zip.js");
const { writeGoProxy } = release("goproxy.js");
const { writeSums, checkSums, checkPlugins } = release("checks.js");
const { parseArgs, pluginBinariesAvailable } = release("release.js");
const { releaseText } = release("notes.js");
const { buildPython } = release("python.js");

const REPO = "https://github.com/o/n";
const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");
const CHANGELOG = `# Changelog

Intro.

## [Unreleased]

### Added

- second thing

## [0.1.0] - 2026-01-02

### Added

- first thing

[Unreleased]: ${REPO}/compare/v0.1.0...HEAD
[0.1.0]: ${REPO}/releases/tag/v0.1.0
`;

describe("release tooling", () => {
  describe("CHANGELOG.md (Keep a Changelog)", () => {
    it("moves the Unreleased notes under the new version and date, keeps an empty Unreleased, and updates the compare links", () => {
      const out = releaseChangelog(CHANGELOG, { version: "0.2.0", date: "2026-11-28", repositoryUrl: REPO });
      assert.equal(
        out,
        `# Changelog

Intro.

## [Unreleased]

## [0.2.0] - 2026-11-28

### Added

- second thing

## [0.1.0] - 2026-01-02

### Added

- first thing

[Unreleased]: ${REPO}/compare/v0.2.0...HEAD
[0.2.0]: ${REPO}/compare/v0.1.0...v0.2.0
[0.1.0]: ${REPO}/releases/tag/v0.1.0
`,
      );
      assert.equal(releaseNotes(out, "0.2.0"), "### Added\n\n- second thing");
      // The workflow reruns the release on the tagged commit: a recorded version changes nothing.
      assert.equal(releaseChangelog(out, { version: "0.2.0", date: "2027-01-01", repositoryUrl: REPO }), out);
    });

    it("links a first release to its tag, and refuses a file without an Unreleased section", () => {
      const first = releaseChangelog("# Changelog\n\n## [Unreleased]\n\n- it\n", {
        version: "1.0.0",
        date: "2026-11-28",
        repositoryUrl: REPO,
      });
      assert.match(first, new RegExp(`^\\[1\\.0\\.0\\]: ${REPO}/releases/tag/v1\\.0\\.0$`, "m"));
      assert.throws(
        () => releaseChangelog("# Changelog\n", { version: "1.0.0", date: "x", repositoryUrl: REPO }),
        /no `## \[Unreleased\]`/,
      );
    });

    it("the repository's CHANGELOG.md has an Unreleased section to release", () => {
      const text = fs.readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");
      assert.doesNotThrow(() =>
        releaseChangelog(text, { version: "99.0.0", date: "x", repositoryUrl: REPO }),
      );
    });
  });

  describe("the version", () => {
    it("accepts semantic versions only, and the command takes `v1.2.3` as 1.2.3", () => {
      for (const good of ["0.1.0", "1.2.3-rc.1", "2.0.0+build.5"]) assert.equal(checkVersion(good), good);
      for (const bad of ["1.2", "01.2.3", "1.2.3-", "latest"])
        assert.throws(() => checkVersion(bad), /semantic/);
      assert.equal(parseArgs(["v1.2.3"]).version, "1.2.3");
      assert.throws(() => parseArgs([]), /usage/);
      // --build-only builds what package.json says, nothing else.
      assert.throws(
        () => parseArgs(["--build-only", "99.0.0"]),
        /--build-only builds package\.json's version/,
      );
    });

    it("is not released without the plugin binaries' script, unless the stand-in is asked for (tests)", () => {
      const missing = path.join(tempDir("frontdoor-nobinaries-"), "plugin-binaries.js");
      assert.throws(
        () => pluginBinariesAvailable({ standin: false }, missing),
        /plugin-binaries\.js is missing: .*Refusing to release without them/,
      );
      assert.equal(pluginBinariesAvailable({ standin: true }, missing), false);
      fs.writeFileSync(missing, "");
      assert.equal(pluginBinariesAvailable({ standin: false }, missing), true);
    });

    it("is set in package.json, the lockfile, the programs' dependencies and pinned plugin versions, and README's Install section", () => {
      const root = tempDir("frontdoor-version-");
      const copy = (rel: string) => {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.copyFileSync(path.join(REPO_ROOT, rel), path.join(root, rel));
      };
      const old = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;
      for (const rel of ["package.json", "package-lock.json", "README.md"]) copy(rel);
      const programs = ["examples", path.join("test", "programs")].flatMap((parent) =>
        fs.readdirSync(path.join(REPO_ROOT, parent)).map((d) => path.join(parent, d)),
      );
      for (const dir of programs)
        for (const file of ["package.json", "Pulumi.yaml"])
          if (fs.existsSync(path.join(REPO_ROOT, dir, file))) copy(path.join(dir, file));

      // The version the files already have: nothing changes (the workflow's rerun on the tagged commit).
      assert.deepEqual(setVersion(root, old, { regenerate: false }), []);
      const changed: string[] = setVersion(root, "9.8.7", { regenerate: false });
      const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
      assert.equal(JSON.parse(read("package.json")).version, "9.8.7");
      const lock = JSON.parse(read("package-lock.json"));
      assert.equal(lock.version, "9.8.7");
      assert.equal(lock.packages[""].version, "9.8.7");
      assert.equal(
        JSON.parse(read("examples/ts-native/package.json")).dependencies["pulumi-frontdoor-native"],
        "^9.8.7",
      );
      assert.equal(
        JSON.parse(read("examples/gitops/package.json")).dependencies["pulumi-frontdoor"],
        "^9.8.7",
      );
      assert.match(read("examples/yaml-edge/Pulumi.yaml"), /^\s+version: 9\.8\.7$/m);
      assert.ok(changed.includes("examples/yaml-frontdoor/Pulumi.yaml"));
      // No file that states the old version as the package's is left behind.
      for (const rel of changed.filter((f) => f !== "package-lock.json"))
        assert.doesNotMatch(read(rel), new RegExp(`"version": "${old}"|version: ${old}$`, "m"), rel);
      const install = /\n## Install\n[\s\S]*?\n## /.exec(read("README.md"))?.[0] ?? "";
      assert.doesNotMatch(
        install,
        new RegExp(`\\b${old.replace(/\./g, "\\.")}\\b`),
        "README's Install section",
      );
      // Setting it again changes nothing.
      assert.deepEqual(setVersion(root, "9.8.7", { regenerate: false }), []);
    });
  });

  describe("zip files", () => {
    it("are read back by unzip and Python's zipfile: names, bytes, modes, and the same bytes each time", function () {
      if (spawnSync("python3", ["--version"]).status !== 0) skipBecause(this, "python3 not found");
      const dir = tempDir("frontdoor-zip-");
      const entries = [
        { name: "pkg/hello.txt", data: "hello\n" },
        { name: "pkg/run.sh", data: "#!/bin/sh\necho hi\n", mode: 0o755 },
        { name: "empty", data: "" },
        { name: "big.bin", data: Buffer.alloc(200_000, 7) },
      ];
      writeZip(path.join(dir, "a.zip"), entries);
      writeZip(path.join(dir, "b.zip"), entries);
      assert.ok(fs.readFileSync(path.join(dir, "a.zip")).equals(fs.readFileSync(path.join(dir, "b.zip"))));
      execFileSync("unzip", ["-tq", path.join(dir, "a.zip")]);
      const read = `import hashlib, json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(json.dumps([[i.filename, hashlib.sha256(z.read(i)).hexdigest(), (i.external_attr >> 16) & 0o777] for i in z.infolist()]))`;
      const got = JSON.parse(
        execFileSync("python3", ["-c", read, path.join(dir, "a.zip")], { encoding: "utf8" }),
      );
      assert.deepEqual(
        got,
        entries.map((e) => [e.name, sha256(Buffer.from(e.data)), e.mode ?? 0o644]),
      );
      assert.throws(() => writeZip(path.join(dir, "c.zip"), [{ name: "../x", data: "" }]), /relative/);
    });
  });

  describe("the Python wheel and sdist", () => {
    it("pip installs the wheel; importlib.metadata and the sdist's PKG-INFO give pyproject.toml's name, version and requirements", function () {
      if (spawnSync("python3", ["-c", "import tomllib"]).status !== 0)
        skipBecause(this, "python3 3.11+ not found");
      const dir = tempDir("frontdoor-python-");
      const src = path.join(dir, "src");
      fs.mkdirSync(path.join(src, "demo_pkg", "__pycache__"), { recursive: true });
      fs.writeFileSync(
        path.join(src, "pyproject.toml"),
        `[project]
name = "demo_pkg"
version = "1.2.3a1"
description = "A demo"
readme = "README.md"
requires-python = ">=3.9"
dependencies = ["pulumi>=3.0.0,<4.0.0", 'typing-extensions>=4.11,<5; python_version < "3.11"']
`,
      );
      fs.writeFileSync(path.join(src, "README.md"), "# Demo\n");
      fs.writeFileSync(path.join(src, "demo_pkg", "__init__.py"), "GREETING = 'hi'\n");
      fs.writeFileSync(path.join(src, "demo_pkg", "__pycache__", "x.pyc"), "bytecode");
      const built = buildPython(src, dir);
      assert.equal(path.basename(built.wheel), "demo_pkg-1.2.3a1-py3-none-any.whl");
      assert.equal(path.basename(built.sdist), "demo_pkg-1.2.3a1.tar.gz");
      const target = path.join(dir, "site");
      execFileSync(
        "python3",
        ["-m", "pip", "install", "-q", "--no-index", "--no-deps", "--target", target, built.wheel],
        {
          stdio: "pipe",
        },
      );
      const read = `import json, sys, tarfile, email, importlib.metadata as m
sys.path.insert(0, sys.argv[1])
import demo_pkg
d = m.distribution("demo_pkg")
t = tarfile.open(sys.argv[2])
info = email.message_from_bytes(t.extractfile("demo_pkg-1.2.3a1/PKG-INFO").read())
print(json.dumps([demo_pkg.GREETING, d.version, d.requires, d.metadata["Requires-Python"], info["Version"], info.get_all("Requires-Dist"), sorted(t.getnames())]))`;
      const got = JSON.parse(
        execFileSync("python3", ["-c", read, target, built.sdist], { encoding: "utf8" }),
      );
      const requires = ["pulumi>=3.0.0,<4.0.0", 'typing-extensions>=4.11,<5; python_version < "3.11"'];
      assert.deepEqual(got, [
        "hi",
        "1.2.3a1",
        requires,
        ">=3.9",
        "1.2.3a1",
        requires,
        [
          "demo_pkg-1.2.3a1",
          "demo_pkg-1.2.3a1/PKG-INFO",
          "demo_pkg-1.2.3a1/README.md",
          "demo_pkg-1.2.3a1/demo_pkg",
          "demo_pkg-1.2.3a1/demo_pkg/__init__.py",
          "demo_pkg-1.2.3a1/pyproject.toml",
        ],
      ]);
    });
  });

  describe("the Go module proxy files", () => {
    it("are what the go command fetches and builds from (GOPROXY=file://...,off), leaving out a nested module", function () {
      if (spawnSync("go", ["version"]).status !== 0) skipBecause(this, "go not found");
      const dir = tempDir("frontdoor-goproxy-");
      const mod = path.join(dir, "module");
      fs.mkdirSync(path.join(mod, "greet"), { recursive: true });
      fs.mkdirSync(path.join(mod, "nested"), { recursive: true });
      fs.writeFileSync(path.join(mod, "go.mod"), "module example.com/Greeter/sdk\n\ngo 1.21\n");
      fs.writeFileSync(
        path.join(mod, "greet", "greet.go"),
        'package greet\n\nfunc Hello() string { return "hello from the proxy" }\n',
      );
      fs.writeFileSync(path.join(mod, "nested", "go.mod"), "module example.com/other\n");
      fs.writeFileSync(path.join(mod, "nested", "x.go"), "package nested\n");
      const proxy = path.join(dir, "proxy");
      const written = writeGoProxy({ moduleDir: mod, version: "1.4.0", proxyDir: proxy, time: new Date(0) });
      assert.equal(written.modulePath, "example.com/Greeter/sdk");
      // The protocol's case escaping: G -> !g.
      assert.ok(fs.existsSync(path.join(proxy, "example.com", "!greeter", "sdk", "@v", "v1.4.0.zip")));
      const names = execFileSync("unzip", ["-Z1", written.zip], { encoding: "utf8" })
        .trim()
        .split("\n")
        .sort();
      assert.deepEqual(names, [
        "example.com/Greeter/sdk@v1.4.0/go.mod",
        "example.com/Greeter/sdk@v1.4.0/greet/greet.go",
      ]);

      const user = path.join(dir, "user");
      fs.mkdirSync(user);
      fs.writeFileSync(
        path.join(user, "go.mod"),
        "module example.com/user\n\ngo 1.21\n\nrequire example.com/Greeter/sdk v1.4.0\n",
      );
      fs.writeFileSync(
        path.join(user, "main.go"),
        'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/Greeter/sdk/greet"\n)\n\nfunc main() { fmt.Println(greet.Hello()) }\n',
      );
      const out = execFileSync("go", ["run", "."], {
        cwd: user,
        encoding: "utf8",
        env: {
          ...process.env,
          GOPROXY: `file://${proxy},off`,
          GOFLAGS: "-mod=mod -modcacherw -buildvcs=false",
          GONOSUMDB: "example.com",
          GOMODCACHE: path.join(dir, "modcache"),
        },
      });
      assert.equal(out, "hello from the proxy\n");
      assert.match(
        fs.readFileSync(path.join(user, "go.sum"), "utf8"),
        /^example\.com\/Greeter\/sdk v1\.4\.0 h1:/m,
      );
      assert.throws(
        () => writeGoProxy({ moduleDir: mod, version: "2.0.0", proxyDir: proxy, time: new Date(0) }),
        /path suffix \/v2/,
      );
    });
  });

  describe("the checks", () => {
    it("SHA256SUMS is what sha256sum -c accepts; a changed, added or missing file is reported", () => {
      const dir = tempDir("frontdoor-sums-");
      fs.mkdirSync(path.join(dir, "sub"));
      fs.writeFileSync(path.join(dir, "a.tgz"), "aaa");
      fs.writeFileSync(path.join(dir, "sub", "b.zip"), "bbb");
      writeSums(dir);
      execFileSync("sha256sum", ["--strict", "--quiet", "-c", "SHA256SUMS"], { cwd: dir });
      const problems = (): string[] => {
        const found: string[] = [];
        checkSums(dir, found);
        return found;
      };
      assert.deepEqual(problems(), []);
      fs.writeFileSync(path.join(dir, "a.tgz"), "changed");
      fs.writeFileSync(path.join(dir, "extra"), "x");
      fs.rmSync(path.join(dir, "sub", "b.zip"));
      assert.deepEqual(problems().sort(), [
        "SHA256SUMS lists sub/b.zip, which is not in the release",
        "a.tgz: checksum differs from SHA256SUMS",
        "extra is not in SHA256SUMS",
      ]);
    });

    it("a plugin archive needs the executable at its top, executable, in its system's format", () => {
      const dir = tempDir("frontdoor-plugins-");
      const archive = (name: string, files: Record<string, [Buffer, number]>) => {
        const stage = tempDir("frontdoor-plugin-stage-");
        for (const [file, [data, mode]] of Object.entries(files))
          fs.writeFileSync(path.join(stage, file), data, { mode });
        execFileSync("tar", ["-czf", path.join(dir, name), "-C", stage, "."]);
      };
      const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
      archive("pulumi-resource-frontdoor-v1.0.0-linux-amd64.tar.gz", {
        "pulumi-resource-frontdoor": [elf, 0o755],
      });
      archive("pulumi-resource-frontdoor-v1.0.0-windows-amd64.tar.gz", {
        "pulumi-resource-frontdoor.exe": [Buffer.from("MZ\x90\x00"), 0o755],
      });
      const problems = (): string[] => {
        const found: string[] = [];
        checkPlugins(dir, "1.0.0", found);
        return found;
      };
      assert.deepEqual(problems(), []);
      archive("pulumi-resource-frontdoor-v1.0.0-darwin-arm64.tar.gz", {
        "pulumi-resource-frontdoor": [elf, 0o755],
      });
      archive("pulumi-resource-frontdoor-v1.0.0-linux-arm64.tar.gz", {
        "pulumi-resource-frontdoor": [elf, 0o644],
      });
      archive("pulumi-resource-frontdoor-v1.0.0-linux-386.tar.gz", { "other-name": [elf, 0o755] });
      assert.deepEqual(problems().sort(), [
        "pulumi-resource-frontdoor-v1.0.0-darwin-arm64.tar.gz: pulumi-resource-frontdoor is not a darwin executable",
        "pulumi-resource-frontdoor-v1.0.0-linux-386.tar.gz: no pulumi-resource-frontdoor at the top",
        "pulumi-resource-frontdoor-v1.0.0-linux-arm64.tar.gz: pulumi-resource-frontdoor is not executable (-rw-r--r--)",
      ]);
    });
  });

  it("the GitHub release's text: the version's notes, install commands, every asset with its size, and the platforms without a binary", () => {
    const dist = tempDir("frontdoor-notes-");
    const record = {
      version: "0.2.0",
      npm: ["pulumi-frontdoor-0.2.0.tgz", "pulumi-frontdoor-native-0.2.0.tgz"],
      plugins: ["pulumi-resource-frontdoor-v0.2.0-linux-amd64.tar.gz"],
      go: { module: "github.com/o/n/sdk/go" },
      python: { wheel: "pulumi_frontdoor-0.2.0-py3-none-any.whl", sdist: "pulumi_frontdoor-0.2.0.tar.gz" },
    };
    fs.writeFileSync(path.join(dist, "release.json"), JSON.stringify(record));
    for (const file of [
      ...record.npm,
      ...record.plugins,
      record.python.wheel,
      record.python.sdist,
      "SHA256SUMS",
    ])
      fs.writeFileSync(path.join(dist, file), "12345");
    const changelog = releaseChangelog(CHANGELOG, {
      version: "0.2.0",
      date: "2026-11-28",
      repositoryUrl: REPO,
    });
    const text: string = releaseText(dist, {
      changelog,
      notBuilt: [["darwin-arm64", "no signing tool"]],
    });
    assert.ok(text.startsWith("### Added\n\n- second thing\n"), text);
    assert.match(text, /`go get github\.com\/o\/n\/sdk\/go@v0\.2\.0`/);
    assert.match(text, /^- `pulumi-resource-frontdoor-v0\.2\.0-linux-amd64\.tar\.gz` \(5 bytes\)$/m);
    assert.match(text, /^- darwin-arm64: no signing tool$/m);
  });
});
