// qemu-aarch64, Debian's qemu-user: runs the linux-arm64 plugin binary on an amd64 machine, for
// test/plugin-binaries.test.ts, with the arm64 C and C++ runtime the binary links (Node.js needs libc,
// libstdc++, libgcc_s: Debian's *-arm64-cross packages, in /usr/aarch64-linux-gnu, given to qemu as
// its -L root). `npm run peers` calls ensure() last: it installs the packages with apt when they are
// missing (root and apt-get needed; `apt-get update` first), and links qemu-aarch64 into .peers/bin
// like the other peers. Where it cannot, it says so (and fails when peers are required).
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const PEER = path.join(root, ".peers", "bin", "qemu-aarch64");
/** The arm64 root qemu-aarch64 loads the binary's libraries from (`qemu-aarch64 -L <root>`). */
const ARM64_ROOT = "/usr/aarch64-linux-gnu";
const PACKAGES = ["qemu-user", "libc6-arm64-cross", "libstdc++6-arm64-cross", "libgcc-s1-arm64-cross"];

/** qemu-aarch64's path, when it and the arm64 runtime are installed. */
function found() {
  const which = spawnSync("sh", ["-c", "command -v qemu-aarch64"], { encoding: "utf8" });
  const libstdcxx = path.join(ARM64_ROOT, "lib", "libstdc++.so.6");
  return which.status === 0 && fs.existsSync(libstdcxx) ? which.stdout.trim() : undefined;
}

function ensure({ required = false } = {}) {
  let qemu = found();
  if (!qemu && process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v apt-get"]).status === 0) {
    process.stdout.write("peers: installing qemu-user (apt) for the linux-arm64 plugin binary\n");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...PACKAGES], {
      stdio: "inherit",
      env,
    });
    qemu = found();
  }
  if (!qemu) {
    const message = `qemu-aarch64 or the arm64 runtime not found (Debian: apt-get install ${PACKAGES.join(" ")}): the linux-arm64 binary is not run`;
    if (required) throw new Error(message);
    process.stdout.write(`peers: ${message}\n`);
    return;
  }
  fs.mkdirSync(path.dirname(PEER), { recursive: true });
  fs.rmSync(PEER, { force: true });
  fs.symlinkSync(qemu, PEER);
  process.stdout.write(`peers: qemu-aarch64 linked (${qemu})\n`);
}

module.exports = { ensure, ARM64_ROOT };
