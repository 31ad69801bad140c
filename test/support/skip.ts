// The one way a test skips: loudly, saying why, and never where skipping is forbidden. Mocha's own
// `this.skip()` is silent (a "pending" line at most), so a suite could stop running on every machine
// without anyone noticing; every conditional skip goes through `skipBecause` instead.
// Forbidden (the skip becomes a failure): with FRONTDOOR_REQUIRE_PEERS=1 or CI set, as in `.ci/run`,
// where every peer is built and the shared specs lie beside the clone.

/** Whether this run forbids skipping (CI). */
export function skippingForbidden(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.FRONTDOOR_REQUIRE_PEERS === "1" || (env.CI !== undefined && env.CI !== "" && env.CI !== "false");
}

/**
 * Skips the running test (or, from a `before` hook, its suite), printing why on stdout where the
 * reporter's lines are; throws instead when skipping is forbidden, so CI fails rather than skips.
 */
export function skipBecause(ctx: Mocha.Context, why: string): never {
  // From a hook (`before`): the suite it skips; from a test: the test.
  const runnable = ctx.test as (Mocha.Runnable & { type?: string }) | undefined;
  const what = (runnable?.type === "hook" ? runnable.parent?.fullTitle() : runnable?.fullTitle()) ?? "?";
  if (skippingForbidden())
    throw new Error(
      `"${what}" cannot run: ${why}; skipping is forbidden here (CI / FRONTDOOR_REQUIRE_PEERS=1)`,
    );
  process.stdout.write(`\n    !!! SKIPPING "${what}": ${why}\n\n`);
  ctx.skip();
  // ctx.skip() throws mocha's Pending; this line is for the type checker.
  throw new Error("unreachable");
}
