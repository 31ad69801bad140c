// Secret values, the way Pulumi's RPC layer marks them: `{[SIG_KEY]: SECRET_SIG, value}`.
// In memory the harness keeps secrets in this marked form; the state file replaces `value` with
// `ciphertext` (see crypto.ts), and printed output shows MASK.

export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const MASK = "[secret]";

export function isSecret(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as any)[SIG_KEY] === SECRET_SIG;
}

export function makeSecret(value: unknown): unknown {
  return isSecret(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}

/** Deep copy without secret markers: what the host (acceptSecrets=false) must receive. */
export function stripSecrets(v: unknown): any {
  return copyWith(v, (x) => (isSecret(x) ? { value: stripSecrets(x.value) } : undefined));
}

/**
 * A deep copy of plain data (arrays, objects, leaves) in which `replace` may answer for any value
 * (`{value}`); where it answers undefined the copy goes on as it is.
 */
function copyWith(v: unknown, replace: (v: unknown) => { value: unknown } | undefined): any {
  const replaced = replace(v);
  if (replaced) return replaced.value;
  if (Array.isArray(v)) return v.map((x) => copyWith(x, replace));
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = copyWith(x, replace);
    return out;
  }
  return v;
}

export function containsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (typeof v === "object" && v !== null) return Object.values(v).some(containsSecret);
  return false;
}

/**
 * Secretness copied from `ins` to `outs` as the engine does for a provider that does not accept
 * secrets (pkg/resource/plugin's annotateSecrets): where both values are objects it recurses, so a
 * secret leaf marks only that leaf; otherwise an output whose input holds a secret is secret whole.
 */
export function annotateSecrets(
  outs: Record<string, unknown>,
  ins: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...outs };
  for (const [key, inValue] of Object.entries(ins)) {
    if (!(key in out)) continue;
    const outValue = out[key];
    if (isObject(outValue) && isObject(inValue)) out[key] = annotateSecrets(outValue, inValue);
    else if (!isSecret(outValue) && containsSecret(inValue)) out[key] = makeSecret(outValue);
  }
  return out;
}

/** A plain object that is not a secret (or unknown) marker. */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !isSecret(v);
}

/** Marks the given top-level keys secret, as the engine does with host outputs. */
export function markSecretKeys(
  props: Record<string, unknown>,
  keys: Iterable<string>,
): Record<string, unknown> {
  const out = { ...props };
  for (const k of keys) if (k in out) out[k] = makeSecret(out[k]);
  return out;
}

/** Copy for printing: secrets become MASK, unknowns stay visible as "[unknown]". */
export function maskSecrets(v: unknown): any {
  return copyWith(v, (x) =>
    isSecret(x) ? { value: MASK } : x === UNKNOWN ? { value: "[unknown]" } : undefined,
  );
}

/** Applies `fn` to every secret's plain value (used to encrypt / decrypt the state file). */
export function mapSecrets(v: unknown, fn: (secret: Record<string, unknown>) => unknown): any {
  return copyWith(v, (x) =>
    typeof x === "object" && x !== null && (x as any)[SIG_KEY] === SECRET_SIG
      ? { value: fn(x as any) }
      : undefined,
  );
}
