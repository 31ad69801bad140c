// Waiting for something to happen instead of sleeping for a while: polls `condition` until it holds,
// with a generous deadline (a slow machine is no failure; only something that never happens is).
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
