// Text that the generators write from data they do not control (a controller's answers, a Terraform or
// Pulumi state): every piece is a literal built by a serializer, a comment no character can end, an
// identifier made valid and unique here, or a shell word in single quotes. Never raw text pasted into
// code: an id such as `x" }); require("fs")...` must stay the string it is.

/** A JavaScript/TypeScript string literal: JSON's, plus the two line terminators JSON leaves raw. */
export function jsString(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Characters shown as escapes in comments and in lines for a terminal: control characters (CR, LF,
 * ESC of ANSI sequences, NUL, ...), the line and paragraph separators (both end a `//` comment), other
 * invisible format characters, and lone surrogates (no character at all).
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/gu;

/** `text` with every unprintable character as `\u{...}`, and backslashes doubled so that it reads back. */
export function printable(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(UNPRINTABLE, (c) => `\\u{${c.codePointAt(0)!.toString(16).padStart(4, "0")}}`);
}

/** A `//` comment of `text`: no character of the text can end it (see `printable`). */
export function jsComment(text: string): string {
  return `// ${printable(text)}`;
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A word for a POSIX shell: single quotes, a quote inside as `'\''`. Everything else (newlines, `$`,
 * backticks) stands for itself between single quotes. NUL and lone surrogates cannot be in an argument:
 * refused.
 */
export function shellWord(value: string): string {
  if (value.includes("\0"))
    throw new Error(`${printable(value)}: a NUL character cannot be passed to a command`);
  if (LONE_SURROGATE.test(value))
    throw new Error(
      `${printable(value)}: a lone surrogate is no character and cannot be passed to a command`,
    );
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/**
 * A string in HCL's quoted syntax, as Terraform writes an instance key in an address
 * (`ziti_identity.team["a\"b"]`): `\\`, `\"`, `\n`, `\r`, `\t`, other unprintable characters as
 * `\uNNNN`/`\UNNNNNNNN`, and the template introducers `${` and `%{` doubled (`$${`, `%%{`).
 */
export function hclString(value: string): string {
  let out = '"';
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\") out += "\\\\";
    else if (c === '"') out += '\\"';
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if ((c === "$" || c === "%") && chars[i + 1] === "{") out += c + c;
    else out += unprintable(c) ? unicodeEscape(c) : c;
  }
  return `${out}"`;
}

/** Not printable in Go's sense (unicode.IsPrint): other than letters, marks, numbers, punctuation, symbols, ASCII space. */
const unprintable = (c: string) => c !== " " && /^[\p{C}\p{Z}]$/u.test(c);

/** `\uNNNN`, or `\UNNNNNNNN` beyond the first plane: the escape both Go and HCL read. */
function unicodeEscape(c: string): string {
  const code = c.codePointAt(0)!;
  return code < 0x10000
    ? `\\u${code.toString(16).padStart(4, "0")}`
    : `\\U${code.toString(16).padStart(8, "0")}`;
}

/**
 * A Go interpreted string literal, as strconv.Quote writes it: `\\`, `\"`, `\n`, `\r`, `\t`, and every
 * other unprintable character (a BOM, which Go refuses inside a file, too) as `\uNNNN`/`\UNNNNNNNN`.
 * A lone surrogate is no character and has no UTF-8: refused.
 */
export function goString(value: string): string {
  let out = '"';
  for (const c of value) {
    const code = c.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      throw new Error(`${printable(value)}: a lone surrogate has no Go form`);
    if (c === "\\") out += "\\\\";
    else if (c === '"') out += '\\"';
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else out += unprintable(c) ? unicodeEscape(c) : c;
  }
  return `${out}"`;
}

/**
 * Words an identifier of a generated TypeScript module may not be: reserved words (strict mode and
 * modules), names TypeScript reserves in a CommonJS module, and the program's own variables.
 */
const TS_TAKEN = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with implements interface let package private protected public static yield await arguments eval " +
    "undefined NaN Infinity globalThis require exports module process console global pulumi frontdoor config"
  ).split(" "),
);

/**
 * Unique, valid identifiers for arbitrary names, in time linear in their number: camelCase of the
 * name's letters and digits (`legacy--web` is `legacyWeb`), `_` first when it would start with a digit
 * or be a reserved word, and `_2`, `_3`, ... for a name already given.
 */
export class Identifiers {
  private readonly given = new Set<string>();
  private readonly next = new Map<string, number>();

  constructor(private readonly taken: Set<string> = TS_TAKEN) {}

  /** A new identifier for `name` (each call gives a different one). */
  of(name: string): string {
    const base = identifierBase(name, this.taken);
    let candidate = base;
    let n = this.next.get(base) ?? 2;
    while (this.given.has(candidate)) candidate = `${base}_${n++}`;
    this.next.set(base, n);
    this.given.add(candidate);
    return candidate;
  }
}

/** camelCase of the ASCII letters and digits of `name`, valid as an identifier and not in `taken`. */
export function identifierBase(name: string, taken: Set<string> = TS_TAKEN): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join("");
  if (!camel) return "_";
  return /^[0-9]/.test(camel) || taken.has(camel) ? `_${camel}` : camel;
}

/**
 * Unique Pulumi resource names (lowercase, `-` for the rest, `<name>-2`, ... for a name given
 * already), in time linear in their number.
 */
export class ResourceNames {
  private readonly given = new Set<string>();
  private readonly next = new Map<string, number>();

  of(base: string): string {
    const slug =
      base
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, "-")
        .replace(/^-+|-+$/g, "") || "object";
    let name = slug;
    let n = this.next.get(slug) ?? 2;
    while (this.given.has(name)) name = `${slug}-${n++}`;
    this.next.set(slug, n);
    this.given.add(name);
    return name;
  }
}

/** `obj[key] = value` as an own property, even for `__proto__` (which an assignment would not create). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `table[key]` only when `key` is the table's own (never `constructor`, `toString`, ... of Object). */
export function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
