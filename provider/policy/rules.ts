// The rules of the policy pack, as pure functions over the resources of this package (resources.ts):
// each answers the violations it finds, each violation naming the resource, the property and what
// would make it pass. A resource rule sees one resource; a stack rule sees all of them, with the
// property dependencies that tie an unknown id (`@<id>` of an object not created yet, an auth policy's
// id) to the resource it comes from. Nothing here needs @pulumi/policy: index.ts wraps the rules in
// its policy objects, so the rules are tested in-process and the package ships without it.
//
// Unknown values fail closed: a value the preview does not know (UNKNOWN_VALUE, resources.ts) is never
// read as a value. Where the verdict depends on it, a rule reports that it cannot tell (`cannotTell`),
// so a mandatory rule fails the preview; an unknown the stack ties to one of its resources (the id of
// an object not created yet, through the property's dependencies) is that resource's id. The only
// unknowns a rule leaves to a later run are the ones it lists in `defers` (docs/guides/policy-pack.md).
import { X509Certificate } from "node:crypto";
import { computeAccess, type EdgeConfiguration } from "../audit/access";
import { type PlanStep, planConfiguration } from "../audit/preview";
import { type Entity, type Selection, selection, UNKNOWN } from "../audit/roles";
import { CONTROLLER_BUDGET_SECONDS, type ControllerView } from "./controller";
import { isUnknown, known, type PolicyResource, UNKNOWN_VALUE } from "./resources";

export interface Violation {
  message: string;
  /** The resource it is about (a stack rule reports on several). */
  urn: string;
}

/** Each rule's configuration, as the pack's config gives it (defaults filled in by `withDefaults`). */
export interface RuleConfig {
  /** Role attributes that exist outside the stack (identities enrolled elsewhere, routers, ...). */
  externalRoles?: string[];
  /** Auth policy ids outside the stack known to require a second factor. */
  secondFactorAuthPolicyIds?: string[];
  /** A service with any of these role attributes is sensitive. */
  sensitiveAttributes?: string[];
  /** Longest enrollment lifetime, in minutes. */
  maxEnrollmentMinutes?: number;
  /** Whether an enrollment that is re-issued whenever it expires (never lapses) is allowed. */
  allowReissueExpiredEnrollment?: boolean;
  /** Role attributes that make an identity an administrator in this deployment. */
  adminAttributes?: string[];
  maxCertificateDays?: number;
  maxTokenDays?: number;
  /** Whether the roles rule reads the controller when the environment gives access to it. */
  consultController?: boolean;
  /** How long the roles rule's controller look-up may take, in seconds. */
  controllerTimeoutSeconds?: number;
}

/** What a rule may know beyond the stack (index.ts reads it for the rules with `usesController`). */
export interface RuleContext {
  controller?: ControllerView;
}

export type EnforcementLevel = "advisory" | "mandatory" | "disabled";

export interface Rule {
  name: string;
  description: string;
  /** The level unless the pack's config sets another. */
  enforcementLevel: EnforcementLevel;
  /** The JSON schema of its config (the pack's config file), each property with its default. */
  config: Record<string, { type: string; items?: { type: string }; default: unknown; description: string }>;
  /** One resource at a time, or the whole stack. */
  scope: "resource" | "stack";
  /** Reads the controller's objects (when its config's consultController and the environment allow). */
  usesController?: boolean;
  /**
   * The properties it reads, by kind: test/policy-unknowns.test.ts drives the rule with an unknown in
   * each (and checks that it reads no other).
   */
  reads: Record<string, string[]>;
  /** Of those, the ones whose unknown value it leaves to a later run (and why, in the docs). */
  defers?: Record<string, string[]>;
  check(resources: PolicyResource[], config: Required<RuleConfig>, context?: RuleContext): Violation[];
}

const at = (r: PolicyResource, property: string, problem: string, fix: string): Violation => ({
  urn: r.urn,
  message: `${r.kind} "${r.name}" ${property}: ${problem}; to pass, ${fix}`,
});
const of = (resources: PolicyResource[], kind: string) => resources.filter((r) => r.kind === kind);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const DAY_MS = 86_400_000;
const article = (word: string) => (/^[AEIOU]/.test(word) ? `an ${word}` : `a ${word}`);

/** The violation of a rule that cannot judge: `property` is unknown, and the verdict depends on it. */
const cannotTell = (r: PolicyResource, property: string, question: string): Violation =>
  at(
    r,
    property,
    `unknown at preview, so this rule cannot tell whether ${question}`,
    "give it a value known at preview (a literal, config, or an output of an object that already exists), " +
      "or lower the rule's level in the pack config",
  );

/** The value at `path` under `value`: UNKNOWN_VALUE as soon as a step of the way is unknown. */
function valueAt(value: unknown, ...path: string[]): unknown {
  let v: any = value;
  for (const key of path) {
    if (isUnknown(v)) return v;
    v = v !== null && typeof v === "object" ? v[key] : undefined;
  }
  return v;
}

/** The resources of `kind` in the stack that a resource's property is computed from. */
const tiedTo = (r: PolicyResource, property: string, kind: string, resources: PolicyResource[]) =>
  [...new Set(r.propertyDependencies[property] ?? [])].filter((urn) =>
    resources.some((o) => o.urn === urn && o.kind === kind),
  );

/**
 * Whether each unknown role of a role list is the `@<id>` of an object of the stack: the property
 * depends on at least as many objects of the kind it selects as it holds unknown roles (the audit's
 * rule, provider/audit/preview.ts).
 */
const unknownsAreIds = (r: PolicyResource, field: string, kind: string, resources: PolicyResource[]) =>
  list(r.props[field]).filter(isUnknown).length <= tiedTo(r, field, kind, resources).length;

/** A value in the audit's terms (its role matching reads the engine's marker for an unknown). */
function auditValue(value: unknown): any {
  if (isUnknown(value)) return UNKNOWN;
  return Array.isArray(value) ? value.map(auditValue) : value;
}

// ---- Service policies ---------------------------------------------------------------------------

/** Whether a role list holds #all: "maybe" when an unknown role (not an id of the stack) could be it. */
function holdsAll(r: PolicyResource, field: string, resources: PolicyResource[]): Selection {
  const roles = r.props[field];
  if (isUnknown(roles)) return "maybe";
  if (list(roles).includes("#all")) return "yes";
  return unknownsAreIds(r, field, ROLE_KIND[field], resources) ? "no" : "maybe";
}

const allToAll: Rule = {
  name: "frontdoor-no-all-to-all-service-policy",
  description: "No Dial or Bind service policy gives #all identities #all services.",
  enforcementLevel: "mandatory",
  config: {},
  // A stack rule: the properties' dependencies tell an unknown `@<id>` of the stack from an unknown
  // that could be #all (a resource rule does not get them).
  scope: "stack",
  reads: { ServicePolicy: ["identityRoles", "serviceRoles", "type"] },
  check(resources) {
    const out: Violation[] = [];
    for (const r of of(resources, "ServicePolicy")) {
      const identities = holdsAll(r, "identityRoles", resources);
      const services = holdsAll(r, "serviceRoles", resources);
      if (identities === "no" || services === "no") continue;
      const type = r.props.type === "Bind" ? "Bind" : r.props.type === "Dial" ? "Dial" : "Dial or Bind";
      out.push(
        identities === "yes" && services === "yes"
          ? at(
              r,
              "identityRoles, serviceRoles",
              `gives #all identities #all services (${type})`,
              "name the identities or the services it is for by role attribute (#<attribute>) or id (@<id>)",
            )
          : cannotTell(r, "identityRoles, serviceRoles", `it gives #all identities #all services (${type})`),
      );
    }
    return out;
  },
};

/** The role lists of each policy kind, and the kind of object each selects. */
const ROLE_LISTS: Record<string, Record<string, string>> = {
  ServicePolicy: { identityRoles: "Identity", serviceRoles: "Service", postureCheckRoles: "PostureCheck" },
  EdgeRouterPolicy: { identityRoles: "Identity", edgeRouterRoles: "EdgeRouter" },
  ServiceEdgeRouterPolicy: { serviceRoles: "Service", edgeRouterRoles: "EdgeRouter" },
};

const rolesMatch: Rule = {
  name: "frontdoor-policy-roles-match",
  description:
    "Every role list of a policy selects at least one object of the stack, of the controller when the " +
    "environment gives access to it, or a role attribute the config lists as existing outside the stack.",
  // A role that selects nothing grants nothing: a mistake to fix, not an opening, so it warns by default.
  enforcementLevel: "advisory",
  config: {
    externalRoles: {
      type: "array",
      items: { type: "string" },
      default: [],
      description: "Role attributes (without #) that objects outside this stack carry.",
    },
    consultController: {
      type: "boolean",
      default: true,
      description:
        "Read the controller's objects when the environment gives access (ZITI_EDGE_URL, ZITI_IDENTITY_FILE, ...).",
    },
    controllerTimeoutSeconds: {
      type: "number",
      default: CONTROLLER_BUDGET_SECONDS,
      description:
        "How long reading the controller may take in all, in seconds; past it the rule judges the stack alone.",
    },
  },
  scope: "stack",
  usesController: true,
  reads: {
    ServicePolicy: ["identityRoles", "serviceRoles", "postureCheckRoles", "semantic"],
    EdgeRouterPolicy: ["identityRoles", "edgeRouterRoles", "semantic"],
    ServiceEdgeRouterPolicy: ["serviceRoles", "edgeRouterRoles", "semantic"],
    Identity: ["roleAttributes"],
    Service: ["roleAttributes"],
    EdgeRouter: ["roleAttributes"],
    PostureCheck: ["roleAttributes"],
    Ca: ["identityRoles"],
  },
  check(resources, config, context = {}) {
    const out: Violation[] = [];
    const controller =
      context.controller && "objects" in context.controller ? context.controller.objects : undefined;
    const notConsulted =
      context.controller && "unknown" in context.controller
        ? context.controller.unknown
        : "consultController is off";
    // Who can carry an attribute: the stack's objects, identities a CA enrolls with its identityRoles,
    // the controller's objects when known, and whatever the config says exists elsewhere.
    const outside: Entity = { id: "(outside the stack)", roleAttributes: config.externalRoles };
    const entities = (kind: string): Entity[] => [
      ...of(resources, kind).map((r) => ({ id: r.urn, roleAttributes: auditValue(r.props.roleAttributes) })),
      ...(kind === "Identity"
        ? of(resources, "Ca").map((r) => ({ id: r.urn, roleAttributes: auditValue(r.props.identityRoles) }))
        : []),
      ...(controller?.byKind[kind] ?? []),
      outside,
    ];
    for (const policy of resources.filter((r) => r.kind in ROLE_LISTS)) {
      for (const [field, kind] of Object.entries(ROLE_LISTS[policy.kind])) {
        const roles = policy.props[field];
        const question = `it selects ${article(kind)}`;
        if (isUnknown(roles)) {
          out.push(cannotTell(policy, field, question));
          continue;
        }
        // Empty or #all (selects whatever exists): no verdict. An unknown role tied to objects of the
        // stack is their `@<id>`: it selects them. By a known id: the stack's objects have no id in a
        // preview, so an `@<id>` is judged only against the controller's objects.
        if (!Array.isArray(roles) || roles.length === 0 || roles.includes("#all")) continue;
        if (roles.some((role) => typeof role !== "string" && !isUnknown(role))) continue; // check says so
        if (roles.some(isUnknown)) {
          if (!unknownsAreIds(policy, field, kind, resources)) out.push(cannotTell(policy, field, question));
          continue;
        }
        if (!controller && roles.some((role) => role.startsWith("@"))) continue;
        const semantic = isUnknown(policy.props.semantic)
          ? UNKNOWN
          : typeof policy.props.semantic === "string"
            ? policy.props.semantic
            : "AllOf";
        const answers = entities(kind).map((e) => selection(roles, semantic, e));
        if (answers.includes("yes")) continue;
        if (answers.includes("maybe")) {
          out.push(cannotTell(policy, field, `${question} (its semantic or role attributes are unknown)`));
          continue;
        }
        const where = controller
          ? `of this stack or on the controller ${controller.url}`
          : `of this stack (controller not consulted: ${notConsulted})`;
        out.push(
          at(
            policy,
            field,
            `${JSON.stringify(roles)} (${semantic === UNKNOWN ? "semantic unknown at preview" : semantic}) selects no ${kind} ${where}`,
            `give ${article(kind)} of the stack${controller ? " or the controller" : ""} the role attribute(s), correct the roles, or list attributes that ` +
              "exist outside the stack in the pack config externalRoles",
          ),
        );
      }
    }
    return out;
  },
};

// ---- Administrators ---------------------------------------------------------------------------

/** The identities that are, or may be (isAdmin unknown), administrators. */
const admins = (resources: PolicyResource[]) =>
  of(resources, "Identity").filter((r) => r.props.isAdmin === true || isUnknown(r.props.isAdmin));

/** How a message names an admin identity (one whose isAdmin is unknown may be one). */
const adminOf = (r: PolicyResource) =>
  isUnknown(r.props.isAdmin)
    ? "an identity that may be an admin (isAdmin unknown at preview)"
    : "an admin identity";

/**
 * The auth policy an identity uses: a resource of the stack, "default", an id from outside, or
 * UNKNOWN_VALUE when its id is unknown and not tied to an auth policy of the stack.
 */
function authPolicyOf(
  identity: PolicyResource,
  resources: PolicyResource[],
): PolicyResource | "default" | string | typeof UNKNOWN_VALUE {
  const id = identity.props.authPolicyId;
  const from = (identity.propertyDependencies.authPolicyId ?? [])
    .map((urn) => resources.find((r) => r.urn === urn && r.kind === "AuthPolicy"))
    .filter((r): r is PolicyResource => r !== undefined);
  if (from.length === 1) return from[0];
  if (isUnknown(id)) return UNKNOWN_VALUE;
  if (id === undefined || id === null || id === "default") return "default";
  return String(id);
}

const secondFactor: Rule = {
  name: "frontdoor-admin-second-factor",
  description: "An admin identity (isAdmin) uses an auth policy that requires a second factor.",
  enforcementLevel: "mandatory",
  config: {
    secondFactorAuthPolicyIds: {
      type: "array",
      items: { type: "string" },
      default: [],
      description: "Ids of auth policies outside this stack that require a second factor.",
    },
  },
  scope: "stack",
  reads: { Identity: ["isAdmin", "authPolicyId"], AuthPolicy: ["secondary"] },
  check(resources, config) {
    const out: Violation[] = [];
    const fix =
      "point authPolicyId at an AuthPolicy with secondary.requireTotp: true or secondary.requireExtJwtSigner";
    for (const admin of admins(resources)) {
      const policy = authPolicyOf(admin, resources);
      if (isUnknown(policy)) {
        out.push(
          cannotTell(admin, "authPolicyId", `the auth policy of ${adminOf(admin)} requires a second factor`),
        );
      } else if (policy === "default") {
        out.push(
          at(admin, "authPolicyId", `${adminOf(admin)} on the default auth policy (no second factor)`, fix),
        );
      } else if (typeof policy === "string") {
        if (!config.secondFactorAuthPolicyIds.includes(policy))
          out.push(
            at(
              admin,
              "authPolicyId",
              `${adminOf(admin)} on auth policy ${policy}, which is not in this stack and not listed as requiring a second factor`,
              `${fix}, or list the id in the pack config secondFactorAuthPolicyIds`,
            ),
          );
      } else {
        const totp = valueAt(policy.props.secondary, "requireTotp");
        const signer = valueAt(policy.props.secondary, "requireExtJwtSigner");
        // An unknown signer tied to a signer of the stack is that signer's id (not created yet).
        const signerOfStack =
          isUnknown(signer) && tiedTo(policy, "secondary", "ExternalJwtSigner", resources).length > 0;
        if (totp === true || (typeof signer === "string" && signer !== "") || signerOfStack) continue;
        if (isUnknown(totp) || isUnknown(signer))
          out.push(
            cannotTell(policy, "secondary", `it requires a second factor of admin identity "${admin.name}"`),
          );
        else
          out.push(
            at(
              policy,
              "secondary",
              `requires no second factor, yet admin identity "${admin.name}" uses it`,
              "set secondary.requireTotp: true or secondary.requireExtJwtSigner to a signer's id",
            ),
          );
      }
    }
    return out;
  },
};

const noAdminPassword: Rule = {
  name: "frontdoor-admin-no-password",
  description:
    "Where the stack declares certificate login (a CA with isAuthEnabled) or external-JWT login (an " +
    "external JWT signer), admin identities cannot log in with a password.",
  enforcementLevel: "mandatory",
  config: {},
  scope: "stack",
  reads: {
    Ca: ["isAuthEnabled"],
    ExternalJwtSigner: ["enabled"],
    Identity: ["isAdmin", "enrollment", "authPolicyId"],
    AuthPolicy: ["primary"],
  },
  check(resources) {
    // An unknown isAuthEnabled may be true: the stack may declare certificate login.
    const declared = [
      ...of(resources, "Ca").filter(
        (r) => r.props.isAuthEnabled === true || isUnknown(r.props.isAuthEnabled),
      ),
      ...of(resources, "ExternalJwtSigner").filter((r) => r.props.enabled !== false),
    ];
    if (declared.length === 0) return [];
    const because = `the stack declares ${declared.map((r) => `${r.kind} "${r.name}"`).join(", ")}`;
    const out: Violation[] = [];
    for (const admin of admins(resources)) {
      if (isUnknown(admin.props.enrollment))
        out.push(
          cannotTell(admin, "enrollment", `${adminOf(admin)} enrolls with a password, though ${because}`),
        );
      else if (
        admin.props.enrollment &&
        typeof admin.props.enrollment === "object" &&
        "updb" in admin.props.enrollment
      )
        out.push(
          at(
            admin,
            "enrollment.updb",
            `${adminOf(admin)} enrolled with a password, though ${because}`,
            "enroll it with a certificate (enrollment: { ott: true } or { ottca: <CA id> })",
          ),
        );
      const policy = authPolicyOf(admin, resources);
      const passwordFix = "set primary.updb.allowed: false in the auth policy of the admin identity";
      if (isUnknown(policy)) {
        out.push(
          cannotTell(admin, "authPolicyId", `the auth policy of ${adminOf(admin)} allows password login`),
        );
      } else if (typeof policy !== "string") {
        const allowed = valueAt(policy.props.primary, "updb", "allowed");
        if (isUnknown(allowed))
          out.push(
            cannotTell(
              policy,
              "primary.updb.allowed",
              `it allows password login for admin identity "${admin.name}"`,
            ),
          );
        else if (allowed !== false)
          out.push(
            at(
              policy,
              "primary.updb.allowed",
              `allows password login for admin identity "${admin.name}", though ${because}`,
              passwordFix,
            ),
          );
      } else if (policy === "default") {
        out.push(
          at(
            admin,
            "authPolicyId",
            `${adminOf(admin)} on the default auth policy, which allows password login, though ${because}`,
            `point authPolicyId at an AuthPolicy of the stack with primary.updb.allowed: false`,
          ),
        );
      }
    }
    return out;
  },
};

// ---- Sensitive services: the audit's access matrix ----------------------------------------------

/** The Edge kinds the access matrix is computed from. */
const ACCESS_KINDS = new Set([
  "Identity",
  "Service",
  "EdgeRouter",
  "PostureCheck",
  "ServicePolicy",
  "EdgeRouterPolicy",
  "ServiceEdgeRouterPolicy",
]);
const ROLE_KIND: Record<string, string> = {
  identityRoles: "Identity",
  serviceRoles: "Service",
  edgeRouterRoles: "EdgeRouter",
  postureCheckRoles: "PostureCheck",
};

/** The identity that stands for every identity outside the stack: it may carry any attribute. */
const OUTSIDE_IDENTITY = {
  id: "(outside the stack)",
  name: "identities outside this stack",
  roleAttributes: UNKNOWN,
};

/**
 * The stack as the preview steps of the audit's `access --preview` read them: every object new, each
 * named by its URN, with the properties `reads` names (an unknown one as the audit's marker). An
 * object's id is not among the props a policy sees, so an `@<id>` role (known for an existing object,
 * unknown for a new one) is tied to its object through the property's dependencies, as the audit ties
 * unknown ids: a role list whose `@` roles are as many as the objects of the named kind it depends on
 * has them all replaced by UNKNOWN, which planConfiguration resolves.
 */
function planSteps(resources: PolicyResource[], reads: Record<string, string[]>): PlanStep[] {
  const kinds = new Map(resources.map((r) => [r.urn, r.kind]));
  return resources
    .filter((r) => ACCESS_KINDS.has(r.kind))
    .map((r) => {
      const inputs: Record<string, any> = { name: r.name };
      for (const key of reads[r.kind] ?? []) if (key in r.props) inputs[key] = auditValue(r.props[key]);
      for (const [field, kind] of Object.entries(ROLE_KIND)) {
        const roles = inputs[field];
        if (!Array.isArray(roles)) continue;
        const byId = roles.filter((role) => role === UNKNOWN || String(role).startsWith("@"));
        const from = new Set((r.propertyDependencies[field] ?? []).filter((urn) => kinds.get(urn) === kind));
        if (byId.length > 0 && byId.length === from.size)
          inputs[field] = roles.map((role) => (byId.includes(role) ? UNKNOWN : role));
      }
      return {
        op: "create",
        urn: r.urn,
        kind: r.kind,
        inputs,
        dependencies: r.dependencies,
        propertyDependencies: r.propertyDependencies,
      };
    });
}

/** The stack's identities by name, then the one standing for all others. */
const stackFirst = (who: string[]) =>
  [...who].sort(
    (a, b) => Number(a === OUTSIDE_IDENTITY.name) - Number(b === OUTSIDE_IDENTITY.name) || a.localeCompare(b),
  );

const EMPTY: EdgeConfiguration = {
  identities: [OUTSIDE_IDENTITY],
  services: [],
  edgeRouters: [],
  postureChecks: [],
  servicePolicies: [],
  edgeRouterPolicies: [],
  serviceEdgeRouterPolicies: [],
};

/** What the access matrix is computed from (planSteps passes only these to the audit). */
const SENSITIVE_READS: Record<string, string[]> = {
  Identity: ["roleAttributes"],
  Service: ["roleAttributes"],
  PostureCheck: ["roleAttributes"],
  ServicePolicy: ["type", "semantic", "identityRoles", "serviceRoles", "postureCheckRoles"],
  EdgeRouter: ["roleAttributes"],
  EdgeRouterPolicy: ["semantic", "identityRoles", "edgeRouterRoles"],
  ServiceEdgeRouterPolicy: ["semantic", "serviceRoles", "edgeRouterRoles"],
};

const sensitivePosture: Rule = {
  name: "frontdoor-sensitive-service-posture",
  description:
    "A service with a sensitivity attribute can be dialed only through service policies with posture " +
    "checks (computed with the access matrix of `pulumi-frontdoor-audit access`).",
  enforcementLevel: "mandatory",
  config: {
    sensitiveAttributes: {
      type: "array",
      items: { type: "string" },
      default: ["sensitive"],
      description: "Role attributes (without #) that mark a service as sensitive.",
    },
  },
  scope: "stack",
  reads: SENSITIVE_READS,
  check(resources, config) {
    const plan = planConfiguration(EMPTY, planSteps(resources, SENSITIVE_READS));
    // "possible": a grant that unknown values could make counts; routers are not asked for (they are
    // often outside the stack): a grant is a way in as soon as a router joins both ends.
    const matrix = computeAccess(plan.config, "possible");
    const byUrn = new Map(resources.map((r) => [r.urn, r]));
    const resourceOf = (id: string) => byUrn.get(id.replace(/^\(new\) /, ""));
    // A service whose attributes are unknown may be sensitive.
    const sensitivity = (attributes: unknown): Selection => {
      if (!Array.isArray(attributes)) return attributes === UNKNOWN ? "maybe" : "no";
      if (attributes.some((a) => config.sensitiveAttributes.includes(String(a)))) return "yes";
      return attributes.includes(UNKNOWN) ? "maybe" : "no";
    };
    const sensitive = new Map(
      plan.config.services
        .map((s) => [s.id, sensitivity(s.roleAttributes)] as const)
        .filter(([, v]) => v !== "no"),
    );
    // A policy's posture checks count when it certainly selects one: one it selects only if unknown
    // values turn out so (a check's unknown attributes, an unknown role) leaves the question open.
    const planned = new Map(plan.config.servicePolicies.map((p) => [p.id, p]));
    const certainChecks = (policyId: string, checks: { id: string }[]) => {
      const p = planned.get(policyId);
      if (!p) return [];
      const roles = (p.postureCheckRoles ?? []) as string[] | string;
      const semantic = String(p.semantic ?? "AllOf");
      return checks.filter((c) => {
        const check = plan.config.postureChecks.find((o) => o.id === c.id) as Entity | undefined;
        return check !== undefined && selection(roles, semantic, check) === "yes";
      });
    };
    // One violation per policy and service, naming every identity it lets in.
    type Found = { policy: PolicyResource; service: string; who: string[]; open: boolean };
    const found = new Map<string, Found>();
    for (const access of matrix.services.filter((s) => sensitive.has(s.service.id))) {
      for (const grant of access.dial) {
        const who =
          grant.identity.id === OUTSIDE_IDENTITY.id
            ? OUTSIDE_IDENTITY.name
            : `Identity "${resourceOf(grant.identity.id)?.name ?? grant.identity.name}"`;
        for (const granting of grant.policies) {
          if (certainChecks(granting.id, granting.postureChecks).length > 0) continue;
          const policy = resourceOf(granting.id);
          if (!policy) continue;
          // Open: no verdict either way at preview (checks or sensitivity depend on unknowns).
          const open = granting.postureChecks.length > 0 || sensitive.get(access.service.id) === "maybe";
          const key = `${granting.id}\0${access.service.id}`;
          const service = resourceOf(access.service.id)?.name ?? access.service.name;
          const entry = found.get(key) ?? { policy, service, who: [], open };
          entry.who.push(who);
          found.set(key, entry);
        }
      }
    }
    const out = [...found.values()].map(({ policy, service, who, open }) =>
      open
        ? cannotTell(
            policy,
            "postureCheckRoles",
            `it lets ${stackFirst(who).join(", ")} dial sensitive Service "${service}" only through a PostureCheck ` +
              "(the service's role attributes, the policy's roles or a check's role attributes are unknown)",
          )
        : at(
            policy,
            "postureCheckRoles",
            `lets ${stackFirst(who).join(", ")} dial sensitive Service "${service}" without posture checks (it selects no ` +
              "PostureCheck of the stack)",
            "give the policy postureCheckRoles that select a PostureCheck of the stack",
          ),
    );
    return out.sort((a, b) => a.message.localeCompare(b.message));
  },
};

// ---- Enrollments, CAs, signers --------------------------------------------------------------------

const enrollmentExpiry: Rule = {
  name: "frontdoor-enrollment-expiry",
  description:
    "Enrollments expire, within a bound: no identity enrollment re-issued whenever it expires (it never " +
    "lapses), none re-issued for longer than maxEnrollmentMinutes.",
  enforcementLevel: "mandatory",
  config: {
    maxEnrollmentMinutes: {
      type: "number",
      default: 1440,
      description: "Longest lifetime of an enrollment, in minutes.",
    },
    allowReissueExpiredEnrollment: {
      type: "boolean",
      default: false,
      description: "Allow reissueExpiredEnrollment: an enrollment that never lapses.",
    },
  },
  scope: "resource",
  reads: { Identity: ["enrollment", "reissueExpiredEnrollment", "enrollmentMinutes"] },
  check(resources, config) {
    const out: Violation[] = [];
    const max = config.maxEnrollmentMinutes;
    for (const r of of(resources, "Identity").filter((x) => x.props.enrollment)) {
      const reissue = r.props.reissueExpiredEnrollment;
      if (isUnknown(reissue) && !config.allowReissueExpiredEnrollment)
        out.push(cannotTell(r, "reissueExpiredEnrollment", "the enrollment lapses"));
      if (reissue === true && !config.allowReissueExpiredEnrollment)
        out.push(
          at(
            r,
            "reissueExpiredEnrollment",
            "re-issues the enrollment whenever it expires, so it never lapses",
            "remove it (re-issue on purpose with reEnrollmentTrigger) or set allowReissueExpiredEnrollment in the pack config",
          ),
        );
      const minutes = r.props.enrollmentMinutes;
      if (isUnknown(minutes)) out.push(cannotTell(r, "enrollmentMinutes", `it is at most ${max}`));
      if (typeof minutes === "number" && minutes > max)
        out.push(
          at(
            r,
            "enrollmentMinutes",
            `${minutes} minutes is longer than the bound of ${max}`,
            `set enrollmentMinutes to at most ${max}`,
          ),
        );
    }
    return out;
  },
};

const caAutoEnrollment: Rule = {
  name: "frontdoor-ca-auto-enrollment",
  description:
    "A CA with auto-enrollment (isAutoCaEnrollmentEnabled) gives the identities it creates neither an " +
    "admin role attribute nor #all.",
  enforcementLevel: "mandatory",
  config: {
    adminAttributes: {
      type: "array",
      items: { type: "string" },
      default: ["admin"],
      description: "Role attributes (without #) that grant administration in this deployment.",
    },
  },
  scope: "resource",
  reads: { Ca: ["isAutoCaEnrollmentEnabled", "identityRoles"] },
  check(resources, config) {
    const out: Violation[] = [];
    const auto = (r: PolicyResource) => r.props.isAutoCaEnrollmentEnabled;
    for (const ca of of(resources, "Ca").filter((r) => auto(r) === true || isUnknown(auto(r)))) {
      if (!known(ca.props.identityRoles)) {
        out.push(cannotTell(ca, "identityRoles", "auto-enrollment gives an admin attribute or #all"));
        continue;
      }
      const granted = list(ca.props.identityRoles)
        .map(String)
        .filter((role) => {
          const attribute = role.replace(/^#/, "");
          return attribute === "all" || config.adminAttributes.includes(attribute);
        });
      if (granted.length > 0 && isUnknown(auto(ca)))
        out.push(
          cannotTell(
            ca,
            "isAutoCaEnrollmentEnabled",
            `auto-enrollment is off (identityRoles give ${granted.join(", ")})`,
          ),
        );
      else if (granted.length > 0)
        out.push(
          at(
            ca,
            "identityRoles",
            `auto-enrollment gives every identity with a certificate it signed ${granted.join(", ")}`,
            "remove those attributes from identityRoles, or turn isAutoCaEnrollmentEnabled off",
          ),
        );
    }
    return out;
  },
};

const jwksHttps: Rule = {
  name: "frontdoor-jwt-signer-https",
  description: "An external JWT signer reads its keys (jwksEndpoint) over https.",
  enforcementLevel: "mandatory",
  config: {},
  scope: "resource",
  reads: { ExternalJwtSigner: ["jwksEndpoint"] },
  check: (resources) =>
    of(resources, "ExternalJwtSigner")
      .filter((r) => isUnknown(r.props.jwksEndpoint) || typeof r.props.jwksEndpoint === "string")
      .filter((r) => isUnknown(r.props.jwksEndpoint) || !/^https:\/\//i.test(r.props.jwksEndpoint))
      .map((r) =>
        isUnknown(r.props.jwksEndpoint)
          ? cannotTell(r, "jwksEndpoint", "the keys are read over https")
          : at(
              r,
              "jwksEndpoint",
              `${r.props.jwksEndpoint} is not https: anyone on the path can swap the signing keys`,
              "use an https:// URL",
            ),
      ),
};

// ---- Frontdoor ----------------------------------------------------------------------------------

/** How long the service signs a certificate request for (specs: a frontdoor's CA signs for 365 days). */
export const SIGNED_CSR_DAYS = 365;

/** The validity in days of a client certificate: the uploaded PEM's, or the service's for a CSR. */
function certificateDays(props: Record<string, any>): number | undefined {
  const value = props.value;
  if (typeof value !== "string") return undefined;
  if (/-----BEGIN (NEW )?CERTIFICATE REQUEST-----/.test(value)) return SIGNED_CSR_DAYS;
  try {
    const certificate = new X509Certificate(value.trim());
    return (Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)) / DAY_MS;
  } catch {
    return undefined; // not a certificate: the provider's check says so
  }
}

const certificateValidity: Rule = {
  name: "frontdoor-client-certificate-validity",
  description: "A client certificate is valid for at most maxCertificateDays.",
  enforcementLevel: "mandatory",
  config: {
    maxCertificateDays: {
      type: "number",
      default: 398,
      description: "Longest validity of a client certificate, in days.",
    },
  },
  scope: "resource",
  reads: { ClientCertificate: ["value"] },
  check(resources, config) {
    const out: Violation[] = [];
    for (const r of of(resources, "ClientCertificate")) {
      if (isUnknown(r.props.value)) {
        out.push(
          cannotTell(r, "value", `the certificate is valid for at most ${config.maxCertificateDays} days`),
        );
        continue;
      }
      const days = certificateDays(r.props);
      if (days !== undefined && days > config.maxCertificateDays)
        out.push(
          at(
            r,
            "value",
            `the certificate is valid for ${Math.round(days)} days, more than ${config.maxCertificateDays}`,
            `upload a certificate valid for at most ${config.maxCertificateDays} days (or a certificate request)`,
          ),
        );
    }
    return out;
  },
};

const tokenValidity: Rule = {
  name: "frontdoor-request-token-validity",
  description:
    "A certificate request token is usable for at most maxTokenDays (known once the service made it: " +
    "its expiry is not an input, so the rule reads the stack's state).",
  enforcementLevel: "mandatory",
  config: {
    maxTokenDays: {
      type: "number",
      default: 7,
      description: "Longest time a certificate request token stays usable, in days.",
    },
  },
  // Its expiry is an output: only a stack policy sees outputs (a resource policy sees the inputs).
  scope: "stack",
  reads: { CertificateRequestToken: ["createdAt", "expiresAt"] },
  // Outputs the service sets: unknown in the preview of every new token, known once it exists (the
  // stack validation at the end of `pulumi up`, and every later preview, judges them).
  defers: { CertificateRequestToken: ["createdAt", "expiresAt"] },
  check(resources, config) {
    const out: Violation[] = [];
    for (const r of of(resources, "CertificateRequestToken")) {
      const { createdAt, expiresAt } = r.props;
      if (!createdAt || !expiresAt || !known(createdAt) || !known(expiresAt)) continue;
      const days = (Date.parse(expiresAt) - Date.parse(createdAt)) / DAY_MS;
      if (days > config.maxTokenDays)
        out.push(
          at(
            r,
            "expiresAt",
            `the token is usable for ${Math.round(days * 10) / 10} days, more than ${config.maxTokenDays}`,
            "delete the token once its certificate is made (or raise maxTokenDays in the pack config)",
          ),
        );
    }
    return out;
  },
};

const frontendAuth: Rule = {
  name: "frontdoor-custom-frontend-auth",
  description: "A custom frontend names at least one auth provider.",
  enforcementLevel: "mandatory",
  config: {},
  scope: "resource",
  reads: { CustomFrontend: ["authProviderIds"] },
  // A list with unknown ids has a known length: only the whole list unknown leaves the question open.
  check: (resources) =>
    of(resources, "CustomFrontend")
      .filter((r) => isUnknown(r.props.authProviderIds) || list(r.props.authProviderIds).length === 0)
      .map((r) =>
        isUnknown(r.props.authProviderIds)
          ? cannotTell(r, "authProviderIds", "the frontend has an auth provider")
          : at(
              r,
              "authProviderIds",
              "the frontend has no auth provider",
              "list an AuthProvider's id in authProviderIds",
            ),
      ),
};

export const RULES: Rule[] = [
  allToAll,
  rolesMatch,
  secondFactor,
  noAdminPassword,
  sensitivePosture,
  enrollmentExpiry,
  caAutoEnrollment,
  jwksHttps,
  certificateValidity,
  tokenValidity,
  frontendAuth,
];

/** A rule's config: what the pack's config gives, each missing key at its default. */
export function withDefaults(rule: Rule, given: Record<string, unknown>): Required<RuleConfig> {
  const config: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(rule.config)) config[key] = given[key] ?? schema.default;
  return config as Required<RuleConfig>;
}
