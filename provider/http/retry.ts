// Retry policy shared by every API client: exponential backoff with full jitter, bounded both in
// attempts and in total time, honouring the server's Retry-After.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Give up retrying once this much time has passed since the first attempt. */
  maxElapsedMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 10,
  maxElapsedMs: 120_000,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
};

/** Statuses that mean "not now": the request was not carried out and may be sent again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
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
