// Connection settings. Each one is read at run time, inside the provider host, from stack config
// (`frontdoor:<key>`, handed to `configure`) and then from environment variables, so no credential is
// ever captured in the serialized provider. This table is the one source of truth: the provider reads
// it, schema.json's `config` section and docs/reference/configuration.md are generated from it.
import * as fs from "node:fs";
import { ProviderError } from "./http/errors";
import { DEFAULT_RETRY, type RetryPolicy } from "./http/retry";
import { registerSecret } from "./redact";
import { IdentityProblem, loadZitiIdentity, type ZitiIdentity } from "./zitiIdentity";

export interface ConfigKey {
  key: string;
  env: string[];
  secret?: boolean;
  description: string;
}

export const CONFIG_KEYS = [
  {
    key: "apiUrl",
    env: ["FRONTDOOR_API_URL"],
    description: "Base URL of the Frontdoor management API (paths start with /frontdoor).",
  },
  {
    key: "frontdoorId",
    env: ["FRONTDOOR_ID"],
    description: "Default frontdoor for resources that do not set frontdoorId.",
  },
  {
    key: "token",
    env: ["FRONTDOOR_TOKEN", "NETFOUNDRY_API_TOKEN"],
    secret: true,
    description: "Static bearer token for the Frontdoor API.",
  },
  {
    key: "username",
    env: ["FRONTDOOR_USERNAME"],
    description: "With token: send HTTP Basic `username:token` instead of a bearer token.",
  },
  {
    key: "clientId",
    env: ["FRONTDOOR_CLIENT_ID", "NETFOUNDRY_CLIENT_ID"],
    description: "OAuth2 client id (client-credentials grant).",
  },
  {
    key: "clientSecret",
    env: ["FRONTDOOR_CLIENT_SECRET", "NETFOUNDRY_PASSWORD"],
    secret: true,
    description: "OAuth2 client secret.",
  },
  {
    key: "tokenUrl",
    env: ["FRONTDOOR_TOKEN_URL", "NETFOUNDRY_OAUTH_URL"],
    description: "OAuth2 token endpoint (client-credentials grant).",
  },
  {
    key: "edgeUrl",
    env: ["ZITI_EDGE_URL"],
    description: "OpenZiti controller address; the management API is served under /edge/management/v1.",
  },
  {
    key: "edgeUrls",
    env: ["ZITI_EDGE_URLS"],
    description:
      "The addresses of the nodes of an OpenZiti HA controller cluster, comma-separated (each like edgeUrl). The " +
      "provider uses one node at a time, adds the others the cluster lists (GET /controllers) and moves to the next " +
      "node when one cannot serve (docs/guides/ha-clusters.md).",
  },
  {
    key: "edgeUsername",
    env: ["ZITI_USERNAME"],
    description: "Edge admin username (authenticate method=password).",
  },
  { key: "edgePassword", env: ["ZITI_PASSWORD"], secret: true, description: "Edge admin password." },
  {
    key: "edgeCertPem",
    env: ["ZITI_CLIENT_CERT"],
    description: "Client certificate (PEM or file path) for authenticate method=cert (mutual TLS).",
  },
  {
    key: "edgeKeyPem",
    env: ["ZITI_CLIENT_KEY"],
    secret: true,
    description: "Private key (PEM or file path) of edgeCertPem.",
  },
  {
    key: "edgeIdentityFile",
    env: ["ZITI_IDENTITY_FILE"],
    description:
      "Path of a Ziti identity file (JSON with ztAPI and id.cert, id.key, id.ca) to log in with its certificate " +
      "(method=cert). edgeUrl defaults to the controller of its ztAPI; its CA is trusted.",
  },
  {
    key: "edgeIdentityJson",
    env: ["ZITI_IDENTITY_JSON"],
    secret: true,
    description: "The content of a Ziti identity file (JSON), instead of edgeIdentityFile.",
  },
  {
    key: "edgeTotpSecret",
    env: ["ZITI_TOTP_SECRET"],
    secret: true,
    description: "Base32 TOTP secret, to complete MFA when the controller requires it.",
  },
  {
    key: "edgeJwt",
    env: ["ZITI_EDGE_JWT"],
    secret: true,
    description:
      "An external JWT to log in with (authenticate method=ext-jwt), accepted by one of the controller's " +
      "external JWT signers. Takes precedence over the other Edge credentials.",
  },
  {
    key: "edgeJwtFile",
    env: ["ZITI_EDGE_JWT_FILE"],
    description:
      "Path of a file holding the external JWT to log in with (method=ext-jwt); read again at every login, " +
      "so a token file that the CI rotates keeps working in a long run.",
  },
  {
    key: "edgeJwtAudience",
    env: ["ZITI_EDGE_JWT_AUDIENCE"],
    description:
      "Log in with the CI's own OIDC token (method=ext-jwt), asked for with this audience: GitHub Actions' " +
      "ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN (the job needs `permissions: id-token: write`). " +
      "A fresh token is asked for at every login.",
  },
  {
    key: "searchUrl",
    env: ["FRONTDOOR_SEARCH_URL"],
    description: "Base URL of the event search service (`{searchUrl}/<index>/_search`).",
  },
  {
    key: "searchUsername",
    env: ["FRONTDOOR_SEARCH_USERNAME"],
    description: "Username for the event search service (HTTP Basic).",
  },
  {
    key: "searchPassword",
    env: ["FRONTDOOR_SEARCH_PASSWORD"],
    secret: true,
    description: "Password for the event search service.",
  },
  {
    key: "caBundle",
    env: ["FRONTDOOR_CA_BUNDLE"],
    description:
      "Extra trusted CA certificates (PEM text or file path) for servers with their own CA. TLS is always verified.",
  },
  {
    key: "maxRetries",
    env: ["FRONTDOOR_MAX_RETRIES"],
    description:
      "At most this many retries of one request on 429/502/503/504/network errors (default: no count limit, retryTimeoutSeconds ends them).",
  },
  {
    key: "retryTimeoutSeconds",
    env: ["FRONTDOOR_RETRY_TIMEOUT_SECONDS"],
    description:
      "Stop retrying a request after this many seconds (default 120): under rate limiting, the bound that ends retries.",
  },
  {
    key: "requestTimeoutSeconds",
    env: ["FRONTDOOR_REQUEST_TIMEOUT_SECONDS"],
    description: "Timeout of one HTTP request (default 30).",
  },
  {
    key: "expiryWarningDays",
    env: ["FRONTDOOR_EXPIRY_WARNING_DAYS"],
    description:
      "Programs warn at preview and up when a client certificate, certificate request token or identity " +
      "enrollment expires within this many days (default 30 for certificates, 1 for tokens and enrollments; " +
      "0 warns only about expired ones).",
  },
  {
    key: "allowPlainHttp",
    env: ["FRONTDOOR_ALLOW_PLAIN_HTTP"],
    description:
      "Allow `http://` URLs to hosts other than loopback (default false): tokens and passwords would travel in clear.",
  },
  {
    key: "offlinePreview",
    env: ["FRONTDOOR_OFFLINE_PREVIEW"],
    description:
      "Preview checks only that the settings are present, not that the credentials work online (for previews " +
      "that must not reach the network)",
  },
  {
    key: "debug",
    env: ["FRONTDOOR_DEBUG"],
    description: "Log every request, retry and renewal to stderr (secrets redacted).",
  },
] as const satisfies readonly ConfigKey[];

export type ConfigName = (typeof CONFIG_KEYS)[number]["key"];
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
    settings[entry.key] = value;
    if ("secret" in entry && entry.secret) registerSecret(value);
  }
  return settings;
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
export function flagSetting(settings: RawSettings, name: ConfigName): boolean {
  return TRUE_WORDS.test(settings[name] ?? "");
}

function numberSetting(settings: RawSettings, name: ConfigName): number | undefined {
  const value = settings[name];
  if (value === undefined) return undefined;
  const problem = SETTING_CHECKS[name]?.(value, settings);
  if (problem) throw new ProviderError(`frontdoor:${name} ${problem}`);
  return Number(value);
}

const TRUE_WORDS = /^(1|true|yes)$/i;
const BOOLEAN_WORDS = /^(1|0|true|false|yes|no)$/i;

type SettingCheck = (value: string, settings: RawSettings) => string | undefined;

const integerAtLeast =
  (min: number): SettingCheck =>
  (value) =>
    /^\s*\d+\s*$/.test(value) && Number(value) >= min
      ? undefined
      : `must be a whole number of at least ${min}, got "${value}"`;

const positiveNumber: SettingCheck = (value) => {
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) && n > 0
    ? undefined
    : `must be a number greater than 0, got "${value}"`;
};

const flag: SettingCheck = (value) =>
  BOOLEAN_WORDS.test(value) ? undefined : `must be true or false, got "${value}"`;

/**
 * A service URL: http(s), no query or fragment (paths are appended to it), no credentials in it, and
 * plain http only to a loopback host unless allowPlainHttp is set: the token would travel in clear.
 */
const serviceUrl: SettingCheck = (value, settings) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute http(s) URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `must be an http(s) URL, not ${url.protocol.replace(/:$/, "")}`;
  if (url.search || value.includes("?")) return "must not have a query string (paths are appended to it)";
  if (url.hash || value.includes("#")) return "must not have a fragment";
  if (url.username || url.password) return "must not carry credentials: use the credential settings";
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !flagSetting(settings, "allowPlainHttp"))
    return (
      `uses plain http to ${url.hostname}: credentials would travel in clear. Use https, ` +
      "or set frontdoor:allowPlainHttp true (FRONTDOOR_ALLOW_PLAIN_HTTP) to accept that"
    );
  return undefined;
};

/** localhost, *.localhost, 127.0.0.0/8 and ::1: names that never leave the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === "::1" ||
    host === "0:0:0:0:0:0:0:1"
  );
}

/**
 * A value sent as it is in an HTTP header (a bearer token, the seed's `Basic username:token`): only
 * visible ASCII, no spaces, or the request could not be made (or would mean something else).
 */
const headerToken: SettingCheck = (value) =>
  /^[\x21-\x7e]+$/.test(value)
    ? undefined
    : "must be visible ASCII without spaces or control characters (it is sent in an HTTP header)";

/** The user id of HTTP Basic (RFC 7617): no colon (it ends the id), no control characters. */
const basicUserId: SettingCheck = (value) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  /[:\u0000-\u001f\u007f]/.test(value)
    ? "must not contain a colon or control characters (it is sent as an HTTP Basic user id)"
    : undefined;

/** A length the controller's swagger bounds (the message never quotes the value: it may be a password). */
const lengthBetween =
  (min: number, max: number): SettingCheck =>
  (value) =>
    value.length >= min && value.length <= max
      ? undefined
      : `must be ${min} to ${max} characters long (the controller's limit), got ${value.length}`;

/** The first bad item of a list of service URLs, named by its position (1 = first). */
function urlListProblem(items: string[], settings: RawSettings): string | undefined {
  for (const [index, raw] of items.entries()) {
    const item = raw.trim();
    const reason = item === "" ? "is empty" : serviceUrl(item, settings);
    if (reason) return `item ${index + 1} (${JSON.stringify(item)}) ${reason}`;
  }
  return undefined;
}

const SETTING_CHECKS: Partial<Record<ConfigName, SettingCheck>> = {
  token: headerToken,
  username: (value, settings) => basicUserId(value, settings) ?? headerToken(value, settings),
  clientId: basicUserId,
  searchUsername: basicUserId,
  edgeJwt: headerToken,
  edgeUsername: lengthBetween(4, 100),
  edgePassword: lengthBetween(5, 100),
  apiUrl: serviceUrl,
  tokenUrl: serviceUrl,
  edgeUrl: serviceUrl,
  edgeUrls: (value, settings) => urlListProblem(value.split(","), settings),
  searchUrl: serviceUrl,
  maxRetries: integerAtLeast(0),
  retryTimeoutSeconds: positiveNumber,
  requestTimeoutSeconds: positiveNumber,
  allowPlainHttp: flag,
  offlinePreview: flag,
  debug: flag,
};

export interface SettingProblem {
  /** `frontdoor:<key>`, as the user sets it. */
  key: string;
  reason: string;
}

/** Every setting of the wrong type, range or form, each naming its key (reported by check, at preview). */
export function settingProblems(settings: RawSettings): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const [name, check] of Object.entries(SETTING_CHECKS) as [ConfigName, SettingCheck][]) {
    const value = settings[name];
    const reason = value === undefined ? undefined : check(value, settings);
    if (reason) problems.push({ key: `frontdoor:${name}`, reason });
  }
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
    const reason = serviceUrl(url, settings);
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
  const entry = CONFIG_KEYS.find((k) => k.key === name)!;
  throw new ProviderError(
    `${purpose} needs frontdoor:${name} (pulumi config set frontdoor:${name} ...${"secret" in entry && entry.secret ? " --secret" : ""}) or the environment variable ${entry.env.join(" / ")}`,
  );
}
