// Secret leaves of nested inputs (an OIDC provider's `data.client_secret`) live in the state in a
// property of their own, `secretValues` (marked secret as a whole), instead of inside their parent.
// Pulumi marks secrets per top-level output property: were `data` secret as a whole, a change of its
// non-secret `issuer` would show in `pulumi preview --diff` and refresh as `data: [secret]` and never by
// name. Kept apart, `data` is shown leaf by leaf and the secret stays a secret, also on import, where no
// earlier state tells the engine which leaves were secret. The provider puts the leaves back before it
// compares or sends anything, so diffs and updates see the object as the API does.
import { omit, type Props, type ResourceDefinition } from "./resource";
import { secretPaths } from "./shape";

export const SECRET_VALUES = "secretValues";

/** A nested secret leaf: its dotted path and the keys leading to it. */
interface SecretLeaf {
  path: string;
  keys: string[];
}

/** Per schema: every create, read, update and delete converts the state, the schema never changes. */
const leavesCache = new WeakMap<object, SecretLeaf[]>();

/** Secret inputs below the top level (top-level secrets are secret outputs already). */
function nestedSecretLeaves(def: ResourceDefinition): SecretLeaf[] {
  let leaves = leavesCache.get(def.inputs);
  if (!leaves) {
    leaves = secretPaths(def.inputs)
      .filter((path) => path.includes("."))
      .map((path) => ({ path, keys: path.split(".") }));
    leavesCache.set(def.inputs, leaves);
  }
  return leaves;
}

/**
 * Outputs as stored: each nested secret leaf moved from its place into `secretValues[path]`. A new
 * object; of `outs`, only the objects on a leaf's path are copied (the rest is shared: `outs` is
 * the plain data of an answer, owned by no one else).
 */
export function separateSecretValues(def: ResourceDefinition, outs: Props): Props {
  const leaves = nestedSecretLeaves(def);
  if (leaves.length === 0) return outs;
  const state: Props = { ...outs };
  const secrets: Record<string, unknown> = {};
  for (const { path, keys } of leaves) {
    const value = getAt(state, keys);
    if (value === undefined) continue;
    secrets[path] = value;
    state[keys[0]] = withoutAt(state[keys[0]] as Props, keys, 1);
  }
  state[SECRET_VALUES] = secrets;
  return state;
}

/**
 * State as the provider works with it: `secretValues` put back in place (the inverse of the above),
 * and the keys in `drop` left out, in one copy (the engine drops `__provider` at the same time).
 */
export function joinSecretValues(def: ResourceDefinition, state: Props, drop?: string): Props {
  const joined: Props = {};
  for (const key of Object.keys(state)) if (key !== SECRET_VALUES && key !== drop) joined[key] = state[key];
  const secrets = state[SECRET_VALUES];
  if (secrets === undefined || secrets === null || typeof secrets !== "object") {
    // Not separated (no nested secrets, or older state): secretValues, if any, is not ours to join.
    if (SECRET_VALUES in state) joined[SECRET_VALUES] = secrets;
    return joined;
  }
  // Only leaves the schema declares go back, and only into an object that is there.
  for (const { path, keys } of nestedSecretLeaves(def)) {
    if (!Object.hasOwn(secrets, path)) continue;
    const value = (secrets as Record<string, unknown>)[path];
    const parent = getAt(joined, keys, keys.length - 1);
    if (parent === null || typeof parent !== "object" || Array.isArray(parent)) continue;
    joined[keys[0]] = withAt(joined[keys[0]] as Props, keys, value, 1);
  }
  return joined;
}

/** The value at `keys` (its first `length` keys: a leaf's parent without a sliced copy of the path). */
function getAt(value: unknown, keys: string[], length = keys.length): unknown {
  let current = value;
  for (let i = 0; i < length; i++) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[keys[i]];
  }
  return current;
}

function withoutAt(value: Props, keys: string[], depth = 0): Props {
  const key = keys[depth];
  if (depth === keys.length - 1) return omit(value, key);
  const child = value[key];
  if (child === null || typeof child !== "object" || Array.isArray(child)) return value;
  const copy = { ...value };
  copy[key] = withoutAt(child as Props, keys, depth + 1);
  return copy;
}

function withAt(value: Props, keys: string[], leaf: unknown, depth = 0): Props {
  const key = keys[depth];
  const copy = { ...value };
  copy[key] = depth === keys.length - 1 ? leaf : withAt((value[key] ?? {}) as Props, keys, leaf, depth + 1);
  return copy;
}
