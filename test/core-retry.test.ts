// The retry rules every API client shares (provider/http/retry.ts), against what the contracts say:
// DESIGN.md §1 and §5 (retries on 429/503, Retry-After honoured, 502/503/504 may come after the work
// was done), RFC 9110 §10.2.3 (Retry-After: delay-seconds or an HTTP-date). Expected values are worked
// out here from those rules, not taken from the code.
import assert from "node:assert/strict";
import {
  backoffDelay,
  DEFAULT_RETRY,
  isAmbiguousStatus,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
  sleep,
} from "../provider/http/retry";

describe("retry rules (provider/http/retry.ts)", () => {
  it("retries exactly 429, 502, 503 and 504; of those, 502/503/504 leave a POST's outcome open", () => {
    const retryable = [];
    const ambiguous = [];
    for (let status = 100; status < 700; status++) {
      if (isRetryableStatus(status)) retryable.push(status);
      if (isAmbiguousStatus(status)) ambiguous.push(status);
    }
    assert.deepEqual(retryable, [429, 502, 503, 504]);
    assert.deepEqual(ambiguous, [502, 503, 504]);
  });

  it("reads Retry-After as seconds or as an HTTP date; absent, empty or unreadable is undefined", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(parseRetryAfter("0", now), 0);
    assert.equal(parseRetryAfter("3", now), 3000);
    assert.equal(parseRetryAfter("1.5", now), 1500);
    assert.equal(parseRetryAfter(["2", "9"], now), 2000, "the first of repeated headers");
    assert.equal(parseRetryAfter("-5", now), 0, "never negative");
    assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:07 GMT", now), 7000);
    assert.equal(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now), 0, "a date in the past: now");
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter("", now), undefined);
    assert.equal(parseRetryAfter("   ", now), undefined);
    assert.equal(parseRetryAfter("soon", now), undefined);
    // Without `now`, a date is measured from the current time: a minute ahead is about 60 s.
    const ahead = parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())!;
    assert.ok(ahead > 50_000 && ahead <= 60_000, String(ahead));
  });

  it("backs off exponentially with full jitter in [ceiling/2, ceiling], capped; Retry-After wins, capped", () => {
    const policy: RetryPolicy = { maxAttempts: 10, maxElapsedMs: 1000, baseDelayMs: 100, maxDelayMs: 1000 };
    const ceilings = [100, 200, 400, 800, 1000, 1000];
    ceilings.forEach((ceiling, i) => {
      const seen = Array.from({ length: 200 }, () => backoffDelay(policy, i + 1));
      for (const d of seen) assert.ok(d >= ceiling / 2 && d <= ceiling, `attempt ${i + 1}: ${d}`);
      assert.ok(Math.min(...seen) < ceiling * 0.6, `attempt ${i + 1}: no jitter toward ceiling/2`);
      assert.ok(Math.max(...seen) > ceiling * 0.9, `attempt ${i + 1}: no jitter toward the ceiling`);
      for (const d of seen) assert.equal(d, Math.round(d), "whole milliseconds");
    });
    assert.equal(backoffDelay(policy, 1, 0), 0, "Retry-After: 0 means now");
    assert.equal(backoffDelay(policy, 1, 700), 700);
    assert.equal(backoffDelay(policy, 1, 5000), 1000, "capped at maxDelayMs");
  });

  it("defaults: no count limit, a two-minute budget, 200 ms base, 10 s cap", () => {
    assert.deepEqual(DEFAULT_RETRY, {
      maxAttempts: Number.POSITIVE_INFINITY,
      maxElapsedMs: 120_000,
      baseDelayMs: 200,
      maxDelayMs: 10_000,
    });
  });

  it("sleep resolves after its timer, not before (a timer of 30 ms has not fired after 0 ms)", async () => {
    let done = false;
    const slept = sleep(30).then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(done, false);
    await slept;
    assert.equal(done, true);
  });
});
