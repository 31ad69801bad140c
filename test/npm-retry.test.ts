// The tests' npm install retry (test/support/npmRetry.ts, npm-retry.js) with the real npm against a
// registry on 127.0.0.1 that misses the way the public one did in CI: a packument without the version
// asked for (ETARGET), served right minutes later. The install is run again and succeeds, each retry
// said; an error that is not a registry's transient miss (403) fails at once. The same through the
// `npm` put first on PATH for workflow steps and README blocks.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { collectOutput } from "../harness/output";
import { NPM_RETRY_BIN, npmInstall, withNpmRetry } from "./support/npmRetry";

const NAME = "frontdoor-retry-probe";

describe("npm install retry on a registry's transient miss (real npm, a registry on 127.0.0.1)", function () {
  this.timeout(120_000);
  let dir: string;
  let server: http.Server;
  let url: string;
  let tarball: Buffer;
  /** What the registry answers for the packument: each request takes the next, the last one stays. */
  let packuments: Array<"without" | "with" | "forbidden">;
  /** The same for the tarball. */
  let tarballs: Array<"missing" | "served"> = ["served"];
  const seen: string[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "npm-retry-"));
    const pkg = path.join(dir, "pkg");
    fs.mkdirSync(pkg);
    fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: NAME, version: "1.0.0" }));
    fs.writeFileSync(path.join(pkg, "index.js"), "module.exports = 1;\n");
    const { stdout } = await promisify(execFile)("npm", ["pack", "--json", "--pack-destination", dir], {
      cwd: pkg,
    });
    tarball = fs.readFileSync(path.join(dir, JSON.parse(stdout)[0].filename));
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === `/${NAME}/-/${NAME}-1.0.0.tgz`) {
        const answer = tarballs.length > 1 ? tarballs.shift() : tarballs[0];
        if (answer === "missing") {
          res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
          return;
        }
        res.writeHead(200, { "content-type": "application/octet-stream" }).end(tarball);
        return;
      }
      if (req.url !== `/${NAME}`) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
        return;
      }
      const answer = packuments.length > 1 ? (packuments.shift() as string) : packuments[0];
      if (answer === "forbidden") {
        res.writeHead(403, { "content-type": "application/json" }).end('{"error":"forbidden"}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument(answer)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function packument(kind: string) {
    const versions: Record<string, unknown> = {
      "0.9.0": version("0.9.0"),
      ...(kind === "with" ? { "1.0.0": version("1.0.0") } : {}),
    };
    return { name: NAME, "dist-tags": { latest: kind === "with" ? "1.0.0" : "0.9.0" }, versions };
  }
  function version(v: string) {
    return {
      name: NAME,
      version: v,
      dist: {
        tarball: `${url}${NAME}/-/${NAME}-1.0.0.tgz`,
        integrity: `sha512-${crypto.createHash("sha512").update(tarball).digest("base64")}`,
        shasum: crypto.createHash("sha1").update(tarball).digest("hex"),
      },
    };
  }

  /** A project that depends on the probe 1.0.0, with its own npm cache (nothing cached yet). */
  function project(name: string): { cwd: string; env: NodeJS.ProcessEnv } {
    const cwd = path.join(dir, name);
    fs.mkdirSync(cwd);
    fs.writeFileSync(
      path.join(cwd, "package.json"),
      JSON.stringify({ name, private: true, dependencies: { [NAME]: "1.0.0" } }),
    );
    const env = {
      ...process.env,
      npm_config_registry: url,
      npm_config_cache: path.join(cwd, ".npm-cache"),
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      npm_config_fetch_retries: "0",
    };
    return { cwd, env };
  }

  it("ETARGET (the packument lacks the version), then served: retried, said, installed", async () => {
    packuments = ["without", "with"];
    seen.length = 0;
    const { cwd, env } = project("etarget");
    const { stderr } = await npmInstall(["install"], { cwd, env });
    assert.match(
      stderr,
      /^npm-retry: npm install --prefer-offline failed with ETARGET .*attempt 2 of 4 in 2 s, --prefer-online$/m,
    );
    assert.ok(fs.existsSync(path.join(cwd, "node_modules", NAME, "index.js")));
    assert.deepEqual(
      seen.filter((s) => s === `GET /${NAME}`),
      [`GET /${NAME}`, `GET /${NAME}`],
      "the packument asked for twice: the failed try and the retry",
    );
  });

  it("403: not a transient miss, so it fails at once", async () => {
    packuments = ["forbidden"];
    seen.length = 0;
    const { cwd, env } = project("forbidden");
    await assert.rejects(npmInstall(["install"], { cwd, env }), (error: Error) => {
      assert.match(error.message, /E403/);
      assert.doesNotMatch(error.message, /npm-retry:/);
      return true;
    });
    assert.equal(seen.filter((s) => s === `GET /${NAME}`).length, 1);
  });

  it("the `npm` on PATH for workflow steps does the same for a step's own `npm ci`", async () => {
    packuments = ["with"];
    const first = project("lockfile");
    await npmInstall(["install"], first); // writes the lockfile the step's `npm ci` installs from
    fs.rmSync(path.join(first.cwd, "node_modules"), { recursive: true });
    fs.rmSync(path.join(first.cwd, ".npm-cache"), { recursive: true });
    // The lockfile names the tarball: `npm ci` fetches only that, which the registry misses once.
    tarballs = ["missing", "served"];
    seen.length = 0;
    // Asynchronously: the registry answers from this process.
    const step = await collectOutput(
      spawn("bash", ["-e", "-c", "command -v npm; npm ci"], {
        cwd: first.cwd,
        env: withNpmRetry(first.env),
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    assert.equal(step.code, 0, step.stdout + step.stderr);
    assert.equal(step.stdout.split("\n")[0], path.join(NPM_RETRY_BIN, "npm"));
    assert.match(step.stderr, /^npm-retry: npm ci failed with E404 .*attempt 2 of 4/m);
    assert.deepEqual(
      seen.filter((s) => s.endsWith(".tgz")),
      [`GET /${NAME}/-/${NAME}-1.0.0.tgz`, `GET /${NAME}/-/${NAME}-1.0.0.tgz`],
    );
    assert.ok(fs.existsSync(path.join(first.cwd, "node_modules", NAME, "index.js")));
  });
});
