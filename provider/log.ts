// What the provider tells the user. Debug output is off unless FRONTDOOR_DEBUG is set (or config
// `frontdoor:debug` is true); it goes to stderr, which Pulumi shows with `--debug` / `-v`. Warnings and
// progress lines go to the host's log: by default stderr, which the CLI shows for the dynamic-provider
// host (and the harness prints its warning and progress lines); the plugin's stderr is hidden by the
// CLI unless debugging, so the plugin gives its own sink, the engine's Log service (plugin/engineLog.ts).
// Every line is redacted.
import { redact } from "./redact";

let enabled = /^(1|true|yes)$/i.test(process.env.FRONTDOOR_DEBUG ?? "");

export function setDebug(on: boolean): void {
  enabled = enabled || on;
}

/** Sets debug output exactly as given: a test that switched it on restores the setting it found. */
export function restoreDebug(on: boolean): void {
  enabled = on;
}

/** Where warnings and progress lines go; `line` is the whole line as stderr shows it. */
export type LogSink = (severity: "info" | "warning", message: string, line: string) => void;

const stderrSink: LogSink = (_severity, _message, line) => {
  process.stderr.write(`${line}\n`);
};
let sink: LogSink = stderrSink;

/** The host's log (the plugin: the engine's); undefined puts stderr back. */
export function setLogSink(next: LogSink | undefined): void {
  sink = next ?? stderrSink;
}

/** Always shown: something the user should act on that does not stop the run. */
export function warn(message: string): void {
  const text = redact(message);
  sink("warning", text, `[frontdoor] warning: ${text}`);
}

/** At most one progress line in this long, in the whole process: waits of many requests at once stay readable. */
export const PROGRESS_INTERVAL_MS = 5_000;
let lastProgressAt = Number.NEGATIVE_INFINITY;

/**
 * A line about a long wait (retries of 429/503, an election, Retry-After), so a run that waits is not
 * silent. Returns whether it was shown (not within PROGRESS_INTERVAL_MS of the last one).
 */
export function progress(message: string, now = Date.now()): boolean {
  if (now - lastProgressAt < PROGRESS_INTERVAL_MS) return false;
  lastProgressAt = now;
  const text = redact(message);
  sink("info", text, `[frontdoor] waiting: ${text}`);
  return true;
}

/** Forgets the last progress line (tests that each expect one). */
export function resetProgress(): void {
  lastProgressAt = Number.NEGATIVE_INFINITY;
}

/** Whether debug output is on: hot paths ask first, so no message is formatted for nothing. */
export function debugging(): boolean {
  return enabled;
}

export function debug(message: string): void {
  if (enabled) process.stderr.write(`[frontdoor] ${redact(message)}\n`);
}
