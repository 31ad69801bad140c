// Where the Pulumi CLI downloads the plugin from: schema.json's `pluginDownloadURL`, and so every SDK
// generated from it (the Node.js SDK's package.json and resource options, the Go module's
// pulumi-plugin.json, the Python package's). One setting: FRONTDOOR_PLUGIN_DOWNLOAD_URL when set (a
// fork, a mirror, a test's server), else the GitHub release assets of the repository package.json
// names. The CLI fills in ${VERSION} and fetches `<url>/pulumi-resource-frontdoor-v<version>-<os>-<arch>.tar.gz`
// (scripts/release/plugin-binaries.js writes those), so a release is tagged v<version>.
// Plain https (not github://): no GitHub API call, no rate limit, no token, and the same code path in
// the CLI as the test's server on loopback (test/plugin-binaries.test.ts).
const path = require("node:path");

const ENV = "FRONTDOOR_PLUGIN_DOWNLOAD_URL";

/** `git+https://github.com/o/r.git` -> `https://github.com/o/r/releases/download/v${VERSION}`. */
function releaseAssetsUrl(repositoryUrl) {
  const match = /^(?:git\+)?https:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(repositoryUrl ?? "");
  if (!match) throw new Error(`package.json repository.url is not a GitHub https URL: ${repositoryUrl}`);
  return `https://github.com/${match[1]}/${match[2]}/releases/download/v\${VERSION}`;
}

/** The plugin download URL: FRONTDOOR_PLUGIN_DOWNLOAD_URL, else the repository's release assets. */
function pluginDownloadUrl(env = process.env) {
  if (env[ENV]) return env[ENV];
  const pkg = require(path.join(__dirname, "..", "..", "package.json"));
  return releaseAssetsUrl(pkg.repository?.url);
}

module.exports = { pluginDownloadUrl, releaseAssetsUrl, ENV };
