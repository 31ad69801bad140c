// Preview proves the credentials that `up` needs (docs/guides/configuration.md#what-preview-checks):
// at the first check of a resource of an API, before anything is planned, one login and one read-only
// request, once per process (per API; per frontdoor for the Frontdoor API), through the same clients,
// login and error paths as `up`, so a wrong token, a wrong Edge password, a frontdoor id the token
// cannot reach or a controller that does not answer fails the preview with the message `up` would give.
// In `up` it is equally harmless: its requests need that login anyway.
// frontdoor:offlinePreview turns it off (previews that must not reach the network).
import { flagSetting, type RawSettings } from "./config";
import type { CheckFailure } from "./forbiddenKeys";
import type { EdgeClient } from "./http/edge";
import { ApiError, ProviderError } from "./http/errors";
import { FrontdoorClient } from "./http/frontdoor";
import type { ResourceContext, ResourceDefinition } from "./resource";
import { UNKNOWN } from "./resource";
import { unsafeIdReason } from "./resources/common";

type Client = FrontdoorClient | EdgeClient;

/**
 * The proofs so far, per client: a new client (configure with other settings) is proved again. The
 * promise is kept whatever it settles to, so thousands of checks share one login and one read, and
 * every check of a failed proof fails with its error.
 */
const proofs = new WeakMap<Client, Map<string, Promise<void>>>();

/**
 * Proves the access a resource of `def` needs, for a resource labelled `label` (as `up` names it in
 * errors): resolves when proved (or not to be proved: offline, no API, no frontdoor id known yet).
 */
export function proveAccess(
  ctx: ResourceContext,
  def: ResourceDefinition,
  frontdoorId: unknown,
  label: string,
): Promise<void> {
  if (def.api === "none" || flagSetting(ctx.settings, "offlinePreview")) return Promise.resolve();
  if (def.api === "edge") return once(ctx.edge(), "edge", () => edgeProof(ctx.edge(), label));
  // A frontdoor id not known yet (from another resource, in preview) or not an id (check says so).
  if (typeof frontdoorId !== "string" || frontdoorId === UNKNOWN || unsafeIdReason(frontdoorId))
    return Promise.resolve();
  const client = ctx.frontdoor();
  return once(client, frontdoorId, () => frontdoorProof(client, frontdoorId, label));
}

function once(client: Client, key: string, prove: () => Promise<void>): Promise<void> {
  const byKey = proofs.get(client) ?? new Map<string, Promise<void>>();
  proofs.set(client, byKey);
  const proof = byKey.get(key) ?? prove();
  byKey.set(key, proof);
  return proof;
}

/**
 * The token (or the client-credentials grant) and the frontdoor id: one page of one item of the
 * frontdoor's auth providers (names and types only, no secrets). A token that cannot reach the
 * frontdoor answers 401 or 403 here as it would to the create.
 */
async function frontdoorProof(client: FrontdoorClient, frontdoorId: string, label: string): Promise<void> {
  await client.http.request({
    method: "GET",
    path: FrontdoorClient.path(frontdoorId, "auth-providers"),
    query: { page: 0, size: 1 },
    resource: label,
  });
}

/**
 * The controller's address and the login (EdgeClient.request logs in first, as for every request),
 * then one item of a management list: only an admin session may read it. Auth policies hold no
 * secrets (an identity may hold an enrollment JWT), and the `default` one always exists.
 */
async function edgeProof(client: EdgeClient, label: string): Promise<void> {
  await client.request({ method: "GET", path: "/auth-policies", query: { limit: 1 }, resource: label });
}

/**
 * A failed proof as the check failure of the setting it points at, the server's answer as the reason:
 * the CLI prints it beside the resource, as it prints a missing setting, instead of the dynamic host's
 * stack trace. Anything but the provider's own errors (a bug) is not a failure of the settings.
 */
export function proofFailure(
  error: unknown,
  def: ResourceDefinition,
  settings: RawSettings,
): CheckFailure | undefined {
  if (!(error instanceof ProviderError) && !(error instanceof ApiError)) return undefined;
  return { property: blamedSetting(error, def.api, settings), reason: error.message };
}

function blamedSetting(error: Error, api: ResourceDefinition["api"], settings: RawSettings): string {
  const unanswered = error instanceof ApiError && !error.status;
  if (api === "frontdoor") {
    if (unanswered) return "frontdoor:apiUrl";
    if (error instanceof ApiError && error.status === 403) return "frontdoorId";
    return settings.token || !settings.clientSecret ? "frontdoor:token" : "frontdoor:clientSecret";
  }
  if (unanswered) return settings.edgeUrls ? "frontdoor:edgeUrls" : "frontdoor:edgeUrl";
  // The login the controller refused (its errors name the method), else the session's rights.
  const method = /\(method=([a-z-]+)\)/.exec(error.message)?.[1];
  const given = (names: (keyof RawSettings)[]) => names.find((name) => settings[name]) ?? names[0];
  if (method === "cert") return `frontdoor:${given(["edgeIdentityFile", "edgeIdentityJson", "edgeCertPem"])}`;
  if (method === "ext-jwt") return `frontdoor:${given(["edgeJwt", "edgeJwtFile", "edgeJwtAudience"])}`;
  if (method === "password" || settings.edgePassword) return "frontdoor:edgePassword";
  return "frontdoor:edgeUrl";
}
