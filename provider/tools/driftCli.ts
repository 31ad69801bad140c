#!/usr/bin/env node
// `npx pulumi-frontdoor-drift [--stack S] [--cwd D] [--summary FILE] [--json FILE]
// [--unmanaged [--state FILE ...] [--allow RULE ...]]`: the scheduled job's drift check with an exit
// code that tells drift from a broken check, like `terraform plan -detailed-exitcode`:
// 0 clean, 2 drift (a change made outside Pulumi, or with --unmanaged an object no stack declares),
// 1 the check itself failed (the CLI failed, an API refused or could not be reached, bad arguments).
// It runs the real `pulumi preview --refresh --json` (read-only), and reads its answer (drift.ts).
// With --unmanaged it also runs the audit's unmanaged-object check (provider/audit/unmanaged.ts)
// against the stack's state (`pulumi stack export`) and any other `--state` files, with the
// connection settings the audit reads from the environment (FRONTDOOR_API_URL, ZITI_EDGE_URL, ...).
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parseFlags, UsageError } from "../audit/command";
import { findUnmanaged, type UnmanagedReport } from "../audit/unmanaged";
import { context } from "../engine";
import {
  type DriftReport,
  driftReport,
  formatDriftMarkdown,
  formatDriftText,
  type PreviewRun,
  readPreview,
} from "./drift";

const USAGE =
  "pulumi-frontdoor-drift [--stack S] [--cwd D] [--summary FILE] [--json FILE] [--unmanaged [--state FILE ...] [--allow RULE ...]]";

/** The Pulumi CLI with an argument array (never a shell); a non-zero exit is an answer. */
function pulumi(args: string[]): Promise<PreviewRun> {
  return new Promise((resolve) => {
    execFile("pulumi", args, { maxBuffer: 512 * 1024 * 1024, env: process.env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      // Not started at all (ENOENT): say so in the CLI's place.
      const started = !error || typeof error.code === "number";
      resolve({ code, stdout, stderr: started ? stderr : `${stderr}${error?.message}` });
    });
  });
}

/** `--stack` and `--cwd` as the CLI takes them (both optional: the CLI's defaults apply). */
function target(values: Map<string, string[]>): string[] {
  const args: string[] = [];
  for (const flag of ["--stack", "--cwd"]) {
    const value = values.get(flag);
    if (value && value.length > 1) throw new UsageError(`${flag} is given twice`);
    if (value) args.push(flag, value[0]);
  }
  return args;
}

/** The unmanaged-object audit: the stack's own state and the other stacks' given as files. */
async function unmanaged(
  values: Map<string, string[]>,
  errors: string[],
): Promise<UnmanagedReport | undefined> {
  const exported = await pulumi(["stack", "export", "--non-interactive", ...target(values)]);
  if (exported.code !== 0) {
    errors.push(`pulumi stack export exited ${exported.code}: ${exported.stderr.trim()}`);
    return undefined;
  }
  const states: unknown[] = [];
  try {
    states.push(JSON.parse(exported.stdout));
  } catch (err) {
    errors.push(`pulumi stack export printed no state: ${(err as Error).message}`);
    return undefined;
  }
  for (const file of values.get("--state") ?? []) {
    try {
      states.push(JSON.parse(readFileSync(file, "utf8")));
    } catch (err) {
      throw new UsageError(`--state ${file}: ${(err as Error).message}`);
    }
  }
  try {
    return await findUnmanaged(context(), { states, allow: values.get("--allow") });
  } catch (err) {
    errors.push(`unmanaged objects not checked: ${(err as Error).message}`);
    return undefined;
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, switches } = parseFlags(argv, {
    values: ["--stack", "--cwd", "--summary", "--json", "--state", "--allow"],
    switches: ["--unmanaged"],
  });
  if (!switches.has("--unmanaged") && (values.has("--state") || values.has("--allow")))
    throw new UsageError("--state and --allow belong to --unmanaged");
  for (const flag of ["--summary", "--json"])
    if ((values.get(flag)?.length ?? 0) > 1) throw new UsageError(`${flag} is given twice`);
  // Never --show-secrets: the document then shows every secret as "[secret]".
  const preview = await pulumi(["preview", "--refresh", "--json", "--non-interactive", ...target(values)]);
  const { drifted, errors } = readPreview(preview);
  const audit = switches.has("--unmanaged") ? await unmanaged(values, errors) : undefined;
  const report: DriftReport = driftReport({
    stack: values.get("--stack")?.[0],
    drifted,
    unmanaged: audit,
    errors,
  });
  const summary = values.get("--summary")?.[0];
  const json = values.get("--json")?.[0];
  if (summary) writeFileSync(summary, formatDriftMarkdown(report));
  if (json) writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(formatDriftText(report));
  return report.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    // Bad arguments, or an answer that could not be read: the check did not run (1, never 2).
    process.stderr.write(`pulumi-frontdoor-drift: ${err.message}\n`);
    if (err instanceof UsageError) process.stderr.write(`usage: ${USAGE}\n`);
    process.exit(1);
  },
);
