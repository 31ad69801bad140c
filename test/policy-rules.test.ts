// The policy pack's rules in-process (provider/policy): each rule on resources written to break it and
// on their fix, in both shapes a resource reaches a policy (the plugin's `frontdoor:index:<Kind>`, the
// dynamic provider's `pulumi-nodejs:dynamic/frontdoor:<Kind>`), unknown preview values, and the access
// rule agreeing with the audit's access matrix. test/policy-pack.test.ts runs them through the real CLI.
import assert from "node:assert/strict";
import { computeAccess } from "../provider/audit/access";
import { UNKNOWN } from "../provider/audit/roles";
import { frontdoorPolicies } from "../provider/policy";
import { NO_ACCESS } from "../provider/policy/controller";
import {
  type AnalyzedResource,
  kindOf,
  plain,
  policyResource,
  UNKNOWN_VALUE,
} from "../provider/policy/resources";
import { RULES, SIGNED_CSR_DAYS, withDefaults } from "../provider/policy/rules";
import { csrPem, selfSignedPem } from "./frontdoor-pki";

type Host = "plugin" | "dynamic";
const typeOf = (kind: string, host: Host) =>
  host === "plugin" ? `frontdoor:index:${kind}` : `pulumi-nodejs:dynamic/frontdoor:${kind}`;
const urnOf = (kind: string, name: string, host: Host = "dynamic") =>
  `urn:pulumi:dev::p::${typeOf(kind, host)}::${name}`;

interface Declared {
  kind: string;
  name: string;
  props: Record<string, unknown>;
  /** Property -> the names of the resources its value comes from. */
  deps?: Record<string, string[]>;
}

/** The resources as @pulumi/policy hands them to a stack policy. */
function analyzed(declared: Declared[], host: Host = "dynamic"): AnalyzedResource[] {
  const urnByName = new Map(declared.map((d) => [d.name, urnOf(d.kind, d.name, host)]));
  return declared.map((d) => ({
    type: typeOf(d.kind, host),
    urn: urnOf(d.kind, d.name, host),
    name: d.name,
    props: host === "dynamic" ? { ...d.props, __provider: 'exports.handler = require("x")' } : d.props,
    propertyDependencies: Object.fromEntries(
      Object.entries(d.deps ?? {}).map(([k, names]) => [k, names.map((n) => ({ urn: urnByName.get(n)! }))]),
    ),
  }));
}

/** The messages of every policy (run as the pack runs them) over the resources. */
function violations(declared: Declared[], host: Host = "dynamic", config: Record<string, unknown> = {}) {
  const resources = analyzed(declared, host);
  const found: { policy: string; message: string; urn?: string }[] = [];
  for (const policy of frontdoorPolicies()) {
    const getConfig = <T>() => config as T;
    const report = (message: string, urn?: string) => found.push({ policy: policy.name, message, urn });
    if (policy.validateResource)
      for (const r of resources) policy.validateResource({ ...r, getConfig }, report);
    // Synchronous: the environment gives no controller to read (the roles rule would return a promise).
    assert.ok(
      !(policy.validateStack?.({ resources, getConfig }, report) instanceof Promise),
      "ZITI_EDGE_URL set",
    );
  }
  return found;
}
const of = (found: ReturnType<typeof violations>, policy: string) =>
  found.filter((v) => v.policy === policy).map((v) => v.message);

const identity = (name: string, props: Record<string, unknown> = {}, deps?: Declared["deps"]): Declared => ({
  kind: "Identity",
  name,
  props: { name, roleAttributes: [], ...props },
  deps,
});
const service = (name: string, roleAttributes: string[]): Declared => ({
  kind: "Service",
  name,
  props: { name, roleAttributes },
});
const servicePolicy = (name: string, props: Record<string, unknown>, deps?: Declared["deps"]): Declared => ({
  kind: "ServicePolicy",
  name,
  props: { name, type: "Dial", ...props },
  deps,
});

describe("policy pack rules (in-process)", () => {
  it("tells our resources by their type token in both hosts, and nobody else's", () => {
    assert.equal(kindOf("frontdoor:index:ServicePolicy"), "ServicePolicy");
    assert.equal(kindOf("pulumi-nodejs:dynamic/frontdoor:ServicePolicy"), "ServicePolicy");
    assert.equal(kindOf("pulumi-nodejs:dynamic:Resource"), undefined);
    assert.equal(kindOf("pulumi-nodejs:dynamic/other:ServicePolicy"), undefined);
    assert.equal(kindOf("aws:s3/bucket:Bucket"), undefined);
    assert.equal(kindOf("pulumi:providers:frontdoor"), undefined);
  });

  it("reads props as plain data: every unknown sentinel as UNKNOWN, secrets unwrapped, proxies looked behind", () => {
    class Secret {
      constructor(readonly value: unknown) {}
    }
    const target = {
      roles: ["#a", "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2"],
      flag: "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
      s: new Secret("shh"),
    };
    // As @pulumi/policy's proxy answers: its marker keys, and a throw on any other read of an unknown.
    const proxy = new Proxy(target, {
      get: (o, p) => {
        if (p === "__isSpecialProxy") return true;
        if (p === "__getSpecialProxyTarget") return o;
        throw new Error(`read ${String(p)} through the proxy`);
      },
    });
    // Unknown as a symbol, not as the marker string: no rule can compare it as one.
    assert.deepEqual(plain(proxy), { roles: ["#a", UNKNOWN_VALUE], flag: UNKNOWN_VALUE, s: "shh" });
  });

  it("a role attribute that is Pulumi's unknown marker does not silence the posture and roles rules", () => {
    // The security review's case: the marker string as a literal posture check attribute. It reaches
    // the pack as an unknown (the engine's wire format cannot tell them apart): the rules cannot tell
    // whether the policy requires the check, and say so, instead of passing.
    const marker = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const stack: Declared[] = [
      identity("alice", { roleAttributes: ["eng"] }),
      service("payroll", ["sensitive"]),
      { kind: "PostureCheck", name: "mfa", props: { name: "mfa", roleAttributes: [marker] } },
      servicePolicy("dial", {
        identityRoles: ["#eng"],
        serviceRoles: ["#sensitive"],
        postureCheckRoles: ["#mfa"],
      }),
    ];
    const found = violations(stack);
    assert.deepEqual(of(found, "frontdoor-sensitive-service-posture").length, 1, JSON.stringify(found));
    assert.match(
      of(found, "frontdoor-sensitive-service-posture")[0],
      /^ServicePolicy "dial" postureCheckRoles: unknown at preview, so this rule cannot tell whether it lets Identity "alice", identities outside this stack dial sensitive Service "payroll" only through a PostureCheck/,
    );
    assert.deepEqual(of(found, "frontdoor-policy-roles-match").length, 1, JSON.stringify(found));
    assert.match(
      of(found, "frontdoor-policy-roles-match")[0],
      /^ServicePolicy "dial" postureCheckRoles: unknown at preview, so this rule cannot tell whether it selects a PostureCheck/,
    );
    for (const v of found) assert.ok(!v.message.includes(marker), v.message);
  });

  it("every rule has a name, a description, a level and a default for each config key", () => {
    const names = RULES.map((r) => r.name);
    assert.equal(new Set(names).size, names.length);
    for (const rule of RULES) {
      assert.match(rule.name, /^frontdoor-[a-z-]+$/);
      assert.ok(rule.description.length > 20);
      assert.ok(["advisory", "mandatory"].includes(rule.enforcementLevel));
      for (const [key, schema] of Object.entries(rule.config))
        assert.deepEqual(withDefaults(rule, {})[key as never], schema.default);
    }
    const policies = frontdoorPolicies({ enforcementLevel: "advisory" });
    assert.ok(policies.every((p) => p.enforcementLevel === "advisory"));
  });

  for (const host of ["plugin", "dynamic"] as const) {
    describe(`on ${host} resources`, () => {
      it("no #all identities to #all services", () => {
        const bad = violations(
          [servicePolicy("open", { identityRoles: ["#all"], serviceRoles: ["#all"] })],
          host,
        );
        assert.deepEqual(of(bad, "frontdoor-no-all-to-all-service-policy"), [
          'ServicePolicy "open" identityRoles, serviceRoles: gives #all identities #all services (Dial); ' +
            "to pass, name the identities or the services it is for by role attribute (#<attribute>) or id (@<id>)",
        ]);
        const fixed = violations(
          [
            servicePolicy("open", { identityRoles: ["#all"], serviceRoles: ["#web"] }),
            service("web", ["web"]),
          ],
          host,
        );
        assert.deepEqual(of(fixed, "frontdoor-no-all-to-all-service-policy"), []);
      });

      it("role lists that select nothing in the stack; CA roles and externalRoles count", () => {
        const stack = [
          identity("alice", { roleAttributes: ["eng"] }),
          service("web", ["web"]),
          servicePolicy("p", { identityRoles: ["#eng", "#contractors"], serviceRoles: ["#web"] }),
          servicePolicy("q", { semantic: "AnyOf", identityRoles: ["#eng", "#x"], serviceRoles: ["#db"] }),
        ];
        const bad = of(violations(stack, host), "frontdoor-policy-roles-match");
        assert.deepEqual(bad, [
          'ServicePolicy "p" identityRoles: ["#eng","#contractors"] (AllOf) selects no Identity of this stack ' +
            `(controller not consulted: ${NO_ACCESS}); ` +
            "to pass, give an Identity of the stack the role attribute(s), correct the roles, or list attributes " +
            "that exist outside the stack in the pack config externalRoles",
          'ServicePolicy "q" serviceRoles: ["#db"] (AnyOf) selects no Service of this stack ' +
            `(controller not consulted: ${NO_ACCESS}); to pass, give a ` +
            "Service of the stack the role attribute(s), correct the roles, or list attributes that exist " +
            "outside the stack in the pack config externalRoles",
        ]);
        const ca: Declared = {
          kind: "Ca",
          name: "ca",
          props: { isAutoCaEnrollmentEnabled: true, identityRoles: ["eng", "contractors"] },
        };
        const fixed = violations([...stack, ca], host, { externalRoles: ["db"] });
        assert.deepEqual(of(fixed, "frontdoor-policy-roles-match"), []);
      });

      it("role lists judged against the controller's objects too (attributes and @ids) when it is known", () => {
        const rule = RULES.find((r) => r.name === "frontdoor-policy-roles-match")!;
        const policies = (identityRoles: string[], serviceRoles: string[]) =>
          analyzed(
            [
              identity("alice", { roleAttributes: ["eng"] }),
              servicePolicy("p", { identityRoles, serviceRoles }),
            ],
            host,
          ).map((r) => policyResource(r)!);
        const controller = {
          objects: {
            url: "https://ctrl.example:1280",
            byKind: {
              Identity: [{ id: "id-1", roleAttributes: ["contractors"] }],
              Service: [{ id: "svc-1" }],
            },
          },
        };
        const check = (roles: [string[], string[]], context: Parameters<typeof rule.check>[2]) =>
          rule.check(policies(...roles), withDefaults(rule, {}), context).map((v) => v.message);
        assert.deepEqual(check([["#contractors"], ["@svc-1"]], { controller }), []);
        assert.deepEqual(check([["#nobody"], ["@svc-2"]], { controller }), [
          'ServicePolicy "p" identityRoles: ["#nobody"] (AllOf) selects no Identity of this stack or on the ' +
            "controller https://ctrl.example:1280; to pass, give an Identity of the stack or the controller the " +
            "role attribute(s), correct the roles, or list attributes that exist outside the stack in the pack " +
            "config externalRoles",
          'ServicePolicy "p" serviceRoles: ["@svc-2"] (AllOf) selects no Service of this stack or on the ' +
            "controller https://ctrl.example:1280; to pass, give a Service of the stack or the controller the " +
            "role attribute(s), correct the roles, or list attributes that exist outside the stack in the pack " +
            "config externalRoles",
        ]);
        // Not known: the stack alone, ids not judged, and the message says why.
        const unknown = { controller: { unknown: "the controller could not be read: refused" } };
        assert.deepEqual(check([["#contractors"], ["@svc-1"]], unknown), [
          'ServicePolicy "p" identityRoles: ["#contractors"] (AllOf) selects no Identity of this stack ' +
            "(controller not consulted: the controller could not be read: refused); to pass, give an Identity of " +
            "the stack the role attribute(s), correct the roles, or list attributes that exist outside the stack " +
            "in the pack config externalRoles",
        ]);
      });

      it("admin identities need an auth policy with a second factor, found through the property's dependencies", () => {
        const weak: Declared = { kind: "AuthPolicy", name: "weak", props: { name: "weak", secondary: {} } };
        const stack = [
          identity("root", { isAdmin: true }),
          identity("ops", { isAdmin: true, authPolicyId: UNKNOWN }, { authPolicyId: ["weak"] }),
          identity("ext", { isAdmin: true, authPolicyId: "ap-elsewhere" }),
          identity("user", { isAdmin: false }),
          weak,
        ];
        assert.deepEqual(of(violations(stack, host), "frontdoor-admin-second-factor"), [
          'Identity "root" authPolicyId: an admin identity on the default auth policy (no second factor); ' +
            "to pass, point authPolicyId at an AuthPolicy with secondary.requireTotp: true or secondary.requireExtJwtSigner",
          'AuthPolicy "weak" secondary: requires no second factor, yet admin identity "ops" uses it; to pass, ' +
            "set secondary.requireTotp: true or secondary.requireExtJwtSigner to a signer's id",
          'Identity "ext" authPolicyId: an admin identity on auth policy ap-elsewhere, which is not in this stack ' +
            "and not listed as requiring a second factor; to pass, point authPolicyId at an AuthPolicy with " +
            "secondary.requireTotp: true or secondary.requireExtJwtSigner, or list the id in the pack config " +
            "secondFactorAuthPolicyIds",
        ]);
        // The id of a signer of the stack not created yet: unknown, tied to it by the dependency.
        const strong: Declared = {
          ...weak,
          props: { name: "weak", secondary: { requireExtJwtSigner: UNKNOWN } },
          deps: { secondary: ["signer"] },
        };
        const signer: Declared = { kind: "ExternalJwtSigner", name: "signer", props: { name: "signer" } };
        const fixed = [
          identity("root", { isAdmin: true, authPolicyId: "x" }, { authPolicyId: ["weak"] }),
          identity("ops", { isAdmin: true, authPolicyId: UNKNOWN }, { authPolicyId: ["weak"] }),
          identity("ext", { isAdmin: true, authPolicyId: "ap-elsewhere" }),
          strong,
          signer,
        ];
        assert.deepEqual(
          of(
            violations(fixed, host, { secondFactorAuthPolicyIds: ["ap-elsewhere"] }),
            "frontdoor-admin-second-factor",
          ),
          [],
        );
      });

      it("no password login for admins where the stack declares certificate or external-JWT login", () => {
        const ap: Declared = { kind: "AuthPolicy", name: "ap", props: { secondary: { requireTotp: true } } };
        const admin = identity(
          "root",
          { isAdmin: true, enrollment: { updb: "root" } },
          { authPolicyId: ["ap"] },
        );
        const signer: Declared = {
          kind: "ExternalJwtSigner",
          name: "sso",
          props: { jwksEndpoint: "https://x" },
        };
        // Without certificate or JWT login in the stack, a password is the only way in: no finding.
        assert.deepEqual(of(violations([admin, ap], host), "frontdoor-admin-no-password"), []);
        assert.deepEqual(of(violations([admin, ap, signer], host), "frontdoor-admin-no-password"), [
          'Identity "root" enrollment.updb: an admin identity enrolled with a password, though the stack declares ' +
            'ExternalJwtSigner "sso"; to pass, enroll it with a certificate (enrollment: { ott: true } or { ottca: <CA id> })',
          'AuthPolicy "ap" primary.updb.allowed: allows password login for admin identity "root", though the stack ' +
            'declares ExternalJwtSigner "sso"; to pass, set primary.updb.allowed: false in the auth policy of the admin identity',
        ]);
        const fixed = [
          { ...admin, props: { isAdmin: true, enrollment: { ott: true } } },
          { ...ap, props: { ...ap.props, primary: { updb: { allowed: false } } } },
          signer,
        ];
        assert.deepEqual(of(violations(fixed, host), "frontdoor-admin-no-password"), []);
      });

      it("sensitive services only through policies with posture checks, read from the audit's access matrix", () => {
        const check: Declared = {
          kind: "PostureCheck",
          name: "mfa",
          props: { name: "mfa", roleAttributes: ["mfa"] },
        };
        const stack = [
          identity("alice", { roleAttributes: ["eng"] }),
          identity("bob"),
          service("payroll", ["sensitive"]),
          service("wiki", []),
          check,
          // by attribute: alice and identities outside the stack; no posture check
          servicePolicy("eng-payroll", { identityRoles: ["#eng"], serviceRoles: ["#sensitive"] }),
          // by ids of objects of the stack (unknown in a preview of new ones): bob to payroll
          servicePolicy(
            "bob-payroll",
            {
              identityRoles: [UNKNOWN],
              serviceRoles: ["@existing-id-of-payroll"],
              postureCheckRoles: ["#nope"],
            },
            { identityRoles: ["bob"], serviceRoles: ["payroll"] },
          ),
          servicePolicy("checked", {
            identityRoles: ["#eng"],
            serviceRoles: ["#sensitive"],
            postureCheckRoles: ["#mfa"],
          }),
          servicePolicy(
            "wiki",
            { identityRoles: ["#all"], serviceRoles: ["@wiki-id"] },
            { serviceRoles: ["wiki"] },
          ),
        ];
        assert.deepEqual(of(violations(stack, host), "frontdoor-sensitive-service-posture"), [
          'ServicePolicy "bob-payroll" postureCheckRoles: lets Identity "bob" dial sensitive Service "payroll" ' +
            "without posture checks (it selects no PostureCheck of the stack); to pass, give the policy " +
            "postureCheckRoles that select a PostureCheck of the stack",
          'ServicePolicy "eng-payroll" postureCheckRoles: lets Identity "alice", identities outside this stack dial sensitive Service "payroll" ' +
            "without posture checks (it selects no PostureCheck of the stack); to pass, give the policy " +
            "postureCheckRoles that select a PostureCheck of the stack",
        ]);
        // Another sensitivity attribute: payroll is no longer sensitive.
        assert.deepEqual(
          of(
            violations(stack, host, { sensitiveAttributes: ["secret"] }),
            "frontdoor-sensitive-service-posture",
          ),
          [],
        );
        const fixed = stack.map((d) =>
          d.kind === "ServicePolicy" ? { ...d, props: { ...d.props, postureCheckRoles: ["#mfa"] } } : d,
        );
        assert.deepEqual(of(violations(fixed, host), "frontdoor-sensitive-service-posture"), []);
      });

      it("enrollments: re-issued forever, or longer than the bound", () => {
        const stack = [
          identity("a", {
            enrollment: { ott: true },
            reissueExpiredEnrollment: true,
            enrollmentMinutes: 2000,
          }),
          identity("b", { enrollmentMinutes: 2000 }), // no enrollment declared: nothing is issued
        ];
        const found = of(violations(stack, host), "frontdoor-enrollment-expiry");
        assert.deepEqual(found, [
          'Identity "a" reissueExpiredEnrollment: re-issues the enrollment whenever it expires, so it never lapses; ' +
            "to pass, remove it (re-issue on purpose with reEnrollmentTrigger) or set allowReissueExpiredEnrollment in the pack config",
          'Identity "a" enrollmentMinutes: 2000 minutes is longer than the bound of 1440; to pass, set enrollmentMinutes to at most 1440',
        ]);
        const config = { maxEnrollmentMinutes: 5000, allowReissueExpiredEnrollment: true };
        assert.deepEqual(of(violations(stack, host, config), "frontdoor-enrollment-expiry"), []);
      });

      it("CAs with auto-enrollment that grant admin or #all; signers whose JWKS endpoint is not https", () => {
        const stack: Declared[] = [
          {
            kind: "Ca",
            name: "ca",
            props: { isAutoCaEnrollmentEnabled: true, identityRoles: ["admin", "all", "eng"] },
          },
          {
            kind: "Ca",
            name: "manual",
            props: { isAutoCaEnrollmentEnabled: false, identityRoles: ["admin"] },
          },
          { kind: "ExternalJwtSigner", name: "idp", props: { jwksEndpoint: "http://idp.example.com/jwks" } },
          { kind: "ExternalJwtSigner", name: "computed", props: { jwksEndpoint: UNKNOWN } },
        ];
        const found = violations(stack, host);
        assert.deepEqual(of(found, "frontdoor-ca-auto-enrollment"), [
          'Ca "ca" identityRoles: auto-enrollment gives every identity with a certificate it signed admin, all; ' +
            "to pass, remove those attributes from identityRoles, or turn isAutoCaEnrollmentEnabled off",
        ]);
        assert.deepEqual(of(found, "frontdoor-jwt-signer-https"), [
          'ExternalJwtSigner "idp" jwksEndpoint: http://idp.example.com/jwks is not https: anyone on the path ' +
            "can swap the signing keys; to pass, use an https:// URL",
          // Unknown at preview: the rule cannot tell, and says so (fails closed).
          'ExternalJwtSigner "computed" jwksEndpoint: unknown at preview, so this rule cannot tell whether the ' +
            "keys are read over https; to pass, give it a value known at preview (a literal, config, or an output " +
            "of an object that already exists), or lower the rule's level in the pack config",
        ]);
        const fixed: Declared[] = [
          { kind: "Ca", name: "ca", props: { isAutoCaEnrollmentEnabled: true, identityRoles: ["eng"] } },
          { kind: "ExternalJwtSigner", name: "idp", props: { jwksEndpoint: "https://idp.example.com/jwks" } },
        ];
        const clean = violations(fixed, host);
        assert.deepEqual(of(clean, "frontdoor-ca-auto-enrollment"), []);
        assert.deepEqual(of(clean, "frontdoor-jwt-signer-https"), []);
      });

      it("client certificates and request tokens valid past a bound; custom frontends without an auth provider", () => {
        const created = "2026-01-01T00:00:00.000Z";
        const stack: Declared[] = [
          { kind: "ClientCertificate", name: "long", props: { value: selfSignedPem("long", 800) } },
          { kind: "ClientCertificate", name: "csr", props: { value: csrPem("csr") } },
          {
            kind: "CertificateRequestToken",
            name: "tok",
            props: { createdAt: created, expiresAt: "2026-01-31T00:00:00.000Z" },
          },
          { kind: "CertificateRequestToken", name: "new", props: { createdAt: UNKNOWN, expiresAt: UNKNOWN } },
          { kind: "CustomFrontend", name: "fe", props: { hostname: "apps.example.com" } },
          {
            kind: "CustomFrontend",
            name: "computed",
            props: { hostname: "b.example.com", authProviderIds: UNKNOWN },
          },
        ];
        const found = violations(stack, host);
        assert.deepEqual(of(found, "frontdoor-client-certificate-validity"), [
          'ClientCertificate "long" value: the certificate is valid for 800 days, more than 398; to pass, upload ' +
            "a certificate valid for at most 398 days (or a certificate request)",
        ]);
        assert.deepEqual(of(found, "frontdoor-request-token-validity"), [
          'CertificateRequestToken "tok" expiresAt: the token is usable for 30 days, more than 7; to pass, delete ' +
            "the token once its certificate is made (or raise maxTokenDays in the pack config)",
        ]);
        assert.deepEqual(of(found, "frontdoor-custom-frontend-auth"), [
          'CustomFrontend "fe" authProviderIds: the frontend has no auth provider; to pass, list an AuthProvider\'s ' +
            "id in authProviderIds",
          'CustomFrontend "computed" authProviderIds: unknown at preview, so this rule cannot tell whether the ' +
            "frontend has an auth provider; to pass, give it a value known at preview (a literal, config, or an " +
            "output of an object that already exists), or lower the rule's level in the pack config",
        ]);
        // A certificate request is signed for the service's 365 days: past a tighter bound.
        const tight = of(
          violations(stack, host, { maxCertificateDays: 90 }),
          "frontdoor-client-certificate-validity",
        );
        assert.equal(tight.length, 2);
        assert.match(
          tight[1],
          new RegExp(`"csr" value: the certificate is valid for ${SIGNED_CSR_DAYS} days`),
        );
        const fixed: Declared[] = [
          { kind: "ClientCertificate", name: "short", props: { value: selfSignedPem("short", 90) } },
          { kind: "CustomFrontend", name: "fe", props: { authProviderIds: ["ap-1"] } },
        ];
        assert.deepEqual(
          violations(fixed, host).map((v) => v.message),
          [],
        );
      });
    });
  }

  it("the access rule reads the same matrix as `pulumi-frontdoor-audit access` on the same objects", () => {
    // The stack's objects as the Edge API would list them, and the grants the matrix finds there: the
    // rule reports exactly the grants of sensitive services whose policies have no posture checks.
    const stack = [
      identity("alice", { roleAttributes: ["eng"] }),
      service("payroll", ["sensitive"]),
      servicePolicy("any", {
        semantic: "AnyOf",
        identityRoles: ["#eng", "#ops"],
        serviceRoles: ["#sensitive"],
      }),
    ];
    const matrix = computeAccess({
      identities: [{ id: "alice", name: "alice", roleAttributes: ["eng"] }],
      services: [{ id: "payroll", name: "payroll", roleAttributes: ["sensitive"] }],
      edgeRouters: [],
      postureChecks: [],
      servicePolicies: [
        {
          id: "any",
          name: "any",
          type: "Dial",
          semantic: "AnyOf",
          identityRoles: ["#eng", "#ops"],
          serviceRoles: ["#sensitive"],
        },
      ],
      edgeRouterPolicies: [],
      serviceEdgeRouterPolicies: [],
    });
    const dialers = matrix.services[0].dial.map((g) => `Identity "${g.identity.name}"`);
    const reported = of(violations(stack), "frontdoor-sensitive-service-posture");
    assert.deepEqual(dialers, ['Identity "alice"']);
    // The stack's own identities, then the one that stands for every identity outside it.
    assert.deepEqual(
      reported.map((m) => /lets (.*) dial/.exec(m)?.[1]),
      [`${dialers.join(", ")}, identities outside this stack`],
    );
    assert.ok(policyResource({ type: "x", urn: "u", name: "n", props: {} }) === undefined);
  });
});
