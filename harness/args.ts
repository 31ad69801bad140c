// Command line <-> HarnessOptions (runHarness builds the same command line the CLI parses).
import type { Command, HarnessOptions } from "./types";

export const USAGE =
  "usage: harness <up|preview|refresh|destroy> <program-dir> [--state FILE] [--stack NAME]\n" +
  "       [--config key=value ...] [--secret-config key=value ...] [--expect-no-changes] [--refresh] [--json]\n" +
  "       [--parallel N] [--debug]\n" +
  "       refresh only: [--import-pending-creates URN --import-pending-creates ID ...] [--clear-pending-creates]";

const COMMANDS = new Set(["up", "preview", "refresh", "destroy"]);

export interface ParsedArgs {
  command: Command;
  opts: HarnessOptions;
  json: boolean;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const [command, programDir, ...rest] = argv;
  if (!COMMANDS.has(command) || !programDir || programDir.startsWith("--")) throw new Error(USAGE);
  const opts: HarnessOptions = { programDir };
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    const next = () => {
      const v = rest[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const pair = (into: Record<string, string> | undefined): Record<string, string> => {
      const kv = next();
      const eq = kv.indexOf("=");
      if (eq <= 0) throw new Error(`${flag} expects key=value, got "${kv}"`);
      return { ...into, [kv.slice(0, eq)]: kv.slice(eq + 1) };
    };
    switch (flag) {
      case "--state":
        opts.stateFile = next();
        break;
      case "--stack":
        opts.stack = next();
        break;
      case "--config":
        opts.config = pair(opts.config);
        break;
      case "--secret-config":
        opts.secretConfig = pair(opts.secretConfig);
        break;
      case "--parallel": {
        const n = Number(next());
        if (!Number.isInteger(n) || n < 1) throw new Error("--parallel expects a positive integer");
        opts.parallel = n;
        break;
      }
      case "--import-pending-creates":
        // Like pulumi: a flat list, each URN followed by its ID (the flag given once per value).
        opts.importPendingCreates = [...(opts.importPendingCreates ?? []), next()];
        break;
      case "--clear-pending-creates":
        opts.clearPendingCreates = true;
        break;
      case "--expect-no-changes":
        opts.expectNoChanges = true;
        break;
      case "--refresh":
        opts.refresh = true;
        break;
      case "--debug":
        opts.debug = true;
        break;
      case "--json":
        json = true;
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  if (opts.importPendingCreates || opts.clearPendingCreates) {
    if (command !== "refresh") throw new Error("pending creates are resolved by refresh only");
    if ((opts.importPendingCreates?.length ?? 0) % 2 !== 0) {
      throw new Error("each URN must be followed by an ID: found an odd number of entries");
    }
  }
  return { command: command as Command, opts, json };
}

/**
 * The CLI arguments for `opts`. Secret config goes through the environment (HARNESS_SECRET_CONFIG)
 * so it never shows in a process listing.
 */
export function toArgs(command: Command, opts: HarnessOptions): string[] {
  const args: string[] = [command, opts.programDir];
  if (opts.stateFile) args.push("--state", opts.stateFile);
  if (opts.stack) args.push("--stack", opts.stack);
  for (const [k, v] of Object.entries(opts.config ?? {})) args.push("--config", `${k}=${v}`);
  if (opts.parallel) args.push("--parallel", String(opts.parallel));
  for (const v of opts.importPendingCreates ?? []) args.push("--import-pending-creates", v);
  if (opts.clearPendingCreates) args.push("--clear-pending-creates");
  if (opts.expectNoChanges) args.push("--expect-no-changes");
  if (opts.refresh) args.push("--refresh");
  if (opts.debug) args.push("--debug");
  args.push("--json");
  return args;
}

export const SECRET_CONFIG_ENV = "HARNESS_SECRET_CONFIG";
