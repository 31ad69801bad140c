// Retry policy shared by every API client: exponential backoff with full jitter, honouring the
// server's Retry-After, bounded by time. A count alone is the wrong bound: under a rate limiter that
// refuses half of all requests, one request in a thousand meets ten refusals in a row, so a run of a
// few hundred objects would fail almost surely; a time budget lets every request through while the
// service keeps answering, and still ends a run against a service that does not.

export interface RetryPolicy {
  /** Attempts in all, the first included (Infinity by default: the time budget ends the retries). */
  maxAttempts: number;
  /** Give up retrying once this much time has passed since the first attempt. */
  maxElapsedMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: Number.POSITIVE_INFINITY,
  maxElapsedMs: 120_000,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
};

/** Statuses that mean "not now": the request was not carried out and may be sent again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/**
 * Statuses that do not say whether the request was carried out: a gateway (502, 504) or an overloaded
 * service (503) may answer so after the server behind it did the work. Harmless to repeat for reads
 * and idempotent writes; for a create they are as ambiguous as a lost answer.
 */
export function isAmbiguousStatus(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Delay before retry number `attempt` (1 = first retry). */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
