// The harness commands: up / preview (run the program, then delete what it no longer declares),
// refresh (see refresh.ts) and destroy.
import { deleteAll } from "./deletes";
import { keepPendingCreates, resolvePending, warnPending } from "./pending";
import { runProgram } from "./program";
import { refresh } from "./refresh";
import { maskSecrets } from "./secrets";
import type { Session } from "./session";

export async function run(s: Session): Promise<void> {
  // pulumi 3.259 warns about pending operations on up and destroy, not on preview or refresh.
  if (s.command === "up" || s.command === "destroy") warnPending(s);
  const found = [...s.state.pendingOperations];
  switch (s.command) {
    case "preview":
      return up(s);
    case "up":
      await up(s);
      return keepPendingCreates(s, found);
    case "refresh":
      await resolvePending(s);
      return refresh(s);
    case "destroy":
      await deleteAll(s, [...s.state.resources]);
      return keepPendingCreates(s, found);
  }
}

async function up(s: Session): Promise<void> {
  if (s.opts.refresh) {
    // `--refresh`: read every object first (drift lands in report.changes), then plan against that.
    await refresh(s);
    if (!s.report.ok) return;
    s.report.resources = [];
    s.report.summary = {};
  }
  // The program runs in its own process: this one loads only @pulumi/pulumi's protobuf and gRPC
  // modules, for the host.
  const program = await runProgram(s);
  s.report.outputs = maskSecrets(program.outputs);
  // Errors from the program are usually echoes of a failed step; report them only on their own.
  if (s.report.failures.length === 0) {
    for (const message of program.errors) s.fail({ message: `program failed: ${message}` });
  }
  if (!s.report.ok) {
    // Like the engine: after a failed step nothing is deleted (an unregistered resource may only
    // be missing because the program stopped early).
    s.save();
    return;
  }
  s.state.outputs = program.outputs;
  const gone = s.state.resources.filter((r) => r.pendingDelete || !program.registered.has(r.urn));
  await deleteAll(s, gone);
  s.save();
}
