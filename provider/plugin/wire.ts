// Property values on the wire between the Pulumi engine and the plugin: a protobuf Struct in which a
// secret is an object `{<SECRET_SIG>: <SECRET_VALUE>, value}` (the plugin accepts secrets) and an
// unknown value (preview) is the string UNKNOWN. The engine code works on plain data, with UNKNOWN kept
// as it is (check and diff understand it, as in the dynamic host); the secrets are taken out on the way
// in, remembered by path, and put back on the way out, so that no secret leaves the plugin unmarked.
import type { Props } from "../resource";

/** The signature key of special values, and its value for secrets (Pulumi's rpc protocol). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A path into a value: object keys and array indexes. */
export type Path = (string | number)[];

export function isSecretValue(value: unknown): value is { value?: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

export function secretValue(value: unknown): Props {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** Plain values, and the path of every secret found (secrets inside secrets count once, at the outer one). */
export function unwrapSecrets(
  value: unknown,
  path: Path = [],
  found: Path[] = [],
): { value: unknown; secrets: Path[] } {
  return { value: unwrap(value, path, found), secrets: found };
}

function unwrap(value: unknown, path: Path, found: Path[]): unknown {
  if (isSecretValue(value)) {
    found.push(path);
    return unwrap(value.value, path, []);
  }
  if (Array.isArray(value)) return value.map((item, i) => unwrap(item, [...path, i], found));
  if (value !== null && typeof value === "object") {
    const out: Props = {};
    for (const [key, item] of Object.entries(value)) out[key] = unwrap(item, [...path, key], found);
    return out;
  }
  return value;
}

/**
 * `value` with the values at `paths` wrapped as secrets (paths that are not there are skipped), and
 * undefined values dropped (the Struct conversion refuses them). A name met at an array applies to each
 * of its elements; an index to one.
 */
export function wrapSecrets(value: Props, paths: Path[]): Props {
  let out: unknown = dropUndefined(value);
  for (const path of paths) out = wrapAt(out, path, 0);
  return out as Props;
}

function wrapAt(value: unknown, path: Path, depth: number): unknown {
  if (value === undefined || value === null || isSecretValue(value)) return value;
  if (depth === path.length) return secretValue(value);
  const key = path[depth];
  if (Array.isArray(value)) {
    // Schema paths step over arrays (as valuesAt does): a name applies to every element.
    if (typeof key === "string") return value.map((item) => wrapAt(item, path, depth));
    if (key >= value.length) return value;
    const copy = [...value];
    copy[key] = wrapAt(value[key], path, depth + 1);
    return copy;
  }
  if (typeof value !== "object" || typeof key !== "string" || !Object.hasOwn(value, key)) return value;
  return { ...(value as Props), [key]: wrapAt((value as Props)[key], path, depth + 1) };
}

function dropUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : dropUndefined(item)));
  if (value !== null && typeof value === "object") {
    const out: Props = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = dropUndefined(item);
    return out;
  }
  return value;
}

/** Dotted schema paths (`data.client_secret`, arrays stepped over) as wire paths. */
export function schemaPaths(dotted: string[]): Path[] {
  return dotted.map((path) => path.split("."));
}
