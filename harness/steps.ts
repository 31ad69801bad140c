// The engine's step for one registered resource during `up` / `preview`:
// Check, then Create (new), Read+Diff (import), or Diff -> same / Update / Replace.
import { deleteResource } from "./deletes";
import { HostError } from "./host";
import { annotateSecrets, markSecretKeys, stripSecrets } from "./secrets";
import type { Session } from "./session";
import type { StateResource } from "./state";
import type { Op } from "./types";

type Props = Record<string, any>;

/** What the program asked for in RegisterResource. */
export interface Registration {
  urn: string;
  type: string;
  name: string;
  /** Inputs as the program serialized them: secret markers kept, unknowns during preview. */
  inputs: Props;
  dependencies: string[];
  /** Per input property, the resources its value came from (as the program declared them). */
  propertyDependencies: Record<string, string[]>;
  protect: boolean;
  retainOnDelete: boolean;
  deleteBeforeReplace: boolean;
  importId: string;
  ignoreChanges: string[];
  additionalSecretOutputs: string[];
}

export interface StepResult {
  id: string;
  /** Secret keys marked; during preview, values not known yet are left out (the program sees unknowns). */
  outputs: Props;
}

/** `old`: the live resource of this URN in the state (found through the program run's index). */
export async function runStep(s: Session, reg: Registration, old?: StateResource): Promise<StepResult> {
  const host = await s.host();
  const news = old ? applyIgnoreChanges(reg.inputs, old.inputs, reg.ignoreChanges) : reg.inputs;

  const checked = await host.check(reg.urn, old?.inputs ?? {}, news);
  if (checked.failures.length > 0) {
    const lines = checked.failures.map((f) => `  ${f.property || "(resource)"}: ${f.reason}`);
    throw new Error(`check failed for ${reg.name}:\n${lines.join("\n")}`);
  }
  // The host answers without secret markers: the engine puts them back where the program's inputs
  // had them (leaf by leaf inside objects), and marks the resource's additional secret outputs.
  const inputs = annotateSecrets(checked.inputs, news);
  const entry = (id: string, outputs: Props): StateResource => ({
    urn: reg.urn,
    type: reg.type,
    name: reg.name,
    id,
    inputs,
    outputs: markSecretKeys(annotateSecrets(outputs, news), reg.additionalSecretOutputs),
    dependencies: reg.dependencies,
    ...(reg.additionalSecretOutputs.length ? { additionalSecretOutputs: reg.additionalSecretOutputs } : {}),
    ...(reg.protect ? { protect: true } : {}),
    ...(reg.retainOnDelete ? { retainOnDelete: true } : {}),
  });
  // What the step's values came from: lets a reader of the report tie a value not known during
  // preview (the id of an object not created yet) to the resource it will come from.
  const links = {
    ...(reg.dependencies.length ? { dependencies: reg.dependencies } : {}),
    ...(Object.keys(reg.propertyDependencies).length
      ? { propertyDependencies: reg.propertyDependencies }
      : {}),
  };
  const done = (r: StateResource, op: Op, extra = {}): StepResult => {
    if (!s.preview) {
      // The step's resource takes the place of the live old one (unless that now waits for deletion
      // or is deleted), in place: no copy of the whole list for every step.
      const at = old && !old.pendingDelete ? s.state.resources.indexOf(old) : -1;
      if (at >= 0) s.state.resources[at] = r;
      else s.state.resources.push(r);
      s.save();
    }
    s.record(r, op, { ...links, ...extra });
    return { id: r.id, outputs: r.outputs };
  };

  if (!old && reg.importId) {
    const read = await s.operation("importing", entry(reg.importId, {}), () =>
      host.read(reg.urn, reg.importId, inputs, inputs),
    );
    if (!read.id) throw new Error(`import of ${reg.name}: object ${reg.importId} does not exist`);
    const diff = await host.diff(reg.urn, read.id, read.outputs, inputs, read.inputs ?? inputs);
    if (diff.changes) {
      // Leaf paths (`data.scopes`), so a mismatch deep inside an object input is named exactly.
      const props = differingPaths(stripSecrets(inputs), withSecretValuesInPlace(read.outputs));
      throw new Error(
        `import of ${reg.name} (${reg.importId}) would change properties [${props.join(", ")}]: ` +
          "make the program's inputs match the existing object",
      );
    }
    return done(entry(read.id, read.outputs), "import");
  }

  if (!old) return done(await create(s, reg, entry, inputs), "create");

  const diff = await host.diff(reg.urn, old.id, old.outputs, inputs, old.inputs);
  // An object whose create did not finish is updated although nothing changed (Pulumi's step
  // generator does the same for a resource with init errors): the update finishes the work.
  const unfinished = (old.initErrors?.length ?? 0) > 0;
  if (!diff.changes && !unfinished)
    return done({ ...entry(old.id, old.outputs), outputs: old.outputs }, "same");

  if (diff.replaces.length === 0) {
    if (s.preview) return done(entry(old.id, stripSecrets(inputs)), "update");
    try {
      const outputs = await s.operation("updating", { ...old, inputs }, () =>
        host.update(reg.urn, old.id, old.outputs, inputs, old.inputs),
      );
      return done(entry(old.id, outputs), "update");
    } catch (e) {
      // An update that failed half way (init failure): as Pulumi does, the state takes the new inputs
      // and the outputs the provider reported, with the error, so the next `up` finishes the work.
      if (e instanceof HostError && e.created) {
        const at = s.state.resources.indexOf(old);
        const partial = { ...entry(old.id, e.created.outputs), initErrors: [e.message] };
        if (at >= 0) s.state.resources[at] = partial;
        s.save();
      }
      throw e;
    }
  }

  if (old.protect) throw new Error(`resource ${reg.name} is protected and its change needs a replace`);
  const deleteFirst = diff.deleteBeforeReplace || reg.deleteBeforeReplace;
  if (deleteFirst) {
    await deleteResource(s, old);
    return done(await create(s, reg, entry, inputs), "replace", { deleteBeforeReplace: true, oldId: old.id });
  }
  // Create-before-delete: once the new object exists, the old one waits for deletion until the
  // program finished. If the create fails the old object simply stays the live one.
  const created = await create(s, reg, entry, inputs, old);
  if (!s.preview) old.pendingDelete = true;
  return done(created, "replace", { oldId: old.id });
}

async function create(
  s: Session,
  reg: Registration,
  entry: (id: string, outputs: Props) => StateResource,
  inputs: Props,
  replacing?: StateResource,
): Promise<StateResource> {
  if (s.preview) return entry("", stripSecrets(inputs));
  const host = await s.host();
  try {
    const created = await s.operation("creating", entry("", {}), () => host.create(reg.urn, inputs));
    return entry(created.id, created.outputs);
  } catch (e) {
    // The object exists although the create failed (init failure): keep it in state, never orphan it.
    if (e instanceof HostError && e.created) {
      if (replacing) replacing.pendingDelete = true;
      s.state.resources.push({ ...entry(e.created.id, e.created.outputs), initErrors: [e.message] });
      s.save();
    }
    throw e;
  }
}

/** `ignoreChanges`: keep the old input value for these top-level keys. */
function applyIgnoreChanges(news: Props, oldInputs: Props, ignore: string[]): Props {
  const out = { ...news };
  for (const path of ignore) {
    const key = path.split(/[.[]/)[0];
    if (key in oldInputs) out[key] = oldInputs[key];
    else delete out[key];
  }
  return out;
}

/** Top-level keys of `a` whose value differs (deeply) from `b`'s. */
export function differingKeys(a: Props, b: Props): string[] {
  return Object.keys(a).filter((k) => k !== "__provider" && !deepEqual(a[k], b[k]));
}

/** Like differingKeys, but down to the leaves of plain objects: `data.scopes` rather than `data`. */
/**
 * Outputs with the provider's `secretValues` (nested secret leaves kept apart, by dotted path) put back
 * in place, so inputs and outputs compare leaf by leaf.
 */
function withSecretValuesInPlace(outputs: Props): Props {
  const { secretValues, ...rest } = outputs;
  if (!secretValues || typeof secretValues !== "object") return outputs;
  const joined: Props = structuredClone(rest);
  for (const [dotted, value] of Object.entries(secretValues as Props)) {
    const keys = dotted.split(".");
    let at: Props = joined;
    for (const key of keys.slice(0, -1)) {
      if (!isPlainObject(at[key])) at[key] = {};
      at = at[key] as Props;
    }
    at[keys[keys.length - 1]] = value;
  }
  return joined;
}

export function differingPaths(a: Props, b: Props, prefix = ""): string[] {
  return differingKeys(a, b).flatMap((k) => {
    const [x, y] = [a[k], b?.[k]];
    const nested = isPlainObject(x) && isPlainObject(y) ? differingPaths(x, y, `${prefix}${k}.`) : [];
    return nested.length > 0 ? nested : [`${prefix}${k}`];
  });
}

function isPlainObject(v: unknown): v is Props {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as any)[k], (b as any)[k]));
}
