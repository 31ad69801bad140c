// Every secret the provider handles (credentials from config, secret inputs and outputs) is registered
// here, and every message that leaves the provider (errors, debug output) passes through `redact`.
// This is defence in depth: messages are built without secrets in the first place, but a server may
// echo a value back (e.g. a validation error quoting the rejected field, or a token in a URL path).
// A secret is masked in the forms it travels in too: percent-encoded (URL paths and queries, forms),
// JSON-escaped (echoed bodies) and base64 (standard and URL-safe, at any byte alignment, so also
// inside a longer encoded value such as a Basic credential `user:secret`).

const secrets = new Set<string>();
/** The values registered so far: check registers every secret input on every run, mostly again. */
const registered = new Set<string>();
/**
 * `secrets`, longest first (so a secret that contains another one is masked whole); sorted when a
 * message is redacted after a change, not at each registration (thousands of secrets in one `up`).
 */
let longestFirst: string[] | undefined = [];
const MIN_LENGTH = 4; // shorter strings would mask ordinary words; no real secret is that short
/** Base64 fragments shorter than this could match by chance in ordinary text. */
const MIN_BASE64_FRAGMENT = 8;

export function registerSecret(value: unknown): void {
  if (typeof value !== "string" || value.length < MIN_LENGTH || registered.has(value)) return;
  registered.add(value);
  const before = secrets.size;
  for (const form of encodedForms(value)) if (form.length >= MIN_LENGTH) secrets.add(form);
  if (secrets.size !== before) longestFirst = undefined;
}

/** The secret itself and the ways it is written when encoded. */
export function encodedForms(secret: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ]);
  // Lower-case percent escapes mean the same and some servers echo them so.
  for (const form of [...forms]) forms.add(form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  for (const fragment of base64Fragments(secret)) {
    forms.add(fragment);
    forms.add(fragment.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...forms];
}

/**
 * The part of the base64 text of `secret` that depends on its bytes alone, for each of the three byte
 * offsets at which it may start inside a longer value: characters mixing in a neighbouring byte differ
 * from value to value, so they are left out.
 */
function base64Fragments(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const fragments: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const start = offset === 0 ? 0 : 4;
    const end = Math.floor((offset + bytes.length) / 3) * 4;
    const fragment = encoded.slice(start, end);
    if (fragment.length >= MIN_BASE64_FRAGMENT) fragments.push(fragment);
  }
  // Encoded from the start, the whole text (padding included) is the secret's own.
  fragments.push(bytes.toString("base64"));
  return fragments;
}

export function redact(text: string): string {
  longestFirst ??= [...secrets].sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of longestFirst) {
    if (out.includes(secret)) out = out.split(secret).join("[secret]");
  }
  return out;
}
