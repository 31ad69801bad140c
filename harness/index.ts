// The engine harness as a library for tests, examples, the demo and benchmarks.
//
// Each run is a fresh child process: the CLI in cli.ts with `--json`. For up and preview the program
// runs in a process of its own (programChild.ts, a fresh Pulumi runtime), as the Pulumi CLI's language
// host runs it, under a resource monitor that sends each registration to the harness process over an
// IPC channel (program.ts); every dynamic resource it registers is stepped right away on the real
// `@pulumi/pulumi/cmd/dynamic-provider` host over gRPC (host.ts, steps.ts), so the program sees real
// ids and outputs. The host and the program process never outlive the harness (children.ts).
//
// State: a JSON file (default `<program-dir>/.state/<stack>.json`). Secret values in it are
// encrypted with AES-256-GCM; the key is derived with scrypt from env PULUMI_CONFIG_PASSPHRASE or,
// when that is unset, from a random key in `<state file>.key` (mode 0600, created on first use).
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { SECRET_CONFIG_ENV, toArgs } from "./args";
import { collectOutput } from "./output";
import type { Command, HarnessOptions, Report } from "./types";

export { type HarnessState, readState, type StateResource } from "./state";
export * from "./types";

export interface HarnessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The `--json` document (null if the CLI crashed before printing it). */
  report: Report;
}

const repoRoot = path.resolve(__dirname, "..");
// boot.js: cli.ts behind a cached TypeScript transpile (same result as ts-node --transpile-only).
const boot = path.join(__dirname, "boot.js");

export function runHarness(command: Command, opts: HarnessOptions): Promise<HarnessResult> {
  return startHarness(command, opts).result;
}

/** Like runHarness, with the harness process at hand (to signal or kill it while it runs). */
export function startHarness(
  command: Command,
  opts: HarnessOptions,
): { child: ChildProcess; result: Promise<HarnessResult> } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  if (opts.secretConfig && Object.keys(opts.secretConfig).length > 0) {
    env[SECRET_CONFIG_ENV] = JSON.stringify(opts.secretConfig);
  }
  const args = toArgs(command, {
    ...opts,
    programDir: path.resolve(opts.programDir),
    stateFile: opts.stateFile && path.resolve(opts.stateFile),
  });
  const child = spawn(process.execPath, [boot, ...args], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const result = collectOutput(child, opts.echo).then(({ code, stdout, stderr }): HarnessResult => {
    let report: any = null;
    try {
      report = JSON.parse(stdout);
    } catch {
      // leave null: stderr says why
    }
    return { exitCode: code ?? 1, stdout, stderr, report };
  });
  return { child, result };
}
