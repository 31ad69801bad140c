// Effective access before a change is applied: the configuration a preview plans (the live Edge
// configuration with the preview's creates, updates, replaces and deletes of Edge objects applied)
// and the access it adds or removes against the live matrix, for the pull request.
//
// A preview knows the declared inputs, not everything: an object not created yet has no id, so an
// `@<id>` role naming it is unknown in the preview. Such an unknown is tied back to the object it
// will come from through the preview's property dependencies (the URNs the value was computed
// from) when that is unambiguous; whatever stays unknown is read both ways (certainly / possibly
// selected) and the grants that depend on it are reported as unknown until applied, not guessed.
//
// Only names, role lists, role attributes, semantics and policy types are read from the preview:
// no other input (a secret among them) can reach the report. Secret values are masked in both
// preview formats ("[secret]"); one in a field that is read counts as unknown.
import { readFileSync } from "node:fs";
import type { EdgeObject } from "../http/edge";
import {
  type AccessDiff,
  type AccessMatrix,
  computeAccess,
  diffAccess,
  diffTable,
  type EdgeConfiguration,
  formatAccessDiffMarkdown,
  type GrantLine,
  grantLines,
} from "./access";
import { UsageError } from "./command";
import { UNKNOWN } from "./roles";

/** One step of a preview, in the terms both preview formats share. */
export interface PlanStep {
  op: string;
  urn: string;
  /** The resource kind (`Identity`, `ServicePolicy`, ...) from the type token. */
  kind: string;
  /** The object the step changes or removes (update, replace, delete). */
  oldId?: string;
  /** The declared inputs (create, update, replace). */
  inputs?: Record<string, unknown>;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
}

/** The Edge collections a preview can change, by resource kind. */
const COLLECTIONS: Record<string, keyof EdgeConfiguration> = {
  Identity: "identities",
  Service: "services",
  EdgeRouter: "edgeRouters",
  PostureCheck: "postureChecks",
  ServicePolicy: "servicePolicies",
  EdgeRouterPolicy: "edgeRouterPolicies",
  ServiceEdgeRouterPolicy: "serviceEdgeRouterPolicies",
};

/** The role lists of a policy, and the kind of object each one names. */
const ROLE_FIELDS: Record<string, string> = {
  identityRoles: "Identity",
  serviceRoles: "Service",
  edgeRouterRoles: "EdgeRouter",
  postureCheckRoles: "PostureCheck",
};

/** What is read from a declared object: nothing else of its inputs is looked at. */
const scalarsOf = (kind: string) =>
  kind === "ServicePolicy" ? ["semantic", "type"] : kind.endsWith("Policy") ? ["semantic"] : [];
const LISTS = ["roleAttributes", ...Object.keys(ROLE_FIELDS)];

/** The steps that create a new object (its id is not known until applied). */
const CREATES = new Set(["create", "replace", "create-replacement"]);
const DELETES = new Set(["delete", "delete-replaced", "replace", "create-replacement"]);

/**
 * The kind of a resource of this package (`Identity`, ...) from its type token,
 * `pulumi-nodejs:dynamic/frontdoor:<Kind>` (in a URN, `urn:pulumi:<stack>::<project>::<type>::<name>`,
 * where a parent's type may precede it: `<parent type>$<type>`); "" for any other resource.
 */
const kindOf = (urn: string, type?: unknown) =>
  /(?:^|[/$])frontdoor:(\w+)$/.exec(String(type ?? urn.split("::")[2] ?? ""))?.[1] ?? "";
const nameOf = (urn: string) => urn.split("::").slice(3).join("::");

/** The id a planned object has until it exists. */
export const plannedId = (urn: string) => `(new) ${urn}`;

const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The steps of a preview document: the real CLI's `pulumi preview --json` (`{steps: [...]}`, each
 * with `oldState`/`newState`) or the harness's `preview --json` report (`{command, resources}`).
 */
export function readPreviewSteps(doc: unknown, file = "the preview"): PlanStep[] {
  const d = record(doc);
  if (Array.isArray(d.resources) && typeof d.command === "string") {
    if (d.command !== "preview")
      throw new UsageError(`--preview ${file}: the report of \`${d.command}\`, not of a preview`);
    if (d.ok === false) throw new UsageError(`--preview ${file}: the preview failed; fix it first`);
    return d.resources.map((raw) => {
      const r = record(raw);
      const urn = String(r.urn ?? "");
      const op = String(r.op ?? "");
      const id = typeof r.id === "string" && r.id ? r.id : undefined;
      return {
        op,
        urn,
        kind: kindOf(urn, r.type),
        oldId: op === "replace" ? (r.oldId as string | undefined) : id,
        inputs: record(r.outputs),
        dependencies: stringList(r.dependencies),
        propertyDependencies: dependencyMap(r.propertyDependencies),
      };
    });
  }
  if (Array.isArray(d.steps) || "changeSummary" in d || "diagnostics" in d) {
    const errors = (Array.isArray(d.diagnostics) ? d.diagnostics : []).filter(
      (x) => record(x).severity === "error",
    );
    // Diagnostics are not repeated: their text is the program's, and may hold anything.
    if (errors.length)
      throw new UsageError(`--preview ${file}: the preview reported ${errors.length} error(s); fix it first`);
    return (Array.isArray(d.steps) ? d.steps : []).map((raw) => {
      const step = record(raw);
      const urn = String(step.urn ?? "");
      const old = record(step.oldState);
      const now = record(step.newState);
      return {
        op: String(step.op ?? ""),
        urn,
        kind: kindOf(urn, now.type ?? old.type),
        oldId: typeof old.id === "string" && old.id ? old.id : undefined,
        inputs: record(now.inputs),
        dependencies: stringList(now.dependencies),
        propertyDependencies: dependencyMap(now.propertyDependencies),
      };
    });
  }
  throw new UsageError(
    `--preview ${file}: not a preview (\`pulumi preview --json\` output or a harness \`preview --json\` report)`,
  );
}

function dependencyMap(v: unknown): Record<string, string[]> {
  return Object.fromEntries(Object.entries(record(v)).map(([k, urns]) => [k, stringList(urns)]));
}

/** A declared value: a string, or UNKNOWN when not known yet, masked as secret, or not a string. */
function scalar(v: unknown): string {
  if (typeof v !== "string" || v === UNKNOWN || v === "[unknown]" || v === "[secret]") return UNKNOWN;
  return v;
}

/** A declared list: absent stays absent (the default applies), a list of scalars, or UNKNOWN. */
function list(v: unknown): string[] | string | undefined {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v.map(scalar) : UNKNOWN;
}

/** A value the plan could not know, by resource and property: the report lists them. */
export interface Unresolved {
  resource: string;
  kind: string;
  property: string;
  /** The objects the preview creates that the value is computed from, when it says so. */
  from?: string[];
}

export interface PlannedConfiguration {
  config: EdgeConfiguration;
  /** Edge steps applied to the live configuration. */
  steps: number;
  unresolved: Unresolved[];
}

/** The live configuration with the preview's steps applied. */
export function planConfiguration(live: EdgeConfiguration, steps: PlanStep[]): PlannedConfiguration {
  const config = Object.fromEntries(
    Object.entries(live).map(([k, objects]) => [k, [...objects]]),
  ) as unknown as EdgeConfiguration;
  const edgeSteps = steps.filter((s) => s.kind in COLLECTIONS);
  // URN -> kind of each object the preview creates: the only objects whose ids are not known.
  const pending = new Map(edgeSteps.filter((s) => CREATES.has(s.op)).map((s) => [s.urn, s.kind]));
  const unresolved: Unresolved[] = [];
  for (const step of edgeSteps) {
    const collection = COLLECTIONS[step.kind];
    const isDelete = DELETES.has(step.op);
    const isCreate = CREATES.has(step.op);
    const isUpdate = step.op === "update";
    if (!isDelete && !isCreate && !isUpdate) continue; // same, read, import, refresh: no change
    if (isDelete && step.oldId) config[collection] = config[collection].filter((o) => o.id !== step.oldId);
    if (!isCreate && !isUpdate) continue;
    const id = isCreate ? plannedId(step.urn) : (step.oldId ?? plannedId(step.urn));
    const object = declaredObject(step, id, pending, unresolved);
    config[collection] = config[collection].filter((o) => o.id !== id).concat(object);
  }
  const changes = edgeSteps.filter((s) => CREATES.has(s.op) || DELETES.has(s.op) || s.op === "update");
  return { config, steps: new Set(changes.map((s) => s.urn)).size, unresolved };
}

/** An Edge object as the management API would list it, from a step's declared inputs. */
function declaredObject(
  step: PlanStep,
  id: string,
  pending: Map<string, string>,
  unresolved: Unresolved[],
): EdgeObject {
  const inputs = step.inputs ?? {};
  const where = (property: string): Unresolved => {
    const from = (step.propertyDependencies[property] ?? []).filter((urn) => pending.has(urn)).map(nameOf);
    return { resource: nameOf(step.urn), kind: step.kind, property, ...(from.length ? { from } : {}) };
  };
  const object: EdgeObject = { id, name: scalar(inputs.name) };
  if (object.name === UNKNOWN) {
    unresolved.push(where("name"));
    object.name = `${nameOf(step.urn)} (name not known until applied)`;
  }
  for (const key of scalarsOf(step.kind)) {
    if (inputs[key] === undefined || inputs[key] === null) continue;
    object[key] = scalar(inputs[key]);
    if (object[key] === UNKNOWN) unresolved.push(where(key));
  }
  for (const key of LISTS) {
    const value = list(inputs[key]);
    if (value === undefined) continue;
    const resolved = key in ROLE_FIELDS ? resolveRoles(value, ROLE_FIELDS[key], step, key, pending) : value;
    object[key] = resolved;
    if (resolved === UNKNOWN || (Array.isArray(resolved) && resolved.includes(UNKNOWN)))
      unresolved.push(where(key));
  }
  return object;
}

/**
 * Unknown roles of a role list, each an `@<id>` of an object the preview creates: resolved when the
 * property depends on exactly as many created objects of the kind the list names as it has unknown
 * roles (a set: which unknown is which does not matter). Otherwise they stay unknown.
 */
function resolveRoles(
  roles: string[] | string,
  kind: string,
  step: PlanStep,
  property: string,
  pending: Map<string, string>,
): string[] | string {
  if (!Array.isArray(roles)) return roles;
  const unknown = roles.filter((r) => r === UNKNOWN).length;
  if (unknown === 0) return roles;
  const from = step.propertyDependencies[property] ?? step.dependencies;
  const created = [...new Set(from)].filter((urn) => pending.get(urn) === kind);
  if (created.length !== unknown) return roles;
  return [...roles.filter((r) => r !== UNKNOWN), ...created.map((urn) => `@${plannedId(urn)}`)];
}

// ---- The predicted change ---------------------------------------------------------------------

/** A grant the preview cannot settle: which way, and through what it could go. */
export interface UnknownGrant {
  /** `may be granted`: not now, maybe after; `may be revoked`: now, maybe not after; `details
   * unknown`: granted after, but the policies, routers or posture checks are not known yet. */
  status: "may be granted" | "may be revoked" | "details unknown";
  /** The grant as it may be after the change (every policy that may grant it). */
  line: GrantLine;
}

export interface PreviewAccess extends AccessDiff {
  unknown: UnknownGrant[];
  /** Declared values not known until applied (each a reason for `unknown`). */
  unresolved: Unresolved[];
  /** Edge objects the preview changes. */
  steps: number;
}

/**
 * The access a preview adds, removes or changes against the live configuration. `added`, `removed`
 * and `changed` are certain whatever the unknowns turn out to be; the rest is in `unknown`.
 */
export function previewAccess(live: EdgeConfiguration, steps: PlanStep[]): PreviewAccess {
  const plan = planConfiguration(live, steps);
  const now: AccessMatrix = computeAccess(live);
  const certain = computeAccess(plan.config, "certain");
  const possible = grantLines(computeAccess(plan.config, "possible"));
  const certainLines = grantLines(certain);
  const diff = diffAccess(now, certain);
  const same = (a: GrantLine, b: GrantLine | undefined) => JSON.stringify(a) === JSON.stringify(b);
  const key = (l: GrantLine) => JSON.stringify([l.service, l.type, l.identity]);
  const result: PreviewAccess = {
    added: diff.added,
    removed: [],
    changed: [],
    unknown: [],
    unresolved: plan.unresolved,
    steps: plan.steps,
  };
  for (const line of diff.removed) {
    const maybe = possible.get(key(line));
    if (maybe) result.unknown.push({ status: "may be revoked", line: maybe });
    else result.removed.push(line);
  }
  for (const change of diff.changed) {
    if (same(change.after, possible.get(key(change.after)))) result.changed.push(change);
  }
  const liveLines = grantLines(now);
  for (const [k, line] of possible) {
    const sure = certainLines.get(k);
    if (!sure) {
      if (!liveLines.has(k)) result.unknown.push({ status: "may be granted", line });
    } else if (!same(sure, line)) result.unknown.push({ status: "details unknown", line });
  }
  return result;
}

/** A preview document from a file, checked enough to fail clearly on a wrong one. */
export function readPreviewFile(file: string): PlanStep[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`--preview ${file}: ${(err as Error).message}`);
  }
  return readPreviewSteps(parsed, file);
}

// ---- Markdown ---------------------------------------------------------------------------------

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** The pull request's comment: the certain changes, then what stays unknown until applied. */
export function formatPreviewAccessMarkdown(access: PreviewAccess): string {
  const title = "## Effective access: what this change adds or removes";
  const out = [formatAccessDiffMarkdown(access, title).trimEnd(), ""];
  out.push(
    `Predicted from the preview (${access.steps} Edge object(s) changed) against the live configuration.`,
    "",
  );
  if (access.unknown.length > 0) {
    out.push("### Unknown until applied", "");
    out.push(...diffTable(access.unknown.map((u) => [u.status, u.line] as const)), "");
  }
  if (access.unresolved.length > 0) {
    out.push(
      "Values the preview does not know (an object not created yet, or a value computed from one): " +
        access.unresolved
          .map((u) => {
            const from = u.from ? ` (computed from ${u.from.map(cell).join(", ")})` : "";
            return `${cell(u.resource)} (${u.kind}) \`${u.property}\`${from}`;
          })
          .join(", "),
      "",
    );
  }
  return out.join("\n");
}
