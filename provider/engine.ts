// What runs inside Pulumi's dynamic-provider host: the provider methods of every resource kind, over
// one process-wide set of settings and API clients (one connection pool and one Edge session per host
// process). The serialized provider (see dynamic.ts) only holds `require` of this module and a kind.
import {
  flagSetting,
  missingSettingProblems,
  type RawSettings,
  readSettings,
  retryPolicy,
  type SettingProblem,
  settingProblems,
  unknownSettingProblems,
} from "./config";
import { EdgeClient } from "./http/edge";
import { ApiError, PartialFailureError, ProviderError } from "./http/errors";
import { FrontdoorClient } from "./http/frontdoor";
import { backoffDelay, sleep } from "./http/retry";
import { debug, setDebug, warn } from "./log";
import { proofFailure, proveAccess } from "./preflight";
import { redact } from "./redact";
import {
  type CheckFailure,
  checkInputs,
  diffInputs,
  omit,
  type Props,
  type ResourceContext,
  type ResourceDefinition,
  toPlainData,
  withDefaults,
} from "./resource";
import { resourceDefinition } from "./resources";
import { importIdOf, unsafeIdReason } from "./resources/common";
import { isHeld, markHeld, partialFailure, releaseHeld } from "./resources/operations";
import { joinSecretValues, separateSecretValues } from "./secretValues";

const PROVIDER_KEY = "__provider";

let settings: RawSettings | undefined;
let clients: { frontdoor?: FrontdoorClient; edge?: EdgeClient } = {};

/** The subset of the host's Config object that configure uses. */
export interface HostConfig {
  get(key: string): string | undefined;
  /** The dynamic host's Config: every stack config key (`frontdoor:apiUrl`, `proj:x`) and its value. */
  rawConfig?: Record<string, unknown>;
  /** Settings given but not known yet (an explicit provider fed by another resource, in preview). */
  pending?: string[];
}

/** What configure was given beyond the values: the unknown `frontdoor:` keys and the pending settings. */
let configured: { unknown: SettingProblem[]; pending: Set<string> } = { unknown: [], pending: new Set() };

export async function configure(config: HostConfig): Promise<void> {
  const keys = Object.keys(config.rawConfig ?? {}).filter((key) => key.startsWith("frontdoor:"));
  configured = {
    unknown: unknownSettingProblems(keys.map((key) => key.slice("frontdoor:".length))),
    pending: new Set(config.pending ?? []),
  };
  const next = readSettings((key) => config.get(key));
  setDebug(flagSetting(next, "debug"));
  // The host configures each kind's provider separately, with the same stack config: keep the
  // clients (one connection pool, one Edge session per process) unless the settings really changed.
  if (JSON.stringify(next) !== JSON.stringify(settings)) clients = {};
  settings = next;
}

/** Settings from configure, or (outside the host, e.g. SDK functions) from the environment alone. */
export function currentSettings(): RawSettings {
  settings ??= readSettings(() => undefined);
  return settings;
}

export function context(): ResourceContext {
  const current = currentSettings();
  return {
    settings: current,
    frontdoor: () => {
      clients.frontdoor ??= new FrontdoorClient(current);
      return clients.frontdoor;
    },
    edge: () => {
      clients.edge ??= new EdgeClient(current);
      return clients.edge;
    },
  };
}

export async function check(kind: string, olds: Props, news: Props) {
  const def = resourceDefinition(kind);
  // One copy of the program's inputs (without __provider), edited in place from here on: check runs
  // for every resource of every up, and each copy showed in the CRUD profile.
  const given = applyScopeDefaults(def, omit(news, PROVIDER_KEY), true);
  const { inputs, failures } = checkInputs(def, given, fromState(def, olds ?? {}));
  // Either check's new object or `given`: both this call's own objects.
  inputs[PROVIDER_KEY] = news[PROVIDER_KEY];
  const settingFailures = settingCheckFailures(def);
  return {
    inputs,
    failures: settingFailures.length ? [...settingFailures, ...failures] : failures,
  };
}

/**
 * The hosts' check (the dynamic host's and the plugin's): `check`, then, when the inputs and settings
 * are valid, the proof that the credentials work (preflight.ts, once per process) before anything is
 * planned, failing as `up` would. Bad input fails without any request.
 */
export async function checkOnline(kind: string, olds: Props, news: Props) {
  const result = await check(kind, olds, news);
  if (result.failures.length > 0) return result;
  const def = resourceDefinition(kind);
  const ctx = context();
  try {
    await proveAccess(ctx, def, result.inputs.frontdoorId, `${def.kind}${describeName(result.inputs)}`);
  } catch (error) {
    const failure = proofFailure(error, def, ctx.settings);
    if (!failure) throw error;
    return { ...result, failures: [failure] };
  }
  return result;
}

let checkedSettings:
  | { settings: RawSettings; failures: CheckFailure[]; missing: Map<string, CheckFailure[]> }
  | undefined;

/**
 * Bad, unknown or missing settings fail every resource's check, so `preview` stops before any request
 * is made: a resource of the Frontdoor API needs its address and credentials, one of the Edge
 * API its controller and a login. Judged once per set of settings (configure replaces the object) and
 * API, not at each of thousands of checks.
 */
function settingCheckFailures(def: ResourceDefinition): CheckFailure[] {
  const current = currentSettings();
  if (checkedSettings?.settings !== current) {
    const problems = [...configured.unknown, ...settingProblems(current)];
    checkedSettings = { settings: current, failures: problems.map(asFailure), missing: new Map() };
  }
  let missing = checkedSettings.missing.get(def.api);
  if (!missing) {
    missing = missingSettingProblems(current, def.api)
      .filter((p) => !configured.pending.has(p.key.slice("frontdoor:".length)))
      .map(asFailure);
    checkedSettings.missing.set(def.api, missing);
  }
  return missing.length ? [...checkedSettings.failures, ...missing] : checkedSettings.failures;
}

const asFailure = (p: SettingProblem): CheckFailure => ({ property: p.key, reason: p.reason });

export async function diff(kind: string, id: string, olds: Props, news: Props) {
  const def = resourceDefinition(kind);
  // A resource of this deployment holds the object: a name clash elsewhere never adopts it.
  if (id) markHeld(def.kind, id);
  const outcome = diffInputs(def, fromState(def, olds), withDefaults(def, news));
  return {
    changes: outcome.changes,
    // The changed inputs: the plugin reports them as its detailed diff (the dynamic host ignores them).
    changed: outcome.changed,
    replaces: outcome.replaces,
    deleteBeforeReplace: outcome.deleteBeforeReplace,
  };
}

/**
 * How many times a create whose answer was lost is looked up and, if absent, sent again: at least 3,
 * and as many as the configured retries allow (frontdoor:maxRetries); without a count limit (the
 * default: time bounds the retries of each request), 10.
 */
const AMBIGUOUS_CREATE_ATTEMPTS = 3;
const AMBIGUOUS_CREATE_ATTEMPTS_UNBOUNDED = 10;

function ambiguousCreateAttempts(): number {
  const { maxAttempts } = retryPolicy(currentSettings());
  if (!Number.isFinite(maxAttempts)) return AMBIGUOUS_CREATE_ATTEMPTS_UNBOUNDED;
  return Math.max(AMBIGUOUS_CREATE_ATTEMPTS, maxAttempts);
}

export async function create(kind: string, inputs: Props) {
  const def = resourceDefinition(kind);
  const given = withDefaults(def, withoutProvider(inputs));
  return keepProviderOnPartialFailure(
    def,
    inputs,
    guard(def, given, async () => {
      const ctx = context();
      for (let attempt = 1; ; attempt++) {
        let made: { id: string; outs: Props };
        try {
          made = await def.create(ctx, given);
        } catch (err) {
          // The request may have created the object although its answer was lost (ambiguous), or an
          // object of that name exists already (clash): look it up, and adopt it when it is exactly
          // what is declared, so `up` neither duplicates it nor leaves an orphan that blocks the name.
          const clash = isNameClash(err) ? err : undefined;
          const ambiguous = err instanceof ApiError && err.ambiguous ? err : undefined;
          if (!(clash || ambiguous) || !def.findExisting) throw err;
          const cause = (clash ?? ambiguous)?.message;
          const adopted = await adoptExisting(def, ctx, given, clash ?? "ambiguous").catch((lookup) => {
            if (lookup instanceof ProviderError) throw lookup;
            const what = clash ? "the name is taken" : "the create's outcome is unknown";
            throw new ProviderError(
              `${def.kind}${describeName(given)}: ${what} (${cause}), and looking the object up failed: ` +
                `${lookup?.message ?? lookup}. An object of that name may exist: the next up adopts it if it ` +
                "matches the declaration.",
            );
          });
          if (adopted) return adopted;
          // Nothing of that name: the clash was about something else (the server's error stands), or
          // the lost create was not carried out, and sending it again is safe.
          if (clash || attempt >= ambiguousCreateAttempts()) throw err;
          const delay = backoffDelay(retryPolicy(currentSettings()), attempt);
          debug(`${def.kind}: create answer lost and no object exists; sending it again in ${delay} ms`);
          await sleep(delay);
          continue;
        }
        return finished(def, made, given);
      }
    }),
  );
}

/**
 * A create answered with a name clash: 409 (the Frontdoor API, and conflicts in general), or 400 with
 * a duplicate-value message (the OpenZiti controller v1.6: COULD_NOT_VALIDATE with "duplicate value
 * ... in unique index" for identities and CAs, "name must be unique" for the other kinds, "certificate
 * already used as CA" for a CA's certificate; through a follower of an HA cluster, 500 with the
 * constraint's field in the cause). Whether an object of that name exists is then looked
 * up, not assumed: when none is found, the server's error stands.
 */
function isNameClash(err: unknown): err is ApiError {
  if (!(err instanceof ApiError) || err.method !== "POST") return false;
  if (err.status === 409) return true;
  // An HA cluster's follower (v1.6) answers a duplicate name that the leader refused as 500 UNHANDLED,
  // the broken constraint as JSON in the cause: {"EntityType":"identities","Field":"name","Value":...}.
  if (err.status === 500) return /"Field":"name"/.test(err.serverMessage);
  return err.status === 400 && /duplicate|already exists|already used|unique/i.test(err.serverMessage);
}

/**
 * The object of the declared name, adopted when it is exactly what is declared (every input the
 * diff compares: docs/guides/reliability-and-recovery.md#a-create-that-meets-a-name-clash-adopts-only-an-exact-match),
 * and not held by another resource of this run; an error naming it, its id and how to import it when
 * it differs; undefined when there is none (or, after a lost answer, when another resource holds it: a
 * resend then meets the clash).
 */
async function adoptExisting(
  def: ResourceDefinition,
  ctx: ResourceContext,
  given: Props,
  why: ApiError | "ambiguous",
): Promise<{ id: string; outs: Props } | undefined> {
  const existing = await def.findExisting?.(ctx, given);
  if (!existing) return undefined;
  const label = `${def.kind}${describeName(given)}`;
  // After a clash, what the server said too (it may name the clashing field).
  const said =
    why === "ambiguous" ? "" : ` (${why.method} ${why.path}: HTTP ${why.status}: ${why.serverMessage})`;
  if (isHeld(def.kind, existing.id)) {
    if (why === "ambiguous") return undefined;
    throw new ProviderError(
      `${label}: an object of that name already exists (id ${existing.id})${said}, and another resource of this ` +
        "deployment holds it (two resources declare the same name, or a replacement is created before the object " +
        "it replaces is deleted): not adopted. Give each resource a name of its own, or set deleteBeforeReplace.",
    );
  }
  const differing = diffInputs(def, existing.outs, given).changed;
  if (differing.length > 0) {
    const lost = why === "ambiguous" ? "the create's answer was lost, and " : "";
    throw new ProviderError(
      `${label}: ${lost}an object of that name already exists (id ${existing.id})${said} and differs from the ` +
        `declaration in ${differing.join(", ")}: not adopted. To manage it with this program, import it: ` +
        `add the resource option import: "${importIdOf(def.api, existing.id, given.frontdoorId)}" and make the inputs match ` +
        "it; or delete it, or choose another name.",
    );
  }
  markHeld(def.kind, existing.id);
  if (why !== "ambiguous") {
    warn(
      `${label}: an object of that name already existed (id ${existing.id}) and matches the declaration: ` +
        "adopted instead of created (it is now managed, and deleted by destroy)",
    );
  } else debug(`${label}: create answer lost; adopted the object it made (id ${existing.id})`);
  let outs = existing.outs;
  try {
    if (def.adopt) outs = await def.adopt(ctx, existing.id, given, existing.outs);
  } catch (err) {
    throw partialFailure(label, existing.id, given, () => existing.outs, err);
  }
  return finished(def, { id: existing.id, outs }, given);
}

/** The state of a created (or adopted) object; should converting it fail, the object is kept all the same. */
function finished(def: ResourceDefinition, made: { id: string; outs: Props }, given: Props) {
  try {
    return { id: made.id, outs: toState(def, made.outs) };
  } catch (err) {
    throw partialFailure(`${def.kind}${describeName(given)}`, made.id, given, () => given, err);
  }
}

/**
 * An error with `id` and `properties` means "created, but not ready" (the host reports it as an
 * initialization failure and the engine keeps the object in the state). Its properties are stored
 * like any state (plain data, nested secrets apart) and need the serialized provider too, or a later
 * update or delete of that object could not run.
 */
async function keepProviderOnPartialFailure<T>(
  def: ResourceDefinition,
  inputs: Props,
  work: Promise<T>,
): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof PartialFailureError) {
      let properties: Props;
      try {
        properties = toState(def, err.properties);
      } catch {
        properties = toState(def, withoutProvider(inputs));
      }
      err.properties = { ...properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
    }
    throw err;
  }
}

export async function read(kind: string, id: string, props: Props) {
  const def = resourceDefinition(kind);
  const state = fromState(def, props);
  const target = scopedId(def, id, state);
  markHeld(def.kind, target.id);
  return guard(def, state, async () => {
    const outs = await def.read(context(), target.id, target.state);
    return outs ? { id: target.id, props: toState(def, outs) } : {};
  });
}

export async function update(kind: string, id: string, olds: Props, news: Props) {
  const def = resourceDefinition(kind);
  const target = scopedId(def, id, fromState(def, olds));
  const given = withDefaults(def, withoutProvider(news));
  markHeld(def.kind, target.id);
  return keepProviderOnPartialFailure(
    def,
    news,
    guard(def, given, async () => ({
      outs: toState(def, await def.update(context(), target.id, target.state, given)),
    })),
  );
}

export async function remove(kind: string, id: string, props: Props) {
  const def = resourceDefinition(kind);
  const target = scopedId(def, id, fromState(def, props));
  await guard(def, target.state, () => def.delete(context(), target.id, target.state));
  // Gone: no resource holds it any more.
  releaseHeld(def.kind, target.id);
}

/** `owned`: `inputs` is the caller's own copy, set in place (check runs for every resource of every up). */
function applyScopeDefaults(def: ResourceDefinition, inputs: Props, owned = false): Props {
  if (def.api !== "frontdoor" || inputs.frontdoorId !== undefined) return inputs;
  const frontdoorId = currentSettings().frontdoorId;
  if (frontdoorId === undefined) return inputs;
  if (!owned) return { ...inputs, frontdoorId };
  inputs.frontdoorId = frontdoorId;
  return inputs;
}

/**
 * Frontdoor objects live under a frontdoor, so an id given to `import` may carry it:
 * `<frontdoorId>/<id>`. The plain id is what the provider stores.
 */
function scopedId(def: ResourceDefinition, id: string, state: Props): { id: string; state: Props } {
  const slash = id.indexOf("/");
  const target =
    def.api !== "frontdoor" || slash < 0
      ? { id, state: applyScopeDefaults(def, state) }
      : { id: id.slice(slash + 1), state: { ...state, frontdoorId: id.slice(0, slash) } };
  // An id (e.g. given to `import`) goes into URL paths: refused before any request unless it is one.
  const reason = unsafeIdReason(target.id);
  if (reason) throw new ProviderError(`${def.kind}: id ${JSON.stringify(id)} ${reason}`);
  const scope = target.state.frontdoorId;
  const scopeReason = typeof scope === "string" ? unsafeIdReason(scope) : undefined;
  if (scopeReason)
    throw new ProviderError(`${def.kind}: frontdoorId ${JSON.stringify(scope)} ${scopeReason}`);
  return target;
}

function withoutProvider(props: Props): Props {
  return omit(props, PROVIDER_KEY);
}

/** Outputs as the state keeps them: plain data, nested secret leaves in a property of their own. */
function toState(def: ResourceDefinition, outs: Props): Props {
  return separateSecretValues(def, toPlainData(outs) as Props);
}

/** State (outputs or old inputs) as the resource modules work with it: the inverse of toState. */
export function fromState(def: ResourceDefinition, props: Props): Props {
  return joinSecretValues(def, props, PROVIDER_KEY);
}

/** Errors leave the provider naming the resource, redacted; unexpected ones keep their message only. */
async function guard<T>(def: ResourceDefinition, state: Props, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError || err instanceof ProviderError) throw err;
    throw new ProviderError(
      `${def.kind}${describeName(state)}: ${redact(String((err as Error)?.message ?? err))}`,
    );
  }
}

/** ` "corp-sso"`: the object's name (a custom frontend's hostname), as errors and warnings quote it. */
function describeName(props: Props): string {
  const name = props.name ?? props.hostname;
  return typeof name === "string" ? ` "${name}"` : "";
}
