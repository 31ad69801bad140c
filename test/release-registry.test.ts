// One release, built by the release command (`scripts/release/release.js --build-only`, the version in
// package.json) into a folder outside the checkout, then installed the way users install it, from
// registries and never from a checkout path:
// - npm: both packages published to a real npm registry server on 127.0.0.1 (Verdaccio, once for the
//   suite), installed by name with @pulumi/pulumi into a new project, and a program using both run
//   with Pulumi's mocks beside the shipped mock server;
// - Go: the SDK required by its module path and version from a module proxy made of the release's
//   files (GOPROXY=file://...,off), by a program outside the repository with no replace, run with
//   Pulumi's Go mocks;
// - Python: the wheel installed by pip, its metadata read back by importlib.metadata, and the sdist's
//   PKG-INFO, against the generated pyproject.toml.
// Before merge of the plugin binaries' script (scripts/release/plugin-binaries.js) the release runs
// with --plugin-standin: the launcher tarball takes the binaries' slot, named as a stand-in.
import * as assert from "node:assert/strict";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./peers";
import { type Registry, registryInstalled, startRegistry } from "./peers/registry";
import { tempDir, useNativeSdks } from "./support/fixtures";
import { npmInstall } from "./support/npmRetry";
import { skipBecause } from "./support/skip";
import { USER_PULUMI_VERSION } from "./support/userProject";

const run = promisify(execFile);
const BIG = 256 * 1024 * 1024;
const RELEASE = path.join(REPO_ROOT, "scripts", "release", "release.js");
const PLUGIN_BINARIES = path.join(REPO_ROOT, "scripts", "release", "plugin-binaries.js");

interface ReleaseRecord {
  version: string;
  npm: string[];
  plugins: string[];
  standin: boolean;
  go: { module: string; tag: string; zip: string };
  python: { wheel: string; sdist: string; project: Record<string, any> };
}

/** The Go module cache's folders of one module (read-only files: made writable to be removed). */
function forgetGoModule(modulePath: string): void {
  const cache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  for (const dir of [path.join(cache, modulePath), path.join(cache, "cache", "download", modulePath)]) {
    const parent = path.dirname(dir);
    if (!fs.existsSync(parent)) continue;
    // Versions sit beside the module path as `<last element>@<version>`.
    for (const entry of fs.readdirSync(parent))
      if (entry === path.basename(dir) || entry.startsWith(`${path.basename(dir)}@`)) {
        const target = path.join(parent, entry);
        execFileSync("chmod", ["-R", "u+w", target]);
        fs.rmSync(target, { recursive: true, force: true });
      }
  }
}

describe("a release installed from registries, as a user installs it", function () {
  this.timeout(1_800_000);
  const version = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;
  let scratch: string;
  let dist: string;
  let record: ReleaseRecord;
  let registry: Registry | undefined;

  useNativeSdks("the release's SDK artifacts cannot be built");
  before(async function () {
    if (!registryInstalled())
      skipBecause(this, "Verdaccio is not installed in scripts/peers/verdaccio (run `npm run peers`)");
    if (spawnSync("python3", ["-c", "import tomllib"]).status !== 0)
      skipBecause(this, "python3 3.11+ (tomllib) not found: the Python SDK cannot be packaged");
    scratch = tempDir("frontdoor-release-");
    dist = path.join(scratch, "dist");
    registry = await startRegistry(path.join(scratch, "registry"), [
      "pulumi-frontdoor",
      "pulumi-frontdoor-native",
    ]);
    const args = [RELEASE, "--build-only", "--out", dist, "--registry", registry.url];
    // One platform is enough here (the binaries' own suite checks every platform).
    if (fs.existsSync(PLUGIN_BINARIES)) args.push("--platforms", "linux-amd64");
    else args.push("--plugin-standin");
    await run(process.execPath, args, { cwd: REPO_ROOT, maxBuffer: BIG }).catch((error) => {
      throw new Error(`the release command failed:\n${error.stdout}\n${error.stderr}`);
    });
    record = JSON.parse(fs.readFileSync(path.join(dist, "release.json"), "utf8"));
  });
  after(async () => {
    await registry?.close();
  });

  it("states one version and a checksum for every file: sha256sum -c accepts SHA256SUMS", () => {
    assert.equal(record.version, version);
    assert.equal(record.standin, !fs.existsSync(PLUGIN_BINARIES));
    const checked = execFileSync("sha256sum", ["--strict", "-c", "SHA256SUMS"], {
      cwd: dist,
      encoding: "utf8",
    });
    const ok = checked.split("\n").filter((line) => line.endsWith(": OK"));
    const files = execFileSync("find", [".", "-type", "f", "!", "-name", "SHA256SUMS"], {
      cwd: dist,
      encoding: "utf8",
    });
    assert.equal(ok.length, files.split("\n").filter(Boolean).length);
  });

  describe("npm: published to a registry on 127.0.0.1, installed by name", () => {
    let project: string;
    const userConfig = () => [
      "--userconfig",
      (registry as Registry).npmrc,
      "--registry",
      (registry as Registry).url,
    ];
    // A user's shell: none of the npm_config_* settings that npm exports to the scripts it runs (this
    // suite may run under `npm test`), which would override the project's own .npmrc.
    const userEnv = () =>
      Object.fromEntries(
        Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key)),
      );

    before(async () => {
      const reg = registry as Registry;
      // Not there before the publish: the registry has no other source for these names.
      for (const name of ["pulumi-frontdoor", "pulumi-frontdoor-native"]) {
        const res = await fetch(`${reg.url}${name}`);
        assert.equal(res.status, 404, `${name} is served before it was published`);
      }
      for (const tarball of record.npm)
        await run("npm", ["publish", path.join(dist, tarball), ...userConfig()], {
          maxBuffer: BIG,
          env: userEnv(),
        }).catch((error) => {
          throw new Error(`npm publish ${tarball} failed:\n${error.stdout}\n${error.stderr}`);
        });
      project = path.join(scratch, "my-infra");
      fs.mkdirSync(project);
      fs.writeFileSync(
        path.join(project, "package.json"),
        JSON.stringify({ name: "my-infra", private: true }),
      );
      // What the README's Install section tells a user to type, against this registry.
      await npmInstall(
        [
          "install",
          "--no-audit",
          "--no-fund",
          "pulumi-frontdoor",
          "pulumi-frontdoor-native",
          `@pulumi/pulumi@${USER_PULUMI_VERSION}`,
          ...userConfig(),
        ],
        { cwd: project, env: userEnv() },
      );
    });

    it("installs the released bytes from the registry: the lockfile names its tarballs and their integrity", () => {
      const lock = JSON.parse(fs.readFileSync(path.join(project, "package-lock.json"), "utf8"));
      for (const tarball of record.npm) {
        const name = tarball.replace(/-\d.*$/, "");
        const entry = lock.packages[`node_modules/${name}`];
        assert.equal(entry?.version, version, `${name} in the lockfile`);
        assert.ok(
          String(entry.resolved).startsWith((registry as Registry).url),
          `${name} resolved from ${entry.resolved}`,
        );
        const digest = crypto
          .createHash("sha512")
          .update(fs.readFileSync(path.join(dist, tarball)))
          .digest("base64");
        assert.equal(entry.integrity, `sha512-${digest}`, `${name}: not the release's tarball`);
      }
      const manifest = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"));
      assert.equal(manifest.dependencies["pulumi-frontdoor"], `^${version}`);
    });

    it("a program using both packages runs (Pulumi's mocks), and the shipped mock server answers", async () => {
      fs.writeFileSync(
        path.join(project, "program.js"),
        `const pulumi = require("@pulumi/pulumi");
const registered = [];
pulumi.runtime.setMocks({
  newResource: (args) => { registered.push(args.type); return { id: args.name + "-id", state: args.inputs }; },
  call: (args) => args.inputs,
}, "my-infra", "dev", false);
const dynamic = require("pulumi-frontdoor");
const native = require("pulumi-frontdoor-native");
const { startMockServer } = require("pulumi-frontdoor/mock");
(async () => {
  const viaPlugin = new native.Identity("alice", { name: "alice", type: "User", roleAttributes: ["staff"] });
  const viaDynamic = new dynamic.Identity("bob", { name: "bob", roleAttributes: ["staff"] });
  const ids = await Promise.all([viaPlugin.id, viaDynamic.id].map((o) => new Promise((r) => o.apply(r))));
  const mock = await startMockServer();
  const res = await fetch(mock.url + "/frontdoor/" + mock.credentials.frontdoorId + "/auth-providers", {
    headers: { authorization: "Bearer " + mock.credentials.frontdoorToken },
  });
  await mock.close();
  console.log(JSON.stringify({ registered, ids, mock: res.status }));
})();
`,
      );
      const { stdout } = await run(process.execPath, ["program.js"], { cwd: project });
      const result = JSON.parse(stdout.trim().split("\n").pop() as string);
      assert.deepEqual(result.ids, ["alice-id", "bob-id"]);
      assert.ok(result.registered.includes("frontdoor:index:Identity"), JSON.stringify(result.registered));
      assert.ok(
        result.registered.some((t: string) => t.startsWith("pulumi-nodejs:dynamic")),
        JSON.stringify(result.registered),
      );
      assert.equal(result.mock, 200);
    });
  });

  it("Go: a program outside the repository requires the SDK by module path and version from the release's module proxy, no replace, and runs", async () => {
    const go = record.go;
    assert.equal(go.tag, `sdk/go/v${version}`);
    const program = path.join(scratch, "go-user");
    fs.mkdirSync(program);
    // The dependencies besides the SDK: examples/go-edge's pinned graph, in the module cache (made
    // sure of with the regular proxy here; the program's own build then has GOPROXY=...,off).
    const example = path.join(REPO_ROOT, "examples", "go-edge");
    await run("go", ["mod", "download"], { cwd: example, maxBuffer: BIG });
    fs.copyFileSync(path.join(example, "go.mod"), path.join(program, "go.mod"));
    fs.copyFileSync(path.join(example, "go.sum"), path.join(program, "go.sum"));
    const edit = (args: string[]) => execFileSync("go", ["mod", "edit", ...args], { cwd: program });
    edit([
      "-module",
      "example.com/my-infra",
      `-dropreplace=${go.module}`,
      `-require=${go.module}@v${version}`,
    ]);
    assert.doesNotMatch(fs.readFileSync(path.join(program, "go.mod"), "utf8"), /^replace/m);
    fs.writeFileSync(
      path.join(program, "main.go"),
      `package main

import (
	"fmt"

	"${go.module}/frontdoor"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type mocks struct{}

func (mocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	fmt.Printf("registered %s %s\\n", args.TypeToken, args.Name)
	return args.Name + "-id", args.Inputs, nil
}

func (mocks) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) { return args.Args, nil }

func main() {
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		_, err := frontdoor.NewIdentity(ctx, "alice", &frontdoor.IdentityArgs{
			Name: pulumi.String("alice"),
			Type: pulumi.String("User"),
		})
		return err
	}, pulumi.WithMocks("my-infra", "dev", mocks{}))
	if err != nil {
		panic(err)
	}
}
`,
    );
    // The SDK must come from the release's files, not from an earlier run's module cache.
    forgetGoModule(go.module);
    const env = {
      ...process.env,
      GOPROXY: `file://${path.join(dist, "goproxy")},off`,
      GOFLAGS: "-mod=mod -buildvcs=false",
      // No checksum database knows this module (it is not public here); go.sum records its hash.
      GONOSUMDB: go.module,
    };
    const { stdout } = await run("go", ["run", "."], { cwd: program, env, maxBuffer: BIG }).catch((error) => {
      throw new Error(`go run failed:\n${error.stdout}\n${error.stderr}`);
    });
    assert.match(stdout, /^registered frontdoor:index:Identity alice$/m);
    const listed = JSON.parse(
      execFileSync("go", ["list", "-m", "-json", go.module], { cwd: program, env, encoding: "utf8" }),
    );
    assert.equal(listed.Version, `v${version}`);
    assert.equal(listed.Replace, undefined);
    const sum = fs.readFileSync(path.join(program, "go.sum"), "utf8");
    assert.match(sum, new RegExp(`^${go.module} v${version} h1:`, "m"));
  });

  it("Python: pip installs the wheel, whose metadata (name, version, requirements) is the generated pyproject.toml's, as is the sdist's PKG-INFO", () => {
    const { project } = readPyproject();
    const target = path.join(scratch, "site-packages");
    execFileSync(
      "python3",
      [
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-index",
        "--no-deps",
        "--target",
        target,
        path.join(dist, record.python.wheel),
      ],
      { stdio: "pipe" },
    );
    const read = `import json, sys, importlib.metadata as m, tarfile, email
sys.path.insert(0, sys.argv[1])
d = m.distribution(${JSON.stringify(project.name)})
with tarfile.open(sys.argv[2]) as t:
    info = email.message_from_bytes(t.extractfile(sys.argv[3] + "/PKG-INFO").read())
    names = t.getnames()
print(json.dumps({
    "wheel": {"name": d.metadata["Name"], "version": d.version, "requires": d.requires, "python": d.metadata["Requires-Python"]},
    "sdist": {"name": info["Name"], "version": info["Version"], "requires": info.get_all("Requires-Dist"), "python": info["Requires-Python"]},
    "files": [str(f) for f in d.files],
    "sdistFiles": names,
}))`;
    const base = record.python.sdist.replace(/\.tar\.gz$/, "");
    const found = JSON.parse(
      execFileSync("python3", ["-c", read, target, path.join(dist, record.python.sdist), base], {
        encoding: "utf8",
      }),
    );
    const expected = {
      name: project.name,
      version: project.version,
      requires: project.dependencies,
      python: project["requires-python"],
    };
    assert.deepEqual(found.wheel, expected);
    assert.deepEqual(found.sdist, expected);
    assert.ok(found.files.includes("pulumi_frontdoor/__init__.py"), "the wheel installs no package");
    const plugin = JSON.parse(
      fs.readFileSync(path.join(target, "pulumi_frontdoor", "pulumi-plugin.json"), "utf8"),
    );
    const { pluginDownloadURL } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
    assert.deepEqual(plugin, { resource: true, name: "frontdoor", version, server: pluginDownloadURL });
    for (const file of ["pyproject.toml", "PKG-INFO", "pulumi_frontdoor/__init__.py"])
      assert.ok(found.sdistFiles.includes(`${base}/${file}`), `the sdist lacks ${file}`);
  });
});

/** The generated SDK's pyproject.toml, read by Python's tomllib (the source of the expected metadata). */
function readPyproject(): { project: Record<string, any> } {
  const script = "import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))";
  const file = path.join(REPO_ROOT, "sdk", "native", "python", "pyproject.toml");
  return JSON.parse(execFileSync("python3", ["-c", script, file], { encoding: "utf8" }));
}
