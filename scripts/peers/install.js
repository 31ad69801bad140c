#!/usr/bin/env node
// `npm run peers`: builds the real peers the real-peer test suites run against, from pinned Go
// modules (wrapper modules beside this file: each go.mod pins one release, its go.sum pins every
// hash), into a cache under the home directory, and links them into `.peers/bin` (git-ignored):
//   ziti                          OpenZiti controller, router and CLI (quickstart), v1.6.0
//   ziti-v1.5.0                   the same, the older release the suites also run against
//   pulumi                        the Pulumi CLI
//   pulumi-language-nodejs        the CLI's Node.js language host
//   pulumi-resource-pulumi-nodejs the dynamic-provider plugin (a script that runs @pulumi/pulumi's host)
//   pulumi-language-go            the CLI's Go language host (Go programs with the plugin's Go SDK)
//   pulumi-frontdoor-sdkgen       our SDK generator over Pulumi's codegen (scripts/sdkgen; `npm run sdks`)
//   pulumi-language-nodejs-programgen  a Node.js and Go language host that only generates programs,
//                                 for `pulumi import --out x.ts|main.go` (scripts/sdkgen/programgen);
//                                 also linked as .peers/programgen/pulumi-language-nodejs and
//                                 pulumi-language-go, the names the CLI runs (the name picks the language)
//   pulumi-language-yaml          the CLI's YAML language host (programs using the provider plugin)
//   actionlint                    the GitHub Actions workflow linter (test/workflows-lint.test.ts)
//   qemu-aarch64                  Debian's qemu-user, linked (apt-installed when missing): runs the
//                                 linux-arm64 plugin binary (scripts/release/qemu.js)
// and, with npm (no Go needed), Verdaccio, an npm registry server (scripts/peers/verdaccio).
// Then it generates the plugin's SDKs into sdk/native with the generator (scripts/sdks/generate.js).
// Idempotent: a peer whose wrapper module is unchanged is not rebuilt. Without Go it says so and
// exits 0 (the suites then skip, loudly), unless FRONTDOOR_REQUIRE_PEERS=1 (CI), where it fails.

const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const binDir = path.join(root, ".peers", "bin");
const cacheRoot =
  process.env.FRONTDOOR_PEERS_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-frontdoor-peers");
const required = process.env.FRONTDOOR_REQUIRE_PEERS === "1";

// Why these versions (docs/guides/real-peers.md says the same):
// - ziti v1.6.0: the newest release whose whole dependency graph the module proxy serves here
//   (v1.6.5's go.mod needs github.com/openziti/channel/v4 v4.2.13: 403; v1.5.17 and v2.0.0: 403).
//   The checksum database has no entries for openziti modules here (404), so GONOSUMDB skips
//   that look-up; the committed go.sum still pins every hash.
// - ziti v1.5.0: the second release the real-controller suites and the field matrix run against
//   (an exact version the proxy serves; v1.5.4 and v1.5.17 are refused). Its go.mod has no
//   replace lines, so the wrapper module only requires it (as for v1.6.0).
// - pulumi v3.276.0: the newest release the module proxy serves (the @pulumi/pulumi of package.json
//   has the same version). pkg/v3's go.mod has replace lines, so a wrapper requires pkg/v3 and sdk/v3.
// - pulumi-language-nodejs: its own module (sdk/nodejs/cmd/pulumi-language-nodejs/v3) is refused
//   by the proxy (403 at v3.276.0, for @latest, @master and the version list; at the v3.259.0 commit
//   for the pseudo-version and the commit hash), so it is built from sdk/v3 v3.68.0, the last
//   release that still carried it inside sdk/v3.
// - pulumi-language-go: likewise (sdk/go/pulumi-language-go/v3: 403 the same ways) from sdk/v3
//   v3.60.0 (the last layout with go/pulumi-language-go inside sdk/v3); a Go program built against
//   sdk/v3 v3.276.0 (examples/go-edge) runs under it with the CLI.
// - sdkgen: pkg/v3 v3.276.0's code generators, the same version as the CLI.
// - programgen: the CLI writes the program of `pulumi import` through the language host's
//   GenerateProgram, which the v3.68 Node.js and v3.60 Go hosts lack ("method GenerateProgram not
//   implemented", "unknown method GenerateProgram"); this host answers it with pkg/v3 v3.276.0's
//   TypeScript or Go generator, in the sdkgen module.
// - actionlint v1.7.12: the newest release the module proxy serves here; a wrapper module (its go.sum
//   pins every hash) so that `go build -mod=readonly` needs nothing but the module cache and proxy.
// - pulumi-language-yaml v1.25.0: the newest the module proxy lists (v1.11.1 and v1.25.0); its go.mod has no replace lines, so a plain `go install pkg@version`
//   builds it (no wrapper module); the go.sum of the module itself pins the hashes.
const peers = [
  {
    name: "ziti",
    version: "v1.6.0",
    pkg: "github.com/openziti/ziti/ziti",
    ldflags: "-X github.com/openziti/ziti/common/version.Version=v1.6.0",
    env: { GONOSUMDB: "github.com/openziti" },
  },
  {
    name: "ziti-v1.5.0",
    version: "v1.5.0",
    pkg: "github.com/openziti/ziti/ziti",
    ldflags: "-X github.com/openziti/ziti/common/version.Version=v1.5.0",
    env: { GONOSUMDB: "github.com/openziti" },
  },
  {
    name: "pulumi",
    version: "v3.276.0",
    pkg: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
    ldflags: "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.276.0",
    env: {},
  },
  {
    name: "pulumi-language-nodejs",
    dir: "language-nodejs",
    version: "v3.68.0",
    pkg: "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs",
    ldflags: "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.68.0",
    env: {},
  },
  {
    name: "pulumi-language-go",
    dir: "language-go",
    version: "v3.60.0",
    pkg: "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go",
    ldflags: "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.60.0",
    env: {},
  },
  {
    name: "pulumi-frontdoor-sdkgen",
    dir: path.join("..", "sdkgen"),
    version: "v3.276.0",
    pkg: ".",
    files: ["go.mod", "go.sum", "main.go"],
    ldflags: "",
    env: {},
  },
  {
    name: "pulumi-language-nodejs-programgen",
    dir: path.join("..", "sdkgen"),
    version: "v3.276.0",
    pkg: "./programgen",
    files: ["go.mod", "go.sum", path.join("programgen", "main.go")],
    // The CLI finds a language host by its name (the runtime of Pulumi.yaml), which picks the
    // generator: on PATH only for `pulumi import` (see main.go).
    aliases: ["pulumi-language-nodejs", "pulumi-language-go"].map((name) => path.join("programgen", name)),
    ldflags: "",
    env: {},
  },
  {
    name: "pulumi-language-yaml",
    version: "v1.25.0",
    pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
    install: true,
    ldflags: "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v1.25.0",
    env: {},
  },
  {
    name: "actionlint",
    version: "v1.7.12",
    pkg: "github.com/rhysd/actionlint/cmd/actionlint",
    ldflags: "",
    env: {},
  },
];

// The engine starts `pulumi-resource-pulumi-nodejs` from PATH, in the program's directory, for
// dynamic resources; Pulumi's own script runs ./node_modules/@pulumi/pulumi/cmd/dynamic-provider,
// which misses a program whose node_modules is in a parent folder: resolve it the way node does.
const DYNAMIC_PROVIDER_PLUGIN = `#!/bin/sh
# The dynamic-provider plugin: @pulumi/pulumi's gRPC host, as the program's node resolves it.
exec node "$(node -p 'require.resolve("@pulumi/pulumi/cmd/dynamic-provider")')" "$@"
`;

function log(message) {
  process.stdout.write(`peers: ${message}\n`);
}

function goVersion() {
  const found = spawnSync("go", ["version"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/**
 * A cache key over everything that decides the binary: the wrapper module (or, for a plain install,
 * the module version), the flags, Go itself.
 */
function cacheKey(peer, dir, go) {
  const hash = crypto.createHash("sha256");
  if (peer.install) hash.update(`${peer.pkg}@${peer.version}`);
  else
    for (const file of peer.files ?? ["go.mod", "go.sum", "tools.go"])
      hash.update(fs.readFileSync(path.join(dir, file)));
  hash.update(`${peer.pkg}\0${peer.ldflags}\0${go}`);
  return hash.digest("hex").slice(0, 16);
}

function build(peer, go) {
  const dir = path.join(__dirname, peer.dir ?? peer.name);
  const target = path.join(cacheRoot, `${peer.name}-${peer.version}-${cacheKey(peer, dir, go)}`, peer.name);
  if (fs.existsSync(target)) {
    log(`${peer.name} ${peer.version}: cached (${target})`);
  } else {
    log(`${peer.name} ${peer.version}: building ${peer.pkg} (first build takes minutes; cached after)`);
    const started = Date.now();
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.partial-${process.pid}`;
    if (peer.install) {
      // `go install pkg@version` into a folder of its own, at low priority (a shared machine).
      const gobin = `${partial}.d`;
      execFileSync(
        "nice",
        ["-n", "10", "go", "install", "-ldflags", peer.ldflags, `${peer.pkg}@${peer.version}`],
        {
          cwd: os.tmpdir(),
          stdio: "inherit",
          env: { ...process.env, ...peer.env, GOFLAGS: "", GOBIN: gobin },
        },
      );
      fs.renameSync(path.join(gobin, path.basename(peer.pkg)), partial);
      fs.rmSync(gobin, { recursive: true, force: true });
    } else {
      execFileSync("go", ["build", "-mod=readonly", "-ldflags", peer.ldflags, "-o", partial, peer.pkg], {
        cwd: dir,
        stdio: "inherit",
        env: { ...process.env, ...peer.env, GOFLAGS: "" },
      });
    }
    fs.renameSync(partial, target); // atomic: an interrupted build never leaves a half binary
    log(`${peer.name} ${peer.version}: built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  link(target, path.join(binDir, peer.name));
  for (const alias of peer.aliases ?? []) {
    fs.mkdirSync(path.dirname(path.join(root, ".peers", alias)), { recursive: true });
    link(target, path.join(root, ".peers", alias));
  }
}

function link(target, at) {
  fs.rmSync(at, { force: true });
  fs.symlinkSync(target, at);
}

function main() {
  const only = process.argv.slice(2);
  if (only.length === 0 || only.includes("verdaccio")) require("./verdaccio/install.js").ensure();
  const go = goVersion();
  if (!go) {
    const message =
      "Go is not installed: the real-peer suites (real OpenZiti controller, real Pulumi CLI) and the suites " +
      "of the plugin's SDKs (sdk/native, generated by a Go program) will be skipped. " +
      "Install Go 1.26 and run `npm run peers` to build them.";
    if (required) {
      process.stderr.write(`peers: ${message}\nFRONTDOOR_REQUIRE_PEERS=1: failing.\n`);
      process.exit(1);
    }
    log(message);
    return;
  }
  log(`${go}; cache ${cacheRoot}`);
  fs.mkdirSync(binDir, { recursive: true });
  for (const peer of peers) if (only.length === 0 || only.includes(peer.name)) build(peer, go);
  const plugin = path.join(binDir, "pulumi-resource-pulumi-nodejs");
  fs.writeFileSync(plugin, DYNAMIC_PROVIDER_PLUGIN, { mode: 0o755 });
  fs.writeFileSync(
    path.join(root, ".peers", "versions.json"),
    `${JSON.stringify(Object.fromEntries(peers.map((p) => [p.name, p.version])), null, 2)}\n`,
  );
  log(`ready in ${binDir}`);
  // Last, the plugin's SDKs from schema.json (sdk/native is a build product, not in git): quick when
  // schema.json and the generator are unchanged since the last generation.
  if (only.length === 0) require("../sdks/generate.js").ensure();
  // qemu-aarch64 for the linux-arm64 plugin binary (scripts/release/qemu.js).
  if (only.length === 0) require("../release/qemu.js").ensure({ required });
}

main();
