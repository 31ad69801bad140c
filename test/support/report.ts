// Reading a harness report in tests: what each resource's step was, and what a refresh found changed.
import assert from "node:assert/strict";
import type { HarnessResult, Report } from "../../harness";

/** The run succeeded (the output is the failure message). */
export function expectOk(result: HarnessResult): void {
  assert.equal(result.exitCode, 0, `${result.stdout}\n${result.stderr}`);
}

/** A `refresh --expect-no-changes` found nothing: no false drift. */
export function expectCleanRefresh(result: HarnessResult, why: string): void {
  assert.deepEqual(changes(result), {}, `false drift ${why}`);
  expectOk(result);
}

/** {resource name: step} ("create", "same", "update", ...), the stack itself left out. */
export function ops(result: HarnessResult): Record<string, string> {
  return Object.fromEntries(
    result.report.resources.filter((r) => r.type !== "pulumi:pulumi:Stack").map((r) => [r.name, r.op]),
  );
}

/** {resource name: "delete" | sorted changed property names}. */
export function changes(result: HarnessResult): Record<string, string | string[]> {
  return Object.fromEntries(
    result.report.changes.map((c) => [
      c.name,
      c.kind === "delete" ? "delete" : c.properties.map((p) => p.name).sort(),
    ]),
  );
}

/** A drifted property's name and old and new values (its changed `leaves` left out), or undefined. */
export function driftOf(report: Report, resource: string, property: string) {
  const found = report.changes.find((c) => c.name === resource)?.properties.find((p) => p.name === property);
  if (!found) return undefined;
  const { leaves: _leaves, ...values } = found;
  return values;
}

/** A stack's run of a command, as the drift tests bind one: `run("refresh", true)` is a drift check. */
export type StackRun = (command: "up" | "refresh", expectNoChanges?: boolean) => Promise<HarnessResult>;

/** A `refresh --expect-no-changes` of the stack finds nothing: no false drift. */
export async function refreshesClean(run: StackRun, why: string): Promise<void> {
  expectCleanRefresh(await run("refresh", true), why);
}

/** A first `up` succeeded and created one resource of each of `kinds` and nothing else: its `ids` output. */
export function createdOneOfEach<Ids>(result: HarnessResult, kinds: string[]): Ids {
  expectOk(result);
  const created = result.report.resources.filter((r) => r.type !== "pulumi:pulumi:Stack");
  assert.deepEqual(
    [...new Set(created.map((r) => r.type.split(":").pop()))].sort(),
    [...kinds].sort(),
    "one of every resource kind",
  );
  for (const r of created) assert.equal(r.op, "create", r.name);
  return result.report.outputs.ids as Ids;
}

/**
 * A `refresh --expect-no-changes` of the stack fails on drift and reports exactly `expected`
 * ({resource: sorted changed property names, or "delete"}): the report, for closer checks.
 */
export async function refreshFindsDrift(
  run: StackRun,
  expected: Record<string, string | string[]>,
): Promise<HarnessResult> {
  const drift = await run("refresh", true);
  assert.equal(drift.exitCode, 1, "--expect-no-changes fails on drift");
  assert.deepEqual(changes(drift), expected);
  return drift;
}

/** The run succeeded: each resource's step, as `ops` gives them. */
export async function stepsOfOk(run: Promise<HarnessResult>): Promise<Record<string, string>> {
  const result = await run;
  expectOk(result);
  return ops(result);
}
