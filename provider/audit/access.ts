// Effective access: who can reach what, computed from the live Edge configuration. For each service,
// the identities that can dial and bind it, through which service policies, over which edge routers
// (an identity reaches a router through edge router policies, a service through service edge router
// policies; a connection needs a router both reach) and under which posture checks (each granting
// policy's own: a policy grants only while its checks pass, so one policy without checks grants
// freely). `diffAccess` compares two matrices: the access a change adds or removes. A configuration
// planned from a preview (preview.ts) may hold unknown values: `computeAccess` reads it as told.
import { readFileSync } from "node:fs";
import type { EdgeObject } from "../http/edge";
import type { ResourceContext } from "../resource";
import { UsageError } from "./command";
import { type Entity, type Ref, type Selection, selection, UNKNOWN } from "./roles";

export type PolicyType = "Dial" | "Bind";

/** A service policy that grants access, with the posture checks its `postureCheckRoles` select. */
export interface GrantingPolicy extends Ref {
  postureChecks: Ref[];
}

/** One identity's grant of one service (Dial or Bind). */
export interface Grant {
  identity: Ref;
  /** The service policies that grant it; any one of them whose posture checks pass will do. */
  policies: GrantingPolicy[];
  /** Edge routers both the identity and the service may use; empty: no path, the grant is moot. */
  edgeRouters: Ref[];
}

export interface ServiceAccess {
  service: Ref;
  /** Edge routers the service may use (service edge router policies). */
  edgeRouters: Ref[];
  dial: Grant[];
  bind: Grant[];
}

export interface AccessMatrix {
  services: ServiceAccess[];
}

/** The Edge collections the matrix is computed from; each is listed at its name in kebab case. */
const EDGE_COLLECTIONS = [
  "identities",
  "services",
  "edgeRouters",
  "postureChecks",
  "servicePolicies",
  "edgeRouterPolicies",
  "serviceEdgeRouterPolicies",
] as const;

/** What the matrix is computed from: the Edge objects as the management API lists them. */
export type EdgeConfiguration = Record<(typeof EDGE_COLLECTIONS)[number], EdgeObject[]>;

/** Every collection the matrix needs, each read completely (paged). */
export async function readEdgeConfiguration(ctx: ResourceContext): Promise<EdgeConfiguration> {
  const edge = ctx.edge();
  const lists = await Promise.all(
    EDGE_COLLECTIONS.map((key) => {
      const path = `/${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`; // edgeRouters: /edge-routers
      return edge.list(path, undefined, `access: ${path}`);
    }),
  );
  return Object.fromEntries(EDGE_COLLECTIONS.map((key, i) => [key, lists[i]])) as EdgeConfiguration;
}

export async function accessMatrix(ctx: ResourceContext): Promise<AccessMatrix> {
  return computeAccess(await readEdgeConfiguration(ctx));
}

const ref = (o: EdgeObject): Ref => ({ id: o.id, name: String(o.name ?? "") });
const byName = (a: Ref, b: Ref) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
/** A role list: an array, or UNKNOWN in a planned configuration; absent: none. */
const roles = (policy: EdgeObject, field: string) => (policy[field] as string[] | string | null) ?? [];
const semanticOf = (policy: EdgeObject) => String(policy.semantic ?? "AllOf");

/**
 * How a configuration with unknown values (planned from a preview) is read: `certain` keeps what
 * holds whatever the unknowns turn out to be, `possible` everything they could make hold. On a
 * configuration without unknowns both give the same matrix.
 */
export type Reading = "certain" | "possible";
const ACCEPTED: Record<Reading, Selection[]> = { certain: ["yes"], possible: ["yes", "maybe"] };

/** The objects of `among` that a policy's role list selects. */
function selected(policy: EdgeObject, field: string, among: EdgeObject[], reading: Reading): EdgeObject[] {
  const accepted = ACCEPTED[reading];
  return among.filter((o) =>
    accepted.includes(selection(roles(policy, field), semanticOf(policy), o as Entity)),
  );
}

/** The access types a service policy grants: none or both when its type is not known yet. */
function typesOf(policy: EdgeObject, reading: Reading): PolicyType[] {
  if (policy.type === UNKNOWN) return reading === "possible" ? ["Dial", "Bind"] : [];
  return [policy.type === "Bind" ? "Bind" : "Dial"];
}

/** For each object of `subjects`, the routers it reaches through the given router policies. */
function routersOf(
  subjects: EdgeObject[],
  policies: EdgeObject[],
  subjectRoles: string,
  routers: EdgeObject[],
  reading: Reading,
): Map<string, Map<string, EdgeObject>> {
  const reach = new Map(subjects.map((s) => [s.id, new Map<string, EdgeObject>()]));
  for (const policy of policies) {
    const policyRouters = selected(policy, "edgeRouterRoles", routers, reading);
    for (const subject of selected(policy, subjectRoles, subjects, reading)) {
      for (const router of policyRouters) reach.get(subject.id)?.set(router.id, router);
    }
  }
  return reach;
}

/**
 * The matrix from a configuration (pure: the same rules the controller applies to role lists). A
 * planned configuration with unknown values is read as `reading` says (see Reading).
 */
export function computeAccess(config: EdgeConfiguration, reading: Reading = "certain"): AccessMatrix {
  const identityRouters = routersOf(
    config.identities,
    config.edgeRouterPolicies,
    "identityRoles",
    config.edgeRouters,
    reading,
  );
  const serviceRouters = routersOf(
    config.services,
    config.serviceEdgeRouterPolicies,
    "serviceRoles",
    config.edgeRouters,
    reading,
  );
  // service id -> type -> identity id -> the grant being collected
  const grants = new Map<string, Record<PolicyType, Map<string, Grant>>>(
    config.services.map((s) => [s.id, { Dial: new Map(), Bind: new Map() }]),
  );
  for (const policy of config.servicePolicies) {
    const identities = selected(policy, "identityRoles", config.identities, reading);
    const checks = selected(policy, "postureCheckRoles", config.postureChecks, reading).map(ref).sort(byName);
    for (const [type, service] of typesOf(policy, reading).flatMap((t) =>
      selected(policy, "serviceRoles", config.services, reading).map((s) => [t, s] as const),
    )) {
      const byIdentity = grants.get(service.id)?.[type];
      if (!byIdentity) continue;
      for (const identity of identities) {
        let grant = byIdentity.get(identity.id);
        if (!grant) {
          const mine = identityRouters.get(identity.id) ?? new Map();
          const common = [...(serviceRouters.get(service.id)?.values() ?? [])].filter((r) => mine.has(r.id));
          grant = { identity: ref(identity), policies: [], edgeRouters: common.map(ref) };
          byIdentity.set(identity.id, grant);
        }
        grant.policies.push({ ...ref(policy), postureChecks: checks });
      }
    }
  }
  const sortGrants = (m: Map<string, Grant>) =>
    [...m.values()]
      .map((g) => ({
        ...g,
        policies: g.policies.sort(byName),
        edgeRouters: g.edgeRouters.sort(byName),
      }))
      .sort((a, b) => byName(a.identity, b.identity));
  return {
    services: config.services
      .map((service) => ({
        service: ref(service),
        edgeRouters: [...(serviceRouters.get(service.id)?.values() ?? [])].map(ref).sort(byName),
        dial: sortGrants(grants.get(service.id)?.Dial ?? new Map()),
        bind: sortGrants(grants.get(service.id)?.Bind ?? new Map()),
      }))
      .sort((a, b) => byName(a.service, b.service)),
  };
}

// ---- Diff -------------------------------------------------------------------------------------

/** One grant, flattened: what the diff compares. Keyed by names, which survive a replacement. */
export interface GrantLine {
  service: string;
  type: PolicyType;
  identity: string;
  policies: string[];
  /** `<policy>: <check>, ...` for each granting policy, when any of them has posture checks. */
  edgeRouters: string[];
  postureChecks: string[];
}

export interface AccessDiff {
  added: GrantLine[];
  removed: GrantLine[];
  /** The same grant through other policies, routers or posture checks: before and after. */
  changed: { before: GrantLine; after: GrantLine }[];
}

/** Each grant of a matrix as a line, keyed by service, type and identity names. */
export function grantLines(matrix: AccessMatrix): Map<string, GrantLine> {
  const lines = new Map<string, GrantLine>();
  for (const s of matrix.services) {
    for (const [type, grants] of [
      ["Dial", s.dial],
      ["Bind", s.bind],
    ] as const) {
      for (const g of grants) {
        const line: GrantLine = {
          service: s.service.name,
          type,
          identity: g.identity.name,
          policies: g.policies.map((r) => r.name),
          edgeRouters: g.edgeRouters.map((r) => r.name),
          postureChecks: postureLines(g.policies),
        };
        lines.set(JSON.stringify([line.service, type, line.identity]), line);
      }
    }
  }
  return lines;
}

/** Each policy's checks, or nothing when no granting policy has any (access needs no posture). */
function postureLines(policies: GrantingPolicy[]): string[] {
  if (policies.every((p) => p.postureChecks.length === 0)) return [];
  return policies.map((p) => `${p.name}: ${p.postureChecks.map((c) => c.name).join(", ") || "none"}`);
}

export function diffAccess(before: AccessMatrix, after: AccessMatrix): AccessDiff {
  const old = grantLines(before);
  const now = grantLines(after);
  const diff: AccessDiff = { added: [], removed: [], changed: [] };
  for (const [key, line] of now) {
    const was = old.get(key);
    if (!was) diff.added.push(line);
    else if (JSON.stringify(was) !== JSON.stringify(line)) diff.changed.push({ before: was, after: line });
  }
  for (const [key, line] of old) if (!now.has(key)) diff.removed.push(line);
  return diff;
}

export function isEmptyDiff(diff: AccessDiff): boolean {
  return diff.added.length + diff.removed.length + diff.changed.length === 0;
}

// ---- Markdown ---------------------------------------------------------------------------------

/** Pipes and newlines would break a table row. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const names = (refs: { name: string }[] | string[], none = "—") =>
  refs.length === 0 ? none : refs.map((r) => cell(typeof r === "string" ? r : r.name)).join(", ");

const posture = (lines: string[]) => (lines.length === 0 ? "—" : lines.map(cell).join("; "));

/** A table per service: who may dial and bind it, through what. */
export function formatAccessMarkdown(matrix: AccessMatrix): string {
  const out = ["## Effective access", ""];
  if (matrix.services.length === 0) out.push("No services.", "");
  for (const s of matrix.services) {
    out.push(`### ${cell(s.service.name)}`, "");
    out.push(`Edge routers of the service: ${names(s.edgeRouters, "none")}`, "");
    const rows = [...s.dial.map((g) => ["Dial", g] as const), ...s.bind.map((g) => ["Bind", g] as const)];
    if (rows.length === 0) {
      out.push("Nobody can dial or bind it.", "");
      continue;
    }
    out.push(
      "| Identity | Access | Service policies | Common edge routers | Posture checks |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const [type, g] of rows) {
      const routers = g.edgeRouters.length === 0 ? "**none** (no path)" : names(g.edgeRouters);
      out.push(
        `| ${cell(g.identity.name)} | ${type} | ${names(g.policies)} | ${routers} | ${posture(postureLines(g.policies))} |`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}

export function formatAccessDiffMarkdown(diff: AccessDiff, title = "## Effective access: changes"): string {
  const out = [title, ""];
  if (isEmptyDiff(diff)) return [...out, "No access is added or removed.", ""].join("\n");
  out.push(
    ...diffTable([
      ...diff.added.map((l) => ["added", l] as const),
      ...diff.removed.map((l) => ["removed", l] as const),
      ...diff.changed.flatMap((c) => [["was", c.before] as const, ["now", c.after] as const]),
    ]),
  );
  out.push(
    "",
    `${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed.`,
    "",
  );
  return out.join("\n");
}

/** A table of grant lines, each with a mark (added, removed, was, now, ...) in the first column. */
export function diffTable(rows: (readonly [string, GrantLine])[]): string[] {
  const out = [
    "| | Service | Access | Identity | Service policies | Common edge routers | Posture checks |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const [mark, l] of rows) {
    const routers = l.edgeRouters.length === 0 ? "**none** (no path)" : names(l.edgeRouters);
    out.push(
      `| ${mark} | ${cell(l.service)} | ${l.type} | ${cell(l.identity)} | ${names(l.policies)} | ${routers} | ${posture(l.postureChecks)} |`,
    );
  }
  return out;
}

/** A matrix saved with `access --json`, checked enough to fail clearly on a wrong file. */
export function readSavedMatrix(file: string): AccessMatrix {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`--before ${file}: ${(err as Error).message}`);
  }
  const services = (parsed as { services?: unknown })?.services;
  if (!Array.isArray(services))
    throw new UsageError(`--before ${file}: not a matrix saved with \`access --json\` (no "services" list)`);
  return parsed as AccessMatrix;
}
