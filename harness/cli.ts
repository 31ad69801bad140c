// `npm run harness -- <up|preview|refresh|destroy> <program-dir> [options]`: runs a Pulumi program
// against the real dynamic-provider host, the way `pulumi up` does. See README-style notes in index.ts.
import { parseArgs, SECRET_CONFIG_ENV } from "./args";
import { killAllChildren } from "./children";
import { formatFailures, formatHeader, formatReport, formatStep } from "./format";
import { projectName } from "./project";
import { Session } from "./session";
import { setStackConfig } from "./stackConfig";
import type { Report } from "./types";

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => (text ? stream.write(text, () => resolve()) : resolve()));
}

function checkExpectNoChanges(r: Report): void {
  const changed =
    r.command === "refresh"
      ? r.changes.length
      : r.resources.filter((x) => x.op !== "same" && !x.error).length;
  if (changed === 0) return;
  r.failures.push({ message: `--expect-no-changes: ${changed} resource(s) changed` });
  r.ok = false;
}

/** `harness config set <program-dir> [--stack NAME] [--secret] <key> [--] <value>`, as `pulumi config set`. */
async function configSet(argv: string[]): Promise<number> {
  const [programDir, ...rest] = argv;
  let stack = "dev";
  let secret = false;
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--") {
      // Everything after `--` is positional (a value may start with "-", as a PEM does).
      positional.push(...rest.slice(i + 1));
      break;
    }
    if (rest[i] === "--stack") stack = rest[++i];
    else if (rest[i] === "--secret") secret = true;
    else positional.push(rest[i]);
  }
  if (!programDir || positional.length !== 2 || !stack) {
    await write(process.stderr, `${CONFIG_USAGE}\n`);
    return 2;
  }
  const [key, value] = positional;
  setStackConfig(programDir, stack, projectName(programDir), key, value, secret);
  return 0;
}

const CONFIG_USAGE = "usage: harness config set <program-dir> [--stack NAME] [--secret] <key> [--] <value>";

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "config") {
    if (argv[1] !== "set") {
      await write(process.stderr, `${CONFIG_USAGE}\n`);
      return 2;
    }
    try {
      return await configSet(argv.slice(2));
    } catch (e: any) {
      await write(process.stderr, `error: ${e.message}\n`);
      return 2;
    }
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv);
  } catch (e: any) {
    await write(process.stderr, `${e.message}\n`);
    return 2;
  }
  const { command, opts, json } = parsed;
  // Secret config passed by runHarness through the environment; the host must not inherit it.
  const fromEnv = process.env[SECRET_CONFIG_ENV];
  if (fromEnv) {
    opts.secretConfig = { ...JSON.parse(fromEnv), ...opts.secretConfig };
    delete process.env[SECRET_CONFIG_ENV];
  }

  let session: Session;
  try {
    session = new Session(command, opts);
  } catch (e: any) {
    await write(process.stderr, `error: ${e.message}\n`);
    return 2;
  }
  current = session;
  // Text output streams a line per step as it finishes (a thousand resources never sit silent);
  // --json prints one document at the end.
  if (!json) {
    await write(process.stdout, formatHeader(session.report));
    session.progress = (step, done) => process.stdout.write(formatStep(step, done));
  }
  try {
    // Start the program process and the host first: each takes ~0.5 s to load @pulumi/pulumi, in
    // parallel with this process loading the rest of the harness.
    if (command === "up" || command === "preview") session.program();
    if (command !== "destroy" || session.state.resources.length > 0) session.host().catch(() => undefined);
    const { run } = await import("./commands");
    await run(session);
    // For memory investigations: the harness's heap right after the program ran.
    if (process.env.HARNESS_HEAP_SNAPSHOT)
      require("node:v8").writeHeapSnapshot(process.env.HARNESS_HEAP_SNAPSHOT);
  } catch (e: any) {
    session.fail({ message: e.message });
  }
  const report = await session.close();
  // After close: the host has stopped, so everything it printed has been read.
  const hostLog = await session.hostLog();
  if (opts.expectNoChanges) checkExpectNoChanges(report);

  await write(process.stdout, json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, true));
  if (!report.ok) {
    await write(process.stderr, formatFailures(report));
    if (hostLog && !opts.debug) await write(process.stderr, `\ndynamic-provider host output:\n${hostLog}`);
  } else if (!opts.debug) {
    // The Pulumi CLI shows what a provider writes to stderr: the provider's warnings (e.g. an object
    // adopted instead of created) and progress lines (a long wait) reach the user of a run that succeeded, too.
    const warnings = hostLog.split("\n").filter((line) => /\] (warning|waiting): /.test(line));
    if (warnings.length) await write(process.stderr, `${warnings.join("\n")}\n`);
  }
  return report.ok ? 0 : 1;
}

/** The session under way, for the signal and crash handlers. */
let current: Session | undefined;

/**
 * Leaves at once, as a killed `pulumi` would, but tidily: the state is written as it stands (the
 * operations under way stay pending in it, for the next run to report), and the process groups of
 * the host and of the program process are killed, so nothing is left running. Synchronous: called from signal and crash handlers.
 */
function leave(code: number, message: string): never {
  process.stderr.write(message);
  try {
    current?.saveNow();
  } catch (e: any) {
    process.stderr.write(`harness: could not write the state: ${e?.message ?? e}\n`);
  }
  killAllChildren();
  process.exit(code);
}

for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  process.once(signal, () => {
    const pending = current?.state.pendingOperations.length ?? 0;
    leave(
      code,
      `\nharness: ${signal}: stopped with ${pending} operation(s) under way, left pending in the state\n`,
    );
  });
}
// A crash anywhere (an exception thrown outside the awaited chain, e.g. in a scheduled state write).
process.on("uncaughtException", (e: any) => leave(3, `harness crashed: ${e?.stack ?? e}\n`));

// Exit explicitly: the Pulumi runtime can keep handles open after the program finished.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => leave(3, `harness crashed: ${e?.stack ?? e}\n`),
);
