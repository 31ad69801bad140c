// The README's quick start, run as a user follows it: its code blocks in order, in bash, from a new
// empty folder outside the checkout, with the real Pulumi CLI and the package installed from `npm pack`'s
// tarball. First the project and the mock part, exactly as written: the mock server started the way the
// README says (`npx pulumi-frontdoor-mock --tls` from the installed package) and the settings it prints.
// Then the accounts part in a new shell, against a mock server of the test's standing in for the
// accounts (HTTPS, its CA trusted through FRONTDOOR_CA_BUNDLE). The only change to the README's text is
// PLACEHOLDERS: the user's own services, credentials and files become the test's. Every `<placeholder>`
// of the blocks must have a value there and every value must be used, so a changed block fails here
// rather than being run half-substituted. Also: `npm pack` in a fresh clone says to run `npm ci` first.
import * as assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { collectOutput } from "../harness/output";
import { type MockServer, startMockServer } from "../mock/server";
import { PEERS_BIN, REPO_ROOT, requirePeers } from "./peers";
import { codeBlocks, section } from "./support/markdown";
import { NPM_RETRY_BIN } from "./support/npmRetry";
import { packPackage } from "./support/userProject";
import { waitFor } from "./support/wait";

/** The README heading whose blocks are run (its anchor), and the heading of its part run in a new shell. */
const QUICK_START = "quick-start";
const ACCOUNTS = "against-your-accounts";

/** The tarball `npm pack` writes, by the name the README gives it. */
const TARBALL = `pulumi-frontdoor-${JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version}.tgz`;

/** The user's values in the README and what the test puts in their place. */
function placeholders(mock: MockServer, tarball: string, secrets: { passphrase: string; sso: string }) {
  return new Map<string, string>([
    [`<path to ${TARBALL}>`, tarball],
    ["<a passphrase>", secrets.passphrase],
    ["https://gateway.production.netfoundry.io", mock.url],
    ["<your frontdoor id>", mock.credentials.frontdoorId],
    ["<bearer token>", mock.credentials.frontdoorToken],
    ["https://ziti.example.com:1280", mock.url],
    ["<edge admin password>", mock.credentials.edgePassword],
    ["<OIDC client secret>", secrets.sso],
  ]);
}

/** `<words>` outside comments: what the user must fill in. */
function unfilled(script: string): string[] {
  const code = script
    .split("\n")
    .map((line) => line.replace(/(^|\s)#.*$/, ""))
    .join("\n");
  return [...code.matchAll(/<[^<>\n]+>/g)].map((m) => m[0]);
}

/**
 * The quick start as two bash scripts: up to the accounts' heading (project, program, mock), and that
 * part. `sh` blocks as they are, a block titled with a file name (```ts title="index.ts") written to
 * that file, each block announced with its README line.
 */
function quickStartScripts(readme: string): { mock: string; accounts: string } {
  const { text, line } = section(readme, QUICK_START);
  const split = section(readme, ACCOUNTS).line;
  const parts = { mock: [] as string[], accounts: [] as string[] };
  for (const block of codeBlocks(text)) {
    const at = line + block.line - 1;
    const where = `README.md:${at}`;
    const script = at < split ? parts.mock : parts.accounts;
    const title = /\btitle="([^"]+)"/.exec(block.info)?.[1];
    script.push(`echo "== ${where} (at \${SECONDS} s)"`);
    if (/^(sh|bash)$/.test(block.info)) script.push(block.code);
    else if (title) script.push(`cat > ${title} <<'README_EOF'\n${block.code}\nREADME_EOF`);
    else throw new Error(`${where}: a \`${block.info}\` block is neither a command block nor a titled file`);
  }
  assert.ok(parts.mock.length >= 6, `the quick start's mock part has only ${parts.mock.length / 2} blocks`);
  assert.ok(parts.accounts.length >= 2, "the quick start has no accounts part");
  return { mock: parts.mock.join("\n"), accounts: parts.accounts.join("\n") };
}

/** Runs `script` in bash as its own process group (what it leaves running is found, and stopped, by it). */
function bash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; done: ReturnType<typeof collectOutput> } {
  const child = spawn("bash", ["-euo", "pipefail", "-c", script], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, done: collectOutput(child) };
}

/** Whether a process of the group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The environment of a user's shell: no settings of this test process (CLI, npm, ts-node, the provider's). */
function userEnv(home: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(PULUMI_|FRONTDOOR_|ZITI_|NETFOUNDRY_|TS_NODE_|npm_|NODE_PATH$|NODE_OPTIONS$)/i.test(key))
      env[key] = value;
  return { ...env, HOME: home, ...extra };
}

describe("README quick start, run as written", function () {
  this.timeout(900_000);
  let scratch: string;
  let mock: MockServer | undefined;
  const groups: number[] = [];

  before(function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
  });
  after(async () => {
    // A script that failed half way leaves its mock server running: its process group is stopped.
    for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
    await mock?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("from a new empty folder: project, install, program, the mock (up, drift check, destroy), then accounts", async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-quickstart-"));
    mock = await startMockServer({ tls: true });
    const caFile = path.join(scratch, "accounts-ca.pem");
    fs.writeFileSync(caFile, mock.caPem as string);
    const secrets = { passphrase: crypto.randomBytes(12).toString("hex"), sso: `sso-${crypto.randomUUID()}` };
    const tarball = path.join(scratch, TARBALL);

    // The scripts first: a README the table no longer fits fails here, before the slow part.
    let { mock: mockPart, accounts } = quickStartScripts(
      fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"),
    );
    const values = placeholders(mock, tarball, secrets);
    for (const [placeholder, value] of values) {
      assert.ok(
        mockPart.includes(placeholder) || accounts.includes(placeholder),
        `the quick start no longer has ${placeholder}: update the test`,
      );
      mockPart = mockPart.split(placeholder).join(value);
      accounts = accounts.split(placeholder).join(value);
    }
    assert.deepEqual(unfilled(mockPart + accounts), [], "placeholders the test has no value for");
    assert.match(mockPart, /^npx pulumi-frontdoor-mock /m, "the mock part starts the shipped mock server");
    // On Node 20 the user follows the README's note on the install line, and so does the test.
    if (Number(process.versions.node.split(".")[0]) < 22) {
      const note = /^npm install .* @pulumi\/pulumi +# on Node 20: (@pulumi\/pulumi@[\d.]+)$/m.exec(mockPart);
      assert.ok(note, "the install line says which @pulumi/pulumi to take on Node 20");
      mockPart = mockPart.replace(note[0], note[0].replace(/ @pulumi\/pulumi +#/, ` ${note[1]} #`));
    }

    assert.equal((await packPackage(scratch)).tarball, tarball, "npm pack wrote another file name");
    const home = path.join(scratch, "home");
    const start = path.join(scratch, "start"); // the user's new empty folder
    fs.mkdirSync(home);
    fs.mkdirSync(start);
    const shell = (extra: NodeJS.ProcessEnv) =>
      userEnv(home, {
        // The CLI and its plugins as a user has them installed: on PATH. npm through the tests' retry of
        // an install that a registry's transient miss failed (test/support/npmRetry.ts).
        PATH: [NPM_RETRY_BIN, PEERS_BIN, process.env.PATH].join(path.delimiter),
        // The CLI's own folder (credentials of `pulumi login`, logs) in the temporary HOME: the CLI
        // finds ~ in the user database, not in $HOME, and would write the machine user's otherwise.
        PULUMI_HOME: path.join(home, ".pulumi"),
        // The machine's npm cache (the temporary HOME has none), no network when it has the packages.
        npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"),
        npm_config_prefer_offline: "true",
        npm_config_audit: "false",
        npm_config_fund: "false",
        npm_config_update_notifier: "false",
        // Only the built peers: no update check, no plugin downloads.
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        NO_COLOR: "1",
        ...extra,
      });

    // The project and the mock part: nothing but the README (the mock's CA comes from what it prints).
    const first = bash(mockPart, start, shell({}));
    groups.push(first.child.pid as number);
    const tried = await first.done;
    assert.equal(
      tried.code,
      0,
      `the quick start's mock part failed (exit ${tried.code}):\n${tried.stdout}\n${tried.stderr}`,
    );
    // The README's `kill` stopped the mock (it exits on SIGTERM, closing its server first).
    await waitFor(
      () => !groupAlive(first.child.pid as number),
      "the mock server to stop after the README's kill",
    );
    const project = path.join(start, "my-access");
    assert.match(fs.readFileSync(path.join(project, "mock.txt"), "utf8"), /^export FRONTDOOR_CA_BUNDLE=/m);
    assert.match(
      tried.stdout,
      /\+ 3 created/,
      "up against the mock did not create the stack and both objects",
    );
    assert.match(tried.stdout, /- 3 deleted/, "destroy against the mock did not delete them");
    // A new identity's enrollment is fresh: nothing to act on, so no warning (docs/guides/expiry-warnings.md).
    // (The CLI's own note that it runs the peers' plugins from PATH is this machine's install, not the README's.)
    const warned = `${tried.stdout}\n${tried.stderr}`
      .split("\n")
      .filter((l) => /warning:/.test(l) && !/warning: using pulumi-\S+ from \$PATH at /.test(l));
    assert.deepEqual(warned, [], "the quick start's up or drift check warns");
    assert.deepEqual(fs.readFileSync(path.join(project, ".gitignore"), "utf8").split("\n").filter(Boolean), [
      "node_modules/",
      ".state/",
    ]);

    // The accounts part, in a new shell in the project: its CA trusted through the provider's setting.
    const second = bash(accounts, project, shell({ FRONTDOOR_CA_BUNDLE: caFile }));
    groups.push(second.child.pid as number);
    const { code, stdout, stderr } = await second.done;
    assert.equal(code, 0, `the quick start's accounts part failed (exit ${code}):\n${stdout}\n${stderr}`);

    // The state went where the quick start logged in: the project's folder.
    const history = path.join(project, ".state", ".pulumi", "history", "my-access", "dev");
    assert.ok(fs.existsSync(history), `no state history in ${history}`);

    // What the commands did, seen by the server: both objects created, then deleted.
    const calls = mock.log.map((e) => `${e.method} ${e.path}`);
    const fd = mock.credentials.frontdoorId;
    for (const expected of [`POST /frontdoor/${fd}/auth-providers`, "POST /edge/management/v1/identities"])
      assert.ok(calls.includes(expected), `no ${expected} in ${calls.join(", ")}`);
    assert.ok(
      calls.some((c) => c.startsWith(`DELETE /frontdoor/${fd}/auth-providers/`)),
      "auth provider not deleted",
    );
    assert.ok(
      calls.some((c) => c.startsWith("DELETE /edge/management/v1/identities/")),
      "identity not deleted",
    );
    assert.match(stdout, /\+ 3 created/, "up did not create the stack and both objects");
    assert.match(stdout, /- 3 deleted/, "destroy did not delete them");

    // The values set with --secret are nowhere in plaintext: not in the project (its stack config and
    // the state backend the quick start logs in to), nor in the CLI's folder.
    const demoSecret = /config set --secret ssoClientSecret (\S+)$/m.exec(mockPart)?.[1];
    assert.ok(demoSecret, "the mock part sets ssoClientSecret");
    const plaintext = [
      secrets.sso,
      mock.credentials.frontdoorToken,
      mock.credentials.edgePassword,
      demoSecret,
    ];
    const leaks: string[] = [];
    for (const dir of [start, home])
      for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
        const full = path.join(dir, file);
        // mock.txt: the shipped mock's printout of its own demo credentials (the same as the test's mock's).
        if (file.includes("node_modules") || file.endsWith("mock.txt") || !fs.statSync(full).isFile())
          continue;
        const text = fs.readFileSync(full, "utf8");
        for (const secret of plaintext)
          if (text.includes(secret)) leaks.push(`${full}: ${secret.slice(0, 4)}...`);
      }
    assert.deepEqual(leaks, []);
  });
});

describe("README install from a checkout", function () {
  this.timeout(120_000);

  it("npm pack in a fresh clone, before npm ci: stops and says to run npm ci first", async () => {
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-fresh-clone-"));
    try {
      // The checkout's files as git would clone them (tracked and new ones, no node_modules, no bin/).
      const { stdout } = await promisify(execFile)(
        "git",
        ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
      );
      for (const file of stdout.split("\0").filter(Boolean)) {
        const from = path.join(REPO_ROOT, file);
        if (!fs.existsSync(from)) continue; // deleted, not yet committed
        fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
        fs.copyFileSync(from, path.join(clone, file));
      }
      assert.equal(fs.existsSync(path.join(clone, "node_modules")), false);
      const pack = spawn("npm", ["pack"], {
        cwd: clone,
        env: { ...process.env, npm_config_update_notifier: "false" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const { code, stdout: out, stderr } = await collectOutput(pack);
      assert.notEqual(code, 0, "npm pack without the dev dependencies succeeded");
      assert.match(
        stderr,
        /typescript, @pulumi\/pulumi are not installed in .*node_modules: run npm ci first \(then npm pack\)/,
      );
      assert.doesNotMatch(out + stderr, /tsc: not found/);
      assert.deepEqual(
        fs.readdirSync(clone).filter((f) => f.endsWith(".tgz")),
        [],
        "a tarball was written",
      );
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
    }
  });
});
