// The processes the harness starts (the dynamic-provider host, the program process): each in a
// process group of its own, killed with the harness on any exit, their resource use read from /proc.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import * as fs from "node:fs";

/** Children started by this process and not yet exited: killed, with their process groups, on any exit. */
const live = new Set<ChildProcess>();

/**
 * Kills every child this process started, synchronously (usable in `exit` and signal handlers). Each
 * runs in a process group of its own, so whatever it started goes too.
 */
export function killAllChildren(signal: NodeJS.Signals = "SIGKILL"): void {
  for (const child of live) killGroup(child, signal);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

// A harness that ends in any way but a SIGKILL takes its children with it (for a SIGKILL, each child
// watches its link to the harness: the host its stdin, the program its IPC channel).
process.on("exit", () => killAllChildren());

/** A child process in a process group of its own (detached), tracked until it exits. */
export class GroupProcess {
  readonly child: ChildProcess;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;

  /**
   * Detached: a Ctrl-C in the terminal reaches only the harness, which then stops its children
   * itself (and leaves tidily, see `leave` in cli.ts).
   */
  constructor(command: string, args: string[], options: SpawnOptions) {
    this.child = spawn(command, args, { ...options, detached: true });
    live.add(this.child);
    this.exited = new Promise((resolve) =>
      this.child.once("exit", () => {
        live.delete(this.child);
        resolve();
      }),
    );
    // A failed spawn is reported by `exit` (code -2 etc.) too; without a listener it would throw.
    this.child.once("error", () => live.delete(this.child));
  }

  /** Its process id (its process group has the same id). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How it ended ("signal SIGKILL", "code 1"), or undefined while it runs. */
  get ended(): string | undefined {
    const { exitCode, signalCode } = this.child;
    if (signalCode !== null) return `signal ${signalCode}`;
    return exitCode !== null ? `code ${exitCode}` : undefined;
  }

  /** Peak resident memory so far (Linux: VmHWM), in bytes; undefined elsewhere or once it exited. */
  peakRssBytes(): number | undefined {
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, "utf8");
      const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
      return kb ? Number(kb) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** CPU time (user + system) so far (Linux: /proc/<pid>/stat), in ms. */
  cpuMs(): number | undefined {
    try {
      const stat = fs.readFileSync(`/proc/${this.pid}/stat`, "utf8");
      // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
    } catch {
      return undefined;
    }
  }

  /** SIGTERM to its process group, then waits for it to exit (SIGKILL if it has not after 5 s). */
  async stop(): Promise<void> {
    if (this.ended !== undefined || this.pid === undefined) return;
    killGroup(this.child, "SIGTERM");
    // A program may handle SIGTERM itself and go on.
    const timer = setTimeout(() => killGroup(this.child, "SIGKILL"), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}
