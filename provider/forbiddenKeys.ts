// Keys that reach an object's prototype, refused in any input: by the provider at check, and by the SDK
// in the program before registration (the transport may drop them on the way). Its own module, free of
// the validation library, because the program loads it.

export interface CheckFailure {
  property: string;
  reason: string;
}

/**
 * Map keys that reach an object's prototype are refused rather than dropped: zod's records drop
 * `__proto__` silently, and protobuf's Struct conversion in the host turns an object under that key
 * into the prototype (which shows here as a prototype other than Object's).
 */
const FORBIDDEN_KEYS = ["__proto__", "constructor"];

export function forbiddenKeyFailures(value: unknown, path: string[] = []): CheckFailure[] {
  const failures: CheckFailure[] = [];
  collectForbiddenKeys(value, [...path], failures);
  return failures;
}

/** The walk of forbiddenKeyFailures: `path` is one array, pushed and popped (check runs per resource). */
function collectForbiddenKeys(value: unknown, path: string[], failures: CheckFailure[]): void {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(String(i));
      collectForbiddenKeys(value[i], path, failures);
      path.pop();
    }
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null)
    failures.push({
      property: [...path, "__proto__"].join("."),
      reason: 'the key "__proto__" is not allowed',
    });
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.includes(key))
      failures.push({ property: [...path, key].join("."), reason: `the key "${key}" is not allowed` });
    else {
      path.push(key);
      collectForbiddenKeys((value as Record<string, unknown>)[key], path, failures);
      path.pop();
    }
  }
}
