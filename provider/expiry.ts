// Expiry awareness: the warning a program prints at preview and up for an object near (or past) its
// expiry. Computed in the program from the expiry timestamp in the state and the program's clock, so it
// needs no refresh and never changes the state (days left are outputs only, never drift).
import { ProviderError } from "./http/errors";

const DAY_MS = 24 * 60 * 60 * 1000;

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

/** The warning for `label` (e.g. `ClientCertificate "partner-a"`), or undefined when not within the window. */
export function expiryWarning(
  label: string,
  what: string,
  expiresAt: unknown,
  windowDays: number,
  now = Date.now(),
  renewal?: string,
): string | undefined {
  const at = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
  if (Number.isNaN(at) || at - now > windowDays * DAY_MS) return undefined;
  const when = new Date(at).toISOString();
  if (at <= now) {
    const ago = Math.floor((now - at) / DAY_MS);
    const how = renewal ? `; ${renewal}` : "";
    return `${label}: the ${what} expired ${ago === 0 ? "less than a day" : `${ago} day(s)`} ago (${when})${how}`;
  }
  const left = Math.floor((at - now) / DAY_MS);
  const inDays = left === 0 ? "in less than a day" : `in ${left} day(s)`;
  return `${label}: the ${what} expires ${inDays} (${when}; warning window ${windowDays} day(s), frontdoor:expiryWarningDays)`;
}
