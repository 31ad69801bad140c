// A real npm registry on 127.0.0.1: Verdaccio 6 (installed by `npm run peers` into
// scripts/peers/verdaccio). The packages under test (`own`) have no uplink: they exist there only once
// the test publishes them, and are never fetched from anywhere else. Every other package (their
// dependencies, @pulumi/pulumi) is passed through from the npm registry, as a user's project gets
// them; without that, a by-name install of a package with dependencies cannot resolve. One user is
// registered through the registry's own login API (what `npm adduser` calls), and an .npmrc with its
// token is written for the npm commands that publish and install.
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "./index";

const VERDACCIO_DIR = path.join(REPO_ROOT, "scripts", "peers", "verdaccio");

export interface Registry {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** An npm userconfig naming this registry and the user's token: `npm --userconfig <npmrc> ...`. */
  npmrc: string;
  close(): Promise<void>;
}

/** Whether Verdaccio is installed from its current lockfile (`npm run peers`). */
export function registryInstalled(): boolean {
  return Boolean(require(path.join(VERDACCIO_DIR, "install.js")).installed());
}

/**
 * Where the packages passed through from the npm registry are kept between runs (the peers' cache
 * folder): Verdaccio then answers for them without asking upstream again, which otherwise costs
 * about a second per package (it fetches the whole document of each). The packages under test are
 * stored per run, under the run's own folder (`storage` of their package section).
 */
const PASSED_THROUGH = path.join(
  process.env.FRONTDOOR_PEERS_CACHE ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-frontdoor-peers"),
  "verdaccio-storage",
);

/** The npm registry the other packages come through from (npm's configured one, as for `npm ci`). */
const UPSTREAM = process.env.npm_config_registry || "https://registry.npmjs.org/";

/**
 * Starts Verdaccio with its storage under `dir`, serving the packages named `own` only from what is
 * published to it, and registers a publishing user.
 */
export async function startRegistry(dir: string, own: string[]): Promise<Registry> {
  fs.mkdirSync(path.join(dir, "own"), { recursive: true });
  fs.mkdirSync(PASSED_THROUGH, { recursive: true });
  const config = path.join(dir, "config.yaml");
  fs.writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(PASSED_THROUGH)}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(path.join(dir, "htpasswd"))}`,
      "    max_users: 1",
      // Passed-through documents count as fresh for a week (they only gain versions).
      `uplinks: { npmjs: { url: ${JSON.stringify(UPSTREAM)}, cache: true, maxage: 7d } }`,
      "packages:",
      // No `proxy` for the packages under test: not found until published, never fetched elsewhere;
      // stored in this run's folder (a path relative to the main storage).
      ...own.flatMap((name) => [
        `  ${JSON.stringify(name)}:`,
        "    access: $all",
        "    publish: $authenticated",
        `    storage: ${JSON.stringify(path.relative(PASSED_THROUGH, path.join(dir, "own")))}`,
      ]),
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    proxy: npmjs",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  const child = spawn(process.execPath, [path.join(VERDACCIO_DIR, "serve.js"), config], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await listening(child);
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  try {
    const res = await fetch(`${url}-/user/org.couchdb.user:release-test`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "release-test", password: "release-test-password" }),
    });
    const body = (await res.json()) as { token?: string };
    if (res.status !== 201 || !body.token)
      throw new Error(`registering a user: ${res.status} ${JSON.stringify(body)}`);
    const npmrc = path.join(dir, "npmrc");
    const host = url.replace(/^http:/, "");
    fs.writeFileSync(npmrc, `registry=${url}\n${host}:_authToken=${body.token}\n`);
    return { url, npmrc, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const found = /^listening (\S+)$/m.exec(out);
      if (found) resolve(found[1]);
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`verdaccio exited ${code} before listening:\n${out}`)));
  });
}
