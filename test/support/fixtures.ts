// The one place that starts and stops what tests run against: the mock server of a describe block,
// the provider's host entry points configured for it, the configuration a harness run gets, and
// temporary directories. Each describe says what it needs in one line; the hooks here start it before
// its tests and stop it after them, so no test leaves a server or a directory behind.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type HarnessOptions, runHarness } from "../../harness";
import { type MockServer, type MockServerOptions, startMockServer } from "../../mock/server";
import { type RealCluster, sharedCluster, stopSharedCluster } from "../peers/cluster";
import { type RealController, realEdgeConfig, startController } from "../peers/controller";
import { type ControllerRelease, controllerPeer, PEERS_BIN, requirePeers } from "../peers/index";
import { configureFor, mockConfig } from "./engine";
import { skipBecause } from "./skip";

// scripts/sdks/generate.js: the one code that generates sdk/native and builds the Node.js SDK.
const sdks = require("../../scripts/sdks/generate.js") as {
  generatorBuilt(): boolean;
  ensure(): { regenerated: boolean; rebuilt: boolean };
};

/**
 * The mock server of the calling describe block: started in its `before` hook (then `setUp` runs),
 * closed in its `after` hook. The object returned stands for the running server: tests use it as the
 * server itself (`mock.url`, `mock.log`, `mock.edge.get(...)`).
 */
export function useMock(
  options: MockServerOptions = {},
  setUp: (server: MockServer) => Promise<void> | void = () => {},
): MockServer {
  let server: MockServer | undefined;
  before(async () => {
    server = await startMockServer(options);
    await setUp(server);
  });
  after(async () => {
    await server?.close();
    server = undefined;
  });
  return standIn(() => server, "mock", "no mock server runs");
}

/** An object that stands for what `current()` holds while a describe's hooks keep it running. */
function standIn<T extends object>(current: () => T | undefined, name: string, absent: string): T {
  return new Proxy({} as T, {
    get(_target, key) {
      if (key === "then") return undefined; // not a promise
      const target = current();
      if (!target) throw new Error(`${name}.${String(key)} used while ${absent} (outside its describe?)`);
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    // Assignments (`mock.onRequest = ...`) reach the running object too.
    set(_target, key, value) {
      const target = current();
      if (!target) throw new Error(`${name}.${String(key)} set while ${absent} (outside its describe?)`);
      return Reflect.set(target, key, value, target);
    },
  });
}

/**
 * The real OpenZiti controller of the calling describe block (`ziti edge quickstart`, of `release` when
 * given, else the default one): the suite skips
 * loudly when the peer is not built (fails under FRONTDOOR_REQUIRE_PEERS=1), else the controller starts
 * in `before`, with the provider's host entry points configured for it when `provider` is set, and
 * stops in `after`.
 */
export function useController(
  options: { provider?: boolean; release?: ControllerRelease } = {},
): RealController {
  let ctrl: RealController | undefined;
  before(async function () {
    requirePeers(this, options.release ? controllerPeer(options.release) : "ziti");
    ctrl = await startController({ release: options.release });
    if (options.provider) await configureFor(realEdgeConfig(ctrl));
  });
  after(async () => {
    await ctrl?.stop();
    ctrl = undefined;
  });
  return standIn(() => ctrl, "ctrl", "no controller runs");
}

/**
 * The run's real 3-node OpenZiti HA cluster (test/peers/cluster.ts), for the calling describe block:
 * started by the first suite that asks, shared by the others, stopped when the run ends. A suite that
 * kills nodes must leave all of them running and a leader elected.
 */
export function useCluster(): RealCluster {
  let cluster: RealCluster | undefined;
  before(async function () {
    requirePeers(this, "ziti");
    this.timeout(300_000);
    cluster = await sharedCluster();
  });
  // No `after`: the cluster outlives the block (the root afterAll stops it), so its own after hooks may use it.
  return standIn(() => cluster, "cluster", "no cluster runs");
}

/**
 * The plugin's generated SDKs (sdk/native, a build product, not in git) for the calling describe
 * block: in its `before` hook they are regenerated when schema.json or the generator changed since
 * they were generated, and the Node.js SDK (node_modules/pulumi-frontdoor-native) rebuilt when it was
 * built from other sources. Without the generator peer (no Go) the suite skips, loudly, saying what
 * goes unchecked (`unchecked`); under FRONTDOOR_REQUIRE_PEERS=1 that fails instead.
 */
export function useNativeSdks(unchecked = "the suite needs them"): void {
  before(function () {
    this.timeout(600_000);
    if (!sdks.generatorBuilt())
      skipBecause(
        this,
        `pulumi-frontdoor-sdkgen not built in ${PEERS_BIN} (run \`npm run peers\`; it needs Go 1.26), so ` +
          `the plugin's SDKs (sdk/native) cannot be generated: ${unchecked}`,
      );
    sdks.ensure();
  });
}

/** A mock server with the provider's host entry points configured for it (engine-level tests). */
export function useMockProvider(options: MockServerOptions = {}): MockServer {
  return useMock(options, (server) => configureFor(mockConfig(server)));
}

/** Settings of a direct Edge API client or lookup against `mock` (password login, one retry). */
export function edgeSettings(mock: MockServer): Record<string, string> {
  return {
    edgeUrl: mock.url,
    edgeUsername: mock.credentials.edgeUsername,
    edgePassword: mock.credentials.edgePassword,
    maxRetries: "1",
  };
}

/**
 * A call to the mock's Frontdoor API the way an admin outside Pulumi makes it: real HTTP with the
 * frontdoor's token, to `apiPath` below `/frontdoor/<frontdoorId>/`. The caller checks the answer.
 */
export function frontdoorApi(
  mock: MockServer,
  method: string,
  apiPath: string,
  body: unknown,
): Promise<Response> {
  return fetch(`${mock.url}/frontdoor/${mock.credentials.frontdoorId}/${apiPath}`, {
    method,
    headers: {
      authorization: `Bearer ${mock.credentials.frontdoorToken}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
}

/** The methods of the requests `mock` answered since its log was last cleared, in order. */
export function methodsSent(mock: MockServer): string[] {
  return mock.log.map((e) => e.method);
}

/** The mock's log entries of one method whose path contains `pathPart`: the requests a step sent. */
export function requestsTo(mock: MockServer) {
  return (method: string, pathPart: string) =>
    mock.log.filter((e) => e.method === method && e.path.includes(pathPart));
}

/**
 * Stack configuration for a harness run against the mock: the plain keys (with `extra`) and the keys
 * named in `secretKeys` apart, as `pulumi config set --secret` keeps them.
 */
export function harnessConfig(
  mock: MockServer,
  extra: Record<string, string> = {},
  secretKeys: string[] = ["frontdoor:token", "frontdoor:edgePassword"],
): { config: Record<string, string>; secretConfig: Record<string, string> } {
  const config: Record<string, string> = {};
  const secretConfig: Record<string, string> = {};
  for (const [key, value] of Object.entries(mockConfig(mock))) {
    if (secretKeys.includes(key)) secretConfig[key] = value;
    else config[key] = value;
  }
  return { config: { ...config, ...extra }, secretConfig };
}

const tempDirs: string[] = [];

/** A fresh directory under the system's temporary folder (or under `parent`), removed after the run. */
export function tempDir(prefix: string, parent = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  tempDirs.push(dir);
  return dir;
}

/**
 * A fresh temporary directory for the calling describe block (or under `parent`), made in its `before`
 * hook and removed when the run ends: tests read it as `.path`.
 */
export function useTempDir(prefix: string, parent?: string): { readonly path: string } {
  let dir: string | undefined;
  before(() => {
    dir = tempDir(prefix, parent);
  });
  return {
    get path(): string {
      if (!dir) throw new Error(`the temporary directory ${prefix}* used outside its describe`);
      return dir;
    },
  };
}

/**
 * A state file of its own for each test of the calling describe (`dev.json` in a fresh temporary
 * directory), read as `.path`, with the passphrase the harness encrypts its secrets with set meanwhile.
 */
export function useStateFile(prefix: string, passphrase: string): { readonly path: string } {
  let file: string | undefined;
  beforeEach(() => {
    file = path.join(tempDir(prefix), "dev.json");
    process.env.PULUMI_CONFIG_PASSPHRASE = passphrase;
  });
  afterEach(() => {
    delete process.env.PULUMI_CONFIG_PASSPHRASE;
  });
  return {
    get path(): string {
      if (!file) throw new Error(`the state file of ${prefix}* used outside its describe`);
      return file;
    },
  };
}

/** Mocha root hooks (loaded through .mocharc.js): temporary directories and the shared cluster go when the run ends. */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    await stopSharedCluster();
  },
};

/** What a harness run of a describe block gets: its state directory and its stack configuration. */
export interface HarnessSetup {
  dir: string;
  config: Record<string, string>;
  secretConfig: Record<string, string>;
}

/**
 * Fills a HarnessSetup in a `before` hook (after the mock started): a temporary state directory
 * named `prefix`, the mock's configuration (`secretKeys` apart) plus what `more()` adds.
 */
export function useHarnessSetup(
  mock: MockServer,
  prefix: string,
  more: () => Partial<Omit<HarnessSetup, "dir">> | Promise<Partial<Omit<HarnessSetup, "dir">>> = () => ({}),
  secretKeys?: string[],
): HarnessSetup {
  const setup: HarnessSetup = { dir: "", config: {}, secretConfig: {} };
  before(async () => {
    setup.dir = tempDir(prefix);
    const added = await more();
    const { config, secretConfig } = harnessConfig(mock, added.config, secretKeys);
    setup.config = config;
    setup.secretConfig = { ...secretConfig, ...added.secretConfig };
  });
  return setup;
}

/**
 * A harness run of `programDir` as one of a describe's stacks: the program's `mode` and name `prefix`
 * in its config (with `extra`), its own state file `<prefix>.json` in the setup's directory.
 */
export function runStack(
  setup: HarnessSetup,
  programDir: string,
  stack: { mode: string; prefix: string },
  command: "up" | "refresh" | "destroy",
  extra: Record<string, string> = {},
  expectNoChanges = false,
) {
  return runHarness(command, {
    programDir,
    stateFile: path.join(setup.dir, `${stack.prefix}.json`),
    config: { ...setup.config, ...stack, ...extra },
    secretConfig: setup.secretConfig,
    expectNoChanges,
  });
}

/**
 * The options of a describe's harness runs of one program: `base()` (read at each run, after the
 * hooks filled it) with a run's own config keys added and its other options on top.
 */
export function runOptions(
  base: () => Pick<HarnessOptions, "programDir" | "stateFile" | "config" | "secretConfig">,
) {
  return (config: Record<string, string> = {}, extra: Partial<HarnessOptions> = {}): HarnessOptions => {
    const options = base();
    return { ...options, config: { ...options.config, ...config }, ...extra };
  };
}
