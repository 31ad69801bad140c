// List queries: `limit`/`offset` query parameters and a subset of ZitiQL in `filter`:
//   <field> = | != | contains | in <value>, anyOf(<list field>) | allOf(<list field>) = | != <value>
//   (a list field outside them is refused, as a real controller refuses it), combined with and / or / not and parentheses,
//   the constants true and false, then optional `sort by <field> [asc|desc], ...`,
//   `skip <n>` and `limit <n>`. Values: "strings", numbers, true, false, null, [lists].
// Limit: default 10; above 500 it is clamped to 500 (what we chose for the mock: a client that
// asks for more simply pages); negative or non-numeric values are 400 COULD_NOT_VALIDATE.
import { invalidField } from "./envelope";
import type { BaseRecord, Collection } from "./store";

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 500;

type Value = string | number | boolean | null | Value[];
type Predicate = (record: BaseRecord) => boolean;

function fieldOf(record: BaseRecord, field: string): unknown {
  return (record as unknown as Record<string, unknown>)[field];
}
interface SortKey {
  field: string;
  descending: boolean;
}

interface Token {
  kind: "word" | "string" | "number" | "symbol";
  text: string;
  value?: Value;
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?)|([A-Za-z_][\w.]*)|(!=|<=|>=|[=<>()[\],]))/y;
  let index = 0;
  while (index < input.length) {
    if (/^\s*$/.test(input.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(input);
    if (!match) throw new Error(`unexpected character at ${index}`);
    index = pattern.lastIndex;
    if (match[1] !== undefined) {
      tokens.push({ kind: "string", text: match[1], value: JSON.parse(match[1]) as string });
    } else if (match[2] !== undefined) {
      tokens.push({ kind: "number", text: match[2], value: Number(match[2]) });
    } else if (match[3] !== undefined) {
      tokens.push({ kind: "word", text: match[3] });
    } else {
      tokens.push({ kind: "symbol", text: match[4] });
    }
  }
  return tokens;
}

class Parser {
  private position = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly fields: string[],
  ) {}

  parse(): { predicate: Predicate; sort: SortKey[]; skip?: number; limit?: number } {
    let predicate: Predicate = () => true;
    if (this.peek() && !this.isClauseStart()) predicate = this.or();
    const sort: SortKey[] = [];
    let skip: number | undefined;
    let limit: number | undefined;
    while (this.peek()) {
      const word = this.next().text.toLowerCase();
      if (word === "sort") {
        this.expectWord("by");
        do {
          const field = this.field();
          let descending = false;
          const direction = this.peek()?.text.toLowerCase();
          if (direction === "asc" || direction === "desc") {
            this.next();
            descending = direction === "desc";
          }
          sort.push({ field, descending });
        } while (this.acceptSymbol(","));
      } else if (word === "skip") {
        skip = this.count();
      } else if (word === "limit") {
        limit = this.count();
      } else {
        throw new Error(`unexpected '${word}'`);
      }
    }
    return { predicate, sort, skip, limit };
  }

  private isClauseStart(): boolean {
    const text = this.peek()?.text.toLowerCase();
    return text === "sort" || text === "skip" || text === "limit";
  }

  private or(): Predicate {
    let left = this.and();
    while (this.acceptWord("or")) {
      const a = left;
      const b = this.and();
      left = (r) => a(r) || b(r);
    }
    return left;
  }

  private and(): Predicate {
    let left = this.unary();
    while (this.acceptWord("and")) {
      const a = left;
      const b = this.unary();
      left = (r) => a(r) && b(r);
    }
    return left;
  }

  private unary(): Predicate {
    if (this.acceptWord("not")) {
      const inner = this.unary();
      return (r) => !inner(r);
    }
    if (this.acceptSymbol("(")) {
      const inner = this.or();
      this.expectSymbol(")");
      return inner;
    }
    if (this.acceptWord("true")) return () => true;
    if (this.acceptWord("false")) return () => false;
    return this.comparison();
  }

  private comparison(): Predicate {
    // Set functions, as a real controller has them: anyOf(roleAttributes) = "x", allOf(...) = "x".
    const setFunction = ["anyof", "allof"].find(
      (name) => this.peek()?.text.toLowerCase() === name && this.tokens[this.position + 1]?.text === "(",
    );
    if (setFunction) {
      this.next();
      this.expectSymbol("(");
      const field = this.field();
      this.expectSymbol(")");
      const op = this.next();
      if (op.text !== "=" && op.text !== "!=")
        throw new Error(`unsupported operator '${op.text}' for ${setFunction}(${field})`);
      const expected = this.value();
      const elements = (r: BaseRecord) => {
        const value = fieldOf(r, field);
        return Array.isArray(value) ? value : [];
      };
      const matches = (r: BaseRecord) => {
        const items = elements(r).map((item) => equal(item, expected) === (op.text === "="));
        return setFunction === "anyof" ? items.some(Boolean) : items.length > 0 && items.every(Boolean);
      };
      return matches;
    }
    const field = this.field();
    const op = this.next();
    const operator = op.text.toLowerCase();
    const expected = this.value();
    // A list field outside a set function: refused as a real controller refuses it (INVALID_FILTER there).
    const scalar = (r: BaseRecord) => {
      const value = fieldOf(r, field);
      if (Array.isArray(value))
        throw new SetFieldError(`symbol '${field}' is a set symbol but is used in non-set function context`);
      return value;
    };
    switch (operator) {
      case "=":
        return (r) => equal(scalar(r), expected);
      case "!=":
        return (r) => !equal(scalar(r), expected);
      case "contains":
        return (r) => contains(scalar(r), expected);
      case "in":
        if (!Array.isArray(expected)) throw new Error("'in' needs a list");
        return (r) => expected.some((v) => equal(scalar(r), v));
      default:
        throw new Error(`unsupported operator '${op.text}'`);
    }
  }

  private value(): Value {
    const token = this.next();
    if (token.kind === "string" || token.kind === "number") return token.value as Value;
    if (token.kind === "word") {
      const word = token.text.toLowerCase();
      if (word === "true") return true;
      if (word === "false") return false;
      if (word === "null") return null;
    }
    if (token.text === "[") {
      const list: Value[] = [];
      if (!this.acceptSymbol("]")) {
        do list.push(this.value());
        while (this.acceptSymbol(","));
        this.expectSymbol("]");
      }
      return list;
    }
    throw new Error(`expected a value, got '${token.text}'`);
  }

  private field(): string {
    const token = this.next();
    if (token.kind !== "word") throw new Error(`expected a field, got '${token.text}'`);
    if (!this.fields.includes(token.text)) throw new Error(`unknown field '${token.text}'`);
    return token.text;
  }

  private count(): number {
    const token = this.next();
    if (token.kind !== "number" || !Number.isInteger(token.value) || (token.value as number) < 0) {
      throw new Error(`expected a count, got '${token.text}'`);
    }
    return token.value as number;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private next(): Token {
    const token = this.tokens[this.position++];
    if (!token) throw new Error("unexpected end of filter");
    return token;
  }

  private acceptWord(word: string): boolean {
    const token = this.peek();
    if (token?.kind === "word" && token.text.toLowerCase() === word) {
      this.position++;
      return true;
    }
    return false;
  }

  private acceptSymbol(symbol: string): boolean {
    if (this.peek()?.text === symbol) {
      this.position++;
      return true;
    }
    return false;
  }

  private expectWord(word: string): void {
    if (!this.acceptWord(word)) throw new Error(`expected '${word}'`);
  }

  private expectSymbol(symbol: string): void {
    if (!this.acceptSymbol(symbol)) throw new Error(`expected '${symbol}'`);
  }
}

/** A filter that is only known to be wrong once a record's field turns out to hold a list. */
class SetFieldError extends Error {}

function equal(actual: unknown, expected: Value): boolean {
  if (expected === null) return actual === null || actual === undefined;
  return actual === expected;
}

function contains(actual: unknown, expected: Value): boolean {
  if (typeof actual === "string" && typeof expected === "string") return actual.includes(expected);
  if (Array.isArray(actual)) return actual.includes(expected);
  return false;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  return String(a) < String(b) ? -1 : 1;
}

function parseCount(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw invalidField(name, `${name} must be a non-negative integer`, raw);
  }
  return value;
}

export interface Page<T> {
  items: T[];
  meta: Record<string, unknown>;
}

/** Applies `filter`, sort, `offset` and `limit` to a collection (or to a subset of it). */
export function listQuery<T extends BaseRecord>(
  collection: Collection<T>,
  query: URLSearchParams,
  records: T[] = collection.all(),
): Page<T> {
  const filter = query.get("filter") ?? "";
  let parsed: ReturnType<Parser["parse"]>;
  try {
    parsed = new Parser(tokenize(filter), collection.filterableFields).parse();
  } catch (error) {
    throw invalidField("filter", (error as Error).message, filter);
  }
  const limit = Math.min(parseCount(query, "limit") ?? parsed.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = parseCount(query, "offset") ?? parsed.skip ?? 0;
  const sort = parsed.sort.length > 0 ? parsed.sort : [{ field: "createdAt", descending: false }];
  let matching: T[];
  try {
    matching = records.filter(parsed.predicate);
  } catch (error) {
    if (error instanceof SetFieldError) throw invalidField("filter", error.message, filter);
    throw error;
  }
  const order = matching.map((record, index) => ({ record, index }));
  order.sort((a, b) => {
    for (const key of sort) {
      const c = compare(fieldOf(a.record, key.field), fieldOf(b.record, key.field));
      if (c !== 0) return key.descending ? -c : c;
    }
    return a.index - b.index;
  });
  return {
    items: order.slice(offset, offset + limit).map((entry) => entry.record),
    meta: {
      filterableFields: collection.filterableFields,
      pagination: { limit, offset, totalCount: matching.length },
    },
  };
}
