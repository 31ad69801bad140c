// Keeps package-lock.json complete for `npm ci`. Biome ships its binary as one optional package per
// platform; the lockfile must name all of them, or `npm ci` refuses it ("Missing: @biomejs/cli-... from
// lock file"). A registry mirror that lacks some of them makes `npm install` drop their entries, so
// run this after `npm install` (`npm run lock:fix`): it re-adds the missing entries from Biome's own
// optionalDependencies. npm ci installs only the one matching the machine.
const fs = require("node:fs");
const path = require("node:path");

const lockPath = path.resolve(__dirname, "..", "package-lock.json");
const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));
const biome = lock.packages["node_modules/@biomejs/biome"];
// name suffix -> [os, cpu, libc]
const platforms = {
  "android-arm64": ["android", "arm64"],
  "android-x64": ["android", "x64"],
  "darwin-arm64": ["darwin", "arm64"],
  "darwin-x64": ["darwin", "x64"],
  "linux-arm64": ["linux", "arm64", "glibc"],
  "linux-arm64-musl": ["linux", "arm64", "musl"],
  "linux-x64": ["linux", "x64", "glibc"],
  "linux-x64-musl": ["linux", "x64", "musl"],
  "win32-arm64": ["win32", "arm64"],
  "win32-x64": ["win32", "x64"],
};
let added = 0;
for (const name of Object.keys(biome.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const [os, cpu, libc] = platforms[name.replace("@biomejs/cli-", "")] ?? [];
  if (!os) throw new Error(`unknown Biome platform package ${name}`);
  lock.packages[key] = {
    version: biome.optionalDependencies[name],
    cpu: [cpu],
    dev: true,
    ...(libc ? { libc: [libc] } : {}),
    license: biome.license,
    optional: true,
    os: [os],
    engines: biome.engines,
  };
  added++;
}
const ordered = Object.keys(lock.packages).sort((a, b) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1));
lock.packages = Object.fromEntries(ordered.map((k) => [k, lock.packages[k]]));
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added ? `package-lock.json: added ${added} Biome platform entries` : "package-lock.json: complete",
);
