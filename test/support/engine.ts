// Calls the provider's host entry points directly (the functions the dynamic-provider host calls),
// configured for a mock server. Fast tests of resource behaviour; the harness tests cover the host.

import type { MockServer } from "../../mock/server";
import * as engine from "../../provider/engine";
import type { Props } from "../../provider/resource";

export function mockConfig(mock: Pick<MockServer, "url" | "credentials" | "caPem">): Record<string, string> {
  return {
    "frontdoor:apiUrl": mock.url,
    "frontdoor:frontdoorId": mock.credentials.frontdoorId,
    "frontdoor:token": mock.credentials.frontdoorToken,
    "frontdoor:edgeUrl": mock.url,
    "frontdoor:edgeUsername": mock.credentials.edgeUsername,
    "frontdoor:edgePassword": mock.credentials.edgePassword,
    "frontdoor:searchUrl": mock.url,
    "frontdoor:searchUsername": mock.credentials.searchUsername,
    "frontdoor:searchPassword": mock.credentials.searchPassword,
    "frontdoor:maxRetries": "4",
    ...(mock.caPem ? { "frontdoor:caBundle": mock.caPem } : {}),
  };
}

const SECRET_KEYS = new Set(["frontdoor:token", "frontdoor:edgePassword", "frontdoor:searchPassword"]);

/** Settings for the real CLI: the credentials as secret config (the CLI refuses them in plaintext). */
export function cliSettings(all: Record<string, string>): {
  config: Record<string, string>;
  secretConfig: Record<string, string>;
} {
  const pick = (secret: boolean) =>
    Object.fromEntries(Object.entries(all).filter(([key]) => SECRET_KEYS.has(key) === secret));
  return { config: pick(false), secretConfig: pick(true) };
}

/** The keys of each API's settings in mockConfig: the plain ones and the secret one. */
const API_KEYS = {
  frontdoor: [["frontdoor:apiUrl", "frontdoor:frontdoorId"], "frontdoor:token"],
  edge: [["frontdoor:edgeUrl", "frontdoor:edgeUsername"], "frontdoor:edgePassword"],
  search: [["frontdoor:searchUrl", "frontdoor:searchUsername"], "frontdoor:searchPassword"],
} as const;

/**
 * The settings of the named APIs for a stack against `mock` (a program that declares objects of those
 * APIs only): their plain keys, and their secrets apart as `pulumi config set --secret` keeps them.
 */
export function apiConfig(
  mock: Pick<MockServer, "url" | "credentials" | "caPem">,
  ...apis: (keyof typeof API_KEYS)[]
): { config: Record<string, string>; secretConfig: Record<string, string> } {
  const all = mockConfig(mock);
  const plain = apis.flatMap((api) => API_KEYS[api][0]);
  const secrets = apis.map((api) => API_KEYS[api][1]);
  return {
    config: Object.fromEntries(plain.map((key) => [key, all[key]])),
    secretConfig: Object.fromEntries(secrets.map((key) => [key, all[key]])),
  };
}

export async function configureFor(config: Record<string, string>): Promise<void> {
  await engine.configure({ get: (key) => config[key] });
}

/**
 * Settings for suites that only run `check` (which validates the settings too): an Edge address and
 * credentials that are never dialled. A suite must not rely on another file having configured the
 * engine in the same mocha process (npm test runs files in separate processes: scripts/test-lanes.js).
 */
export function configureForCheckOnly(): Promise<void> {
  return configureFor({
    "frontdoor:edgeUrl": "https://127.0.0.1:9",
    "frontdoor:edgeUsername": "check-only",
    "frontdoor:edgePassword": "never-sent",
  });
}

/** check + create, as `up` does for a new resource; fails on check failures. */
export async function createChecked(kind: string, news: Props): Promise<{ id: string; outs: Props }> {
  const checked = await engine.check(kind, {}, news);
  if (checked.failures.length) throw new Error(checked.failures.map((f) => f.reason).join("; "));
  return engine.create(kind, checked.inputs);
}

/** check + diff + update, as `up` does for a changed resource. */
export async function updateChecked(kind: string, id: string, olds: Props, news: Props) {
  const checked = await engine.check(kind, olds, news);
  if (checked.failures.length) throw new Error(checked.failures.map((f) => f.reason).join("; "));
  const diff = await engine.diff(kind, id, olds, checked.inputs);
  return { diff, result: diff.changes ? await engine.update(kind, id, olds, checked.inputs) : undefined };
}

export { engine };
