// The harness runs the file the Pulumi CLI's Node.js language host runs (@pulumi/pulumi cmd/run/run.ts):
// a JavaScript program whose package.json names `main: "src/app.js"` runs that file, not the index.js
// and index.ts beside package.json (both throw if run). Against the mock through the harness, and the
// same program through the real CLI when it is built: the same outputs, the same Edge service.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runHarness } from "../harness";
import { programEntry } from "../harness/entry";
import type { MockServer } from "../mock/server";
import { requirePeers } from "./peers";
import { cliStack } from "./peers/cli";
import { mockConfig } from "./support/engine";
import { tempDir, useMock, useTempDir } from "./support/fixtures";

const PROGRAM = path.join(__dirname, "programs", "js-main");
const SECRET_KEYS = ["frontdoor:token", "frontdoor:edgePassword", "frontdoor:searchPassword"];

/** The mock's settings as stack config, the credentials as secret config. */
function stackConfig(mock: MockServer) {
  const all = mockConfig(mock);
  const pick = (secret: boolean) =>
    Object.fromEntries(Object.entries(all).filter(([key]) => SECRET_KEYS.includes(key) === secret));
  return { config: pick(false), secretConfig: pick(true) };
}

/** The mock's services named like the program's. */
function servicesOf(mock: MockServer) {
  return mock.edge.list("services").filter((s: any) => s.name === "js-main-app");
}

describe("a JavaScript program whose package.json names its main", function () {
  this.timeout(300_000);
  const mock = useMock();
  const scratch = useTempDir("js-main-");

  it("runs src/app.js under the harness: up creates its service, destroy removes it", async () => {
    const options = {
      programDir: PROGRAM,
      stateFile: path.join(scratch.path, "state.json"),
      ...stackConfig(mock),
    };
    const before = mock.log.length;
    const up = await runHarness("up", options);
    assert.equal(up.exitCode, 0, `${up.stdout}\n${up.stderr}`);
    assert.doesNotMatch(`${up.stdout}${up.stderr}`, /index\.(js|ts) ran/);
    assert.equal(up.report.outputs.entry, "src/app.js");
    const [service] = servicesOf(mock);
    assert.ok(service, "the program's service was not created");
    assert.equal(up.report.outputs.serviceId, service.id);
    assert.deepEqual(service.roleAttributes, ["js-main"]);
    // One service created, by the program's request.
    const posts = mock.log.slice(before).filter((e) => e.method === "POST" && /\/services$/.test(e.path));
    assert.equal(posts.length, 1);

    const down = await runHarness("destroy", options);
    assert.equal(down.exitCode, 0, `${down.stdout}\n${down.stderr}`);
    assert.deepEqual(servicesOf(mock), []);
  });

  describe("with the real Pulumi CLI", () => {
    before(function () {
      requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    });

    it("runs the same file: the same outputs and service as under the harness", async () => {
      const stack = await cliStack(PROGRAM, stackConfig(mock));
      try {
        const up = await stack.ok(["up", "--yes", "--skip-preview"]);
        assert.doesNotMatch(up.output, /index\.(js|ts) ran/);
        const outputs = JSON.parse((await stack.ok(["stack", "output", "--json"])).stdout);
        const [service] = servicesOf(mock);
        assert.ok(service, "the program's service was not created");
        assert.deepEqual(outputs, { entry: "src/app.js", serviceId: service.id });
        await stack.ok(["destroy", "--yes", "--skip-preview"]);
        assert.deepEqual(servicesOf(mock), []);
      } finally {
        await stack.dispose();
      }
    });
  });
});

describe("the program's entry point, found as the language host finds it", () => {
  let dir: string;
  const write = (files: Record<string, string>) => {
    dir = tempDir("entry-");
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: entry\nruntime: nodejs\n");
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
  };

  it("is the folder (index.ts through the .ts hook) when package.json names nothing", () => {
    const d = write({ "package.json": "{}", "index.ts": "" });
    assert.deepEqual(programEntry(d), { request: `${d}/`, warnings: [] });
  });

  it("prefers package.json exports to main, and takes the default/require/import of '.'", () => {
    const d = write({
      "package.json": JSON.stringify({ main: "main.js", exports: { ".": { require: "./cjs.js" } } }),
      "main.js": "",
      "cjs.js": "",
    });
    assert.equal(programEntry(d).request, path.join(d, "cjs.js"));
  });

  it("falls back to the folder with the host's warning when main names a missing file", () => {
    const d = write({ "package.json": JSON.stringify({ main: "bin/index.js" }), "index.ts": "" });
    const entry = programEntry(d);
    assert.equal(entry.request, `${d}/`);
    assert.match(entry.warnings[0], /Could not find entry point 'bin\/index\.js' specified in package\.json/);
  });

  it("warns, as the host does, when index.js sits beside index.ts (index.js runs)", () => {
    const d = write({ "package.json": "{}", "index.ts": "", "index.js": "" });
    assert.match(programEntry(d).warnings.join("\n"), /containing an index\.js file .* will use index\.js/);
  });

  it("takes Pulumi.yaml's main over package.json", () => {
    const d = write({ "package.json": JSON.stringify({ main: "a.js" }), "a.js": "", "b/index.ts": "" });
    fs.appendFileSync(path.join(d, "Pulumi.yaml"), "main: b/\n");
    assert.equal(programEntry(d).request, `${path.join(d, "b")}/`);
  });
});
