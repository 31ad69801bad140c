// The tests' npm installs, retried when a registry's transient miss failed them (ETARGET for a version
// the registry served again minutes later, a dropped connection, a 5xx): one mechanism for every suite
// that installs from a registry (npm-retry.js). `NPM_RETRY_BIN` holds an `npm` that does the same, to
// put first on PATH where a workflow or a README block runs `npm ci` itself.
import * as path from "node:path";

interface NpmResult {
  code: number;
  stdout: string;
  stderr: string;
}
const core: {
  npm(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; echo?: boolean }): Promise<NpmResult>;
  npmSync(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): NpmResult;
  transientError(output: string): string | undefined;
  SHIM_DIR: string;
  ATTEMPTS: number;
} = require("./npm-retry.js");

/** A folder with an `npm` that retries installs: first on a PATH. */
export const NPM_RETRY_BIN: string = core.SHIM_DIR;
export const NPM_ATTEMPTS = core.ATTEMPTS;
export const transientNpmError = core.transientError;

/** Options of an install: where, and the environment (default: this process's). */
export interface NpmOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * `npm <args>` (an install: `ci`, `install`), retried on a transient registry error; rejects with npm's
 * output when it still fails. `--prefer-offline`: the packages the machine's cache has are not fetched.
 */
export async function npmInstall(
  args: string[],
  options: NpmOptions,
): Promise<{ stdout: string; stderr: string }> {
  const all = args.includes("--prefer-offline") ? args : [...args, "--prefer-offline"];
  const result = await core.npm(all, options);
  if (result.code !== 0)
    throw new Error(`npm ${all.join(" ")} in ${options.cwd} failed:\n${result.stdout}${result.stderr}`);
  return result;
}

/** The same for synchronous callers; npm's output goes to this process's. */
export function npmInstallSync(args: string[], options: NpmOptions): void {
  const all = args.includes("--prefer-offline") ? args : [...args, "--prefer-offline"];
  const result = core.npmSync(all, options);
  if (result.code !== 0)
    throw new Error(`npm ${all.join(" ")} in ${options.cwd} failed (exit ${result.code})`);
}

/** The environment with NPM_RETRY_BIN first on PATH. */
export function withNpmRetry(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PATH: [NPM_RETRY_BIN, env.PATH ?? ""].join(path.delimiter) };
}
