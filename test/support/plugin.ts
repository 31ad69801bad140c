// The provider plugin (bin/plugin/pulumi-resource-frontdoor, made by `npm run build`) for tests:
// - startPlugin(): the plugin process as the engine starts it, with a gRPC client of Pulumi's own
//   generated code, for protocol-level tests without the CLI;
// - servePlugin(): the same gRPC server from the sources, in this process (main() of
//   provider/plugin/main.ts on 127.0.0.1), with the same client: what mutation testing reaches;
// - pluginStack(): the real CLI (test/peers/cli.ts) with bin/plugin first on PATH, as a developer
//   runs it (`PATH=$PWD/bin/plugin:$PATH`).

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { type CliStack, cliStack } from "../peers/cli";
import { PEERS_BIN, REPO_ROOT } from "../peers/index";

export const PLUGIN_BIN = path.join(REPO_ROOT, "bin", "plugin");
export const PLUGIN = path.join(PLUGIN_BIN, "pulumi-resource-frontdoor");
/**
 * The plugin startPlugin() runs: the launcher, or FRONTDOOR_PLUGIN, e.g. a self-contained binary from
 * a release archive, to run the protocol suites on it (docs/guides/plugin-binaries.md).
 */
const STARTED_PLUGIN = process.env.FRONTDOOR_PLUGIN ? path.resolve(process.env.FRONTDOOR_PLUGIN) : PLUGIN;

/** Fails (never skips): the plugin is part of the build, not a peer. */
export function assertPluginBuilt(): void {
  if (!fs.existsSync(PLUGIN) || !fs.existsSync(path.join(REPO_ROOT, "bin", "provider", "plugin", "main.js")))
    throw new Error(`${PLUGIN} is not built: run \`npm run build\``);
}

export interface PluginProcess {
  client: provrpc.ResourceProviderClient;
  child: ChildProcess;
  port: number;
  /** What the plugin wrote to stderr so far. */
  stderr(): string;
  /** Calls a unary method and resolves with its answer (rejects with the gRPC error). */
  call<Res>(method: string, request: unknown): Promise<Res>;
  stop(): Promise<void>;
}

export async function startPlugin(
  options: { env?: NodeJS.ProcessEnv; launcher?: string } = {},
): Promise<PluginProcess> {
  assertPluginBuilt();
  const child = spawn(options.launcher ?? STARTED_PLUGIN, ["127.0.0.1:1"], {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`plugin exited ${code} before serving: ${stderr}`)));
    child.stdout?.once("data", (c: Buffer) => resolve(Number(c.toString().trim())));
  });
  const { client, call } = pluginClient(port);
  const stop = async () => {
    client.close();
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  };
  return { client, child, port, stderr: () => stderr, call, stop };
}

/** A client of Pulumi's generated code for the plugin on `port`, and unary calls as promises. */
function pluginClient(port: number) {
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <Res>(method: string, request: unknown) =>
    new Promise<Res>((resolve, reject) =>
      (client as any)[method](request, (err: grpc.ServiceError | null, res: Res) =>
        err ? reject(err) : resolve(res),
      ),
    );
  return { client, call };
}

/** The plugin served in this process (from the sources), as the process would serve it. */
export interface PluginServer extends Omit<PluginProcess, "child" | "stderr"> {
  /** What the plugin's main wrote to its stdout (the port line). */
  stdout: string;
}

export async function servePlugin(): Promise<PluginServer> {
  // Loaded here, not at the top: tests that only spawn the built plugin never load the sources.
  const { main } = require("../../provider/plugin/main") as typeof import("../../provider/plugin/main");
  let stdout = "";
  const started = await main({
    nodeVersion: process.versions.node,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => process.stderr.write(text),
  });
  assert.equal(started.code, 0, "the plugin's main did not start its server");
  const port = Number(stdout.trim());
  const { client, call } = pluginClient(port);
  const stop = async () => {
    client.close();
    await new Promise<void>((resolve) => started.server!.tryShutdown(() => resolve()));
  };
  return { client, port, stdout, call, stop };
}

export function struct(value: Record<string, unknown>): structproto.Struct {
  return structproto.Struct.fromJavaScript(value as any);
}

/** The real CLI on a copy of a program, with the plugin (and the peers) on PATH. */
export function pluginStack(
  programDir: string,
  options: Parameters<typeof cliStack>[1] = {},
): Promise<CliStack> {
  assertPluginBuilt();
  return cliStack(programDir, {
    ...options,
    env: {
      PATH: `${PLUGIN_BIN}${path.delimiter}${PEERS_BIN}${path.delimiter}${process.env.PATH}`,
      ...options.env,
    },
  });
}

const yaml: { load(text: string): any; dump(value: unknown): string } = require("js-yaml");

/** Adds the resources of a YAML program the CLI generated (`pulumi import --out`) to the project's Pulumi.yaml. */
export function addGeneratedResources(dir: string, generated: string): void {
  const projectFile = path.join(dir, "Pulumi.yaml");
  const project = yaml.load(fs.readFileSync(projectFile, "utf8"));
  const { resources } = yaml.load(generated) ?? {};
  assert.ok(resources && Object.keys(resources).length > 0, `no resources generated:\n${generated}`);
  project.resources = { ...project.resources, ...resources };
  fs.writeFileSync(projectFile, yaml.dump(project));
}

// Values on the wire (Pulumi's rpc protocol, written down here independently of provider/plugin/wire.ts).
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const secret = (value: unknown) => ({ [SIG]: SECRET_SIG, value });
export const isSecret = (value: any): boolean => value?.[SIG] === SECRET_SIG;
export const URN = (kind: string, name: string) => `urn:pulumi:dev::proj::frontdoor:index:${kind}::${name}`;
export const js = (s: structproto.Struct | undefined) => (s?.toJavaScript() ?? {}) as Record<string, any>;

/** Every plain string in a wire value outside secret wrappers. */
export function plainStrings(value: unknown, out: string[] = []): string[] {
  if (isSecret(value)) return out;
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) plainStrings(item, out);
  else if (value && typeof value === "object")
    for (const item of Object.values(value)) plainStrings(item, out);
  return out;
}
