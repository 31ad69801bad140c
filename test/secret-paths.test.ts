// Every secret of the independent table (test/support/oracles/secrets.ts) through each host, proved
// once per host with one program that declares every kind and calls every function with a secret
// output (test/support/secretCases.ts; a kind or function of the table without a case fails here):
// - the dynamic-provider host: the engine harness running test/programs/secret-paths (TypeScript);
// - the provider plugin: the real Pulumi CLI running one generated YAML program on bin/plugin.
// For each, every table path arrives marked secret (the state's resource outputs, the stack outputs of
// the function results), and none of the values (given, made by the servers, found at a secret path)
// is in the state, the CLI's or harness's output, or the provider's log (debug on), in any encoded form.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readState, runHarness } from "../harness";
import type { CliResult } from "./peers/cli";
import { PEERS_BIN, requirePeers } from "./peers/index";
import { apiConfig, mockConfig } from "./support/engine";
import { useMock, useTempDir } from "./support/fixtures";
import { findLeaks, serverSecrets } from "./support/oracles/leaks";
import { FUNCTION_SECRETS } from "./support/oracles/secrets";
import { assertPluginBuilt, PLUGIN, pluginStack } from "./support/plugin";
import {
  casePaths,
  coverageGaps,
  outputName,
  prepareSecretCases,
  type SecretCases,
  SecretMarks,
  yamlProgram,
} from "./support/secretCases";

const ROOT = path.resolve(__dirname, "..");
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;

/**
 * Functions the dynamic host has no path for, and why: it has no Invoke, a program calls the SDK's
 * function itself; enrollIdentity answers a plain Promise on purpose (no Output variant: the key
 * belongs on the device, see sdk/enrollment.ts), so its result is secret only if the program makes it so.
 */
const DYNAMIC_HOST_NO_PATH: Record<string, string> = {
  enrollIdentity:
    "no Output variant on purpose (sdk/enrollment.ts): a program's plain Promise, never in the state unless exported",
};

/** The settings of a stack on the mock: plain ones, and the credentials as secrets. */
function stackConfig(mock: ReturnType<typeof useMock>) {
  const { config, secretConfig } = apiConfig(mock, "frontdoor", "edge");
  return {
    config: { ...config, "frontdoor:caBundle": mockConfig(mock)["frontdoor:caBundle"] },
    secretConfig,
  };
}

describe("secrets through every path: the dynamic host (harness, TypeScript)", function () {
  this.timeout(300_000);
  const mock = useMock({ tls: true });
  const work = useTempDir("secret-paths-");

  it("every table secret of every kind and function result arrives marked; none in the state, output or log", async () => {
    const cases = await prepareSecretCases(mock, "dyn-secrets");
    const invokes = cases.invokes.filter((i) => !DYNAMIC_HOST_NO_PATH[i.fn]);
    assert.deepEqual(coverageGaps({ ...cases, invokes }), [
      ...Object.keys(DYNAMIC_HOST_NO_PATH).map(
        (fn) => `function ${fn} (${FUNCTION_SECRETS[fn].outputs.join(", ")}): no case calls it`,
      ),
    ]);
    const { config, secretConfig } = stackConfig(mock);
    const options = {
      programDir: path.join(ROOT, "test", "programs", "secret-paths"),
      stateFile: path.join(work.path, "state.json"),
      config: { ...config, resources: JSON.stringify(cases.resources), invokes: JSON.stringify(invokes) },
      secretConfig,
      env: { FRONTDOOR_DEBUG: "1" },
      debug: true,
    };
    const texts: Array<[string, string]> = [];
    try {
      const up = await runHarness("up", options);
      texts.push(["up stdout", up.stdout], ["up stderr", up.stderr]);
      assert.equal(up.exitCode, 0, up.stderr.slice(-3000));
      assert.match(up.stderr, /\[frontdoor\]/, "the provider's debug log is not in the output");

      const state = readState(options.stateFile);
      const marks = new SecretMarks();
      for (const r of cases.resources) {
        const found = state.resources.find((s) => s.name === r.name);
        assert.ok(found, `${r.name} is not in the state`);
        marks.answer("resource", r.kind, found.outputs, `state ${r.kind} ${r.name}`);
      }
      for (const i of invokes)
        marks.answer("function", i.fn, state.outputs[i.name], `stack output ${i.name}`);
      assert.deepEqual(marks.problems(), []);

      // The state file's resources and outputs (its config holds the test's own plain JSON).
      const file = JSON.parse(fs.readFileSync(options.stateFile, "utf8"));
      texts.push(["state", JSON.stringify([file.resources, file.outputs])]);
      const destroy = await runHarness("destroy", options);
      texts.push(["destroy stdout", destroy.stdout], ["destroy stderr", destroy.stderr]);
      assert.equal(destroy.exitCode, 0, destroy.stderr.slice(-3000));
      const secrets = [...marks.found, ...cases.given, ...serverSecrets(mock), ...secretsOf(secretConfig)];
      assert.deepEqual(findLeaks(secrets, texts), []);
    } finally {
      await runHarness("destroy", options);
    }
  });
});

describe("secrets through every path: the provider plugin (real CLI, YAML)", function () {
  this.timeout(600_000);
  const mock = useMock({ tls: true });
  const work = useTempDir("secret-paths-yaml-");

  before(function () {
    requirePeers(this, "pulumi", "pulumi-language-yaml");
    assertPluginBuilt();
  });

  it("every table secret of every kind and function result arrives marked; none in the state, output or plugin log", async () => {
    const cases: SecretCases = await prepareSecretCases(mock, "yaml-secrets");
    assert.deepEqual(coverageGaps(cases), []);
    const programDir = path.join(work.path, "program");
    yamlProgram(programDir, cases, VERSION);
    // The plugin's own stderr (its log, debug on), kept apart by a launcher first on PATH.
    const pluginLog = path.join(work.path, "plugin.log");
    const launcherDir = path.join(work.path, "launcher");
    fs.mkdirSync(launcherDir);
    fs.writeFileSync(
      path.join(launcherDir, "pulumi-resource-frontdoor"),
      `#!/bin/sh\nexec "${PLUGIN}" "$@" 2>>"${pluginLog}"\n`,
      { mode: 0o755 },
    );
    const { config, secretConfig } = stackConfig(mock);
    const stack = await pluginStack(programDir, {
      config,
      secretConfig,
      env: { FRONTDOOR_DEBUG: "1", PATH: [launcherDir, PEERS_BIN, process.env.PATH].join(path.delimiter) },
    });
    const outputs: CliResult[] = [];
    try {
      outputs.push(await stack.ok(["up", "--yes", "--skip-preview"]));
      outputs.push(await stack.ok(["stack", "output", "--json"]));
      const shown = JSON.parse((await stack.ok(["stack", "export", "--show-secrets"])).stdout);
      const resources = shown.deployment.resources ?? [];
      const marks = new SecretMarks();
      for (const r of cases.resources) {
        const found = resources.find((s: any) => String(s.urn).endsWith(`::${r.name}`));
        assert.ok(found, `${r.name} is not in the state`);
        marks.answer("resource", r.kind, found.outputs, `state ${r.kind} ${r.name}`);
      }
      const stackOutputs = resources.find((s: any) => s.type === "pulumi:pulumi:Stack")?.outputs ?? {};
      for (const i of cases.invokes)
        for (const dotted of casePaths(i)) {
          const key = outputName(i.name, dotted);
          if (!(key in stackOutputs)) continue; // NOT_PRODUCED: no output made for it
          // One stack output per table path: the path's own marking, not its object's.
          marks.answer("function", i.fn, nest(dotted, stackOutputs[key]), `stack output ${key}`);
        }
      assert.deepEqual(marks.problems(), []);

      const exported = JSON.stringify(await stack.exportState());
      outputs.push(await stack.ok(["destroy", "--yes", "--skip-preview"]));
      const log = fs.readFileSync(pluginLog, "utf8");
      assert.match(log, /\[frontdoor\]/, "the plugin's debug log was not kept: the scan would be vacuous");
      const texts: Array<[string, string]> = [
        ["state export", exported],
        ["plugin log", log],
        ...outputs.map((o, n): [string, string] => [`CLI output #${n}`, o.output]),
      ];
      const secrets = [...marks.found, ...cases.given, ...serverSecrets(mock), ...secretsOf(secretConfig)];
      assert.deepEqual(findLeaks(secrets, texts), []);
    } finally {
      await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await stack.dispose();
    }
  });
});

/** The stack's secret settings, labelled by key. */
function secretsOf(secretConfig: Record<string, string>) {
  return Object.entries(secretConfig).map(([key, value]) => ({ label: `config ${key}`, value }));
}

/** A value put back at its dotted path (`items.` as an array of one), for the table's path to find it. */
function nest(dotted: string, value: unknown): unknown {
  const [head, ...rest] = dotted.split(".");
  if (!head) return value;
  const inner = nest(rest.join("."), value);
  return { [head]: head === "items" ? [inner] : inner };
}
