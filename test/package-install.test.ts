// The package as a user installs it: `npm pack`, then the tarball installed into a new project with
// its own @pulumi/pulumi (from the registry, as a user's project gets it). Checks what the tarball
// holds, that the provider loads the project's @pulumi/pulumi (one copy), that the shipped mock loads
// nothing of the provider and its command serves, that TypeScript finds the types under both module
// resolutions, and, with the real peers, runs the docs' mock recipe verbatim through the real CLI.
import * as assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { PEERS_BIN, REPO_ROOT, requirePeers } from "./peers";
import {
  createUserProject,
  type PackedPackage,
  packPackage,
  USER_PULUMI_VERSION,
} from "./support/userProject";

const run = promisify(execFile);
const PROJECT_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const sso = new frontdoor.AuthProvider("corp-sso", {
  name: "corp-sso",
  type: "OIDC",
  data: {
    issuer: "https://login.example.com/realms/corp",
    client_id: "frontdoor",
    client_secret: config.get("ssoClientSecret") ?? "not-a-real-secret",
  },
});
const alice = new frontdoor.Identity("alice", { name: "alice", roleAttributes: ["staff"] });
export const ssoId = sso.id;
export const aliceId = alice.id;
`;

/** Where the recipes users copy are documented. */
const RECIPES = "docs/guides/mock-and-harness.md";

/** The code block after `<!-- recipe: NAME -->` in the docs: what users copy is what runs here. */
function docsRecipe(name: string): string {
  const docs = fs.readFileSync(path.join(REPO_ROOT, RECIPES), "utf8");
  const found = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(docs);
  if (!found) throw new Error(`${RECIPES} has no recipe "${name}"`);
  return found[1];
}

describe("the packed package installed in a new project", function () {
  this.timeout(600_000);
  let scratch: string;
  let project: string;
  let packed: PackedPackage;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-pack-"));
    packed = await packPackage(scratch);
    project = path.join(scratch, "my-infra");
    await createUserProject(project, {
      files: { "index.ts": PROJECT_PROGRAM },
      manifest: { main: "index.ts" },
      install: [packed.tarball, `@pulumi/pulumi@${USER_PULUMI_VERSION}`],
    });
  });
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("holds the compiled provider, SDK, mock, plugin launcher, policy pack folder and schema, and no sources or test code besides the mock", () => {
    const files = packed.files;
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "schema.json",
      "bin/sdk/index.js",
      "bin/sdk/index.d.ts",
      "bin/provider/kinds/Identity.js",
      "bin/mock/index.js",
      "bin/mock/index.d.ts",
      "bin/plugin/pulumi-resource-frontdoor",
      "bin/mock/cli.js",
      "mock/package.json",
      "policy/PulumiPolicy.yaml",
      "policy/index.js",
      "policy/package.json",
      "policy/package-lock.json",
      "bin/provider/policy/index.js",
    ])
      assert.ok(files.includes(needed), `${needed} is missing from the tarball`);
    // npm packs a folder's README with the folder's package.json: mock/README.md says what the mock is.
    const stray = files.filter(
      (f) =>
        !/^(package\.json|README\.md|LICENSE|schema\.json|mock\/(package\.json|README\.md))$/.test(f) &&
        // The policy pack's folder (docs/guides/policy-pack.md): its rules are in bin/provider/policy.
        !/^policy\/(PulumiPolicy\.yaml|index\.js|package(-lock)?\.json)$/.test(f) &&
        !/^bin\/(provider|sdk|mock|plugin)\//.test(f),
    );
    assert.deepEqual(stray, [], "files outside the package's surface");
    assert.deepEqual(
      files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
      [],
      "TypeScript sources in the tarball",
    );
  });

  it("loads the project's own @pulumi/pulumi: one copy", async () => {
    assert.ok(
      !fs.existsSync(path.join(project, "node_modules", "pulumi-frontdoor", "node_modules", "@pulumi")),
      "npm nested a second @pulumi/pulumi under pulumi-frontdoor",
    );
    const { stdout } = await run(
      process.execPath,
      [
        "-e",
        `require("pulumi-frontdoor");
         const copies = Object.keys(require.cache).filter((f) => f.endsWith("/@pulumi/pulumi/index.js"));
         console.log(JSON.stringify(copies));`,
      ],
      { cwd: project },
    );
    assert.deepEqual(JSON.parse(stdout), [
      fs.realpathSync(path.join(project, "node_modules", "@pulumi", "pulumi", "index.js")),
    ]);
  });

  it("ships the mock as pulumi-frontdoor/mock, loading nothing of the provider or the SDK", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "-e",
        `const { startMockServer } = require("pulumi-frontdoor/mock");
         startMockServer().then(async (mock) => {
           const res = await fetch(mock.url + "/frontdoor/" + mock.credentials.frontdoorId + "/auth-providers", {
             headers: { authorization: "Bearer " + mock.credentials.frontdoorToken },
           });
           const loaded = Object.keys(require.cache).filter((f) => /pulumi-frontdoor\\/bin\\/(provider|sdk)\\//.test(f));
           console.log(JSON.stringify({ url: mock.url, status: res.status, loaded }));
           await mock.close();
         });`,
      ],
      { cwd: project },
    );
    const result = JSON.parse(stdout);
    assert.match(result.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(result.status, 200);
    assert.deepEqual(result.loaded, []);
  });

  it("installs the pulumi-frontdoor-mock command, which serves until SIGTERM", async () => {
    const bin = path.join(project, "node_modules", ".bin", "pulumi-frontdoor-mock");
    const child = spawn(bin, ["--port", "0"], { cwd: project, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const seen = await new Promise<string>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (/^export FRONTDOOR_MOCK_TOKEN=\S+$/m.test(text)) resolve(text);
        });
        child.once("exit", (code) => reject(new Error(`pulumi-frontdoor-mock exited ${code}: ${text}`)));
      });
      const url = /listening on (\S+)/.exec(seen)![1];
      const token = /^export FRONTDOOR_MOCK_TOKEN=(\S+)$/m.exec(seen)![1];
      const res = await fetch(`${url}/__mock/credentials`, { headers: { "x-mock-token": token } });
      assert.equal(res.status, 200);
      const refused = await fetch(`${url}/__mock/credentials`);
      assert.equal(refused.status, 401);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
    }
  });

  for (const resolution of ["node10", "node16"] as const) {
    it(`gives TypeScript the types of both entry points (moduleResolution ${resolution})`, async () => {
      fs.writeFileSync(
        path.join(project, "types-check.ts"),
        `import * as frontdoor from "pulumi-frontdoor";
         import { startMockServer, type MockServer } from "pulumi-frontdoor/mock";
         const kind: typeof frontdoor.Identity = frontdoor.Identity;
         const start: () => Promise<MockServer> = () => startMockServer({ tls: false });
         export { kind, start };
         // @ts-expect-error: a mistyped argument must be caught, or the check proves nothing
         startMockServer({ port: "eighty" });
        `,
      );
      const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
      const module = resolution === "node16" ? "node16" : "commonjs";
      await run(
        process.execPath,
        [
          tsc,
          "--noEmit",
          "--strict",
          "--skipLibCheck",
          "--target",
          "es2022",
          "--module",
          module,
          "--moduleResolution",
          resolution,
          "--types",
          "node",
          "--typeRoots",
          path.join(REPO_ROOT, "node_modules", "@types"),
          "types-check.ts",
        ],
        { cwd: project },
      ).catch((error) => {
        throw new Error(`tsc (${resolution}) failed:\n${error.stdout}${error.stderr}`);
      });
    });
  }

  describe("with the real Pulumi CLI", () => {
    before(function () {
      requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    });

    it("runs the docs' mock recipe (Automation API: up, no drift, destroy) in the project", async () => {
      fs.mkdirSync(path.join(project, "test"), { recursive: true });
      fs.writeFileSync(path.join(project, "test", "stack.test.js"), docsRecipe("mock-automation"));
      const home = fs.mkdtempSync(path.join(scratch, "home-"));
      const { stdout } = await run(process.execPath, ["test/stack.test.js"], {
        cwd: project,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          PATH: `${PEERS_BIN}${path.delimiter}${process.env.PATH}`,
          PULUMI_HOME: home,
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
        },
      }).catch((error) => {
        throw new Error(`the recipe of ${RECIPES} failed:\n${error.stdout}\n${error.stderr}`);
      });
      assert.match(stdout, /no drift: /);
      assert.match(stdout, /mock test passed/);
      assert.ok(
        !fs.existsSync(path.join(project, "Pulumi.mock-test.yaml")),
        "the recipe leaves its stack config",
      );
    });
  });
});
