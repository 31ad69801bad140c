#!/usr/bin/env node
// `npx pulumi-frontdoor-audit <subcommand> [--json] ...`: checks for the scheduled job and the pull
// request that `pulumi refresh` cannot answer. Connection settings come from the same environment
// variables the provider reads (FRONTDOOR_API_URL, FRONTDOOR_TOKEN, ZITI_EDGE_URL, ...).
// Exit codes: 0 clean, 1 findings, 2 usage or API error.
import { accessCommand } from "../audit/accessCommand";
import type { AuditCommand } from "../audit/command";
import { UsageError } from "../audit/command";
import { expiryCommand } from "../audit/expiry";
import { unmanagedCommand } from "../audit/unmanaged";
import { context } from "../engine";

/** The subcommands, each in its own module under provider/audit/. */
const COMMANDS: AuditCommand[] = [unmanagedCommand, expiryCommand, accessCommand];

function usage(): string {
  return COMMANDS.map((c) => `  pulumi-frontdoor-audit ${c.name} ${c.usage}`).join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown subcommand ${name ?? "(none)"}`);
  const json = rest.includes("--json");
  const result = await command.run(
    context(),
    rest.filter((a) => a !== "--json"),
  );
  process.stdout.write(json ? `${JSON.stringify(result.json, null, 2)}\n` : result.text);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`pulumi-frontdoor-audit: ${err.message}\n`);
    if (err instanceof UsageError) process.stderr.write(`usage:\n${usage()}\n`);
    process.exit(2);
  },
);
