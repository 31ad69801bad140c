// The state files the import tool reads (a Terraform state, `pulumi stack export` output) and the
// objects a controller answers are input it does not control: a wrong type, a null where an object
// belongs, a value nested thousands deep is refused here, naming the place
// (`resources[3].instances[0].attributes.tags`), before anything is generated from it. Every check is
// one pass over the document without recursion, so a huge or deep document costs time linear in its
// size and never overflows the stack.
import { printable } from "./codeText";

/** Deeper values are refused: Terraform's and the APIs' own values are a few levels deep. */
export const MAX_DEPTH = 64;

/** A file larger than this is refused before it is read (a state of 100,000 objects is ~100 MB). */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** Input that is not what it claims to be; the message names the place. */
export class InputError extends Error {}

/** `at` followed by one step: `.name` for a plain key, `["a b"]` for any other, `[3]` for an index. */
export function step(at: string, key: string | number): string {
  if (typeof key === "number") return `${at}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (at ? `${at}.${key}` : key) : `${at}[${JSON.stringify(key)}]`;
}

/** What a JSON value is, for messages. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function refuse(at: string, message: string): never {
  throw new InputError(`${printable(at || "(the document)")}: ${message}`);
}

/**
 * Refuses `value` where it is nested deeper than MAX_DEPTH or holds anything but JSON data (strings,
 * finite numbers, booleans, null, arrays, plain objects). Iterative: the walk keeps its own stack.
 */
export function checkJsonData(value: unknown, at: string): void {
  interface Frame {
    value: unknown;
    depth: number;
    parent?: Frame;
    key?: string | number;
  }
  const where = (frame: Frame): string => {
    const keys: (string | number)[] = [];
    for (let f: Frame | undefined = frame; f?.parent; f = f.parent) keys.push(f.key!);
    return keys.reverse().reduce<string>((path, key) => step(path, key), at);
  };
  const stack: Frame[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) refuse(where(frame), `not a finite number (${v})`);
      continue;
    }
    if (typeof v !== "object") refuse(where(frame), `not JSON data (${typeof v})`);
    if (frame.depth >= MAX_DEPTH) refuse(where(frame), `nested deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++)
        stack.push({ value: v[i], depth: frame.depth + 1, parent: frame, key: i });
      continue;
    }
    const prototype = Object.getPrototypeOf(v);
    if (prototype !== Object.prototype && prototype !== null) refuse(where(frame), "not a plain object");
    for (const key of Object.keys(v))
      stack.push({ value: (v as Record<string, unknown>)[key], depth: frame.depth + 1, parent: frame, key });
  }
}

/** Checks the type of `object[key]` (absent allowed when `optional`), naming `at.key` if wrong. */
export function field(
  object: Record<string, unknown>,
  key: string,
  at: string,
  type: "string" | "number" | "object" | "array" | "string|number",
  optional = true,
): void {
  const v = Object.hasOwn(object, key) ? object[key] : undefined;
  if (v === undefined && optional) return;
  const ok =
    type === "object"
      ? isObject(v)
      : type === "array"
        ? Array.isArray(v)
        : type === "string|number"
          ? typeof v === "string" || typeof v === "number"
          : typeof v === type;
  if (!ok)
    refuse(
      step(at, key),
      `expected ${type === "string|number" ? "a string or a number" : type === "array" ? "an array" : type === "object" ? "an object" : `a ${type}`}, found ${kindOf(v)}`,
    );
}
