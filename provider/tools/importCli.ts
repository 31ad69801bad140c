#!/usr/bin/env node
// `npx pulumi-frontdoor-import [--frontdoor-id ID] [--kind KIND ...] [--name PATTERN ...]
// [--exclude-state FILE ...]`: prints a Pulumi program that adopts the existing objects (see
// importSnippets.ts). Connection settings come from the same environment variables the provider reads
// (FRONTDOOR_API_URL, FRONTDOOR_TOKEN, ZITI_EDGE_URL, ...).
import { readFileSync } from "node:fs";
import { context } from "../engine";
import { idsInState, importSnippets, type SnippetOptions } from "./importSnippets";

const USAGE = "use --frontdoor-id ID, --kind KIND, --name PATTERN, --exclude-state FILE";

function parse(argv: string[]): SnippetOptions {
  const kinds: string[] = [];
  const names: string[] = [];
  const excludeIds = new Set<string>();
  let frontdoorId: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value (${USAGE})`);
    if (flag === "--kind") kinds.push(value);
    else if (flag === "--name") names.push(value);
    else if (flag === "--frontdoor-id") frontdoorId = value;
    else if (flag === "--exclude-state") {
      // Objects that a stack already manages are not printed again.
      let document: unknown;
      try {
        document = JSON.parse(readFileSync(value, "utf8"));
      } catch (err) {
        throw new Error(`--exclude-state ${value}: ${(err as Error).message}`);
      }
      for (const id of idsInState(document)) excludeIds.add(id);
    } else throw new Error(`unknown argument ${flag} (${USAGE})`);
  }
  return { kinds: kinds.length ? kinds : undefined, names, frontdoorId, excludeIds };
}

async function main(argv: string[]): Promise<void> {
  process.stdout.write(await importSnippets(context(), parse(argv)));
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`pulumi-frontdoor-import: ${err.message}\n`);
  process.exit(1);
});
