// Process inspection for tests that kill things: children of a process, and whether one still runs.
// Linux /proc only (the test machines and CI).
import * as fs from "node:fs";

function stat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; it ends at the last ")".
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid`. */
export function childPids(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((p) => stat(p)?.ppid === pid);
}

/** `pid` and all its descendants. */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...childPids(out[i]));
  return out;
}

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, counts as gone). */
export function running(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s.state !== "Z" && s.state !== "X";
}

/** Waits until none of `pids` runs; returns those still running after `timeoutMs`. */
export async function waitGone(pids: number[], timeoutMs = 5000): Promise<number[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = pids.filter(running);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The command line of `pid`, its arguments joined by spaces ("" once it is gone). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/**
 * Waits until `pid` has a running child process whose command line matches `match` (any child
 * without one), and returns it.
 */
export async function waitForChild(pid: number, match?: RegExp, timeoutMs = 30_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [child] = childPids(pid).filter((p) => running(p) && (!match || match.test(commandLine(p))));
    if (child !== undefined) return child;
    if (Date.now() > until)
      throw new Error(`process ${pid} started no child ${match ?? ""} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The harness's dynamic-provider host, once `harnessPid` has started it. */
export const waitForHost = (harnessPid: number) => waitForChild(harnessPid, /dynamic-provider/);

/** The harness's program process (up, preview), once `harnessPid` has started it. */
export const waitForProgram = (harnessPid: number) => waitForChild(harnessPid, /boot\.js --program/);

/** SIGKILLs each of `pids` that still runs (cleanup of processes a test started). */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      if (running(pid)) process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}
