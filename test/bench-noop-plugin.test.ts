// The do-nothing provider plugin of the plugin benchmark (bench/noop-plugin) and the arithmetic of the
// plugin's split (bench/plugin.ts). The plugin: its schema over gRPC against our own schema.json
// (the same output properties as frontdoor:index:Service), then the real CLI with the YAML language
// host running a YAML program of 2 Things (up, preview --refresh --expect-no-changes, destroy), the
// calls it sent read from the CLI's own gRPC log. No timing is asserted.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { providerAbove } from "../bench/floorSplit";
import { readLog } from "../bench/grpcLog";
import { buildNoopPlugin, pluginFloorRows, yamlProgram } from "../bench/plugin";
import { type CliStack, cliStack } from "./peers/cli";
import { PEERS_BIN, REPO_ROOT, requirePeers } from "./peers/index";
import { type PluginProcess, startPlugin } from "./support/plugin";

describe("bench plugin: the plugin's share above the do-nothing plugin floor", () => {
  // Worked by hand: (edgeN - edge0) - (noopN - noop0), the plugin's YAML program as the project's row.
  const rounds = [
    { edge0: 1000, edgeN: 3000, noop0: 900, noopN: 2400, raw: 400 }, // 2000 - 1500 = 500, 1.25x
    { edge0: 1100, edgeN: 3500, noop0: 1000, noopN: 2600, raw: 500 }, // 2400 - 1600 = 800, 1.6x
    { edge0: 1200, edgeN: 2800, noop0: 800, noopN: 2000, raw: 200 }, // 1600 - 1200 = 400, 2x
  ];

  it("subtracts each side's 0-resource run inside a round", () => {
    assert.deepEqual(rounds.map(providerAbove), [500, 800, 400]);
  });

  it("reports medians against raw HTTP with the 1.2x target, and the per-round ratios", () => {
    const { line, row } = pluginFloorRows("up", 200, rounds);
    assert.equal(line, "| up | 500 (400 to 800) ms | 400 (200 to 500) ms | 1.60 (1.25 to 2.00)x |");
    assert.equal(row.measured, "500 ms");
    assert.equal(row.baseline, "400 ms");
    assert.equal(row.ratio, "1.25x");
    assert.equal(row.target, "<= 1.2x");
    assert.equal(row.verdict, "MISSED");
    assert.match(row.name, /up 200 Edge services/);
    // At the target exactly: met.
    assert.equal(pluginFloorRows("destroy", 200, [{ ...rounds[0], raw: 500 / 1.2 }]).row.verdict, "met");
  });
});

const SERVICE = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")).resources[
  "frontdoor:index:Service"
];
/** A service's outputs as a provider would store them: the keys of our schema, values of their types. */
const OUTPUTS = {
  configs: ["cfg-1"],
  roleAttributes: ["web"],
  encryptionRequired: true,
  terminatorStrategy: "smartrouting",
  maxIdleTimeMillis: 0,
  tags: { team: "bench" },
};

describe("bench plugin: the do-nothing plugin over gRPC", function () {
  this.timeout(120_000);
  let plugin: PluginProcess;
  before(async () => {
    plugin = await startPlugin({ launcher: path.join(buildNoopPlugin(), "pulumi-resource-noop") });
  });
  after(() => plugin?.stop());

  it("serves package noop: Thing with input name and the output properties of frontdoor:index:Service", async () => {
    const info = await plugin.call<plugproto.PluginInfo>("getPluginInfo", new emptyproto.Empty());
    assert.match(info.getVersion(), /^\d+\.\d+\.\d+$/);
    const res = await plugin.call<provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest());
    const schema = JSON.parse(res.getSchema());
    assert.equal(schema.name, "noop");
    assert.equal(schema.version, info.getVersion());
    const thing = schema.resources["noop:index:Thing"];
    assert.deepEqual(Object.keys(thing.inputProperties), ["name"]);
    assert.deepEqual(thing.requiredInputs, ["name"]);
    assert.deepEqual(Object.keys(thing.properties).sort(), Object.keys(SERVICE.properties).sort());
    for (const [key, prop] of Object.entries<any>(SERVICE.properties)) {
      assert.equal(thing.properties[key].type, prop.type, key);
      assert.deepEqual(thing.properties[key].items, prop.items, key);
    }
    assert.deepEqual(
      Object.keys(OUTPUTS).sort(),
      Object.keys(SERVICE.properties)
        .filter((k) => k !== "name")
        .sort(),
    );
  });
});

describe("bench plugin: the do-nothing plugin under the real CLI (YAML)", function () {
  this.timeout(600_000);
  let stack: CliStack | undefined;
  let program: string;
  let logs: string;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-yaml");
    program = fs.mkdtempSync(path.join(os.tmpdir(), "noop-yaml-"));
    logs = fs.mkdtempSync(path.join(os.tmpdir(), "noop-grpc-"));
    fs.writeFileSync(path.join(program, "Pulumi.yaml"), yamlProgram(2, "thing", true));
    stack = await cliStack(program, {
      config: { "noop:outputs": JSON.stringify(OUTPUTS) },
      env: { PATH: [buildNoopPlugin(), PEERS_BIN, process.env.PATH].join(path.delimiter) },
    });
  });
  after(async () => {
    await stack?.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
    await stack?.dispose();
    for (const dir of [program, logs]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a CLI command with its gRPC log on; the provider calls it sent, by method. */
  async function calls(args: string[], name: string) {
    const file = path.join(logs, `${name}.json`);
    await (stack as CliStack).ok(args, { env: { PULUMI_DEBUG_GRPC: file } });
    const sent = readLog(file).filter(
      (e) => e.method.startsWith("/pulumirpc.ResourceProvider/") && e.progress === "response_completed",
    ) as (ReturnType<typeof readLog>[number] & { request?: any; response?: any })[];
    return (method: string) => sent.filter((e) => e.method.endsWith(`/${method}`));
  }

  it("creates the Things (id = name, outputs = inputs plus the configured outputs), refreshes with no changes, destroys them", async () => {
    const up = await calls(["up", "--yes", "--skip-preview"], "up");
    const creates = up("Create");
    assert.deepEqual(creates.map((e) => e.request.properties.name).sort(), ["thing-0", "thing-1"]);
    assert.deepEqual(creates.map((e) => e.response.id).sort(), ["thing-0", "thing-1"]);

    const state = await (stack as CliStack).exportState();
    const things = state.deployment.resources.filter((r: any) => r.type === "noop:index:Thing");
    assert.deepEqual(things.map((r: any) => r.id).sort(), ["thing-0", "thing-1"]);
    for (const r of things) assert.deepEqual(r.outputs, { ...OUTPUTS, name: r.id });
    const provider = state.deployment.resources.find((r: any) => r.type === "pulumi:providers:noop");
    assert.equal(provider?.inputs?.version, "0.0.1");

    const refresh = await calls(["preview", "--refresh", "--expect-no-changes"], "refresh");
    assert.deepEqual(
      refresh("Read")
        .map((e) => e.request.id)
        .sort(),
      ["thing-0", "thing-1"],
    );
    assert.equal(refresh("Create").length, 0);

    const destroy = await calls(["destroy", "--yes", "--skip-preview"], "destroy");
    assert.deepEqual(
      destroy("Delete")
        .map((e) => e.request.id)
        .sort(),
      ["thing-0", "thing-1"],
    );
    const after = await (stack as CliStack).exportState();
    assert.equal(
      (after.deployment.resources ?? []).filter((r: any) => r.type === "noop:index:Thing").length,
      0,
    );
  });
});
