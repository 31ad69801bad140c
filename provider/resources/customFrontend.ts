// CustomFrontend: a user-owned hostname served by the platform. After create the service builds the
// hosting infrastructure (status NEW); once it is PENDING the DNS records the user must create can be
// read; it turns ACTIVE when they have propagated. The status moving on by itself is not drift.
import { z } from "zod";
import { ApiError, ListUnavailableError, PartialFailureError, ProviderError } from "../http/errors";
import { debug } from "../log";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { frontdoorId, objectId } from "./common";
import { FrontdoorCollection, type ServerObject } from "./frontdoorCollection";
import { completeCreate, partialFailure } from "./operations";

const DNS_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A fully qualified DNS name of at least two labels (what the service accepts as a hostname). */
function isDnsName(value: string): boolean {
  const labels = value.split(".");
  return value.length <= 253 && labels.length >= 2 && labels.every((label) => DNS_LABEL.test(label));
}

export const CustomFrontendInputs = z.strictObject({
  frontdoorId,
  hostname: z
    .string()
    .min(1)
    .refine(
      isDnsName,
      "must be a DNS hostname such as apps.example.com (labels of letters, digits and hyphens)",
    )
    .describe("The domain the user owns, e.g. `apps.example.com`. Changing it replaces the frontend."),
  authProviderIds: z
    .array(objectId)
    .default([])
    .describe("Auth providers that shares of this frontend may use (order does not matter)."),
  frontendId: objectId
    .optional()
    .describe("Frontend to attach to (default: chosen by the service). Changing it replaces the frontend."),
  waitForActive: z
    .boolean()
    .default(false)
    .describe(
      "Also wait until the status is ACTIVE (DNS records propagated), not just until they can be read.",
    ),
  readyTimeoutSeconds: z
    .number()
    .positive()
    .default(600)
    .describe("How long create and update wait for the DNS records (and ACTIVE, with waitForActive)."),
});
export type CustomFrontendInputs = z.output<typeof CustomFrontendInputs>;

const DnsRecords = z
  .object({
    aRecord: z
      .object({
        name: z.string().describe("Record name: a wildcard under the domain, e.g. `*.apps.example.com`."),
        ipAddresses: z.array(z.string()).describe("The A record's addresses."),
      })
      .describe("The A record to create."),
    cnameRecords: z
      .array(
        z.object({
          name: z.string().describe("Record name."),
          value: z.string().describe("Record value (target)."),
        }),
      )
      .describe("CNAME records for certificate validation."),
  })
  .meta({ id: "CustomFrontendDnsRecords", description: "DNS records the owner of the domain must create." });

export const CustomFrontendOutputs = z.object({
  status: z.string().describe("`NEW`, `PENDING` (waiting for DNS) or `ACTIVE`."),
  domainName: z.string().describe("The domain name, as the service shows it."),
  dnsRecords: DnsRecords,
});

const collection = new FrontdoorCollection("CustomFrontend", "custom-frontends");

/** Polling: 100 ms, doubling up to 750 ms between GETs (so readiness is seen within a second), until the timeout. */
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 750;

interface Observed {
  server: ServerObject;
  dnsRecords?: Props;
}

/** GET the frontend, and its DNS records unless it is still NEW (they answer 400 until it is PENDING). */
async function observe(ctx: ResourceContext, props: Props, id: string): Promise<Observed | undefined> {
  const server = await collection.get(ctx, props, id);
  if (!server) return undefined;
  if (server.status === "NEW") return { server };
  const res = await ctx.frontdoor().http.request<Props>({
    method: "GET",
    path: collection.path(props.frontdoorId, id, "dns-records"),
    resource: collection.label({ name: props.hostname }),
    accept: [400, 404],
  });
  return { server, dnsRecords: res.status < 300 ? res.body : undefined };
}

/** Polls until the DNS records can be read (and the status is ACTIVE, with waitForActive). */
async function waitUntilReady(
  ctx: ResourceContext,
  props: CustomFrontendInputs,
  id: string,
): Promise<Observed> {
  const deadline = Date.now() + props.readyTimeoutSeconds * 1000;
  let delay = FIRST_DELAY_MS;
  let lastStatus = "unknown";
  for (;;) {
    const seen = await observe(ctx, props, id);
    if (!seen)
      throw new ProviderError(`${label(props)} (id ${id}) disappeared while waiting for it to be ready`);
    lastStatus = String(seen.server.status);
    const ready = seen.dnsRecords !== undefined && (!props.waitForActive || lastStatus === "ACTIVE");
    if (ready) return seen;
    const left = deadline - Date.now();
    if (left <= 0) {
      const goal = props.waitForActive ? "ACTIVE" : "its DNS records readable";
      throw new PartialFailureError(
        `${label(props)} (id ${id}) was not ${goal} after ${props.readyTimeoutSeconds} s (last status ${lastStatus}); ` +
          "it is kept in the state, and the next up waits again",
        id,
        outputs(props, seen),
      );
    }
    debug(`${label(props)}: status ${lastStatus}, checking again in ${Math.min(delay, left)} ms`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

const label = (props: Props) => collection.label({ name: props.hostname });

/**
 * Every custom frontend, from `GET .../custom-frontends`: a list the API description marks "not shown". A server
 * without it (404/405) gets a clear error saying what to do instead (`why` names the purpose).
 */
export async function listFrontends(
  ctx: ResourceContext,
  props: Props,
  why: string,
  query: Record<string, string> = {},
  instead = `Import custom frontends by id instead: the import resource option with "${props.frontdoorId}/<id>".`,
): Promise<ServerObject[]> {
  const path = collection.path(props.frontdoorId);
  try {
    return await ctx.frontdoor().listAll<ServerObject>(path, label(props), query);
  } catch (err) {
    if (!(err instanceof ApiError && (err.status === 404 || err.status === 405))) throw err;
    throw new ListUnavailableError(
      `${label(props)}: ${why}, but this server offers no list of custom frontends (GET ` +
        `${path} answered HTTP ${err.status}; the API documents no such list). ${instead}`,
    );
  }
}

function outputs(props: Props, seen: Observed): Props {
  const { server, dnsRecords } = seen;
  const records = dnsRecords ?? {};
  const aRecord = (records.aRecord ?? {}) as Props;
  const cnames = Array.isArray(records.cnameRecords) ? (records.cnameRecords as Props[]) : [];
  return {
    frontdoorId: props.frontdoorId,
    hostname: server.hostname ?? server.domainName ?? props.hostname,
    // GET shows no authProviderIds in the documented API: then the last known (declared) ones stand.
    authProviderIds: Array.isArray(server.authProviderIds)
      ? server.authProviderIds
      : (props.authProviderIds ?? []),
    frontendId: server.frontendId ?? props.frontendId ?? null,
    // Provider settings, not API fields: carried over from the program or the previous state.
    waitForActive: props.waitForActive ?? false,
    readyTimeoutSeconds: props.readyTimeoutSeconds ?? 600,
    status: server.status,
    domainName: server.domainName ?? records.domainName ?? server.hostname ?? props.hostname,
    dnsRecords: {
      // The API calls it ipAddress although it is a list; DNS providers call it addresses/records.
      aRecord: { name: aRecord.name ?? "", ipAddresses: (aRecord.ipAddress as string[] | undefined) ?? [] },
      cnameRecords: cnames.map((r) => ({ name: r.name, value: r.value })),
    },
  };
}

async function create(ctx: ResourceContext, inputs: CustomFrontendInputs) {
  const { hostname, authProviderIds, frontendId } = inputs;
  const created = await collection.create(ctx, inputs, { hostname, authProviderIds, frontendId });
  // Waiting may fail (a timeout, a poll that errs): the frontend exists all the same, and the state
  // then holds what the create answered (the next up waits again, a refresh reads it).
  return completeCreate(
    label(inputs),
    created.id,
    inputs,
    () => outputs(inputs, { server: created }),
    async () => outputs(inputs, await waitUntilReady(ctx, inputs, created.id)),
  );
}

async function update(ctx: ResourceContext, id: string, olds: Props, news: CustomFrontendInputs) {
  const current = [...((olds.authProviderIds as string[]) ?? [])].sort();
  const wanted = [...news.authProviderIds].sort();
  if (JSON.stringify(current) !== JSON.stringify(wanted)) {
    await collection.patch(ctx, news, id, { authProviderIds: news.authProviderIds });
  }
  try {
    return outputs(news, await waitUntilReady(ctx, news, id));
  } catch (err) {
    // The change was made: the state takes the declared values (as the engine keeps a partial
    // update), so a refresh compares the right thing and the next up waits again.
    throw partialFailure(label(news), id, news, () => ({ ...olds, ...news }), err, "update");
  }
}

export const customFrontend = {
  kind: "CustomFrontend",
  api: "frontdoor" as const,
  description:
    "A custom frontend: a hostname you own, served by the frontdoor. Create waits until the DNS records you " +
    "must create (`dnsRecords`: an A record and CNAME records for certificate validation) can be read, and " +
    "with `waitForActive` until the status is ACTIVE. The status moving from NEW to PENDING to ACTIVE is not drift.",
  inputs: CustomFrontendInputs,
  outputs: CustomFrontendOutputs,
  replaceOnChanges: ["frontdoorId", "hostname", "frontendId"],
  setProperties: ["authProviderIds"],
  serverDefaults: ["frontendId"],
  create,
  update,
  async read(ctx, id, state) {
    const seen = await observe(ctx, state, id);
    if (!seen) return undefined;
    const refreshed = outputs(state, seen);
    // Records that cannot be read right now (the frontend went back to NEW) are not gone: keep the
    // last known ones, so stack outputs that feed DNS resources do not go empty.
    if (!seen.dnsRecords && state.dnsRecords) refreshed.dnsRecords = state.dnsRecords;
    return refreshed;
  },
  delete: (ctx, id, olds) => collection.delete(ctx, olds, id),
  list: async (ctx, scope) =>
    (await listFrontends(ctx, scope, "listing the existing custom frontends")).map((item) => item.id),
  // Hostnames are unique per frontdoor: a create whose answer was lost, or that meets a frontend of
  // its hostname, looks it up by hostname (and an adopted one is waited for like a new one), instead
  // of failing and leaving an orphan that blocks the hostname. Without a list on the server it fails
  // saying so: the frontend may exist, and only its id finds it.
  async findExisting(ctx, inputs) {
    const why =
      `a frontend for ${inputs.hostname} may exist (the create's answer was lost, or the hostname is ` +
      "taken); looking for it needs the list";
    const items = await listFrontends(ctx, inputs, why);
    const wanted = inputs.hostname.toLowerCase();
    const match = items.find((item) => String(item.hostname ?? item.domainName).toLowerCase() === wanted);
    if (!match) return undefined;
    const seen = await observe(ctx, inputs, match.id);
    return seen && { id: match.id, outs: outputs(inputs, seen) };
  },
  adopt: async (ctx, id, inputs) => outputs(inputs, await waitUntilReady(ctx, inputs, id)),
} satisfies ResourceDefinition<CustomFrontendInputs>;
