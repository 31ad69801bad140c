// The one schema of the connection settings (`frontdoor:<key>`): for each, its environment variables,
// whether it is a secret, its default, what it means, and the zod schema of its value (text as it comes
// from stack config or the environment, out: the typed value). config.ts reads the settings through it,
// schema.json's `config` section and docs/reference/configuration.md are generated from it.
import type * as Zod from "zod";
import { credentialDestinationProblem } from "./http/destinations";

/**
 * zod, loaded on the first parse: the SDK reads settings' names and variables in the user's program
 * (sdk/settings.ts), which loads none of the provider's libraries (test/user-project.test.ts).
 */
const zod = (): typeof Zod => require("zod");

export interface SettingSpec {
  /** Environment variables read when the stack config has no value, the first one set wins. */
  env: readonly string[];
  description: string;
  secret?: boolean;
  /** The typed value used when the setting is not given (the description says it too). */
  default?: unknown;
  /** The form of the value; `allowPlainHttp` is the only setting the form of others depends on. */
  value: (context: { allowPlainHttp: boolean }) => Zod.ZodType;
}

/** A zod string whose problem, if any, is the reason `check` gives (the message names no value of a secret). */
const checked = (check: (value: string) => string | undefined) =>
  zod()
    .string()
    .superRefine((value, ctx) => {
      const reason = check(value);
      if (reason) ctx.addIssue({ code: "custom", message: reason });
    });

const text = () => zod().string();

/**
 * A value sent as it is in an HTTP header (a bearer token, the API description's `Basic username:token`): only
 * visible ASCII, no spaces, or the request could not be made (or would mean something else).
 */
const headerTokenReason = (value: string) =>
  /^[\x21-\x7e]+$/.test(value)
    ? undefined
    : "must be visible ASCII without spaces or control characters (it is sent in an HTTP header)";

/** The user id of HTTP Basic (RFC 7617): no colon (it ends the id), no control characters. */
const basicUserIdReason = (value: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  /[:\u0000-\u001f\u007f]/.test(value)
    ? "must not contain a colon or control characters (it is sent as an HTTP Basic user id)"
    : undefined;

/** A length the controller's swagger bounds (the message never quotes the value: it may be a password). */
const lengthBetween = (min: number, max: number) =>
  checked((value) =>
    value.length >= min && value.length <= max
      ? undefined
      : `must be ${min} to ${max} characters long (the controller's limit), got ${value.length}`,
  );

const integerAtLeast = (min: number) =>
  checked((value) =>
    /^\s*\d+\s*$/.test(value) && Number(value) >= min
      ? undefined
      : `must be a whole number of at least ${min}, got "${value}"`,
  ).transform(Number);

const positiveNumber = () =>
  checked((value) => {
    const n = Number(value);
    return value.trim() !== "" && Number.isFinite(n) && n > 0
      ? undefined
      : `must be a number greater than 0, got "${value}"`;
  }).transform(Number);

const TRUE_WORDS = /^(1|true|yes)$/i;
const BOOLEAN_WORDS = /^(1|0|true|false|yes|no)$/i;

/** A boolean setting: true, false, 1, 0, yes or no. */
const flag = () =>
  checked((value) =>
    BOOLEAN_WORDS.test(value) ? undefined : `must be true or false, got "${value}"`,
  ).transform((value) => TRUE_WORDS.test(value));

/**
 * Why a service URL is refused, if it is: a base URL that credentials go to, so it follows the one rule
 * for where credentials may go (http/destinations.ts).
 */
export function serviceUrlReason(value: string, allowPlainHttp: boolean): string | undefined {
  return credentialDestinationProblem(value, allowPlainHttp);
}

const serviceUrl = ({ allowPlainHttp }: { allowPlainHttp: boolean }) =>
  checked((value) => serviceUrlReason(value, allowPlainHttp));

/** A comma-separated list of service URLs: the first bad item named by its position (1 = first). */
const serviceUrlList = ({ allowPlainHttp }: { allowPlainHttp: boolean }) =>
  checked((value) => {
    for (const [index, raw] of value.split(",").entries()) {
      const item = raw.trim();
      const reason = item === "" ? "is empty" : serviceUrlReason(item, allowPlainHttp);
      if (reason) return `item ${index + 1} (${JSON.stringify(item)}) ${reason}`;
    }
    return undefined;
  }).transform((value) => value.split(",").map((item) => item.trim()));

export const SETTINGS = {
  apiUrl: {
    env: ["FRONTDOOR_API_URL"],
    description:
      "Base URL of the Frontdoor management API (paths start with /frontdoor; a URL that already ends in " +
      "/frontdoor/... is taken without that path, with a warning).",
    value: serviceUrl,
  },
  frontdoorId: {
    env: ["FRONTDOOR_ID"],
    description: "Default frontdoor for resources that do not set frontdoorId.",
    value: text,
  },
  token: {
    env: ["FRONTDOOR_TOKEN", "NETFOUNDRY_API_TOKEN"],
    secret: true,
    description: "Static bearer token for the Frontdoor API.",
    value: () => checked(headerTokenReason),
  },
  username: {
    env: ["FRONTDOOR_USERNAME"],
    description: "With token: send HTTP Basic `username:token` instead of a bearer token.",
    value: () => checked((value) => basicUserIdReason(value) ?? headerTokenReason(value)),
  },
  clientId: {
    env: ["FRONTDOOR_CLIENT_ID", "NETFOUNDRY_CLIENT_ID"],
    description: "OAuth2 client id (client-credentials grant).",
    value: () => checked(basicUserIdReason),
  },
  clientSecret: {
    env: ["FRONTDOOR_CLIENT_SECRET", "NETFOUNDRY_PASSWORD"],
    secret: true,
    description: "OAuth2 client secret.",
    value: text,
  },
  tokenUrl: {
    env: ["FRONTDOOR_TOKEN_URL", "NETFOUNDRY_OAUTH_URL"],
    description: "OAuth2 token endpoint (client-credentials grant).",
    value: serviceUrl,
  },
  edgeUrl: {
    env: ["ZITI_EDGE_URL", "ZITI_API_HOST"],
    description:
      "OpenZiti controller address; the management API is served under /edge/management/v1. An address " +
      "that ends in /edge/management/v1 or /edge/client/v1 (as the OpenZiti Terraform provider's `host` " +
      "and ZITI_API_HOST do) is taken without that path, with a warning.",
    value: serviceUrl,
  },
  edgeUrls: {
    env: ["ZITI_EDGE_URLS"],
    description:
      "The addresses of the nodes of an OpenZiti HA controller cluster, comma-separated (each like edgeUrl). The " +
      "provider uses one node at a time, adds the others the cluster lists (GET /controllers) and moves to the next " +
      "node when one cannot serve (docs/guides/ha-clusters.md).",
    value: serviceUrlList,
  },
  edgeUsername: {
    env: ["ZITI_USERNAME", "ZITI_API_USERNAME"],
    description: "Edge admin username (authenticate method=password).",
    value: () => lengthBetween(4, 100),
  },
  edgePassword: {
    env: ["ZITI_PASSWORD", "ZITI_API_PASSWORD"],
    secret: true,
    description: "Edge admin password.",
    value: () => lengthBetween(5, 100),
  },
  edgeCertPem: {
    env: ["ZITI_CLIENT_CERT"],
    description: "Client certificate (PEM or file path) for authenticate method=cert (mutual TLS).",
    value: text,
  },
  edgeKeyPem: {
    env: ["ZITI_CLIENT_KEY"],
    secret: true,
    description: "Private key (PEM or file path) of edgeCertPem.",
    value: text,
  },
  edgeIdentityFile: {
    env: ["ZITI_IDENTITY_FILE"],
    description:
      "Path of a Ziti identity file (JSON with ztAPI and id.cert, id.key, id.ca) to log in with its certificate " +
      "(method=cert). edgeUrl defaults to the controller of its ztAPI; its CA is trusted.",
    value: text,
  },
  edgeIdentityJson: {
    env: ["ZITI_IDENTITY_JSON"],
    secret: true,
    description: "The content of a Ziti identity file (JSON), instead of edgeIdentityFile.",
    value: text,
  },
  edgeTotpSecret: {
    env: ["ZITI_TOTP_SECRET"],
    secret: true,
    description: "Base32 TOTP secret, to complete MFA when the controller requires it.",
    value: text,
  },
  edgeJwt: {
    env: ["ZITI_EDGE_JWT"],
    secret: true,
    description:
      "An external JWT to log in with (authenticate method=ext-jwt), accepted by one of the controller's " +
      "external JWT signers. Takes precedence over the other Edge credentials.",
    value: () => checked(headerTokenReason),
  },
  edgeJwtFile: {
    env: ["ZITI_EDGE_JWT_FILE"],
    description:
      "Path of a file holding the external JWT to log in with (method=ext-jwt); read again at every login, " +
      "so a token file that the CI rotates keeps working in a long run.",
    value: text,
  },
  edgeJwtAudience: {
    env: ["ZITI_EDGE_JWT_AUDIENCE"],
    description:
      "Log in with the CI's own OIDC token (method=ext-jwt), asked for with this audience: GitHub Actions' " +
      "ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN (the job needs `permissions: id-token: write`). " +
      "A fresh token is asked for at every login.",
    value: text,
  },
  searchUrl: {
    env: ["FRONTDOOR_SEARCH_URL"],
    description: "Base URL of the event search service (`{searchUrl}/<index>/_search`).",
    value: serviceUrl,
  },
  searchUsername: {
    env: ["FRONTDOOR_SEARCH_USERNAME"],
    description: "Username for the event search service (HTTP Basic).",
    value: () => checked(basicUserIdReason),
  },
  searchPassword: {
    env: ["FRONTDOOR_SEARCH_PASSWORD"],
    secret: true,
    description: "Password for the event search service.",
    value: text,
  },
  caBundle: {
    env: ["FRONTDOOR_CA_BUNDLE"],
    description:
      "Extra trusted CA certificates (PEM text or file path) for servers with their own CA. TLS is always verified.",
    value: text,
  },
  maxRetries: {
    env: ["FRONTDOOR_MAX_RETRIES"],
    description:
      "At most this many retries of one request on 429/502/503/504/network errors (default: no count limit, retryTimeoutSeconds ends them).",
    value: () => integerAtLeast(0),
  },
  retryTimeoutSeconds: {
    env: ["FRONTDOOR_RETRY_TIMEOUT_SECONDS"],
    default: 120,
    description:
      "Stop retrying a request after this many seconds (default 120): under rate limiting, the bound that ends retries.",
    value: positiveNumber,
  },
  requestTimeoutSeconds: {
    env: ["FRONTDOOR_REQUEST_TIMEOUT_SECONDS"],
    default: 30,
    description: "Timeout of one HTTP request (default 30).",
    value: positiveNumber,
  },
  expiryWarningDays: {
    env: ["FRONTDOOR_EXPIRY_WARNING_DAYS"],
    // Checked where it is used (expiry.ts): its default depends on the kind.
    description:
      "Programs warn at preview and up when a client certificate, certificate request token or identity " +
      "enrollment expires within this many days (default 30 for certificates, 1 for tokens and enrollments; " +
      "0 warns only about expired ones).",
    value: text,
  },
  allowPlainHttp: {
    env: ["FRONTDOOR_ALLOW_PLAIN_HTTP"],
    default: false,
    description:
      "Allow `http://` URLs to hosts other than loopback (default false): tokens and passwords would travel in clear.",
    value: flag,
  },
  offlinePreview: {
    env: ["FRONTDOOR_OFFLINE_PREVIEW"],
    default: false,
    description:
      "Preview checks only that the settings are present, not that the credentials work online (for previews " +
      "that must not reach the network)",
    value: flag,
  },
  debug: {
    env: ["FRONTDOOR_DEBUG"],
    default: false,
    description: "Log every request, retry and renewal to stderr (secrets redacted).",
    value: flag,
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

type Output<N extends SettingName> = Zod.output<ReturnType<(typeof SETTINGS)[N]["value"]>>;

/** The typed settings: every value parsed once, defaults filled in. */
export type Settings = {
  [N in SettingName]: (typeof SETTINGS)[N] extends { default: unknown } ? Output<N> : Output<N> | undefined;
};

/** The zod object of every setting, for one value of allowPlainHttp (the one setting others depend on). */
function objectSchema(allowPlainHttp: boolean) {
  const shape: Record<string, Zod.ZodType> = {};
  for (const name of SETTING_NAMES) {
    const spec: SettingSpec = SETTINGS[name];
    const value = spec.value({ allowPlainHttp });
    shape[name] = "default" in spec ? value.optional().transform((v) => v ?? spec.default) : value.optional();
  }
  return zod().object(shape);
}

/** Built on the first parse (not at load: see `zod`), one per value of allowPlainHttp. */
const SCHEMAS = new Map<boolean, ReturnType<typeof objectSchema>>();
function settingsSchema(allowPlainHttp: boolean) {
  if (!SCHEMAS.has(allowPlainHttp)) SCHEMAS.set(allowPlainHttp, objectSchema(allowPlainHttp));
  return SCHEMAS.get(allowPlainHttp)!;
}

export interface SettingIssue {
  name: SettingName;
  reason: string;
}

/** Parses settings given as text (stack config, environment): the typed object, or every problem by name. */
export function parseSettings(
  raw: Partial<Record<SettingName, string>>,
): { ok: true; settings: Settings } | { ok: false; issues: SettingIssue[] } {
  const allowPlain = raw.allowPlainHttp !== undefined && TRUE_WORDS.test(raw.allowPlainHttp);
  const result = settingsSchema(allowPlain).safeParse(raw);
  if (result.success) return { ok: true, settings: result.data as Settings };
  // In the order of SETTINGS, one problem per setting.
  const issues = new Map<SettingName, string>();
  for (const issue of result.error.issues) {
    const name = issue.path[0] as SettingName;
    if (!issues.has(name)) issues.set(name, issue.message);
  }
  return {
    ok: false,
    issues: SETTING_NAMES.filter((n) => issues.has(n)).map((name) => ({ name, reason: issues.get(name)! })),
  };
}

/** The problem of one setting's value alone (allowPlainHttp as given), or undefined. */
export function settingValueReason(
  name: SettingName,
  value: string,
  allowPlainHttp = false,
): string | undefined {
  const spec: SettingSpec = SETTINGS[name];
  const result = spec.value({ allowPlainHttp }).safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** The known setting nearest to a misspelled one (edit distance at most a third of its length, at least 2). */
export function nearestSetting(name: string): SettingName | undefined {
  let best: { name: SettingName; distance: number } | undefined;
  for (const known of SETTING_NAMES) {
    const distance = editDistance(name.toLowerCase(), known.toLowerCase());
    if (!best || distance < best.distance) best = { name: known, distance };
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  return best && best.distance <= limit ? best.name : undefined;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}
