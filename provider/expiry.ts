// Expiry awareness: the warning a program prints at preview and up for an object near (or past) its
// expiry. Computed in the program from the expiry timestamp in the state and the program's clock, so it
// needs no refresh and never changes the state (days left are outputs only, never drift).
//
// Two rules (docs/guides/expiry-warnings.md):
// - Long-lived objects (certificates, certificate request tokens) warn within a window of days before
//   their expiry, `frontdoor:expiryWarningDays` or the kind's default: someone has to renew them.
// - Enrollments (identities, edge routers) are short-lived by design (180 minutes by default) and are
//   fresh when issued: one warns only in its last `warningMinutes`, still unused, and never in the run
//   that issued it (where the state says when it was issued). A warning that every new object gave at
//   creation and on every preview would teach people to ignore warnings.
import { ProviderError } from "./http/errors";

const MINUTE_MS = 60 * 1000;

/**
 * Enrollments warn in their last hour: a third of the controller's default lifetime (180 minutes), so a
 * fresh one never does, and whoever runs the preview still has time to hand the JWT over or re-issue it.
 */
export const ENROLLMENT_WARNING_MINUTES = 60;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** How a kind warns: the resource definition's `expiry` (provider/resource.ts). */
export interface ExpiryRule {
  what: string;
  warningDays?: number;
  warningMinutes?: number;
  renewal?: string;
}

/** The window in days: frontdoor:expiryWarningDays when set, else the kind's default. */
export function warningWindowDays(setting: string | undefined, kindDefault: number): number {
  if (setting === undefined || setting === "") return kindDefault;
  const days = Number(setting);
  if (!Number.isFinite(days) || days < 0) {
    throw new ProviderError(
      `frontdoor:expiryWarningDays must be a non-negative number of days, got "${setting}"`,
    );
  }
  return days;
}

/** What an object's state says about its expiry, and when the run judging it started. */
export interface ExpiryFacts {
  /** e.g. `ClientCertificate "partner-a"`. */
  label: string;
  expiresAt: unknown;
  /** When it was issued, where the state has it (an edge router's `enrollmentCreatedAt`). */
  issuedAt?: unknown;
  /** frontdoor:expiryWarningDays (days rules only). */
  setting?: string;
  /** When this program run started: an enrollment issued since then is this run's own. */
  runStartedAt: number;
  now: number;
}

/** The warning for the object, or undefined when there is nothing to act on (yet). */
export function expiryWarning(rule: ExpiryRule, facts: ExpiryFacts): string | undefined {
  const at = parseTime(facts.expiresAt);
  if (Number.isNaN(at)) return undefined;
  const { label, now } = facts;
  const when = new Date(at).toISOString();
  if (rule.warningMinutes !== undefined) {
    // Issued by this run (the controller's clock may be a little behind the program's: a minute).
    if (parseTime(facts.issuedAt) >= facts.runStartedAt - MINUTE_MS) return undefined;
    if (at - now > rule.warningMinutes * MINUTE_MS) return undefined;
    if (at <= now) return expired(label, rule, at, now);
    const left = Math.max(1, Math.floor((at - now) / MINUTE_MS));
    const act = rule.renewal ? `enroll it before then, or ${rule.renewal}` : "enroll it before then";
    return `${label}: the ${rule.what} expires in ${left} minute(s), unused (${when}; warning window: its last ${rule.warningMinutes} minutes); ${act}`;
  }
  const windowDays = warningWindowDays(facts.setting, rule.warningDays ?? 0);
  if (at - now > windowDays * DAY_MS) return undefined;
  if (at <= now) return expired(label, rule, at, now);
  const left = Math.floor((at - now) / DAY_MS);
  const inDays = left === 0 ? "in less than a day" : `in ${left} day(s)`;
  return `${label}: the ${rule.what} expires ${inDays} (${when}; warning window ${windowDays} day(s), frontdoor:expiryWarningDays)`;
}

function expired(label: string, rule: ExpiryRule, at: number, now: number): string {
  const ago = Math.floor((now - at) / DAY_MS);
  const how = rule.renewal ? `; ${rule.renewal}` : "";
  return `${label}: the ${rule.what} expired ${ago === 0 ? "less than a day" : `${ago} day(s)`} ago (${new Date(at).toISOString()})${how}`;
}

function parseTime(value: unknown): number {
  return typeof value === "string" ? Date.parse(value) : Number.NaN;
}
