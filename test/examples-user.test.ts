// Every example as a user's project: copied out of this repository into a temp folder, its packages
// installed the way a user installs them (test/support/userKit.ts: the packed npm package, the packed
// Node.js SDK of the plugin, the plugin installed from its tarball into one shared PULUMI_HOME, the
// Go SDK through useGoSdk), configured with exactly the `pulumi config set` lines of its README (so a
// key the README forgets fails the run), then `up`, `preview --refresh --expect-no-changes` and
// `destroy` with the real CLI in its own language. Frontdoor and search kinds go to a mock of the
// example's own; Edge kinds to one real OpenZiti controller the suite starts once and shares (every
// example names its objects with its own prefix). The examples run side by side, a few at a time.
// examples/gitops runs as its workflows run it, in test/gitops-workflows.test.ts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { cliStack } from "./peers/cli";
import { type RealController, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { EXAMPLES } from "./support/examples";
import { useNativeSdks } from "./support/fixtures";
import { npmInstall } from "./support/npmRetry";
import { makeUserKit, type UserKit, useGoSdk } from "./support/userKit";
import { USER_PULUMI_VERSION } from "./support/userProject";

type Api = "frontdoor" | "edge" | "search";

interface ExampleSpec {
  dir: string;
  /** How its packages are installed: the dynamic provider's npm package, the plugin with an SDK. */
  install: "npm package" | "plugin + Node.js SDK" | "plugin (YAML)" | "plugin + Go SDK";
  /** The APIs its objects live on. */
  apis: Api[];
  /** Values for the README's placeholders of the program's own keys (`<client secret>`). */
  values?: Record<string, string>;
  /** It only reads (functions): no resources to find in the state. */
  functionsOnly?: boolean;
}

const EXAMPLE_SPECS: ExampleSpec[] = [
  {
    dir: "custom-frontend",
    install: "npm package",
    apis: ["frontdoor"],
    values: { ssoClientSecret: "user-cf-sso-secret-1357", apiKey: "user-cf-api-key-0123456789" },
  },
  { dir: "edge-access", install: "npm package", apis: ["edge"] },
  { dir: "event-report", install: "npm package", apis: ["search"], functionsOnly: true },
  {
    dir: "frontdoor-basic",
    install: "npm package",
    apis: ["frontdoor"],
    values: { ssoClientSecret: "user-basic-sso-secret-2468", partnerApiKey: "user-basic-partner-key-1" },
  },
  { dir: "frontdoor-mtls", install: "npm package", apis: ["frontdoor"] },
  { dir: "zero-trust-app", install: "npm package", apis: ["edge"] },
  {
    dir: "ts-native",
    install: "plugin + Node.js SDK",
    apis: ["frontdoor", "edge"],
    values: { ssoClientSecret: "user-ts-native-sso-secret-3" },
  },
  {
    dir: "go-edge",
    install: "plugin + Go SDK",
    apis: ["frontdoor", "edge"],
    values: { ssoClientSecret: "user-go-edge-sso-secret-4" },
  },
  {
    dir: "yaml-frontdoor",
    install: "plugin (YAML)",
    apis: ["frontdoor"],
    values: { ssoClientSecret: "user-yaml-sso-secret-5", partnerApiKey: "user-yaml-partner-key-6" },
  },
  { dir: "yaml-edge", install: "plugin (YAML)", apis: ["edge"] },
];
/** Examples another suite runs as users run them. */
const ELSEWHERE = { gitops: "test/gitops-workflows.test.ts (its workflows)" };

/** The provider's settings of each API: what its README must set. */
const API_KEYS: Record<Api, string[]> = {
  frontdoor: ["frontdoor:apiUrl", "frontdoor:frontdoorId", "frontdoor:token"],
  edge: ["frontdoor:edgeUrl", "frontdoor:edgeUsername", "frontdoor:edgePassword", "frontdoor:caBundle"],
  search: ["frontdoor:searchUrl", "frontdoor:searchUsername", "frontdoor:searchPassword"],
};

/** The README's `pulumi config set [--secret] <key> [<value>]` lines. */
function readmeConfig(readme: string): { key: string; value?: string; secret: boolean }[] {
  return [...readme.matchAll(/^pulumi config set( --secret)? (\S+)(?: +([^#\n]*?))? *(?:#.*)?$/gm)].map(
    (m) => ({
      key: m[2],
      value: m[3]?.replace(/^'(.*)'$/, "$1"),
      secret: Boolean(m[1]),
    }),
  );
}

/** The config keys a program reads, from its sources (TypeScript, Go, YAML's `config:` block). */
function programKeys(dir: string): string[] {
  const keys = new Set<string>();
  for (const file of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const pattern = file.endsWith(".ts")
      ? /\bconfig\.(?:get|require)\w*\(\s*"([^"]+)"/g
      : file.endsWith(".go")
        ? /\bcfg\.(?:Get|Require)\w*\(\s*"([^"]+)"/g
        : undefined;
    if (pattern) for (const m of text.matchAll(pattern)) keys.add(m[1]);
    if (file === "Pulumi.yaml") {
      const project = require("js-yaml").load(text);
      for (const key of Object.keys(project.config ?? {})) keys.add(key);
    }
  }
  return [...keys];
}

const placeholder = (value: string | undefined) => !value || /^<.*>$|^\.\.\.$/.test(value);

/** Up to `limit` tasks at a time; one promise per task, settled with its own result. */
function pooled<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T>[] {
  let next = 0;
  const results = tasks.map(() => {
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // awaited by its test; never an unhandled rejection
    return { promise, resolve, reject };
  });
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      await tasks[index]().then(results[index].resolve, results[index].reject);
    }
  };
  for (let i = 0; i < Math.min(limit, tasks.length); i++) void worker();
  return results.map((r) => r.promise);
}

describe("every example as a user's project, outside the repository, with the real CLI", function () {
  this.timeout(1_800_000);
  useNativeSdks("the examples over the plugin's SDKs are not run");
  let scratch: string;
  let kit: UserKit;
  let ctrl: RealController;
  const runs = new Map<string, Promise<string>>();

  before(async function () {
    requirePeers(
      this,
      "pulumi",
      "pulumi-language-nodejs",
      "pulumi-resource-pulumi-nodejs",
      "pulumi-language-yaml",
      "pulumi-language-go",
      "ziti",
    );
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-user-examples-"));
    [kit, ctrl] = await Promise.all([makeUserKit(scratch), startController()]);
    // Three at a time: each runs the CLI, a language host and a provider; the machine has two cores.
    const promises = pooled(
      3,
      EXAMPLE_SPECS.map((spec) => () => runExample(spec)),
    );
    for (const [i, spec] of EXAMPLE_SPECS.entries()) runs.set(spec.dir, promises[i]);
  });
  after(async () => {
    await Promise.allSettled(runs.values());
    await ctrl?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("runs every example in examples/ (or says which suite does)", () => {
    const all = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, "Pulumi.yaml")));
    assert.deepEqual(all.sort(), [...EXAMPLE_SPECS.map((s) => s.dir), ...Object.keys(ELSEWHERE)].sort());
  });

  for (const spec of EXAMPLE_SPECS)
    it(`examples/${spec.dir} (${spec.install}): its README's config, up, a clean preview --refresh, destroy`, async () => {
      const took = await runs.get(spec.dir);
      assert.ok(took, "not run");
    });

  /** Installs the example's packages into its copy, as its README says. */
  async function install(spec: ExampleSpec, project: string): Promise<void> {
    const npm = (...args: string[]) =>
      npmInstall(["install", "--no-audit", "--no-fund", ...args], { cwd: project });
    if (spec.install === "npm package")
      await npm(kit.packageTarball, `@pulumi/pulumi@${USER_PULUMI_VERSION}`);
    else if (spec.install === "plugin + Node.js SDK")
      await npm(kit.nativeSdkTarball, `@pulumi/pulumi@${USER_PULUMI_VERSION}`);
    else if (spec.install === "plugin + Go SDK") await useGoSdk(project);
    // YAML: the plugin (in the shared PULUMI_HOME) is all it needs.
  }

  /** The value of a README key for this run: the servers' settings, the README's own, or the spec's. */
  function configValue(
    spec: ExampleSpec,
    mock: MockServer,
    project: string,
    key: string,
    readme?: string,
  ): string {
    const server: Record<string, string> = {
      "frontdoor:apiUrl": mock.url,
      "frontdoor:frontdoorId": mock.credentials.frontdoorId,
      "frontdoor:token": mock.credentials.frontdoorToken,
      "frontdoor:searchUrl": mock.url,
      "frontdoor:searchUsername": mock.credentials.searchUsername,
      "frontdoor:searchPassword": mock.credentials.searchPassword,
      "frontdoor:edgeUrl": ctrl.url,
      "frontdoor:edgeUsername": ctrl.username,
      "frontdoor:edgePassword": ctrl.password,
    };
    if (key === "frontdoor:caBundle") {
      // The README's path, holding the controller's CA, as the user saves it.
      assert.ok(readme && !placeholder(readme), "caBundle: the README gives no file");
      fs.writeFileSync(path.resolve(project, readme), ctrl.caPem);
      return readme;
    }
    const value = server[key] ?? spec.values?.[key] ?? (placeholder(readme) ? undefined : readme);
    if (value === undefined) throw new Error(`${spec.dir}: no value for ${key} (README: ${readme})`);
    return value;
  }

  async function runExample(spec: ExampleSpec): Promise<string> {
    const started = Date.now();
    const source = path.join(EXAMPLES, spec.dir);
    const readme = fs.readFileSync(path.join(source, "README.md"), "utf8");
    const lines = readmeConfig(readme);
    const listed = lines.map((l) => l.key);
    // Every key the program reads and the provider needs for its APIs is in the README.
    const needed = [...spec.apis.flatMap((api) => API_KEYS[api]), ...programKeys(source)];
    const missing = needed.filter((key) => !readme.includes(key));
    assert.deepEqual(missing, [], `examples/${spec.dir}/README.md does not name these config keys`);
    for (const key of spec.apis.flatMap((api) => API_KEYS[api]))
      assert.ok(listed.includes(key), `examples/${spec.dir}/README.md has no \`pulumi config set ${key}\``);

    const project = path.join(scratch, spec.dir);
    fs.cpSync(source, project, { recursive: true, filter: (f) => path.basename(f) !== "node_modules" });
    const mock = await startMockServer();
    try {
      await install(spec, project);
      const config: Record<string, string> = {};
      const secretConfig: Record<string, string> = {};
      for (const line of lines)
        (line.secret ? secretConfig : config)[line.key] = configValue(
          spec,
          mock,
          project,
          line.key,
          line.value,
        );
      const stack = await cliStack(project, {
        inPlace: true,
        stack: "dev",
        config,
        secretConfig,
        env: { PULUMI_HOME: kit.pulumiHome, PATH: kit.path },
      });
      // The objects the program declared (the dynamic provider's types are pulumi-nodejs:dynamic:...).
      const declared = async () =>
        ((await stack.exportState()).deployment.resources ?? []).filter(
          (r: any) => r.custom && !String(r.type).startsWith("pulumi:providers:"),
        );
      try {
        await stack.ok(["up", "--yes", "--skip-preview"]);
        if (spec.functionsOnly) {
          const outputs = JSON.parse((await stack.ok(["stack", "output", "--json"])).stdout);
          assert.ok(Object.keys(outputs).length > 0, `${spec.dir}: no outputs`);
        } else assert.ok((await declared()).length > 0, `${spec.dir}: nothing in the state after up`);
        const drift = await stack.run(["preview", "--refresh", "--expect-no-changes"]);
        assert.equal(drift.code, 0, `${spec.dir}: changes reported right after up:\n${drift.output}`);
        await stack.ok(["destroy", "--yes", "--skip-preview"]);
        assert.deepEqual(await declared(), [], `${spec.dir}: resources left after destroy`);
      } catch (error) {
        await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
        throw error;
      } finally {
        await stack.dispose();
      }
    } finally {
      await mock.close();
    }
    const took = `${Math.round((Date.now() - started) / 1000)} s`;
    process.stdout.write(`      examples/${spec.dir}: ${took}\n`);
    return took;
  }
});
