#!/usr/bin/env node
// `pulumi-resource-frontdoor`: the provider plugin's process. The engine starts it (from PATH, or from
// the installed plugin's folder) with its own address as argument, reads the port of our gRPC server
// from the first line of stdout, and ends the process when it is done with it. Everything else this
// process says goes to stderr. `main` takes the process's parts as arguments so that tests run it in
// their own process (mutation testing reaches only code that runs there).
import type * as grpc from "@grpc/grpc-js";
import { setLogSink } from "../log";
import { engineLogSink } from "./engineLog";
import { serve } from "./server";

/** The Node.js versions the plugin runs on (package.json "engines"): checked first, with a clear message. */
export function nodeSupported(version: string): boolean {
  const [major, minor] = version.split(".").map(Number);
  return (major === 20 && minor >= 18) || major >= 22;
}

/** What the plugin reads and writes of its process. */
export interface PluginIo {
  nodeVersion: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Starts the server and writes its port; the exit code when it cannot start, with the reason on stderr. */
export async function main(io: PluginIo): Promise<{ code: number; server?: grpc.Server }> {
  if (!nodeSupported(io.nodeVersion)) {
    io.stderr(
      `pulumi-resource-frontdoor needs Node.js 20.18+ (20.x) or 22+; this is ${io.nodeVersion} (the \`node\` on PATH)\n`,
    );
    return { code: 1 };
  }
  try {
    const { port, server } = await serve();
    io.stdout(`${port}\n`);
    return { code: 0, server };
  } catch (err) {
    io.stderr(`pulumi-resource-frontdoor: ${(err as Error).message}\n`);
    return { code: 1 };
  }
}

/** A stray rejection is reported, not fatal: the engine may still have calls in flight. */
export function strayRejection(err: unknown): string {
  return `pulumi-resource-frontdoor: unhandled: ${(err as Error)?.message ?? err}\n`;
}

// Stryker disable all: this runs only when the file is the process's entry (bin/plugin), never in the
// test process where mutation testing switches mutants on; test/plugin.test.ts and the CLI suites run it.
if (require.main === module) {
  process.on("unhandledRejection", (err) => process.stderr.write(strayRejection(err)));
  // Warnings and progress lines go to the engine's log (its address is the first argument).
  if (process.argv[2]) setLogSink(engineLogSink(process.argv[2]));
  const io: PluginIo = {
    nodeVersion: process.versions.node,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  main(io).then(({ code }) => {
    if (code !== 0) process.exit(code);
  });
}
// Stryker restore all
