// The project's repository as package.json's `repository.url` names it (the one place that does), and
// what derives from it: the Go SDK's module path (schema.json's go.importBasePath) and its tag.
import * as fs from "node:fs";
import * as path from "node:path";

/** Where the Go SDK module sits in the repository at its release tag (`sdk/go/v<version>`). */
export const GO_SDK_DIR = "sdk/go";

export interface Repository {
  /** https://github.com/<owner>/<name> */
  url: string;
  /** github.com/<owner>/<name>: the prefix of Go module paths in it. */
  modulePrefix: string;
}

/** `git+https://github.com/o/n.git`, `https://github.com/o/n` -> the repository's URL and module prefix. */
export function parseRepository(url: string): Repository {
  const found = /^(?:git\+)?https:\/\/([^/]+\/[^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url);
  if (!found) throw new Error(`package.json repository.url ${url} is not https://<host>/<owner>/<name>`);
  return { url: `https://${found[1]}`, modulePrefix: found[1] };
}

/** The package.json of the project: found upwards from here (provider/ in the sources, bin/provider/ built). */
function manifest(): { repository?: { url?: string } | string } {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const found = JSON.parse(fs.readFileSync(file, "utf8"));
      if (found.name === "pulumi-frontdoor") return found;
    }
    if (dir === path.dirname(dir)) throw new Error(`no package.json of pulumi-frontdoor above ${__dirname}`);
  }
}

export function projectRepository(): Repository {
  const { repository } = manifest();
  const url = typeof repository === "string" ? repository : repository?.url;
  if (!url) throw new Error("package.json has no repository.url");
  return parseRepository(url);
}

/** The Go SDK's module path: the repository's, then the folder it is tagged in. */
export function goModulePath(repository: Repository = projectRepository()): string {
  return `${repository.modulePrefix}/${GO_SDK_DIR}`;
}

/** A fork's, a mirror's or a test server's address for the plugin binaries, when set. */
export const PLUGIN_DOWNLOAD_URL_ENV = "FRONTDOOR_PLUGIN_DOWNLOAD_URL";

/**
 * Where the Pulumi CLI downloads the plugin from: schema.json's `pluginDownloadURL`, and so every SDK
 * generated from it. FRONTDOOR_PLUGIN_DOWNLOAD_URL when set, else the repository's GitHub release
 * assets. The CLI fills in ${VERSION} and fetches
 * `<url>/pulumi-resource-frontdoor-v<version>-<os>-<arch>.tar.gz` (scripts/release/plugin-binaries.js
 * writes those), so a release is tagged v<version>. Plain https (not github://): no GitHub API call,
 * no rate limit, no token, and the same code path in the CLI as a test's server on loopback.
 */
export function pluginDownloadUrl(
  env: NodeJS.ProcessEnv = process.env,
  repository: Repository = projectRepository(),
): string {
  const override = env[PLUGIN_DOWNLOAD_URL_ENV];
  if (override) return override;
  if (!repository.modulePrefix.startsWith("github.com/")) {
    throw new Error(
      `package.json repository.url is not on github.com (${repository.url}): set ${PLUGIN_DOWNLOAD_URL_ENV}`,
    );
  }
  return `${repository.url}/releases/download/v\${VERSION}`;
}
