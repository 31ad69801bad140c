// The rules of the policy pack, as pure functions over the resources of this package (resources.ts):
// each answers the violations it finds, each violation naming the resource, the property and what
// would make it pass. A resource rule sees one resource; a stack rule sees all of them, with the
// property dependencies that tie an unknown id (`@<id>` of an object not created yet, an auth policy's
// id) to the resource it comes from. Nothing here needs @pulumi/policy: index.ts wraps the rules in
// its policy objects, so the rules are tested in-process and the package ships without it.
import { X509Certificate } from "node:crypto";
import { computeAccess, type EdgeConfiguration } from "../audit/access";
import { type PlanStep, planConfiguration } from "../audit/preview";
import { type Entity, selection, UNKNOWN } from "../audit/roles";
import type { ControllerView } from "./controller";
import { known, type PolicyResource } from "./resources";

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

// ---- Service policies ---------------------------------------------------------------------------

const allToAll: Rule = {
  name: "frontdoor-no-all-to-all-service-policy",
  description: "No Dial or Bind service policy gives #all identities #all services.",
  enforcementLevel: "mandatory",
  config: {},
  scope: "resource",
  check: (resources) =>
    of(resources, "ServicePolicy")
      .filter(
        (r) => list(r.props.identityRoles).includes("#all") && list(r.props.serviceRoles).includes("#all"),
      )
      .map((r) =>
        at(
          r,
          "identityRoles, serviceRoles",
          `gives #all identities #all services (${r.props.type === "Bind" ? "Bind" : r.props.type === "Dial" ? "Dial" : "Dial or Bind"})`,
          "name the identities or the services it is for by role attribute (#<attribute>) or id (@<id>)",
        ),
      ),
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
  },
  scope: "stack",
  usesController: true,
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
      ...of(resources, kind).map((r) => ({ id: r.urn, roleAttributes: r.props.roleAttributes })),
      ...(kind === "Identity"
        ? of(resources, "Ca").map((r) => ({ id: r.urn, roleAttributes: r.props.identityRoles }))
        : []),
      ...(controller?.byKind[kind] ?? []),
      outside,
    ];
    for (const policy of resources.filter((r) => r.kind in ROLE_LISTS)) {
      for (const [field, kind] of Object.entries(ROLE_LISTS[policy.kind])) {
        const roles = policy.props[field];
        // Unknown, empty or #all (selects whatever exists): no verdict. By id: the stack's objects have
        // no id in a preview, so an `@<id>` is judged only against the controller's objects.
        if (!Array.isArray(roles) || roles.length === 0 || !known(roles)) continue;
        if (roles.some((role) => typeof role !== "string" || role === "#all")) continue;
        if (!controller && roles.some((role) => role.startsWith("@"))) continue;
        const semantic = typeof policy.props.semantic === "string" ? policy.props.semantic : "AllOf";
        if (entities(kind).some((e) => selection(roles, semantic, e) !== "no")) continue;
        const where = controller
          ? `of this stack or on the controller ${controller.url}`
          : `of this stack (controller not consulted: ${notConsulted})`;
        out.push(
          at(
            policy,
            field,
            `${JSON.stringify(roles)} (${semantic}) selects no ${kind} ${where}`,
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

const admins = (resources: PolicyResource[]) =>
  of(resources, "Identity").filter((r) => r.props.isAdmin === true);

/** The auth policy an identity uses: a resource of the stack, "default", or an id from outside. */
function authPolicyOf(
  identity: PolicyResource,
  resources: PolicyResource[],
): PolicyResource | "default" | string {
  const id = identity.props.authPolicyId;
  const from = (identity.propertyDependencies.authPolicyId ?? [])
    .map((urn) => resources.find((r) => r.urn === urn && r.kind === "AuthPolicy"))
    .filter((r): r is PolicyResource => r !== undefined);
  if (from.length === 1) return from[0];
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
  check(resources, config) {
    const out: Violation[] = [];
    const fix =
      "point authPolicyId at an AuthPolicy with secondary.requireTotp: true or secondary.requireExtJwtSigner";
    for (const admin of admins(resources)) {
      const policy = authPolicyOf(admin, resources);
      if (policy === "default") {
        out.push(
          at(admin, "authPolicyId", "an admin identity on the default auth policy (no second factor)", fix),
        );
      } else if (typeof policy === "string") {
        if (!config.secondFactorAuthPolicyIds.includes(policy))
          out.push(
            at(
              admin,
              "authPolicyId",
              `an admin identity on auth policy ${policy}, which is not in this stack and not listed as requiring a second factor`,
              `${fix}, or list the id in the pack config secondFactorAuthPolicyIds`,
            ),
          );
      } else {
        const secondary = policy.props.secondary ?? {};
        const signer = secondary.requireExtJwtSigner;
        if (secondary.requireTotp !== true && !(typeof signer === "string" && signer !== ""))
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
  check(resources) {
    const declared = [
      ...of(resources, "Ca").filter((r) => r.props.isAuthEnabled === true),
      ...of(resources, "ExternalJwtSigner").filter((r) => r.props.enabled !== false),
    ];
    if (declared.length === 0) return [];
    const because = `the stack declares ${declared.map((r) => `${r.kind} "${r.name}"`).join(", ")}`;
    const out: Violation[] = [];
    for (const admin of admins(resources)) {
      if (
        admin.props.enrollment &&
        typeof admin.props.enrollment === "object" &&
        "updb" in admin.props.enrollment
      )
        out.push(
          at(
            admin,
            "enrollment.updb",
            `an admin identity enrolled with a password, though ${because}`,
            "enroll it with a certificate (enrollment: { ott: true } or { ottca: <CA id> })",
          ),
        );
      const policy = authPolicyOf(admin, resources);
      const passwordFix = "set primary.updb.allowed: false in the auth policy of the admin identity";
      if (typeof policy !== "string") {
        if (policy.props.primary?.updb?.allowed !== false)
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
            `an admin identity on the default auth policy, which allows password login, though ${because}`,
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
 * named by its URN. An object's id is not among the props a policy sees, so an `@<id>` role (known for
 * an existing object, unknown for a new one) is tied to its object through the property's
 * dependencies, as the audit ties unknown ids: a role list whose `@` roles are as many as the objects
 * of the named kind it depends on has them all replaced by UNKNOWN, which planConfiguration resolves.
 */
function planSteps(resources: PolicyResource[]): PlanStep[] {
  const kinds = new Map(resources.map((r) => [r.urn, r.kind]));
  return resources
    .filter((r) => ACCESS_KINDS.has(r.kind))
    .map((r) => {
      const inputs = { ...r.props };
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
  check(resources, config) {
    const plan = planConfiguration(EMPTY, planSteps(resources));
    // "possible": a grant that unknown values could make counts; routers are not asked for (they are
    // often outside the stack): a grant is a way in as soon as a router joins both ends.
    const matrix = computeAccess(plan.config, "possible");
    const byUrn = new Map(resources.map((r) => [r.urn, r]));
    const resourceOf = (id: string) => byUrn.get(id.replace(/^\(new\) /, ""));
    const sensitive = new Set(
      plan.config.services
        .filter((s) => list(s.roleAttributes).some((a) => config.sensitiveAttributes.includes(String(a))))
        .map((s) => s.id),
    );
    // One violation per policy and service, naming every identity it lets in.
    const found = new Map<string, { policy: PolicyResource; service: string; who: string[] }>();
    for (const access of matrix.services.filter((s) => sensitive.has(s.service.id))) {
      for (const grant of access.dial) {
        const who =
          grant.identity.id === OUTSIDE_IDENTITY.id
            ? OUTSIDE_IDENTITY.name
            : `Identity "${resourceOf(grant.identity.id)?.name ?? grant.identity.name}"`;
        for (const granting of grant.policies.filter((p) => p.postureChecks.length === 0)) {
          const policy = resourceOf(granting.id);
          if (!policy) continue;
          const key = `${granting.id}\0${access.service.id}`;
          const service = resourceOf(access.service.id)?.name ?? access.service.name;
          const entry = found.get(key) ?? { policy, service, who: [] };
          entry.who.push(who);
          found.set(key, entry);
        }
      }
    }
    const out = [...found.values()].map(({ policy, service, who }) =>
      at(
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
  check(resources, config) {
    const out: Violation[] = [];
    const max = config.maxEnrollmentMinutes;
    for (const r of of(resources, "Identity").filter((x) => x.props.enrollment)) {
      if (r.props.reissueExpiredEnrollment === true && !config.allowReissueExpiredEnrollment)
        out.push(
          at(
            r,
            "reissueExpiredEnrollment",
            "re-issues the enrollment whenever it expires, so it never lapses",
            "remove it (re-issue on purpose with reEnrollmentTrigger) or set allowReissueExpiredEnrollment in the pack config",
          ),
        );
      const minutes = r.props.enrollmentMinutes;
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
  check(resources, config) {
    const out: Violation[] = [];
    for (const ca of of(resources, "Ca").filter((r) => r.props.isAutoCaEnrollmentEnabled === true)) {
      const granted = list(ca.props.identityRoles)
        .map(String)
        .filter((role) => {
          const attribute = role.replace(/^#/, "");
          return attribute === "all" || config.adminAttributes.includes(attribute);
        });
      if (granted.length > 0)
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
  check: (resources) =>
    of(resources, "ExternalJwtSigner")
      .filter((r) => typeof r.props.jwksEndpoint === "string" && known(r.props.jwksEndpoint))
      .filter((r) => !/^https:\/\//i.test(r.props.jwksEndpoint))
      .map((r) =>
        at(
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
  if (typeof value !== "string" || !known(value)) return undefined;
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
  check(resources, config) {
    const out: Violation[] = [];
    for (const r of of(resources, "ClientCertificate")) {
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
  check: (resources) =>
    of(resources, "CustomFrontend")
      .filter((r) => known(r.props.authProviderIds) && list(r.props.authProviderIds).length === 0)
      .map((r) =>
        at(
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
