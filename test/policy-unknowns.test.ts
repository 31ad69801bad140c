// The policy pack's rules fail closed on values unknown at preview. The cases are generated from each
// rule's own list of the properties it reads (`reads`, provider/policy/rules.ts), so a new rule is
// covered as soon as it has a fixture here (the first test fails until it does):
// - for every property a rule reads, on every resource of that kind in the rule's violating and passing
//   fixtures, the value is replaced by Pulumi's unknown marker as the engine sends it (the string of
//   @pulumi/policy's proxy.ts, on the wire, behind the proxy): when a value the fixtures hold there makes
//   the rule report, the unknown must make it report too (a verdict, or "cannot tell"), unless the rule
//   lists the property in `defers` (then it reports nothing about it at preview);
// - no message holds the marker string (an unknown is never read as a string);
// - a rule reads no property outside its list (so the list, and the cases, are complete).
// The roles rule's controller look-up and its budget: test/policy-controller-budget.test.ts.
import assert from "node:assert/strict";
import { frontdoorPolicies } from "../provider/policy";
import { type AnalyzedResource, type PolicyResource, policyResource } from "../provider/policy/resources";
import { RULES, type Rule, withDefaults } from "../provider/policy/rules";
import { selfSignedPem } from "./frontdoor-pki";

/** Pulumi's unknown string, as @pulumi/policy's proxy.ts spells it (the engine's wire format). */
const MARKER = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

interface Declared {
  kind: string;
  name: string;
  props: Record<string, unknown>;
  /** Property -> the names of the resources its value comes from. */
  deps?: Record<string, string[]>;
}

const d = (
  kind: string,
  name: string,
  props: Record<string, unknown>,
  deps?: Declared["deps"],
): Declared => ({
  kind,
  name,
  props,
  deps,
});

/** Each rule's fixtures: the violating one breaks the rule, the passing one (same names) does not. */
const FIXTURES: Record<string, { violating: Declared[]; passing: Declared[] }> = {
  "frontdoor-no-all-to-all-service-policy": {
    violating: [
      d("ServicePolicy", "open", { type: "Dial", identityRoles: ["#all"], serviceRoles: ["#all"] }),
    ],
    passing: [d("ServicePolicy", "open", { type: "Dial", identityRoles: ["#all"], serviceRoles: ["#web"] })],
  },
  "frontdoor-policy-roles-match": (() => {
    const objects = [
      d("Identity", "alice", { roleAttributes: ["eng"] }),
      d("Service", "web", { roleAttributes: ["web"] }),
      d("EdgeRouter", "r", { roleAttributes: ["edge"] }),
      d("PostureCheck", "mfa", { roleAttributes: ["mfa"] }),
      d("Ca", "ca", { identityRoles: ["branch"] }),
      d("EdgeRouterPolicy", "erp", {
        semantic: "AllOf",
        identityRoles: ["#eng"],
        edgeRouterRoles: ["#edge"],
      }),
      d("ServiceEdgeRouterPolicy", "serp", {
        semantic: "AllOf",
        serviceRoles: ["#web"],
        edgeRouterRoles: ["#edge"],
      }),
    ];
    const policy = (identityRoles: string[]) =>
      d("ServicePolicy", "p", {
        semantic: "AllOf",
        identityRoles,
        serviceRoles: ["#web"],
        postureCheckRoles: ["#mfa"],
      });
    return { violating: [...objects, policy(["#contractors"])], passing: [...objects, policy(["#eng"])] };
  })(),
  "frontdoor-admin-second-factor": {
    violating: [
      d("Identity", "root", { isAdmin: true, authPolicyId: "ap-x" }, { authPolicyId: ["ap"] }),
      d("AuthPolicy", "ap", { secondary: {} }),
    ],
    passing: [
      d("Identity", "root", { isAdmin: true, authPolicyId: "ap-x" }, { authPolicyId: ["ap"] }),
      d("AuthPolicy", "ap", { secondary: { requireTotp: true } }),
    ],
  },
  "frontdoor-admin-no-password": (() => {
    const declared = [
      d("Ca", "ca", { isAuthEnabled: true }),
      d("ExternalJwtSigner", "idp", { enabled: true }),
    ];
    const admin = (enrollment: unknown, allowed: boolean) => [
      d("Identity", "root", { isAdmin: true, enrollment, authPolicyId: "ap-x" }, { authPolicyId: ["ap"] }),
      d("AuthPolicy", "ap", { primary: { updb: { allowed } } }),
    ];
    return {
      violating: [...declared, ...admin({ updb: "root" }, true)],
      passing: [...declared, ...admin({ ott: true }, false)],
    };
  })(),
  "frontdoor-sensitive-service-posture": (() => {
    const objects = (checkAttributes: string[]) => [
      d("Identity", "alice", { roleAttributes: ["eng"] }),
      d("Service", "payroll", { roleAttributes: ["sensitive"] }),
      d("PostureCheck", "mfa", { roleAttributes: checkAttributes }),
      d("EdgeRouter", "r", { roleAttributes: ["edge"] }),
      d("EdgeRouterPolicy", "erp", {
        semantic: "AllOf",
        identityRoles: ["#eng"],
        edgeRouterRoles: ["#edge"],
      }),
      d("ServiceEdgeRouterPolicy", "serp", {
        semantic: "AllOf",
        serviceRoles: ["#sensitive"],
        edgeRouterRoles: ["#edge"],
      }),
    ];
    const policy = (postureCheckRoles: string[]) =>
      d("ServicePolicy", "dial", {
        type: "Dial",
        semantic: "AllOf",
        identityRoles: ["#eng"],
        serviceRoles: ["#sensitive"],
        postureCheckRoles,
      });
    return {
      violating: [...objects(["other"]), policy([])],
      passing: [...objects(["mfa"]), policy(["#mfa"])],
    };
  })(),
  "frontdoor-enrollment-expiry": {
    violating: [
      d("Identity", "alice", {
        enrollment: { ott: true },
        reissueExpiredEnrollment: true,
        enrollmentMinutes: 10080,
      }),
    ],
    passing: [d("Identity", "alice", { enrollment: { ott: true }, enrollmentMinutes: 60 })],
  },
  "frontdoor-ca-auto-enrollment": {
    violating: [d("Ca", "ca", { isAutoCaEnrollmentEnabled: true, identityRoles: ["admin"] })],
    passing: [d("Ca", "ca", { isAutoCaEnrollmentEnabled: true, identityRoles: ["branch"] })],
  },
  "frontdoor-jwt-signer-https": {
    violating: [d("ExternalJwtSigner", "idp", { jwksEndpoint: "http://idp.example.com/jwks" })],
    passing: [d("ExternalJwtSigner", "idp", { jwksEndpoint: "https://idp.example.com/jwks" })],
  },
  "frontdoor-client-certificate-validity": {
    violating: [d("ClientCertificate", "cert", { value: selfSignedPem("unknowns-long", 800) })],
    passing: [d("ClientCertificate", "cert", { value: selfSignedPem("unknowns-short", 90) })],
  },
  "frontdoor-request-token-validity": {
    violating: [
      d("CertificateRequestToken", "tok", {
        createdAt: "2026-01-01T00:00:00.000Z",
        expiresAt: "2026-01-31T00:00:00.000Z",
      }),
    ],
    passing: [
      d("CertificateRequestToken", "tok", {
        createdAt: "2026-01-01T00:00:00.000Z",
        expiresAt: "2026-01-02T00:00:00.000Z",
      }),
    ],
  },
  "frontdoor-custom-frontend-auth": {
    violating: [d("CustomFrontend", "fe", { authProviderIds: [] })],
    passing: [d("CustomFrontend", "fe", { authProviderIds: ["ap-1"] })],
  },
};

const urnOf = (x: Declared) => `urn:pulumi:dev::p::frontdoor:index:${x.kind}::${x.name}`;

/** The resources as @pulumi/policy hands them to a policy (plugin shape). */
function analyzed(declared: Declared[]): AnalyzedResource[] {
  const urn = new Map(declared.map((x) => [x.name, urnOf(x)]));
  return declared.map((x) => ({
    type: `frontdoor:index:${x.kind}`,
    urn: urnOf(x),
    name: x.name,
    props: x.props,
    propertyDependencies: Object.fromEntries(
      Object.entries(x.deps ?? {}).map(([k, names]) => [
        k,
        names.map((n) => ({ urn: urn.get(n) as string })),
      ]),
    ),
  }));
}

/** The rule's messages as the pack reports them (its policy object, the config's defaults). */
function messages(rule: Rule, declared: Declared[]): string[] {
  const policy = frontdoorPolicies().find((p) => p.name === rule.name);
  assert.ok(policy, rule.name);
  const found: string[] = [];
  const report = (message: string) => found.push(message);
  const getConfig = <T>() => ({ consultController: false }) as T;
  const resources = analyzed(declared);
  if (policy.validateResource)
    for (const r of resources) policy.validateResource({ ...r, getConfig }, report);
  const result = policy.validateStack?.({ resources, getConfig }, report);
  assert.ok(!(result instanceof Promise), "the controller is not consulted here");
  return found;
}

/** The fixture with one resource's property set to `value` (undefined: removed). */
function withValue(declared: Declared[], name: string, property: string, value: unknown): Declared[] {
  return declared.map((x) => {
    if (x.name !== name) return x;
    const props = { ...x.props };
    if (value === undefined) delete props[property];
    else props[property] = value;
    return { ...x, props };
  });
}

const readsOf = (rule: Rule) =>
  Object.entries(rule.reads).flatMap(([kind, properties]) =>
    properties.map((property) => ({ kind, property })),
  );
const defers = (rule: Rule, kind: string, property: string) =>
  rule.defers?.[kind]?.includes(property) === true;

describe("policy pack rules: values unknown at preview fail closed", () => {
  it("every rule lists what it reads and has fixtures that break and pass it", () => {
    for (const rule of RULES) {
      const fixtures = FIXTURES[rule.name];
      assert.ok(fixtures, `${rule.name}: add its violating and passing fixtures to this test`);
      assert.ok(readsOf(rule).length > 0, `${rule.name} lists no property it reads`);
      assert.ok(messages(rule, fixtures.violating).length > 0, `${rule.name}: the violating fixture passes`);
      assert.deepEqual(messages(rule, fixtures.passing), [], `${rule.name}: the passing fixture fails`);
      for (const { kind, property } of readsOf(rule))
        assert.ok(
          [...fixtures.violating, ...fixtures.passing].some((x) => x.kind === kind),
          `${rule.name} reads ${kind}.${property}: its fixtures hold no ${kind}`,
        );
    }
  });

  it("every rule reads only the properties it lists", () => {
    for (const rule of RULES) {
      const fixtures = FIXTURES[rule.name];
      for (const declared of [fixtures.violating, fixtures.passing]) {
        const read = new Set<string>();
        const resources = analyzed(declared)
          .map(policyResource)
          .map((r) => {
            const p = r as PolicyResource;
            const props = new Proxy(p.props, {
              get: (target, key) => {
                if (typeof key === "string") read.add(`${p.kind}.${key}`);
                return target[key as string];
              },
            });
            return { ...p, props };
          });
        rule.check(resources, withDefaults(rule, {}), {});
        const listed = new Set(readsOf(rule).map(({ kind, property }) => `${kind}.${property}`));
        assert.deepEqual(
          [...read].filter((k) => !listed.has(k)),
          [],
          `${rule.name} reads unlisted properties`,
        );
      }
    }
  });

  for (const rule of RULES) {
    describe(rule.name, () => {
      for (const { kind, property } of readsOf(rule)) {
        it(`${kind}.${property} unknown`, () => {
          const fixtures = FIXTURES[rule.name];
          if (!fixtures) return; // the first test names the missing fixture
          const all = [...fixtures.violating, ...fixtures.passing];
          for (const [which, base] of Object.entries(fixtures)) {
            for (const target of base.filter((x) => x.kind === kind)) {
              const unknown = messages(rule, withValue(base, target.name, property, MARKER));
              for (const message of unknown) assert.ok(!message.includes(MARKER), message);
              const where = `${which} fixture, ${kind} "${target.name}" ${property} unknown`;
              if (defers(rule, kind, property)) {
                assert.deepEqual(unknown, [], `${where}: the rule defers it, yet reports`);
                continue;
              }
              // The values the fixtures hold there: if one of them breaks the rule, so must the unknown.
              const candidates = all.filter((x) => x.name === target.name).map((x) => x.props[property]);
              const breaking = candidates.find(
                (value) => messages(rule, withValue(base, target.name, property, value)).length > 0,
              );
              if (breaking !== undefined)
                assert.ok(
                  unknown.length > 0,
                  `${where}: passes, yet ${JSON.stringify(breaking)} there fails the rule (fail open)`,
                );
            }
          }
        });
      }
    });
  }
});
