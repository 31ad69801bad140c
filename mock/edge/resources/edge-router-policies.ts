// /edge-router-policies: CRUD and list. Roles are validated and stored sorted; unset roles read
// back as []; `semantic` defaults to AllOf; the *RolesDisplay fields name what `@id` roles point to.
import type { MockResponse } from "../../types";
import { collectionRoutes, patchRecord, recordHead, replaceRecord } from "../crud";
import { created } from "../envelope";
import { assertRefsExist, normalizeRoles, rolesDisplay, rolesOrNull } from "../roles";
import type { Route, RouteContext } from "../routes";
import type { EdgeRouterPolicyRecord, EdgeState } from "../state";
import { type Body, oneOf, str, tags } from "../validate";

export const SEMANTICS = ["AllOf", "AnyOf"] as const;

type Fields = Omit<EdgeRouterPolicyRecord, "id" | "createdAt" | "updatedAt">;

export class EdgeRouterPolicies {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return collectionRoutes(this.state.edgeRouterPolicies, this, (policy) => this.render(policy));
  }

  create(body: Body): MockResponse {
    const fields = readFull(body);
    this.state.edgeRouterPolicies.assertUniqueName(fields.name);
    this.assertRefs(fields);
    const policy = this.state.edgeRouterPolicies.insert(fields);
    return created("edge-router-policies", policy.id);
  }

  update(ctx: RouteContext, mode: "patch" | "put"): MockResponse {
    const check = (fields: Partial<Fields>) => this.assertRefs(fields);
    if (mode === "put") return replaceRecord(this.state.edgeRouterPolicies, ctx, readFull, check);
    return patchRecord(this.state.edgeRouterPolicies, ctx, patchFields, check);
  }

  /** `@id` roles must name existing objects. */
  private assertRefs(fields: Partial<Fields>): void {
    assertRefsExist(
      fields.identityRoles,
      "identityRoles",
      "identities",
      (id) => !!this.state.identities.find(id),
    );
    assertRefsExist(
      fields.edgeRouterRoles,
      "edgeRouterRoles",
      "edge routers",
      (id) => !!this.state.edgeRouters.find(id),
    );
  }

  private render(policy: EdgeRouterPolicyRecord): Record<string, unknown> {
    const identityName = (id: string) => this.state.identities.find(id)?.name;
    // The mock has no edge routers: `@id` edge router roles display as themselves.
    const noName = () => undefined;
    return {
      ...recordHead("edge-router-policies", policy, {
        "edge-routers": { href: `./edge-router-policies/${policy.id}/edge-routers` },
        identities: { href: `./edge-router-policies/${policy.id}/identities` },
      }),
      name: policy.name,
      semantic: policy.semantic,
      identityRoles: rolesOrNull(policy.identityRoles),
      identityRolesDisplay: rolesDisplay(policy.identityRoles ?? [], identityName),
      edgeRouterRoles: rolesOrNull(policy.edgeRouterRoles),
      edgeRouterRolesDisplay: rolesDisplay(policy.edgeRouterRoles ?? [], noName),
      isSystem: policy.isSystem,
    };
  }
}

function readFull(body: Body): Fields {
  return {
    name: str(body, "name", { required: true }) as string,
    semantic: oneOf(body, "semantic", SEMANTICS, { nullable: true }) ?? "AllOf",
    identityRoles: normalizeRoles(body.identityRoles, "identityRoles"),
    edgeRouterRoles: normalizeRoles(body.edgeRouterRoles, "edgeRouterRoles"),
    tags: tags(body, "tags") ?? {},
    isSystem: false,
  };
}

/** What a PATCH sends besides the name. */
function patchFields(body: Body): Partial<Fields> {
  const changes: Partial<Fields> = {};
  const semantic = oneOf(body, "semantic", SEMANTICS, { nullable: true });
  if (semantic !== undefined) changes.semantic = semantic;
  if ("identityRoles" in body) changes.identityRoles = normalizeRoles(body.identityRoles, "identityRoles");
  if ("edgeRouterRoles" in body) {
    changes.edgeRouterRoles = normalizeRoles(body.edgeRouterRoles, "edgeRouterRoles");
  }
  if ("tags" in body) changes.tags = tags(body, "tags") ?? {};
  return changes;
}
