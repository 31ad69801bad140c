// Connection settings. Each one is read at run time, inside the provider host, from stack config
// (`frontdoor:<key>`, handed to `configure`) and then from environment variables, so no credential is
// ever captured in the serialized provider. This table is the one source of truth: the provider reads
// it, schema.json's `config` section and the README's configuration table are generated from it.
import * as fs from "node:fs";
import { ProviderError } from "./http/errors";
import { DEFAULT_RETRY, type RetryPolicy } from "./http/retry";
import { registerSecret } from "./redact";

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
    key: "edgeTotpSecret",
    env: ["ZITI_TOTP_SECRET"],
    secret: true,
    description: "Base32 TOTP secret, to complete MFA when the controller requires it.",
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
      "Retries of a request on 429/503/network errors (default 9; the time limit usually ends them first).",
  },
  {
    key: "retryTimeoutSeconds",
    env: ["FRONTDOOR_RETRY_TIMEOUT_SECONDS"],
    description: "Stop retrying a request after this many seconds (default 120).",
  },
  {
    key: "requestTimeoutSeconds",
    env: ["FRONTDOOR_REQUEST_TIMEOUT_SECONDS"],
    description: "Timeout of one HTTP request (default 30).",
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
  const retries = numberSetting(settings.maxRetries, "maxRetries");
  const seconds = numberSetting(settings.retryTimeoutSeconds, "retryTimeoutSeconds");
  return {
    ...DEFAULT_RETRY,
    ...(retries !== undefined ? { maxAttempts: retries + 1 } : {}),
    ...(seconds !== undefined ? { maxElapsedMs: seconds * 1000 } : {}),
  };
}

export function requestTimeoutMs(settings: RawSettings): number {
  return (numberSetting(settings.requestTimeoutSeconds, "requestTimeoutSeconds") ?? 30) * 1000;
}

function numberSetting(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new ProviderError(`frontdoor:${name} must be a non-negative number, got "${value}"`);
  return n;
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
