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
