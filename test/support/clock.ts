// A fake clock for in-process tests: moves `Date.now()` forward for this process, so the in-process
// mock (token, session and status lifetimes) and the provider (token renewal, expiry) both see time
// pass at once, instead of a test sleeping through a one-second lifetime on a loaded machine. Timers
// (setTimeout) and TLS keep the real, monotonic time. `new Date()` without arguments is not moved:
// objects a test compares across a jump are made through code that reads `Date.now()`.
const realNow = Date.now;
let offsetMs = 0;

/** Moves the clock forward by `ms` (cumulative) until `resetClock`. */
export function advanceClock(ms: number): void {
  offsetMs += ms;
  Date.now = () => realNow() + offsetMs;
}

/** The real clock again (call from afterEach). */
export function resetClock(): void {
  offsetMs = 0;
  Date.now = realNow;
}
