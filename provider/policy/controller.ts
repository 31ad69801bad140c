// What the controller holds, for the rules that can use it (frontdoor-policy-roles-match): the
// identities, services, edge routers and posture checks with their ids and role attributes, read with
// the provider's own Edge client. Access comes from the environment the preview runs in, the
// provider's own variables (ZITI_EDGE_URL with ZITI_USERNAME/ZITI_PASSWORD, or ZITI_IDENTITY_FILE/
// ZITI_IDENTITY_JSON, FRONTDOOR_CA_BUNDLE, ...: provider/config.ts): a pack does not see the stack's
// config, and secrets have no place in the pack's config file. Without access, or when the controller
// cannot be read, the rules say so and judge the stack alone.
//
// The look-up has a budget of its own (CONTROLLER_BUDGET_SECONDS, or the rule's controllerTimeoutSeconds
// in the pack's config): a preview must not wait out the provider's retries (120 s by default) on a
// controller that is down before the advisory rule falls back to the stack alone.

import type { Entity } from "../audit/roles";
import { type RawSettings, readSettings } from "../config";
import { EDGE_BASE_PATH, EdgeClient } from "../http/edge";
import { redact } from "../redact";

/** The objects of each kind (`Identity`, `Service`, `EdgeRouter`, `PostureCheck`) on the controller. */
export interface ControllerObjects {
  /** The controller's address, to name it in messages. */
  url: string;
  byKind: Record<string, Entity[]>;
}

/** The controller's objects, or why they are not known. */
export type ControllerView = { objects: ControllerObjects } | { unknown: string };

const PATHS: Record<string, string> = {
  Identity: "/identities",
  Service: "/services",
  EdgeRouter: "/edge-routers",
  PostureCheck: "/posture-checks",
};

/** How long the controller look-up may take in all (requests, retries, logins), by default. */
export const CONTROLLER_BUDGET_SECONDS = 5;

export const NO_ACCESS =
  "the environment sets neither ZITI_EDGE_URL nor ZITI_IDENTITY_FILE/ZITI_IDENTITY_JSON";

/**
 * The controller named by the provider's environment variables in `env`: its objects, or at once
 * (no promise, nothing to wait for) why they are not known when the environment gives no access.
 */
export function readController(
  env: NodeJS.ProcessEnv = process.env,
  budgetSeconds: number = CONTROLLER_BUDGET_SECONDS,
): ControllerView | Promise<ControllerView> {
  const settings = readSettings(() => undefined, env);
  if (!settings.edgeUrl && !settings.edgeUrls && !settings.edgeIdentityFile && !settings.edgeIdentityJson)
    return { unknown: NO_ACCESS };
  // Each request and its retries within the budget, and the whole look-up too (a slow controller
  // answering every request just in time would otherwise take several budgets).
  const bounded: RawSettings = {
    ...settings,
    retryTimeoutSeconds: String(budgetSeconds),
    requestTimeoutSeconds: String(budgetSeconds),
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ControllerView>((resolve) => {
    timer = setTimeout(
      () => resolve({ unknown: `the controller did not answer within ${budgetSeconds} s` }),
      budgetSeconds * 1000,
    );
  });
  return Promise.race([listObjects(bounded), deadline]).finally(() => clearTimeout(timer));
}

async function listObjects(settings: RawSettings): Promise<ControllerView> {
  try {
    const client = new EdgeClient(settings);
    const byKind: Record<string, Entity[]> = {};
    for (const [kind, path] of Object.entries(PATHS)) {
      const items = await client.list(path, undefined, `list ${kind} (policy pack)`);
      byKind[kind] = items.map((o) => ({
        id: o.id,
        roleAttributes: Array.isArray(o.roleAttributes) ? (o.roleAttributes as string[]) : [],
      }));
    }
    return {
      objects: {
        url: (client.cluster?.node.http ?? client.http).options.baseUrl.slice(0, -EDGE_BASE_PATH.length),
        byKind,
      },
    };
  } catch (err) {
    // Settings were registered as secrets by readSettings: redact keeps them out of the message.
    return { unknown: `the controller could not be read: ${redact((err as Error).message)}` };
  }
}
