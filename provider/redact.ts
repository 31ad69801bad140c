// Every secret the provider handles (credentials from config, secret inputs and outputs) is registered
// here, and every message that leaves the provider (errors, debug output) passes through `redact`.
// This is defence in depth: messages are built without secrets in the first place, but a server may
// echo a value back (e.g. a validation error quoting the rejected field, or a token in a URL path).

const secrets = new Set<string>();
const MIN_LENGTH = 4; // shorter strings would mask ordinary words; no real secret is that short

export function registerSecret(value: unknown): void {
  if (typeof value === "string" && value.length >= MIN_LENGTH) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  // Longest first, so a secret that contains another one is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join("[secret]");
  }
  return out;
}
