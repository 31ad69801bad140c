// Runs the built audit command (bin/provider/tools/auditCli.js) as a user does, with the credentials
// in the environment, and answers its exit code and output: a non-zero exit is an answer, not a failure.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const AUDIT = path.resolve(__dirname, "..", "..", "bin", "provider", "tools", "auditCli.js");

export interface AuditAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

/** `pulumi-frontdoor-audit ...args` with `env` added to this process's environment. */
export async function runAudit(env: Record<string, string>, ...args: string[]): Promise<AuditAnswer> {
  try {
    const { stdout, stderr } = await run(process.execPath, [AUDIT, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    return { code: error.code as number, stdout: String(error.stdout), stderr: String(error.stderr) };
  }
}
