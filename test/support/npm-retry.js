#!/usr/bin/env node
// npm, with an install (`npm ci`, `npm install`) retried when a registry's transient miss failed it: a
// packument briefly served without a version the lockfile names (ETARGET, E404), a dropped or slow
// connection (ECONNRESET, ETIMEDOUT, EAI_AGAIN), a 5xx. npm's own fetch retries cover connections, not
// ETARGET (the packument was fetched: it lacked the version), so the whole command is run again, up to
// ATTEMPTS times with a backoff, each retry said on stderr. Anything else fails at once, as npm failed.
// A retry revalidates npm's cached metadata (--prefer-online): with --prefer-offline it would read the
// same stale packument from the cache and miss again.
// Plain Node.js (no ts-node): `npm-retry-bin/npm` runs it as `npm` on PATH (the workflow runner's steps,
// the README's blocks), and test/support/npmRetry.ts calls it from the tests.
const { spawn, spawnSync } = require("node:child_process");
const path = require("node:path");

const ATTEMPTS = 4;
const BACKOFF_MS = [2000, 5000, 10000];
const TRANSIENT =
  /\bnpm (?:error|ERR!) code (ETARGET|E404|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|E500|E502|E503|E504)\b/;
const SHIM_DIR = path.join(__dirname, "npm-retry-bin");

/** The subcommand (`ci`, `install`, ...): the first argument that is not an option. */
function isInstall(args) {
  const command = args.find((a) => !a.startsWith("-"));
  return ["ci", "install", "i", "add", "isntall"].includes(command);
}

/** The environment for the real npm: PATH without this shim, so `npm` is npm itself. */
function realEnv(env) {
  const PATH = (env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => path.resolve(dir) !== SHIM_DIR)
    .join(path.delimiter);
  return { ...env, PATH };
}

/** The transient registry error in npm's output, or undefined. */
function transientError(output) {
  return TRANSIENT.exec(output)?.[1];
}

function retryNote(args, code, attempt, wait) {
  return `npm-retry: npm ${args.join(" ")} failed with ${code} (a registry's transient miss?); attempt ${attempt + 1} of ${ATTEMPTS} in ${wait / 1000} s, --prefer-online\n`;
}

/** A retry's arguments and environment: the registry asked again, not npm's cache. */
function online(args, env) {
  return {
    args: [...args.filter((a) => a !== "--prefer-offline"), "--prefer-online"],
    env: { ...env, npm_config_prefer_offline: "false", npm_config_prefer_online: "true" },
  };
}

/**
 * Runs npm with `args`; an install is retried on a transient registry error. Output is collected and,
 * with `echo`, also passed through as it comes. Resolves with {code, stdout, stderr} (stderr includes
 * the retry notes).
 */
async function npm(args, { cwd, env = process.env, echo = false } = {}) {
  const tries = isInstall(args) ? ATTEMPTS : 1;
  let notes = "";
  for (let attempt = 1; ; attempt++) {
    const run = attempt === 1 ? { args, env } : online(args, env);
    const result = await once(run.args, cwd, realEnv(run.env), echo);
    const code = result.code === 0 ? undefined : transientError(result.stdout + result.stderr);
    if (!code || attempt >= tries) return { ...result, stderr: notes + result.stderr };
    const wait = BACKOFF_MS[attempt - 1];
    const note = retryNote(args, code, attempt, wait);
    notes += note;
    process.stderr.write(note);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function once(args, cwd, env, echo) {
  return new Promise((resolve) => {
    const child = spawn("npm", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      if (echo) process.stdout.write(d);
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      if (echo) process.stderr.write(d);
    });
    child.on("error", (error) => resolve({ code: 127, stdout, stderr: `${stderr}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

/**
 * The same, synchronously (for callers that are synchronous), output passed through after each try:
 * npm's stdout to `out` (stderr for a caller whose own stdout is its answer, scripts/node-runtime.js).
 */
function npmSync(args, { cwd, env = process.env, out = process.stdout } = {}) {
  const tries = isInstall(args) ? ATTEMPTS : 1;
  for (let attempt = 1; ; attempt++) {
    const run = attempt === 1 ? { args, env } : online(args, env);
    const result = spawnSync("npm", run.args, {
      cwd,
      env: realEnv(run.env),
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    out.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    const failed = result.status !== 0;
    const code = failed ? transientError(`${result.stdout}${result.stderr}`) : undefined;
    if (!code || attempt >= tries)
      return { code: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
    const wait = BACKOFF_MS[attempt - 1];
    process.stderr.write(retryNote(args, code, attempt, wait));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
  }
}

module.exports = { npm, npmSync, transientError, SHIM_DIR, ATTEMPTS };

if (require.main === module) {
  const args = process.argv.slice(2);
  if (isInstall(args)) npm(args, { cwd: process.cwd(), echo: true }).then(({ code }) => process.exit(code));
  else {
    // Anything else is npm itself, its terminal included.
    const result = spawnSync("npm", args, { stdio: "inherit", env: realEnv(process.env) });
    process.exit(result.status ?? 1);
  }
}
