// The README's quick start, run as a user follows it: its code blocks in order, in one bash, from a new
// empty folder outside the checkout, with the real Pulumi CLI and the package installed from `npm pack`'s
// tarball, against the mock server (HTTPS, its CA trusted through FRONTDOOR_CA_BUNDLE). The only change
// to the README's text is PLACEHOLDERS: the user's own services, credentials and files become the mock's.
// Every `<placeholder>` of the blocks must have a value there and every value must be used, so a
// changed block fails here rather than being run half-substituted.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { collectOutput } from "../harness/output";
import { type MockServer, startMockServer } from "../mock/server";
import { PEERS_BIN, REPO_ROOT, requirePeers } from "./peers";
import { codeBlocks, section } from "./support/markdown";
import { packPackage } from "./support/userProject";

/** The README heading whose blocks are run (its anchor). */
const QUICK_START = "quick-start";

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
 * The quick start as one bash script: `sh` blocks as they are, a block titled with a file name
 * (```ts title="index.ts") written to that file, each block announced with its README line.
 */
function quickStartScript(readme: string): string {
  const { text, line } = section(readme, QUICK_START);
  const parts: string[] = [];
  for (const block of codeBlocks(text)) {
    const where = `README.md:${line + block.line - 1}`;
    const title = /\btitle="([^"]+)"/.exec(block.info)?.[1];
    parts.push(`echo "== ${where} (at \${SECONDS} s)"`);
    if (/^(sh|bash)$/.test(block.info)) parts.push(block.code);
    else if (title) parts.push(`cat > ${title} <<'README_EOF'\n${block.code}\nREADME_EOF`);
    else throw new Error(`${where}: a \`${block.info}\` block is neither a command block nor a titled file`);
  }
  assert.ok(parts.length >= 6, `the quick start has only ${parts.length / 2} blocks`);
  return parts.join("\n");
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

  before(function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
  });
  after(async () => {
    await mock?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("from a new empty folder: login, project, install, program, stack, config, up, drift check, destroy", async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-quickstart-"));
    mock = await startMockServer({ tls: true });
    const caFile = path.join(scratch, "mock-ca.pem");
    fs.writeFileSync(caFile, mock.caPem as string);
    const secrets = { passphrase: crypto.randomBytes(12).toString("hex"), sso: `sso-${crypto.randomUUID()}` };
    const tarball = path.join(scratch, TARBALL);

    // The script first: a README the table no longer fits fails here, before the slow part.
    let script = quickStartScript(fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"));
    const values = placeholders(mock, tarball, secrets);
    for (const [placeholder, value] of values) {
      assert.ok(
        script.includes(placeholder),
        `the quick start no longer has ${placeholder}: update the test`,
      );
      script = script.split(placeholder).join(value);
    }
    assert.deepEqual(unfilled(script), [], "placeholders the test has no value for");
    // On Node 20 the user follows the README's note on the install line, and so does the test.
    if (Number(process.versions.node.split(".")[0]) < 22) {
      const note = /^npm install .* @pulumi\/pulumi +# on Node 20: (@pulumi\/pulumi@[\d.]+)$/m.exec(script);
      assert.ok(note, "the install line says which @pulumi/pulumi to take on Node 20");
      script = script.replace(note[0], note[0].replace(/ @pulumi\/pulumi +#/, ` ${note[1]} #`));
    }

    assert.equal((await packPackage(scratch)).tarball, tarball, "npm pack wrote another file name");
    const home = path.join(scratch, "home");
    const start = path.join(scratch, "start"); // the user's new empty folder
    fs.mkdirSync(home);
    fs.mkdirSync(start);
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], {
      cwd: start,
      stdio: ["ignore", "pipe", "pipe"],
      env: userEnv(home, {
        // The CLI and its plugins as a user has them installed: on PATH.
        PATH: `${PEERS_BIN}${path.delimiter}${process.env.PATH}`,
        // The CLI's own folder (credentials of `pulumi login`, logs) in the temporary HOME: the CLI
        // finds ~ in the user database, not in $HOME, and would write the machine user's otherwise.
        PULUMI_HOME: path.join(home, ".pulumi"),
        // The mock's own CA, trusted through the provider's documented setting.
        FRONTDOOR_CA_BUNDLE: caFile,
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
      }),
    });
    const { code, stdout, stderr } = await collectOutput(child);
    assert.equal(code, 0, `the quick start failed (exit ${code}):\n${stdout}\n${stderr}`);

    // The state went where the quick start logged in: the project's folder.
    const history = path.join(start, "my-access", ".state", ".pulumi", "history", "my-access", "dev");
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
    const plaintext = [secrets.sso, mock.credentials.frontdoorToken, mock.credentials.edgePassword];
    const leaks: string[] = [];
    for (const dir of [start, home])
      for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
        const full = path.join(dir, file);
        if (file.includes("node_modules") || !fs.statSync(full).isFile()) continue;
        const text = fs.readFileSync(full, "utf8");
        for (const secret of plaintext)
          if (text.includes(secret)) leaks.push(`${full}: ${secret.slice(0, 4)}...`);
      }
    assert.deepEqual(leaks, []);
  });
});
