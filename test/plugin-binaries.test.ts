// The plugin as its users get it: the release archives of scripts/release/plugin-binaries.js (built
// once for this file, all five platforms), and the real Pulumi CLI downloading the plugin on its own.
// - Each archive: the executable alone at its root (LICENSE beside it when there is one), executable,
//   of its platform's format and architecture (read from the header); macOS and Windows signatures
//   as the release notes state them (darwin-arm64: an ad-hoc signature whose page hashes verify).
// - The linux-amd64 binary serves GetPluginInfo and GetSchema with no Node.js on PATH; the
//   linux-arm64 binary does too, under qemu's user-mode emulation.
// - Automatic download: the archives served over HTTP on 127.0.0.1 by this test, the SDKs generated
//   from schema.json with that server's URL as pluginDownloadURL (the one setting, as
//   FRONTDOOR_PLUGIN_DOWNLOAD_URL sets it for `npm run schema`), a clean PULUMI_HOME per program,
//   automatic plugin acquisition on, and a YAML, a Go and a TypeScript program each running up,
//   preview --refresh --expect-no-changes and destroy against the mock with no plugin installed by
//   hand. The CLI runs with a PATH whose `node` is a stub that records any call: the plugin runs
//   without Node.js (the TypeScript and Go language hosts get the real PATH back through wrappers).
// - `pulumi plugin install resource frontdoor <version> --server <url>`, and with --checksum.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { type MockServer, startMockServer } from "../mock/server";
import { buildSchema } from "../provider/schema";
import { type CliStack, cliStack } from "./peers/cli";
import { PEERS_BIN, peerPath, REPO_ROOT, requirePeers } from "./peers/index";
import { startPlugin } from "./support/plugin";
import {
  archiveEntries,
  archiveName,
  binaryName,
  executableFormat,
  extractBinary,
  machoSignature,
  PLATFORMS,
  peCertificateTableSize,
  type ReleaseServer,
  releaseArchives,
  scratchDir,
  serveReleaseAssets,
  sha256,
  VERSION,
} from "./support/pluginBinaries";

const { compile } = require("../scripts/sdks/build-nodejs.js");
const { ARM64_ROOT } = require("../scripts/release/qemu.js");
const { hostBunBinary } = require("../scripts/release/plugin-binaries.js");
const yaml: { load(text: string): any; dump(value: unknown): string } = require("js-yaml");

const ALL = Object.keys(PLATFORMS);
const PROGRAMS = path.join(REPO_ROOT, "test", "programs");
const SCHEMA = fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8");
const FORMAT_OF_OS: Record<string, string> = { linux: "elf", darwin: "macho", windows: "pe" };

/** A folder whose `node` records every call into `marker` and fails: a PATH with no Node.js. */
function noNodeBin(marker: string): string {
  const dir = scratchDir("no-node-");
  fs.writeFileSync(
    path.join(dir, "node"),
    `#!/bin/sh\necho "node $*" >> '${marker}'\necho "node is not on this PATH" >&2\nexit 127\n`,
    { mode: 0o755 },
  );
  return dir;
}

/** GetPluginInfo's version and GetSchema's schema from a plugin process (started by `launcher`). */
async function infoAndSchema(launcher: string, env: NodeJS.ProcessEnv) {
  const plugin = await startPlugin({ launcher, env });
  try {
    const info = await plugin.call<any>("getPluginInfo", new emptyproto.Empty());
    const schema = await plugin.call<provproto.GetSchemaResponse>(
      "getSchema",
      new provproto.GetSchemaRequest(),
    );
    return { version: info.getVersion(), schema: schema.getSchema(), stderr: plugin.stderr() };
  } finally {
    await plugin.stop();
  }
}

describe("Plugin binaries: the release archives", function () {
  this.timeout(1_200_000);
  let dir: string;
  before(() => {
    dir = releaseArchives(ALL);
  });

  it("one archive per platform, named as the CLI asks, holding the executable at its root, of the platform's format and architecture", () => {
    const license = fs.existsSync(path.join(REPO_ROOT, "LICENSE"));
    assert.deepEqual(
      fs.readdirSync(dir).sort(),
      ALL.map((p) => archiveName(VERSION, p)).sort(),
      "exactly the five archives",
    );
    for (const platform of ALL) {
      const archive = path.join(dir, archiveName(VERSION, platform));
      const entries = archiveEntries(archive);
      assert.deepEqual(
        entries.map((e) => e.name).sort(),
        [binaryName(platform), ...(license ? ["LICENSE"] : [])].sort(),
        `${platform}: ${JSON.stringify(entries)}`,
      );
      const exe = entries.find((e) => e.name === binaryName(platform));
      assert.equal(exe?.mode, "-rwxr-xr-x", `${platform}: the executable's mode`);
      const [osName, arch] = platform.split("-");
      assert.deepEqual(
        executableFormat(extractBinary(archive, platform)),
        { format: FORMAT_OF_OS[osName], arch },
        platform,
      );
    }
    assert.equal(binaryName("windows-amd64"), "pulumi-resource-frontdoor.exe");
  });

  it("signatures as the release notes say: darwin-arm64 ad-hoc signed (every page hash verifies), darwin-amd64 and windows-amd64 unsigned (no stale signature left)", () => {
    const arm = machoSignature(
      extractBinary(path.join(dir, archiveName(VERSION, "darwin-arm64")), "darwin-arm64"),
    );
    assert.ok(arm, "darwin-arm64 has no code signature: Apple Silicon would not run it");
    assert.equal(arm.flags & 0x2, 0x2, "not an ad-hoc signature");
    assert.ok(arm.pages > 1000, `${arm.pages} pages signed`);
    assert.equal(arm.badPages, 0, "pages whose hash does not verify");
    const intel = extractBinary(path.join(dir, archiveName(VERSION, "darwin-amd64")), "darwin-amd64");
    assert.equal(
      machoSignature(intel),
      undefined,
      "darwin-amd64 keeps Node's signature, which the injection broke",
    );
    const windows = extractBinary(path.join(dir, archiveName(VERSION, "windows-amd64")), "windows-amd64");
    assert.equal(peCertificateTableSize(windows), 0, "windows-amd64 keeps Node's Authenticode signature");
  });

  it("the linux-amd64 binary serves its version and schema.json with no Node.js on PATH", async () => {
    const marker = path.join(scratchDir("marker-"), "node-calls");
    const binary = extractBinary(path.join(dir, archiveName(VERSION, "linux-amd64")), "linux-amd64");
    const answer = await infoAndSchema(binary, { PATH: noNodeBin(marker) });
    assert.equal(answer.version, VERSION);
    assert.deepEqual(JSON.parse(answer.schema), JSON.parse(SCHEMA));
    assert.equal(fs.existsSync(marker), false, "the binary ran node");
  });

  // The plugin's own protocol suite (test/plugin.test.ts: configure, check, create, read, update,
  // delete, invoke against the mock, secrets marked) in a child mocha, on a binary instead of the launcher.
  const protocolSuite = (binary: string) => {
    const run = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "node_modules", "mocha", "bin", "mocha.js"), "test/plugin.test.ts"],
      { cwd: REPO_ROOT, env: { ...process.env, FRONTDOOR_PLUGIN: binary }, encoding: "utf8" },
    );
    const counts = /(\d+) passed, (\d+) failed\s*$/.exec(run.stdout);
    assert.ok(
      run.status === 0 && counts && counts[2] === "0" && Number(counts[1]) > 0,
      `${run.stdout}\n${run.stderr}`,
    );
  };

  it("the linux-amd64 binary passes the plugin's protocol suite (test/plugin.test.ts) unchanged", () => {
    protocolSuite(extractBinary(path.join(dir, archiveName(VERSION, "linux-amd64")), "linux-amd64"));
  });

  it("so does the plugin compiled by Bun (the darwin-arm64 binary's runtime) for this machine", async () => {
    const exe = path.join(scratchDir("bun-"), "pulumi-resource-frontdoor");
    await hostBunBinary(VERSION, exe);
    protocolSuite(exe);
  });

  it("the linux-arm64 binary answers GetSchema under qemu's user-mode emulation", async function () {
    requirePeers(this, "qemu-aarch64");
    const binary = extractBinary(path.join(dir, archiveName(VERSION, "linux-arm64")), "linux-arm64");
    // The engine passes its address as the one argument: the wrapper hands it on.
    const launcher = path.join(path.dirname(binary), "under-qemu");
    fs.writeFileSync(
      launcher,
      `#!/bin/sh\nexec '${peerPath("qemu-aarch64")}' -L '${ARM64_ROOT}' '${binary}' "$@"\n`,
      { mode: 0o755 },
    );
    const answer = await infoAndSchema(launcher, {});
    assert.equal(answer.version, VERSION);
    assert.deepEqual(JSON.parse(answer.schema), JSON.parse(SCHEMA));
  });
});

describe("Plugin binaries: the CLI downloads the plugin on its own (YAML, Go, TypeScript)", function () {
  this.timeout(1_800_000);
  let mock: MockServer;
  let server: ReleaseServer;
  /** The SDKs generated with the test server's URL (inside the repository: the Node.js one resolves @pulumi/pulumi from it). */
  const sdkDir = path.join(PROGRAMS, `.work-download-sdk-${process.pid}`);
  let schema: any;
  let marker: string;
  let path_: string;

  before(async function () {
    requirePeers(
      this,
      "pulumi",
      "pulumi-language-yaml",
      "pulumi-language-go",
      "pulumi-language-nodejs",
      "pulumi-frontdoor-sdkgen",
    );
    const dir = releaseArchives(ALL);
    mock = await startMockServer();
    server = await serveReleaseAssets(dir);
    // schema.json as `FRONTDOOR_PLUGIN_DOWNLOAD_URL=<server> npm run schema` writes it, then the SDKs.
    schema = buildSchema(VERSION, server.downloadUrl);
    fs.rmSync(sdkDir, { recursive: true, force: true });
    fs.mkdirSync(sdkDir, { recursive: true });
    fs.writeFileSync(path.join(sdkDir, "schema.json"), JSON.stringify(schema));
    execFileSync(
      peerPath("pulumi-frontdoor-sdkgen") as string,
      [path.join(sdkDir, "schema.json"), sdkDir, "nodejs", "go"],
      {
        stdio: "pipe",
      },
    );
    compile(path.join(sdkDir, "nodejs"));

    // The CLI's PATH: the peers and a `node` that only records being called; the plugins the CLI
    // starts get that PATH. The language hosts get this process's PATH back through wrappers of
    // their own (the TypeScript host runs node, the Go host runs go and its C toolchain).
    marker = path.join(scratchDir("marker-"), "node-calls");
    const bin = noNodeBin(marker);
    assert.ok(!fs.existsSync(path.join(PEERS_BIN, "node")), "a node in the peers' folder");
    for (const host of ["pulumi-language-nodejs", "pulumi-language-go"] as const)
      fs.writeFileSync(
        path.join(bin, host),
        `#!/bin/sh\nPATH='${process.env.PATH}' exec '${peerPath(host)}' "$@"\n`,
        { mode: 0o755 },
      );
    path_ = [bin, PEERS_BIN].join(path.delimiter);
  });
  after(async () => {
    await server?.close();
    mock?.close();
    fs.rmSync(sdkDir, { recursive: true, force: true });
  });

  const downloads = (from: number) => server.requests.slice(from);
  const archivePath = `/releases/download/v${VERSION}/${archiveName(VERSION, "linux-amd64")}`;

  /** A stack of a program with a clean PULUMI_HOME, automatic plugin acquisition on, no node on PATH. */
  const stackOf = (program: string) =>
    cliStack(path.join(PROGRAMS, program), {
      config: {
        "frontdoor:apiUrl": mock.url,
        "frontdoor:frontdoorId": mock.credentials.frontdoorId,
      },
      secretConfig: {
        "frontdoor:token": mock.credentials.frontdoorToken,
        ssoClientSecret: `download-sso-secret-${program}`,
      },
      env: {
        PATH: path_,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      },
    });

  /** up, preview --refresh --expect-no-changes, destroy; the plugin downloaded once, by the CLI. */
  const lifecycle = async (program: string, prepare: (stack: CliStack) => void) => {
    const stack = await stackOf(program);
    try {
      prepare(stack);
      const installed = path.join(stack.home, "plugins", `resource-frontdoor-v${VERSION}`);
      assert.equal(fs.existsSync(installed), false, "the plugin is installed before up");
      const from = server.requests.length;
      // The Go host builds the program first: minutes on a cold build cache.
      const up = await stack.run(["up", "--yes", "--skip-preview"], { timeoutMs: 1_200_000 });
      assert.equal(up.code, 0, up.output);
      assert.deepEqual(downloads(from), [`GET ${archivePath}`], "the CLI did not download the archive once");
      assert.deepEqual(executableFormat(path.join(installed, "pulumi-resource-frontdoor")), {
        format: "elf",
        arch: "amd64",
      });
      const id = (await stack.idOf("sso")).split("/").pop() as string;
      assert.equal(
        mock.frontdoor.get(mock.credentials.frontdoorId, "auth-providers", id)?.name,
        `${program}-sso`,
      );

      const check = await stack.run(["preview", "--refresh", "--expect-no-changes"]);
      assert.equal(check.code, 0, `changes right after up:\n${check.output}`);
      await stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.equal(mock.frontdoor.get(mock.credentials.frontdoorId, "auth-providers", id), undefined);
      assert.deepEqual(downloads(from), [`GET ${archivePath}`], "downloaded again");
      assert.equal(
        fs.existsSync(marker),
        false,
        `node was run: ${fs.existsSync(marker) && fs.readFileSync(marker, "utf8")}`,
      );
    } finally {
      await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await stack.dispose();
    }
  };

  it("YAML: the version and download URL in the resource's options", async () => {
    await lifecycle("download-yaml", (stack) => {
      const file = path.join(stack.dir, "Pulumi.yaml");
      const project = yaml.load(fs.readFileSync(file, "utf8"));
      assert.equal(project.resources.sso.options.version, VERSION);
      // A concrete URL: `${...}` is YAML's own interpolation.
      project.resources.sso.options.pluginDownloadURL = server.downloadUrl.replace(/\$\{VERSION\}/, VERSION);
      fs.writeFileSync(file, yaml.dump(project));
    });
  });

  it("Go: the URL from the generated Go SDK (pulumi-plugin.json)", async () => {
    const goSdk = path.join(sdkDir, "go");
    const module = /^module (\S+)/m.exec(fs.readFileSync(path.join(goSdk, "go.mod"), "utf8"))?.[1] as string;
    const plugin = JSON.parse(fs.readFileSync(path.join(goSdk, schema.name, "pulumi-plugin.json"), "utf8"));
    assert.equal(plugin.server, server.downloadUrl, "the Go SDK does not carry the download URL");
    await lifecycle("download-go", (stack) => {
      // examples/go-edge's go.mod and go.sum (the same Pulumi SDK), the generated SDK in place of its.
      for (const file of ["go.mod", "go.sum"])
        fs.copyFileSync(path.join(REPO_ROOT, "examples", "go-edge", file), path.join(stack.dir, file));
      const main = path.join(stack.dir, "main.go");
      fs.writeFileSync(
        main,
        fs
          .readFileSync(main, "utf8")
          .replace(/"[^"\s]+\/frontdoor"/, JSON.stringify(schema.language.go.importBasePath)),
      );
      execFileSync(
        "go",
        ["mod", "edit", "-module=download-go", `-require=${module}@v0.0.0`, `-replace=${module}=${goSdk}`],
        { cwd: stack.dir },
      );
    });
  });

  it("TypeScript: the URL from the generated Node.js SDK (its package.json), node only for the language host", async () => {
    const sdk = JSON.parse(fs.readFileSync(path.join(sdkDir, "nodejs", "package.json"), "utf8"));
    assert.equal(sdk.pulumi?.server, server.downloadUrl, "the Node.js SDK does not carry the download URL");
    await lifecycle("download-ts", (stack) => {
      // The program's own node_modules: this generation of the SDK, not the repository's.
      fs.cpSync(path.join(sdkDir, "nodejs", "bin"), path.join(stack.dir, "node_modules", sdk.name), {
        recursive: true,
      });
      for (const file of ["index.ts", "package.json"]) {
        const text = fs.readFileSync(path.join(stack.dir, file), "utf8");
        fs.writeFileSync(path.join(stack.dir, file), text.replaceAll("pulumi-frontdoor-native", sdk.name));
      }
    });
  });

  it("`pulumi plugin install resource frontdoor <version> --server <url>` installs the binary; --checksum refuses a wrong one", async () => {
    const stack = await stackOf("download-yaml");
    try {
      const archive = path.join(releaseArchives(ALL), archiveName(VERSION, "linux-amd64"));
      const install = ["plugin", "install", "resource", "frontdoor", VERSION, "--server", server.downloadUrl];
      const listed = async () =>
        (JSON.parse((await stack.ok(["plugin", "ls", "--json"])).stdout) as any[])
          .filter((p) => p.name === "frontdoor" && p.kind === "resource")
          .map((p) => p.version);

      const wrong = await stack.run([...install, "--checksum", "0".repeat(64)]);
      assert.notEqual(wrong.code, 0, `a wrong checksum was accepted:\n${wrong.output}`);
      assert.match(wrong.output, /invalid checksum/);
      assert.deepEqual(await listed(), []);

      await stack.ok(install);
      assert.deepEqual(await listed(), [VERSION]);
      const installed = path.join(
        stack.home,
        "plugins",
        `resource-frontdoor-v${VERSION}`,
        "pulumi-resource-frontdoor",
      );
      assert.equal(sha256(installed), sha256(extractBinary(archive, "linux-amd64")));
    } finally {
      await stack.dispose();
    }
  });

  // The archive's true SHA-256 (the one SHA256SUMS lists) is accepted by --checksum. CLI v3.259.0
  // refused it: it hashed the download without the bytes of its last read (its reader skipped the
  // data of a read that came with io.EOF, as Go's HTTP client returns the end of a body with a
  // Content-Length); this test pinned that until the CLI peer moved to v3.276.0, which installs it.
  // The other way the guide gives, checking the archive against SHA256SUMS and then --file, works too.
  it("--checksum with the archive's true SHA-256 installs it (CLI 3.276; 3.259 refused it); SHA256SUMS then --file works too", async () => {
    const stack = await stackOf("download-yaml");
    try {
      const archive = path.join(releaseArchives(ALL), archiveName(VERSION, "linux-amd64"));
      const installed = path.join(
        stack.home,
        "plugins",
        `resource-frontdoor-v${VERSION}`,
        "pulumi-resource-frontdoor",
      );
      await stack.ok([
        ...["plugin", "install", "resource", "frontdoor", VERSION, "--server", server.downloadUrl],
        ...["--checksum", sha256(archive)],
      ]);
      assert.equal(sha256(installed), sha256(extractBinary(archive, "linux-amd64")));
      await stack.ok(["plugin", "rm", "resource", "frontdoor", VERSION, "--yes"]);
      assert.equal(fs.existsSync(installed), false, "plugin rm left the binary");

      const download = path.join(scratchDir("download-"), archiveName(VERSION, "linux-amd64"));
      fs.copyFileSync(archive, download);
      assert.equal(sha256(download), sha256(archive), "the archive as SHA256SUMS lists it");
      await stack.ok(["plugin", "install", "resource", "frontdoor", VERSION, "--file", download]);
      assert.deepEqual(executableFormat(installed), { format: "elf", arch: "amd64" });
    } finally {
      await stack.dispose();
    }
  });
});
