// The leaves of a changed property that differ: `primary.updb.maxAttempts: 3 => 9` instead of two
// whole `primary` objects, as `pulumi preview --diff` shows them. Secret values are compared by their
// plain value and shown masked; arrays (sets and lists) are one leaf.

import { isSecret, maskSecrets, stripSecrets } from "./secrets";
import { deepEqual } from "./steps";
import type { LeafChange } from "./types";

export function changedLeaves(path: string, before: unknown, after: unknown): LeafChange[] {
  if (deepEqual(stripSecrets(before), stripSecrets(after))) return [];
  if (isPlainObject(before) && isPlainObject(after) && !isSecret(before) && !isSecret(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => changedLeaves(`${path}.${key}`, before[key], after[key]));
  }
  return [{ path, old: shown(before), new: shown(after) }];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Masked, and `null` for an absent value so the JSON report keeps the key. */
export function shown(v: unknown): unknown {
  return v === undefined ? null : maskSecrets(v);
}
