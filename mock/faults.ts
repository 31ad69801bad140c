// Fault injection: make the next N matching requests fail in the ways real networks and real rate
// limiters do, so retry, backoff and "ambiguous create" handling can be tested for real.
import { seededRandom } from "./random";

// "500": an internal error (not retried by clients: a definite failure, e.g. of the read-back after a
// create). "commit-then-502/503/504": the request is carried out, then a gateway error is answered
// instead of the real answer (a proxy that timed out on a slow create).
export type FaultKind =
  | "429"
  | "500"
  | "503"
  | "drop"
  | "delay"
  | "commit-then-drop"
  | "commit-then-502"
  | "commit-then-503"
  | "commit-then-504";

export const FAULT_KINDS: readonly FaultKind[] = [
  "429",
  "500",
  "503",
  "drop",
  "delay",
  "commit-then-drop",
  "commit-then-502",
  "commit-then-503",
  "commit-then-504",
];

export interface FaultRule {
  /** HTTP method to match (case-insensitive); any when absent. */
  method?: string;
  /** Substring of, or regular expression on, the request path; any when absent. */
  path?: string | RegExp;
  /** How many matching requests to hit. Default 1. */
  count?: number;
  kind: FaultKind;
  /** Retry-After for 429 (default 1; 0 allowed) and, when given, for 503. */
  retryAfterSeconds?: number;
  /** For "delay": how long to wait before answering normally. Default 1000. */
  delayMs?: number;
}

export interface RandomFaultOptions {
  seed: number;
  /** Fraction of requests to hit, 0..1. */
  rate: number;
  kinds: FaultKind[];
  delayMs?: number;
  retryAfterSeconds?: number;
}

/** What the server must do with one request. */
export interface FaultDecision {
  kind: FaultKind;
  /** Present when the rule gave one (429 answers with the default when absent). */
  retryAfterSeconds?: number;
  delayMs: number;
}

export const DEFAULT_RETRY_AFTER_SECONDS = 1;
const DEFAULT_DELAY_MS = 1000;

export class FaultInjector {
  private rules: Array<FaultRule & { remaining: number }> = [];
  private randomMode?: { options: RandomFaultOptions; next: () => number };

  /** Hit the next `count` requests matching `method` and `path`. */
  inject(rule: FaultRule): void {
    if (!FAULT_KINDS.includes(rule.kind)) throw new Error(`unknown fault kind '${rule.kind}'`);
    this.rules.push({ ...rule, remaining: rule.count ?? 1 });
  }

  /** Removes all injected rules and stops random mode. */
  clear(): void {
    this.rules = [];
    this.randomMode = undefined;
  }

  /** Hits a seeded pseudo-random fraction of all requests (deterministic for a seed). */
  random(options: RandomFaultOptions): void {
    if (options.kinds.length === 0) throw new Error("random faults need at least one kind");
    for (const kind of options.kinds) {
      if (!FAULT_KINDS.includes(kind)) throw new Error(`unknown fault kind '${kind}'`);
    }
    this.randomMode = { options, next: seededRandom(options.seed) };
  }

  /** Stops random mode (injected rules stay). */
  stop(): void {
    this.randomMode = undefined;
  }

  /** Injected rules still waiting for requests. */
  get pending(): number {
    return this.rules.reduce((sum, rule) => sum + rule.remaining, 0);
  }

  /** Decides the fate of one request; consumes a rule when one matches. */
  decide(method: string, path: string): FaultDecision | undefined {
    const rule = this.rules.find((candidate) => matches(candidate, method, path));
    if (rule) {
      rule.remaining -= 1;
      this.rules = this.rules.filter((candidate) => candidate.remaining > 0);
      return toDecision(rule.kind, rule);
    }
    if (this.randomMode) {
      const { options, next } = this.randomMode;
      // Always draw twice so one request's fate does not shift the sequence for the next ones.
      const hit = next() < options.rate;
      const kind = options.kinds[Math.floor(next() * options.kinds.length)];
      if (hit) return toDecision(kind, options);
    }
    return undefined;
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) return false;
  if (rule.path === undefined) return true;
  return typeof rule.path === "string" ? path.includes(rule.path) : rule.path.test(path);
}

function toDecision(
  kind: FaultKind,
  settings: { retryAfterSeconds?: number; delayMs?: number },
): FaultDecision {
  return {
    kind,
    retryAfterSeconds: settings.retryAfterSeconds,
    delayMs: settings.delayMs ?? DEFAULT_DELAY_MS,
  };
}
