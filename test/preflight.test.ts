// Preview proves the credentials that `up` needs (provider/preflight.ts, docs/guides/configuration.md
// #what-preview-checks), seen as a user sees it: `preview` of a program with one object of each API,
// through the dynamic-provider host (the engine harness, and the real CLI with a TypeScript program)
// and the provider plugin (the real CLI with a YAML program), against the mock on 127.0.0.1. A wrong
// token (the mock's 401), a frontdoor the token cannot reach (its 403), a wrong Edge password (the
// login's 401) and a controller that is not there (a closed port) fail the preview with the server's
// answer; the good settings preview with one login and one read per API (the mock's log); with
// frontdoor:offlinePreview nothing reaches the server. A 503 on the check's read with a long
// Retry-After prints a progress line (provider/log.ts) that the user sees. The Edge part once more
// against a real OpenZiti controller (the harness: the host does not change what the controller says).
import assert from "node:assert/strict";
import * as path from "node:path";
import { runHarness } from "../harness";
import type { MockServer } from "../mock/server";
import { cliStack } from "./peers/cli";
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { type PeerName, requirePeers } from "./peers/index";
import { mockConfig } from "./support/engine";
import { tempDir, useMock } from "./support/fixtures";
import { pluginStack } from "./support/plugin";
import { closedPort } from "./support/scriptedServer";

const TS_PROGRAM = path.join(__dirname, "programs", "preflight");
const YAML_PROGRAM = path.join(__dirname, "programs", "preflight-yaml");

interface Preview {
  code: number;
  output: string;
  ms: number;
}

type Settings = Record<string, string>;
const SECRET = /token|Password/;

/** One way a user previews: the harness (dynamic host), or the real CLI with the dynamic host or the plugin. */
interface Driver {
  name: string;
  peers: PeerName[];
  preview(settings: Settings): Promise<Preview>;
}

const split = (settings: Settings) => ({
  config: Object.fromEntries(Object.entries(settings).filter(([k]) => !SECRET.test(k))),
  secretConfig: Object.fromEntries(Object.entries(settings).filter(([k]) => SECRET.test(k))),
});

const drivers: Driver[] = [
  {
    name: "the dynamic provider (engine harness)",
    peers: [],
    preview: async (settings) => {
      const started = Date.now();
      const result = await runHarness("preview", {
        programDir: TS_PROGRAM,
        stateFile: path.join(tempDir("preflight-"), "state.json"),
        ...split(settings),
      });
      return {
        code: result.exitCode,
        output: `${result.stdout}\n${result.stderr}`,
        ms: Date.now() - started,
      };
    },
  },
  {
    name: "the dynamic provider (real CLI, TypeScript program)",
    peers: ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"],
    preview: (settings) => cliPreview(cliStack(TS_PROGRAM, split(settings))),
  },
  {
    name: "the provider plugin (real CLI, YAML program)",
    peers: ["pulumi", "pulumi-language-yaml"],
    preview: (settings) => cliPreview(pluginStack(YAML_PROGRAM, split(settings))),
  },
];

async function cliPreview(making: ReturnType<typeof cliStack>): Promise<Preview> {
  const stack = await making;
  try {
    const started = Date.now();
    const result = await stack.run(["preview"]);
    return { code: result.code, output: result.output, ms: Date.now() - started };
  } finally {
    await stack.dispose();
  }
}

for (const driver of drivers) {
  describe(`preview proves the credentials: ${driver.name}`, function () {
    this.timeout(300_000);
    const mock = useMock();
    before(function () {
      if (driver.peers.length) requirePeers(this, ...driver.peers);
    });
    beforeEach(() => {
      mock.clearLog();
      mock.faults.clear();
    });
    const settings = (overrides: Settings = {}): Settings => {
      const all = mockConfig(mock);
      return {
        "frontdoor:apiUrl": all["frontdoor:apiUrl"],
        "frontdoor:frontdoorId": all["frontdoor:frontdoorId"],
        "frontdoor:token": all["frontdoor:token"],
        "frontdoor:edgeUrl": all["frontdoor:edgeUrl"],
        "frontdoor:edgeUsername": all["frontdoor:edgeUsername"],
        "frontdoor:edgePassword": all["frontdoor:edgePassword"],
        ...overrides,
      };
    };
    const sent = (mock: MockServer) =>
      mock.log.map((e) => `${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
    const fd = () => mock.credentials.frontdoorId;

    it("the good settings preview green, with one login and one read per API", async () => {
      const preview = await driver.preview(settings());
      assert.equal(preview.code, 0, preview.output);
      assert.deepEqual(sent(mock).sort(), [
        "GET /edge/management/v1/auth-policies?limit=1 200",
        `GET /frontdoor/${fd()}/auth-providers?page=0&size=1 200`,
        "POST /edge/management/v1/authenticate?method=password 200",
      ]);
    });

    it("a wrong token fails the preview with the server's answer", async () => {
      const preview = await driver.preview(settings({ "frontdoor:token": "not-the-token-0000" }));
      assert.notEqual(preview.code, 0, preview.output);
      assert.match(
        preview.output,
        new RegExp(
          `AuthProvider "preflight-sso": GET https?://127\\.0\\.0\\.1:\\d+/frontdoor/${fd()}/auth-providers failed \\(HTTP 401 unauthorized\\): invalid access token`,
        ),
      );
      assert.ok(!sent(mock).some((r) => r.startsWith("POST /frontdoor")), "nothing created");
    });

    it("a frontdoor id the token cannot reach fails the preview (403)", async () => {
      const other = mock.credentials.otherFrontdoorId;
      const preview = await driver.preview(settings({ "frontdoor:frontdoorId": other }));
      assert.notEqual(preview.code, 0, preview.output);
      assert.match(preview.output, new RegExp(`HTTP 403 not_found\\): frontdoor ${other} not found`));
    });

    it("a wrong Edge password fails the preview with the login's answer", async () => {
      const preview = await driver.preview(settings({ "frontdoor:edgePassword": "not-the-password" }));
      assert.notEqual(preview.code, 0, preview.output);
      assert.match(
        preview.output,
        /Edge authentication \(method=password\): POST https?:\/\/127\.0\.0\.1:\d+\/edge\/management\/v1\/authenticate failed \(HTTP 401/,
      );
    });

    it("a controller that is not there (closed port) fails the preview in seconds, naming its address", async () => {
      const port = await closedPort();
      const preview = await driver.preview(settings({ "frontdoor:edgeUrl": `http://127.0.0.1:${port}` }));
      assert.notEqual(preview.code, 0, preview.output);
      assert.match(preview.output, /ECONNREFUSED/);
      assert.match(preview.output, new RegExp(`http://127\\.0\\.0\\.1:${port} cannot be reached`));
      // The retry budget is 120 s (the default): the first-contact rule ends it after about a second.
      assert.ok(preview.ms < 60_000, `took ${preview.ms} ms`);
    });

    it("with frontdoor:offlinePreview a bad token previews green and nothing reaches the server", async () => {
      const preview = await driver.preview(
        settings({ "frontdoor:token": "not-the-token-0000", "frontdoor:offlinePreview": "true" }),
      );
      assert.equal(preview.code, 0, preview.output);
      assert.deepEqual(mock.log, []);
    });

    it("a 503 with a long Retry-After on the check's read prints a progress line, then previews green", async () => {
      mock.faults.inject({ method: "GET", path: "/auth-providers", kind: "503", retryAfterSeconds: 4 });
      const preview = await driver.preview(settings());
      assert.equal(preview.code, 0, preview.output);
      assert.match(
        preview.output,
        /AuthProvider "preflight-sso": GET \/frontdoor\/[^ ]+\/auth-providers: HTTP 503; attempt 2 in 4\.0 s \(retrying for up to \d+ s more, frontdoor:retryTimeoutSeconds\)/,
      );
    });
  });
}

describe("preview proves the Edge credentials on a real OpenZiti controller (engine harness)", function () {
  this.timeout(300_000);
  let ctrl: RealController;
  before(async function () {
    requirePeers(this, "ziti");
    ctrl = await startController();
  });
  after(async () => ctrl?.stop());
  const preview = drivers[0].preview;
  const edge = (overrides: Settings = {}): Settings => ({
    apis: "edge",
    ...realEdgeConfig(ctrl),
    ...overrides,
  });
  const identities = async () => (await ctrl.admin.call("GET", "/identities?limit=500")).body.data.length;

  const sessions = async () => (await ctrl.admin.call("GET", "/api-sessions?limit=500")).body.data.length;

  it("the admin's password previews green with one login (one API session more) and creates nothing", async () => {
    const [identitiesBefore, sessionsBefore] = [await identities(), await sessions()];
    const result = await preview(edge());
    assert.equal(result.code, 0, result.output);
    assert.equal(await identities(), identitiesBefore);
    assert.equal(await sessions(), sessionsBefore + 1);
  });

  it("a wrong password fails the preview with the controller's own answer", async () => {
    const result = await preview(edge({ "frontdoor:edgePassword": "not-the-password" }));
    assert.notEqual(result.code, 0, result.output);
    assert.match(
      result.output,
      /Edge authentication \(method=password\): POST https?:\/\/127\.0\.0\.1:\d+\/edge\/management\/v1\/authenticate failed \(HTTP 401 INVALID_AUTH/,
    );
    assert.doesNotMatch(result.output, /not-the-password/);
  });
});
