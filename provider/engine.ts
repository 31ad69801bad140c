// What runs inside Pulumi's dynamic-provider host: the provider methods of every resource kind, over
// one process-wide set of settings and API clients (one connection pool and one Edge session per host
// process). The serialized provider (see dynamic.ts) only holds `require` of this module and a kind.
import { flagSetting, type RawSettings, readSettings, retryPolicy, settingProblems } from "./config";
import { EdgeClient } from "./http/edge";
import { ApiError, ProviderError } from "./http/errors";
import { FrontdoorClient } from "./http/frontdoor";
import { debug, setDebug } from "./log";
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
  withKey,
} from "./resource";
import { resourceDefinition } from "./resources";
import { unsafeIdReason } from "./resources/common";
import { joinSecretValues, separateSecretValues } from "./secretValues";

const PROVIDER_KEY = "__provider";

let settings: RawSettings | undefined;
let clients: { frontdoor?: FrontdoorClient; edge?: EdgeClient } = {};

/** The subset of the host's Config object that configure uses. */
export interface HostConfig {
  get(key: string): string | undefined;
}

/** The provider methods of one kind, as the host calls them. */
export function providerFor(kind: string) {
  return {
    configure: (req: { config: HostConfig }) => configure(req.config),
    check: (olds: Props, news: Props) => check(kind, olds, news),
    diff: (id: string, olds: Props, news: Props) => diff(kind, id, olds, news),
    create: (inputs: Props) => create(kind, inputs),
    read: (id: string, props: Props) => read(kind, id, props),
    update: (id: string, olds: Props, news: Props) => update(kind, id, olds, news),
    delete: (id: string, props: Props) => remove(kind, id, props),
  };
}

export async function configure(config: HostConfig): Promise<void> {
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
  const provider = news[PROVIDER_KEY];
  const given = omit(news, PROVIDER_KEY);
  const withDefaults = applyScopeDefaults(def, given);
  const { inputs, failures } = checkInputs(def, withDefaults, fromState(def, olds ?? {}));
  const settingFailures = settingCheckFailures();
  return {
    inputs: withKey(inputs, PROVIDER_KEY, provider),
    failures: settingFailures.length ? [...settingFailures, ...failures] : failures,
  };
}

let checkedSettings: { settings: RawSettings; failures: CheckFailure[] } | undefined;

/**
 * Bad settings fail every resource's check, so `preview` stops before any request is made. Judged
 * once per set of settings (configure replaces the object), not at each of thousands of checks.
 */
function settingCheckFailures(): CheckFailure[] {
  const current = currentSettings();
  if (checkedSettings?.settings !== current) {
    const failures = settingProblems(current).map((p) => ({ property: p.key, reason: p.reason }));
    checkedSettings = { settings: current, failures };
  }
  return checkedSettings.failures;
}

export async function diff(kind: string, _id: string, olds: Props, news: Props) {
  const def = resourceDefinition(kind);
  const outcome = diffInputs(def, fromState(def, olds), news);
  return {
    changes: outcome.changes,
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
  const given = withoutProvider(inputs);
  return keepProviderOnPartialFailure(
    inputs,
    guard(def, given, async () => {
      const ctx = context();
      for (let attempt = 1; ; attempt++) {
        try {
          const { id, outs } = await def.create(ctx, given);
          return { id, outs: toState(def, outs) };
        } catch (err) {
          // The request may have created the object although its answer was lost: adopt it if it
          // exists, so `up` neither duplicates it nor leaves an orphan; if it does not, sending the
          // create again is safe.
          if (!(err instanceof ApiError && err.ambiguous && def.findExisting)) throw err;
          const existing = await def.findExisting(ctx, given);
          if (existing) {
            // Only what this create made is adopted: an object of that name that differs from the
            // declaration belongs to someone else (another resource, or made outside Pulumi).
            const differing = diffInputs(def, existing.outs, given).changed;
            if (differing.length > 0) {
              throw new ProviderError(
                `${def.kind}${describeName(given)}: the create's answer was lost, and the object of that name ` +
                  `(id ${existing.id}) differs from the declaration in ${differing.join(", ")}: not adopted. ` +
                  "Import it (the import resource option) or choose another name.",
              );
            }
            debug(`${def.kind}: create answer lost; adopted existing object ${existing.id}`);
            return { id: existing.id, outs: toState(def, existing.outs) };
          }
          if (attempt >= ambiguousCreateAttempts()) throw err;
          debug(`${def.kind}: create answer lost and no object exists; sending it again`);
        }
      }
    }),
  );
}

/**
 * An error with `id` and `properties` means "created, but not ready" (the host reports it as an
 * initialization failure and the engine keeps the object in the state). Its properties need the
 * serialized provider too, or a later update or delete of that object could not run.
 */
async function keepProviderOnPartialFailure<T>(inputs: Props, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const partial = err as { id?: string; properties?: Props };
    if (partial?.id && partial.properties)
      partial.properties = { ...partial.properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
    throw err;
  }
}

export async function read(kind: string, id: string, props: Props) {
  const def = resourceDefinition(kind);
  const state = fromState(def, props);
  const target = scopedId(def, id, state);
  return guard(def, state, async () => {
    const outs = await def.read(context(), target.id, target.state);
    return outs ? { id: target.id, props: toState(def, outs) } : {};
  });
}

export async function update(kind: string, id: string, olds: Props, news: Props) {
  const def = resourceDefinition(kind);
  const target = scopedId(def, id, fromState(def, olds));
  const given = withoutProvider(news);
  return guard(def, given, async () => ({
    outs: toState(def, await def.update(context(), target.id, target.state, given)),
  }));
}

export async function remove(kind: string, id: string, props: Props) {
  const def = resourceDefinition(kind);
  const target = scopedId(def, id, fromState(def, props));
  await guard(def, target.state, () => def.delete(context(), target.id, target.state));
}

function applyScopeDefaults(def: ResourceDefinition, inputs: Props): Props {
  if (def.api !== "frontdoor" || inputs.frontdoorId !== undefined) return inputs;
  const frontdoorId = currentSettings().frontdoorId;
  return frontdoorId === undefined ? inputs : { ...inputs, frontdoorId };
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
function fromState(def: ResourceDefinition, props: Props): Props {
  return joinSecretValues(def, withoutProvider(props));
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

function describeName(props: Props): string {
  return typeof props.name === "string" ? ` "${props.name}"` : "";
}
