#!/usr/bin/env node
// `pulumi-resource-frontdoor`: the provider plugin's process. The engine starts it (from PATH, or from
// the installed plugin's folder) with its own address as argument, reads the port of our gRPC server
// from the first line of stdout, and ends the process when it is done with it. Everything else this
// process says goes to stderr.
import { serve } from "./server";

/** The Node.js versions the plugin runs on (package.json "engines"): checked first, with a clear message. */
function nodeSupported(version: string): boolean {
  const [major, minor] = version.split(".").map(Number);
  return (major === 20 && minor >= 18) || major >= 22;
}

async function main(): Promise<void> {
  if (!nodeSupported(process.versions.node)) {
    process.stderr.write(
      `pulumi-resource-frontdoor needs Node.js 20.18+ (20.x) or 22+; this is ${process.versions.node} (the \`node\` on PATH)\n`,
    );
    process.exit(1);
  }
  // A stray rejection is reported, not fatal: the engine may still have calls in flight.
  process.on("unhandledRejection", (err) => {
    process.stderr.write(`pulumi-resource-frontdoor: unhandled: ${(err as Error)?.message ?? err}\n`);
  });
  const { port } = await serve();
  process.stdout.write(`${port}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`pulumi-resource-frontdoor: ${err.message}\n`);
  process.exit(1);
});
