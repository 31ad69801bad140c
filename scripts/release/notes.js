#!/usr/bin/env node
// `node scripts/release/notes.js <dist>`: the text of the GitHub release of the release in <dist>
// (release.json): the version's CHANGELOG.md notes, how to install each package, the assets, and the
// plugin platforms this release has no binary for, with the reason (from plugin-binaries.js --list),
// so nobody downloads a binary that is not there. The release workflow passes it to `gh release create`.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { releaseNotes } = require("./changelog.js");

const ROOT = path.resolve(__dirname, "..", "..");

/** The platforms plugin-binaries.js cannot build, as [platform, reason]; [] where the script is missing. */
function platformsNotBuilt(version) {
  const script = path.join(__dirname, "plugin-binaries.js");
  if (!fs.existsSync(script)) return [];
  const list = JSON.parse(
    execFileSync(process.execPath, [script, "--list", "--version", version], { encoding: "utf8" }),
  );
  return list.filter((p) => !p.built).map((p) => [p.platform, p.reason ?? "not built"]);
}

function releaseText(dist, { changelog, notBuilt }) {
  const record = JSON.parse(fs.readFileSync(path.join(dist, "release.json"), "utf8"));
  const { version } = record;
  const lines = [releaseNotes(changelog, version), "", "## Install", ""];
  lines.push(
    "- TypeScript/JavaScript, dynamic provider (no plugin): `npm install pulumi-frontdoor @pulumi/pulumi`",
    "- TypeScript/JavaScript, native SDK (the plugin): `npm install pulumi-frontdoor-native @pulumi/pulumi`",
    `- Go: \`go get ${record.go.module}@v${version}\``,
    `- Python: \`pip install ${record.python.wheel}\` (this release's asset)`,
    `- The plugin downloads itself on first use; ahead of time: \`pulumi plugin install resource frontdoor ${version}\``,
    "",
    "## Assets",
    "",
  );
  const assets = [...record.npm, ...record.plugins, record.python.wheel, record.python.sdist, "SHA256SUMS"];
  for (const file of assets) lines.push(`- \`${file}\` (${fs.statSync(path.join(dist, file)).size} bytes)`);
  lines.push("", "Check them with `sha256sum -c SHA256SUMS --ignore-missing`.");
  if (notBuilt.length) {
    lines.push("", "## Platforms without a plugin binary", "");
    for (const [platform, reason] of notBuilt) lines.push(`- ${platform}: ${reason}`);
  }
  return `${lines.join("\n")}\n`;
}

if (require.main === module) {
  const dist = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
  const { version } = JSON.parse(fs.readFileSync(path.join(dist, "release.json"), "utf8"));
  const changelog = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8");
  process.stdout.write(releaseText(dist, { changelog, notBuilt: platformsNotBuilt(version) }));
}
module.exports = { releaseText, platformsNotBuilt };
