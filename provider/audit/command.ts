// The shape of an audit subcommand of `pulumi-frontdoor-audit` (see ../tools/auditCli.ts). Each
// subcommand lives in a module of its own and answers with its report and an exit code that fits a
// scheduled job: 0 clean, 1 findings (the report says which), 2 a usage or API error.
import type { ResourceContext } from "../resource";

export interface AuditResult {
  exitCode: 0 | 1;
  /** The report for people (markdown-friendly text). */
  text: string;
  /** The same findings for machines (`--json`). */
  json: unknown;
}

export interface AuditCommand {
  name: string;
  /** One line: the arguments it takes. */
  usage: string;
  run(ctx: ResourceContext, argv: string[]): Promise<AuditResult>;
}

/** Arguments as `--flag value` pairs (repeatable) and bare `--switch`es. */
export function parseFlags(
  argv: string[],
  known: { values: string[]; switches?: string[] },
): { values: Map<string, string[]>; switches: Set<string> } {
  const values = new Map<string, string[]>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (known.switches?.includes(flag)) {
      switches.add(flag);
      continue;
    }
    if (!known.values.includes(flag)) throw new UsageError(`unknown argument ${flag}`);
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    values.set(flag, [...(values.get(flag) ?? []), value]);
  }
  return { values, switches };
}

/** Bad arguments: exit code 2 with the subcommand's usage. */
export class UsageError extends Error {}
