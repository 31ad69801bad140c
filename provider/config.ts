// Connection settings. Each one is read at run time, inside the provider host, from stack config
// (`frontdoor:<key>`, handed to `configure`) and then from environment variables, so no credential is
// ever captured in the serialized provider. Their schema (settings.ts) is the one source of truth: the
// provider reads and checks them through it, schema.json's `config` section and
// docs/reference/configuration.md are generated from it.
import * as fs from "node:fs";
import { ProviderError } from "./http/errors";
import { DEFAULT_RETRY, type RetryPolicy } from "./http/retry";
import { warn } from "./log";
import { registerSecret } from "./redact";
import {
  nearestSetting,
  parseSettings,
  SETTING_NAMES,
  SETTINGS,
  type SettingName,
  type SettingSpec,
  serviceUrlReason,
  settingValueReason,
} from "./settings";
import { IdentityProblem, loadZitiIdentity, type ZitiIdentity } from "./zitiIdentity";

export interface ConfigKey {
  key: SettingName;
  env: readonly string[];
  secret?: boolean;
  description: string;
}

/** The settings' table, in the order of SETTINGS (settings.ts, the schema). */
export const CONFIG_KEYS: readonly ConfigKey[] = SETTING_NAMES.map((key) => {
  const spec: SettingSpec = SETTINGS[key];
  return { key, env: spec.env, description: spec.description, ...(spec.secret ? { secret: true } : {}) };
});

export type ConfigName = SettingName;
/** The settings as given (text), before parsing: what the clients are built from. */
export type RawSettings = Partial<Record<ConfigName, string>>;

/** Reads each key from `lookup` (stack config; keys like `frontdoor:apiUrl`) and then the environment. */
export function readSettings(
  lookup: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): RawSettings {
  const settings: RawSettings = {};
  for (const entry of CONFIG_KEYS) {
    const value = lookup(`frontdoor:${entry.key}`) ?? entry.env.map((name) => env[name]).find((v) => v);
    if (value === undefined || value === "") continue;
    settings[entry.key] = withoutApiPath(entry.key, value);
    if (entry.secret) registerSecret(value);
  }
  return settings;
}

/**
 * The API paths the clients append themselves: a base URL pasted with one (the OpenZiti Terraform
 * provider's `host` ends in /edge/management/v1) is taken without it, with a warning, instead of
 * failing every request with 404.
 */
const API_PATHS: Partial<Record<ConfigName, RegExp>> = {
  apiUrl: /\/frontdoor(\/.*)?$/,
  edgeUrl: /\/edge\/(management|client)\/v1\/?$/,
  edgeUrls: /\/edge\/(management|client)\/v1\/?$/,
};
const warnedPaths = new Set<string>();

function withoutApiPath(name: ConfigName, value: string): string {
  const path = API_PATHS[name];
  if (!path) return value;
  const items = value.split(",").map((item) => {
    const trimmed = item.trim();
    if (!URL.canParse(trimmed)) return item;
    const url = new URL(trimmed);
    if (url.search || url.hash || !path.test(url.pathname)) return item;
    const base = trimmed.slice(0, trimmed.length - url.pathname.length) + url.pathname.replace(path, "");
    const note = `frontdoor:${name}: ${trimmed} ends in the API path ${url.pathname.match(path)![0]}, which the provider adds itself: using ${base}`;
    if (!warnedPaths.has(note)) warn(note);
    warnedPaths.add(note);
    return base;
  });
  return items.join(",");
}

/** A PEM setting may hold the PEM itself or the path of a file with it. */
export function pemSetting(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.includes("-----BEGIN")) return value;
  try {
    return fs.readFileSync(value, "utf8");
  } catch {
    throw new ProviderError(`frontdoor:${name} is neither PEM text nor a readable file: ${value}`);
  }
}

export function retryPolicy(settings: RawSettings): RetryPolicy {
  const retries = numberSetting(settings, "maxRetries");
  const seconds = numberSetting(settings, "retryTimeoutSeconds");
  return {
    ...DEFAULT_RETRY,
    ...(retries !== undefined ? { maxAttempts: retries + 1 } : {}),
    ...(seconds !== undefined ? { maxElapsedMs: seconds * 1000 } : {}),
  };
}

export function requestTimeoutMs(settings: RawSettings): number {
  return (numberSetting(settings, "requestTimeoutSeconds") ?? 30) * 1000;
}

/** What every API client takes from the settings alike: the CA bundle, retries, the request timeout. */
export function transportSettings(settings: RawSettings) {
  return {
    tls: { caBundle: pemSetting(settings.caBundle, "caBundle") },
    retry: retryPolicy(settings),
    timeoutMs: requestTimeoutMs(settings),
  };
}

/** A boolean setting: true, false, 1, 0, yes or no (checked by `settingProblems`). */
export function flagSetting(
  settings: RawSettings,
  name: "allowPlainHttp" | "debug" | "offlinePreview",
): boolean {
  return /^(1|true|yes)$/i.test(settings[name] ?? "");
}

function numberSetting(
  settings: RawSettings,
  name: "maxRetries" | "retryTimeoutSeconds" | "requestTimeoutSeconds",
) {
  const value = settings[name];
  if (value === undefined) return undefined;
  const problem = settingValueReason(name, value);
  if (problem) throw new ProviderError(`frontdoor:${name} ${problem}`);
  return Number(value);
}

export interface SettingProblem {
  /** `frontdoor:<key>`, as the user sets it. */
  key: string;
  reason: string;
}

/** Every setting of the wrong type, range or form, each naming its key (reported by check, at preview). */
export function settingProblems(settings: RawSettings): SettingProblem[] {
  const parsed = parseSettings(settings);
  const problems = parsed.ok
    ? []
    : parsed.issues.map((i) => ({ key: `frontdoor:${i.name}`, reason: i.reason }));
  return [...problems, ...identityProblems(settings)];
}

/** An unreadable or malformed identity file, or one that clashes with edgeCertPem, naming the setting. */
function identityProblems(settings: RawSettings): SettingProblem[] {
  let identity: ZitiIdentity | undefined;
  try {
    identity = loadZitiIdentity(settings);
  } catch (err) {
    if (err instanceof IdentityProblem) return [{ key: `frontdoor:${err.setting}`, reason: err.reason }];
    throw err;
  }
  if (!identity) return [];
  const setting = settings.edgeIdentityFile !== undefined ? "edgeIdentityFile" : "edgeIdentityJson";
  if (settings.edgeCertPem !== undefined || settings.edgeKeyPem !== undefined)
    return [
      {
        key: `frontdoor:${setting}`,
        reason: "and frontdoor:edgeCertPem/edgeKeyPem both give a client certificate: use one of them",
      },
    ];
  // The addresses from ztAPI/ztAPIs follow the rules of edgeUrl (https, or loopback http) unless
  // edgeUrl or edgeUrls is set.
  const urls = settings.edgeUrl === undefined && settings.edgeUrls === undefined ? identity.edgeUrls : [];
  for (const url of urls) {
    const reason = serviceUrlReason(url, flagSetting(settings, "allowPlainHttp"));
    if (reason) return [{ key: `frontdoor:${setting}`, reason: `has a ztAPI that ${reason} (${url})` }];
  }
  return [];
}

/** The identity of frontdoor:edgeIdentityFile / edgeIdentityJson, if set; bad ones fail naming the setting. */
export function zitiIdentitySetting(settings: RawSettings): ZitiIdentity | undefined {
  try {
    return loadZitiIdentity(settings);
  } catch (err) {
    if (err instanceof IdentityProblem) throw new ProviderError(err.message);
    throw err;
  }
}

/**
 * Keys of the `frontdoor` namespace that are no setting (a misspelling is otherwise ignored without a
 * word), each with the nearest known key. `names` are without the `frontdoor:` prefix; the keys the
 * engine itself gives a provider (`version`, `pluginDownloadURL`) are not settings and not refused.
 */
export function unknownSettingProblems(names: Iterable<string>): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const name of names) {
    if ((SETTING_NAMES as string[]).includes(name) || ENGINE_KEYS.has(name)) continue;
    const near = nearestSetting(name);
    problems.push({
      key: `frontdoor:${name}`,
      reason:
        `is no setting of this provider${near ? `: did you mean \`frontdoor:${near}\`?` : ""} ` +
        "(the settings: docs/reference/configuration.md)",
    });
  }
  return problems;
}

const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

/**
 * The settings one API needs before anything is planned (the offline part of "preview checks what up
 * needs"): each missing one named with its environment variables. A missing frontdoorId (setting or
 * input) is the kind's own input check's to report (resources/common.ts).
 */
export function missingSettingProblems(
  settings: RawSettings,
  api: "frontdoor" | "edge" | "none",
): SettingProblem[] {
  const missing = (name: ConfigName, why: string): SettingProblem => ({
    key: `frontdoor:${name}`,
    reason: `is not set: ${why} (${setHint(name)})`,
  });
  const problems: SettingProblem[] = [];
  if (api === "frontdoor") {
    if (settings.apiUrl === undefined) problems.push(missing("apiUrl", "the Frontdoor API's address"));
    const oauth = settings.clientId && settings.clientSecret && settings.tokenUrl;
    if (!settings.token && !oauth)
      problems.push({ key: "frontdoor:token", reason: MISSING_FRONTDOOR_CREDENTIALS });
  }
  if (api === "edge") {
    const identity = settings.edgeIdentityFile !== undefined || settings.edgeIdentityJson !== undefined;
    if (settings.edgeUrl === undefined && settings.edgeUrls === undefined && !identity)
      problems.push(
        missing(
          "edgeUrl",
          "the OpenZiti controller's address (or frontdoor:edgeUrls, or an identity file's ztAPI)",
        ),
      );
    const login =
      (settings.edgeUsername && settings.edgePassword) ||
      settings.edgeCertPem ||
      identity ||
      settings.edgeJwt ||
      settings.edgeJwtFile ||
      settings.edgeJwtAudience;
    if (!login)
      problems.push({
        key: `frontdoor:${settings.edgeUsername ? "edgePassword" : "edgeUsername"}`,
        reason: MISSING_EDGE_CREDENTIALS,
      });
  }
  return problems;
}

export const MISSING_FRONTDOOR_CREDENTIALS =
  "Frontdoor API credentials are missing: set frontdoor:token (FRONTDOOR_TOKEN or NETFOUNDRY_API_TOKEN), " +
  "or frontdoor:clientId + frontdoor:clientSecret + frontdoor:tokenUrl " +
  "(NETFOUNDRY_CLIENT_ID + NETFOUNDRY_PASSWORD + NETFOUNDRY_OAUTH_URL)";

export const MISSING_EDGE_CREDENTIALS =
  "Edge API credentials are missing: set frontdoor:edgeUsername + frontdoor:edgePassword " +
  "(ZITI_USERNAME + ZITI_PASSWORD), or frontdoor:edgeCertPem + frontdoor:edgeKeyPem " +
  "(ZITI_CLIENT_CERT + ZITI_CLIENT_KEY), or a Ziti identity file: frontdoor:edgeIdentityFile " +
  "(ZITI_IDENTITY_FILE) or frontdoor:edgeIdentityJson (ZITI_IDENTITY_JSON), or an external JWT: " +
  "frontdoor:edgeJwt, frontdoor:edgeJwtFile or frontdoor:edgeJwtAudience (the CI's OIDC token)";

/** How to set a setting: the config command and its environment variables. */
function setHint(name: ConfigName): string {
  const spec: SettingSpec = SETTINGS[name];
  return `pulumi config set frontdoor:${name} ...${spec.secret ? " --secret" : ""}, or ${spec.env.join(" / ")}`;
}

/** Throws (naming every bad key) before a client is made, so no request goes out with bad settings. */
export function assertValidSettings(settings: RawSettings): void {
  const problems = settingProblems(settings);
  if (problems.length) throw new ProviderError(problems.map((p) => `${p.key} ${p.reason}`).join("; "));
}

/**
 * The controller addresses to use, without trailing slashes: edgeUrl, then edgeUrls, duplicates
 * dropped; when neither is set, the identity file's ztAPI and ztAPIs. `cluster` is true when the
 * settings name a cluster (edgeUrls, or several ztAPIs): only then are other nodes discovered and
 * failed over to; edgeUrl alone keeps the single-controller behaviour.
 */
export function edgeUrlSettings(
  settings: RawSettings,
  identity: ZitiIdentity | undefined,
): { urls: string[]; cluster: boolean } {
  const listed = settings.edgeUrls?.split(",").map((u) => u.trim()) ?? [];
  const given = [settings.edgeUrl, ...listed].filter((u): u is string => u !== undefined);
  const urls = given.length ? given : (identity?.edgeUrls ?? []);
  if (urls.length === 0) required(settings, "edgeUrl", "The Edge management API");
  const unique = [...new Set(urls.map((u) => u.replace(/\/+$/, "")))];
  const cluster = settings.edgeUrls !== undefined || (given.length === 0 && unique.length > 1);
  return { urls: unique, cluster };
}

/** Fails with the setting's config key and environment variables when it is missing. */
export function required(settings: RawSettings, name: ConfigName, purpose: string): string {
  const value = settings[name];
  if (value !== undefined) return value;
  const entry: SettingSpec = SETTINGS[name];
  throw new ProviderError(
    `${purpose} needs frontdoor:${name} (pulumi config set frontdoor:${name} ...${entry.secret ? " --secret" : ""}) or the environment variable ${entry.env.join(" / ")}`,
  );
}
