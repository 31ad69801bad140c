// Debug output of the provider: off unless FRONTDOOR_DEBUG is set (or config `frontdoor:debug` is true).
// It goes to stderr, which Pulumi shows with `--debug` / `-v`; every line is redacted.
import { redact } from "./redact";

let enabled = /^(1|true|yes)$/i.test(process.env.FRONTDOOR_DEBUG ?? "");

export function setDebug(on: boolean): void {
  enabled = enabled || on;
}

/** Sets debug output exactly as given: a test that switched it on restores the setting it found. */
export function restoreDebug(on: boolean): void {
  enabled = on;
}

/** Always shown (stderr of the provider host): something the user should act on that does not stop the run. */
export function warn(message: string): void {
  process.stderr.write(`[frontdoor] warning: ${redact(message)}\n`);
}

/** Whether debug output is on: hot paths ask first, so no message is formatted for nothing. */
export function debugging(): boolean {
  return enabled;
}

export function debug(message: string): void {
  if (enabled) process.stderr.write(`[frontdoor] ${redact(message)}\n`);
}
