#!/usr/bin/env node
// `npx pulumi-frontdoor-import [--frontdoor-id ID] [--kind AuthProvider ...]`: prints a Pulumi program
// that adopts the existing objects (see importSnippets.ts). Connection settings come from the same
// environment variables the provider reads (FRONTDOOR_API_URL, FRONTDOOR_TOKEN, ZITI_EDGE_URL, ...).
import { context } from "../engine";
import { importSnippets } from "./importSnippets";

async function main(argv: string[]): Promise<void> {
  const kinds: string[] = [];
  let frontdoorId: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--kind") kinds.push(argv[++i]);
    else if (argv[i] === "--frontdoor-id") frontdoorId = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (use --frontdoor-id ID, --kind KIND)`);
  }
  process.stdout.write(
    await importSnippets(context(), { kinds: kinds.length ? kinds : undefined, frontdoorId }),
  );
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`pulumi-frontdoor-import: ${err.message}\n`);
  process.exit(1);
});
