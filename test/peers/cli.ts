// The real Pulumi CLI (built by `npm run peers`) on a copy of a program: a local file backend and
// a passphrase secrets provider in a temp dir, its own PULUMI_HOME, no update checks, no plugin
// downloads, the peers' bin folder first on PATH (language host and dynamic-provider plugin).
// The copy lives under test/programs/.work-* (git-ignored) so that the program resolves
// `pulumi-frontdoor` and `@pulumi/pulumi` from the repository's node_modules, as an installed
// package: its serialized provider is then a `require`, as in a user's project.
import { type ChildProcess, spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { collectOutput } from "../../harness/output";
import { PEERS_BIN, peerPath, REPO_ROOT } from "./index";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for messages and scans. */
  output: string;
}

export interface CliStack {
  /** The program's working copy. */
  dir: string;
  /** The stack's own PULUMI_HOME (its plugins/ folder among others). */
  home: string;
  passphrase: string;
  /** The environment the CLI runs with (backend, passphrase, PATH): for commands that run it themselves. */
  env: NodeJS.ProcessEnv;
  run(args: string[], options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult>;
  /** `run`, with the CLI process at hand (to signal or kill it while it runs). */
  start(
    args: string[],
    options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number },
  ): { child: ChildProcess; result: Promise<CliResult> };
  /** `run`, failing with the CLI's output unless it exits 0. */
  ok(args: string[], options?: { env?: NodeJS.ProcessEnv }): Promise<CliResult>;
  /** `pulumi stack export --show-secrets=false`, parsed. */
  exportState(): Promise<any>;
  /** A resource's id from the state, by its Pulumi name. */
  idOf(name: string): Promise<string>;
  dispose(): Promise<void>;
}

export async function cliStack(
  programDir: string,
  options: {
    stack?: string;
    config?: Record<string, string>;
    secretConfig?: Record<string, string>;
    env?: NodeJS.ProcessEnv;
    /** Run in `programDir` itself (a user's project with its own node_modules) instead of a copy. */
    inPlace?: boolean;
  } = {},
): Promise<CliStack> {
  const pulumi = peerPath("pulumi");
  if (!pulumi) throw new Error("pulumi is not built (npm run peers)");
  const stack = options.stack ?? "dev";
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cli-"));
  const dir = options.inPlace
    ? programDir
    : path.join(REPO_ROOT, "test", "programs", `.work-cli-${path.basename(programDir)}-${process.pid}`);
  if (!options.inPlace) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(programDir, dir, {
      recursive: true,
      filter: (source) =>
        !/Pulumi\.[^/]+\.yaml$|node_modules|\.state/.test(path.relative(programDir, source)),
    });
  }
  const passphrase = crypto.randomBytes(16).toString("hex");
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${PEERS_BIN}${path.delimiter}${process.env.PATH}`,
    PULUMI_HOME: path.join(scratch, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(scratch, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    NO_COLOR: "1",
    ...options.env,
  };
  fs.mkdirSync(path.join(scratch, "backend"), { recursive: true });

  const start: CliStack["start"] = (args, runOptions = {}) => {
    const child = spawn(pulumi, ["--non-interactive", "--color", "never", ...args], {
      cwd: dir,
      env: { ...baseEnv, ...runOptions.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: a timeout ends the CLI and its plugins together
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // gone
      }
    }, runOptions.timeoutMs ?? 300_000);
    const result = collectOutput(child)
      .finally(() => clearTimeout(timer))
      .then(
        ({ code, signal, stdout, stderr }): CliResult => ({
          code: code ?? (signal ? 128 : 1),
          stdout,
          stderr,
          output: `${stdout}\n${stderr}`,
        }),
      );
    return { child, result };
  };
  const run: CliStack["run"] = (args, runOptions) => start(args, runOptions).result;

  const ok: CliStack["ok"] = async (args, runOptions) => {
    const result = await run(args, runOptions);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.output}`);
    return result;
  };

  const exportState = async () => JSON.parse((await ok(["stack", "export"])).stdout);
  const idOf = async (name: string) => {
    const state = await exportState();
    const found = state.deployment.resources?.find((r: any) => String(r.urn).endsWith(`::${name}`));
    if (!found)
      throw new Error(
        `no resource ${name} in the state: ${JSON.stringify((state.deployment.resources ?? []).map((r: any) => r.urn))}`,
      );
    return String(found.id);
  };

  const dispose = async () => {
    if (!options.inPlace) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    await ok(["stack", "init", stack, "--secrets-provider", "passphrase"]);
    // `--` ends the flags: a value may start with "-" (a PEM does).
    for (const [key, value] of Object.entries(options.config ?? {}))
      await ok(["config", "set", key, "--", value]);
    for (const [key, value] of Object.entries(options.secretConfig ?? {}))
      await ok(["config", "set", "--secret", key, "--", value]);
  } catch (error) {
    await dispose(); // a failed setup leaves no work copy or backend behind
    throw error;
  }

  return {
    dir,
    home: baseEnv.PULUMI_HOME as string,
    passphrase,
    env: baseEnv,
    run,
    start,
    ok,
    exportState,
    idOf,
    dispose,
  };
}
