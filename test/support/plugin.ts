// The provider plugin (bin/plugin/pulumi-resource-frontdoor, made by `npm run build`) for tests:
// - startPlugin(): the plugin process as the engine starts it, with a gRPC client of Pulumi's own
//   generated code, for protocol-level tests without the CLI;
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
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <Res>(method: string, request: unknown) =>
    new Promise<Res>((resolve, reject) =>
      (client as any)[method](request, (err: grpc.ServiceError | null, res: Res) =>
        err ? reject(err) : resolve(res),
      ),
    );
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
