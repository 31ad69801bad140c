// The plugin's provider methods over plain data: the second glue over the engine (engine.ts), beside the
// dynamic host's (dynamic.ts / kinds/). Each resource's logic stays in its module; what is here is only
// what the plugin protocol asks beyond the dynamic one: configuration from a provider's inputs, the
// secrets the plugin must mark itself (it accepts secrets, so the engine no longer guesses them), the
// outputs of a preview, the inputs of an import (a Read given only an id), and Invoke.
import { CONFIG_KEYS, readSettings, settingProblems, unknownSettingProblems } from "../config";
import * as engine from "../engine";
import { ProviderError } from "../http/errors";
import { PACKAGE } from "../packageName";
import {
  type CheckFailure,
  omit,
  type Props,
  type ResourceDefinition,
  sameValue,
  toPlainData,
  UNKNOWN,
  withDefaults,
} from "../resource";
import { resourceDefinition } from "../resources";
import { SECRET_VALUES } from "../secretValues";
import { propertyNames, secretPaths } from "../shape";
import { type Path, schemaPaths } from "./wire";

/** `frontdoor:index:Identity` (or a URN's type, parents first: `a:b:C$frontdoor:index:Identity`) -> `Identity`. */
export function kindOf(urnOrType: string): string {
  const type = (urnOrType.startsWith("urn:") ? (urnOrType.split("::")[2] ?? "") : urnOrType)
    .split("$")
    .pop()!;
  const [pkg, module, kind] = type.split(":");
  if (pkg !== PACKAGE || module !== "index" || !kind)
    throw new ProviderError(`unknown resource type ${type}: this provider serves ${PACKAGE}:index:<Kind>`);
  resourceDefinition(kind); // fails naming the kind when there is none
  return kind;
}

/** A provider's settings as the engine gives them: `args` (inputs, keys without prefix) or the stack's variables. */
export function configLookup(
  args: Props,
  variables: Map<string, string>,
): (key: string) => string | undefined {
  const given = Object.keys(args).length > 0;
  return (key) => {
    const name = key.replace(/^frontdoor:/, "");
    const value = given ? args[name] : (variables.get(`frontdoor:config:${name}`) ?? variables.get(key));
    // A value not known yet (an explicit provider fed by another resource, in preview) is not set yet.
    if (value === undefined || value === null || value === UNKNOWN) return undefined;
    return typeof value === "string" ? value : JSON.stringify(value);
  };
}

/** Configure: the same code path as the dynamic host's configure (engine.configure over readSettings). */
export function configure(args: Props, variables: Map<string, string>): Promise<void> {
  const lookup = configLookup(args, variables);
  const pending = Object.keys(args).filter((key) => args[key] === UNKNOWN);
  return engine.configure({ get: lookup, pending });
}

/**
 * CheckConfig: every unknown key (a misspelled setting, with the nearest one) and every bad setting
 * (from the inputs, or the environment) named by its key. The inputs are the stack's `frontdoor:` keys
 * without prefix (or an explicit provider's arguments), beside `version` that the engine adds.
 */
export function checkConfig(news: Props): CheckFailure[] {
  const settings = readSettings(configLookup(news, new Map()));
  return [...unknownSettingProblems(Object.keys(news)), ...settingProblems(settings)].map((p) => ({
    property: p.key.replace(/^frontdoor:/, ""),
    reason: `${p.key} ${p.reason}`,
  }));
}

/** The settings that are secrets (credentials): marked secret in the provider's inputs, however given. */
export const SECRET_SETTINGS: string[] = CONFIG_KEYS.filter((e) => "secret" in e && e.secret).map(
  (e) => e.key,
);

/** DiffConfig: the settings that changed. Never a replacement: that would replace every resource of the provider. */
export function diffConfig(olds: Props, news: Props): string[] {
  return CONFIG_KEYS.map((entry) => entry.key as string).filter((key) => !sameValue(olds[key], news[key]));
}

/** Paths the plugin marks secret in a kind's inputs: the schema's secret inputs. */
export function inputSecretPaths(def: ResourceDefinition): Path[] {
  return schemaPaths(secretPaths(def.inputs));
}

/**
 * Paths the plugin marks secret in a kind's outputs: the secret inputs, the kind's secret outputs and
 * its separated nested secrets (see secretValues.ts), beside the paths the caller passed secret.
 */
export function outputSecretPaths(def: ResourceDefinition, given: Path[]): Path[] {
  return [...given, ...inputSecretPaths(def), ...(def.secretOutputs ?? []).map((k) => [k]), [SECRET_VALUES]];
}

/** The outputs a create shows in preview: the inputs (defaults filled in), and every computed output unknown. */
export function previewCreate(kind: string, inputs: Props): Props {
  const def = resourceDefinition(kind);
  const outs: Props = { ...withDefaults(def, inputs) };
  for (const key of propertyNames(def.outputs)) if (!(key in outs)) outs[key] = UNKNOWN;
  return outs;
}

/** The outputs an update shows in preview: the new inputs (defaults filled in) over the old outputs (computed ones kept). */
export function previewUpdate(kind: string, olds: Props, news: Props): Props {
  return { ...olds, ...withDefaults(resourceDefinition(kind), news) };
}

/**
 * The inputs of an imported object (a Read given only an id): its input properties as read, so that the
 * import's check and diff compare like with like, and `pulumi import` writes them into the program.
 */
export function importedInputs(kind: string, props: Props): Props {
  const def = resourceDefinition(kind);
  const state = engine.fromState(def, props);
  const inputs: Props = {};
  for (const key of propertyNames(def.inputs)) {
    const value = state[key];
    if (value !== undefined && value !== null) inputs[key] = value;
  }
  return inputs;
}

/** Invoke: the function of the token, with the configured provider's settings. */
export async function invoke(token: string, args: Props): Promise<{ result: Props; secrets: Path[] }> {
  const name = token.split(":").pop();
  // The functions' definitions (and their clients) load with the first Invoke, not with the plugin.
  const { functionDefinitions } = require("../functions") as typeof import("../functions");
  const fn = functionDefinitions.find((f) => token === `${PACKAGE}:index:${f.name}` && f.name === name);
  if (!fn)
    throw new ProviderError(`unknown function ${token}: this provider serves ${PACKAGE}:index:<function>`);
  const result = toPlainData(await fn.run(omit(args, "__provider"), engine.currentSettings())) as Props;
  return { result, secrets: schemaPaths(secretPaths(fn.outputs)) };
}
