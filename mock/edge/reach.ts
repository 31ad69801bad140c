// What the controller derives from policies: which services an identity may dial or bind (service
// policies) and which edge routers an identity or a service may use (edge router policies, service
// edge router policies). A role list selects an object that it names by `@<id>`, or when it holds
// `#all`; its `#<attribute>` roles select objects with all of them (semantic AllOf) or any (AnyOf).
// Posture checks do not restrict these lists (a real controller applies them when a session is made).
import type { EdgeState, PolicyRecord } from "./state";

interface Selectable {
  id: string;
  roleAttributes: string[] | null;
}

export function roleSelects(roles: string[] | undefined, semantic: string, object: Selectable): boolean {
  const list = roles ?? [];
  if (list.includes("#all") || list.includes(`@${object.id}`)) return true;
  const attributes = list.filter((r) => r.startsWith("#")).map((r) => r.slice(1));
  if (attributes.length === 0) return false;
  const held = object.roleAttributes ?? [];
  return semantic === "AnyOf"
    ? attributes.some((a) => held.includes(a))
    : attributes.every((a) => held.includes(a));
}

function rolesOf(policy: PolicyRecord, field: string): string[] {
  return (policy[field] as string[] | undefined) ?? [];
}

export class Reach {
  constructor(private readonly state: EdgeState) {}

  /** Permissions ("Bind", "Dial") an identity has on a service through service policies. */
  permissions(identityId: string, serviceId: string): string[] {
    const identity = this.state.identities.require(identityId);
    const service = this.state.services.require(serviceId);
    const found = new Set<string>();
    for (const policy of this.state.servicePolicies.all()) {
      if (
        roleSelects(rolesOf(policy, "identityRoles"), policy.semantic, identity) &&
        roleSelects(rolesOf(policy, "serviceRoles"), policy.semantic, service)
      ) {
        found.add(String(policy.type));
      }
    }
    return [...found].sort();
  }

  /** Edge router ids an identity may use. */
  identityRouters(identityId: string): Set<string> {
    const identity = this.state.identities.require(identityId);
    const ids = new Set<string>();
    for (const policy of this.state.edgeRouterPolicies.all()) {
      if (!roleSelects(policy.identityRoles, policy.semantic, identity)) continue;
      for (const router of this.state.edgeRouters.all())
        if (roleSelects(policy.edgeRouterRoles, policy.semantic, router)) ids.add(router.id);
    }
    return ids;
  }

  /** Edge router ids a service may use. */
  serviceRouters(serviceId: string): Set<string> {
    const service = this.state.services.require(serviceId);
    const ids = new Set<string>();
    for (const policy of this.state.serviceEdgeRouterPolicies.all()) {
      if (!roleSelects(rolesOf(policy, "serviceRoles"), policy.semantic, service)) continue;
      for (const router of this.state.edgeRouters.all())
        if (roleSelects(rolesOf(policy, "edgeRouterRoles"), policy.semantic, router)) ids.add(router.id);
    }
    return ids;
  }
}
