// What a child process wrote, collected as text until it closes: the harness's own run (runHarness)
// and the tests' runs of the real Pulumi CLI read their children the same way.
import type { ChildProcess } from "node:child_process";

export interface ChildOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Resolves when `child` (spawned with piped stdout and stderr) closes, with all it wrote; rejects when it
 * cannot be started. `echo` also copies its stderr to this process's as it comes.
 */
export function collectOutput(child: ChildProcess, echo = false): Promise<ChildOutput> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
    if (echo) process.stderr.write(c);
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
