#!/usr/bin/env node
// The provider plugin's files outside tsc's output:
//   node scripts/plugin.js launcher   bin/plugin/pulumi-resource-frontdoor (put bin/plugin on PATH)
//   node scripts/plugin.js package    the plugin tarball (see packagePlugin)
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const LAUNCHER = "pulumi-resource-frontdoor";

function launcher() {
  const dir = path.join(root, "bin", "plugin");
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(root, "provider", "plugin", LAUNCHER), path.join(dir, LAUNCHER));
  fs.chmodSync(path.join(dir, LAUNCHER), 0o755);
}

/** The folder of an installed package as node resolves it from `from` (node_modules up the tree). */
function packageDir(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === path.dirname(dir)) throw new Error(`${name} is not installed (from ${from}): run npm ci`);
  }
}

/**
 * Every package the plugin loads at run time: the package's dependencies and what the gRPC server needs
 * (@grpc/grpc-js, google-protobuf: the ones @pulumi/pulumi resolves, as its generated code needs them),
 * with their own dependencies, transitively. Dev dependencies are never followed.
 */
function runtimePackages() {
  const own = require(path.join(root, "package.json"));
  const pulumiDir = packageDir("@pulumi/pulumi", root);
  const found = new Map();
  const visit = (name, from) => {
    if (name.startsWith("@types/")) return; // declarations only: nothing runs
    const dir = packageDir(name, from);
    if (found.has(dir)) return;
    found.set(dir, name);
    const pkg = require(path.join(dir, "package.json"));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      try {
        visit(dep, dir);
      } catch (err) {
        if (!(pkg.optionalDependencies && dep in pkg.optionalDependencies)) throw err;
      }
    }
  };
  for (const name of Object.keys(own.dependencies)) visit(name, root);
  for (const name of ["@grpc/grpc-js", "google-protobuf"]) visit(name, pulumiDir);
  return { dirs: [...found.keys()], pulumiDir };
}

/**
 * `npm run plugin:package`: bin/pulumi-resource-frontdoor-v<version>.tgz, for
 * `pulumi plugin install resource frontdoor <version> --file <tarball>`. Inside: the launcher at the
 * top (the CLI runs pulumi-resource-frontdoor from the plugin's folder), package.json (the version the
 * plugin reports) and schema.json, the compiled provider (bin/provider, without declarations and
 * source maps), and the runtime packages; of @pulumi/pulumi only its generated gRPC code (proto/).
 */
function packagePlugin() {
  const { version } = require(path.join(root, "package.json"));
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-plugin-"));
  try {
    fs.copyFileSync(path.join(root, "provider", "plugin", LAUNCHER), path.join(stage, LAUNCHER));
    fs.chmodSync(path.join(stage, LAUNCHER), 0o755);
    for (const file of ["package.json", "schema.json", "LICENSE"])
      if (fs.existsSync(path.join(root, file)))
        fs.copyFileSync(path.join(root, file), path.join(stage, file));
    const jsOnly = (source) => fs.statSync(source).isDirectory() || /\.js$/.test(source);
    fs.cpSync(path.join(root, "bin", "provider"), path.join(stage, "bin", "provider"), {
      recursive: true,
      filter: jsOnly,
    });
    const { dirs, pulumiDir } = runtimePackages();
    for (const dir of dirs) {
      fs.cpSync(dir, path.join(stage, path.relative(root, dir)), {
        recursive: true,
        filter: (source) => !/\.(d\.ts|map|md|ts)$/.test(source) || source.endsWith("package.json"),
      });
    }
    const pulumiStage = path.join(stage, path.relative(root, pulumiDir));
    fs.mkdirSync(path.join(pulumiStage, "proto"), { recursive: true });
    fs.copyFileSync(path.join(pulumiDir, "package.json"), path.join(pulumiStage, "package.json"));
    for (const file of fs.readdirSync(path.join(pulumiDir, "proto")))
      if (file.endsWith(".js"))
        fs.copyFileSync(path.join(pulumiDir, "proto", file), path.join(pulumiStage, "proto", file));
    const out = path.join(root, "bin", `pulumi-resource-frontdoor-v${version}.tgz`);
    execFileSync("tar", ["-czf", out, "-C", stage, "."]);
    const size = fs.statSync(out).size;
    process.stdout.write(
      `${path.relative(root, out)} (${(size / 1024 / 1024).toFixed(1)} MiB): install with\n`,
    );
    process.stdout.write(`  pulumi plugin install resource frontdoor ${version} --file ${out}\n`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

const command = process.argv[2];
if (command === "launcher") launcher();
else if (command === "package") packagePlugin();
else {
  process.stderr.write("usage: node scripts/plugin.js launcher|package\n");
  process.exit(2);
}
