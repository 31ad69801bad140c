// /service-policies and /service-edge-router-policies: CRUD and list of the policies that share one
// shape (name, semantic, role lists, tags; service policies add `type` Dial|Bind). Roles are validated
// and stored sorted; unset roles read back as []; each `xRoles` has an `xRolesDisplay` naming what
// `@id` roles point to. POST and PUT need name and semantic (and type), as the swagger says.
import type { MockResponse } from "../../types";
import { created, empty, ok, selfLink } from "../envelope";
import { listQuery } from "../query";
import { normalizeRoles, rolesDisplay, rolesOrNull } from "../roles";
import { type Route, type RouteContext, route } from "../routes";
import type { PolicyRecord } from "../state";
import type { Collection } from "../store";
import { asObject, type Body, oneOf, str, tags } from "../validate";
import { SEMANTICS } from "./edge-router-policies";

export const DIAL_BIND = ["Dial", "Bind"] as const;

export interface PolicyKind {
  collection: Collection<PolicyRecord>;
  /** Role list fields, e.g. `identityRoles`, with how an `@id` of each resolves to a name. */
  roles: Record<string, (id: string) => string | undefined>;
  /** Whether the policy has a Dial/Bind `type` (service policies). */
  typed: boolean;
  /** `_links` besides self, e.g. `services`. */
  links: string[];
}

interface Fields {
  name: string;
  semantic: string;
  type?: string;
  tags: Record<string, unknown>;
  [roles: string]: unknown;
}

export class Policies {
  constructor(private readonly kind: PolicyKind) {}

  routes(): Route[] {
    const base = `/${this.kind.collection.name}`;
    return [
      route("GET", base, "full", (ctx) => this.list(ctx)),
      route("POST", base, "full", (ctx) => this.create(ctx)),
      route("GET", `${base}/{id}`, "full", (ctx) => this.detail(ctx)),
      route("PATCH", `${base}/{id}`, "full", (ctx) => this.patch(ctx)),
      route("PUT", `${base}/{id}`, "full", (ctx) => this.put(ctx)),
      route("DELETE", `${base}/{id}`, "full", (ctx) => this.remove(ctx)),
    ];
  }

  private get store(): Collection<PolicyRecord> {
    return this.kind.collection;
  }

  private list(ctx: RouteContext): MockResponse {
    const page = listQuery(this.store, ctx.req.query);
    return ok(
      page.items.map((p) => this.render(p)),
      page.meta,
    );
  }

  private detail(ctx: RouteContext): MockResponse {
    return ok(this.render(this.store.require(ctx.params.id)));
  }

  private create(ctx: RouteContext): MockResponse {
    const fields = this.readFull(asObject(ctx.body));
    this.store.assertUniqueName(fields.name);
    return created(this.store.name, this.store.insert(fields).id);
  }

  private put(ctx: RouteContext): MockResponse {
    const policy = this.store.require(ctx.params.id);
    const fields = this.readFull(asObject(ctx.body));
    this.store.assertUniqueName(fields.name, policy.id);
    this.store.replace(policy.id, { ...fields, ...this.typeChanged(policy, fields.type) });
    return empty();
  }

  private patch(ctx: RouteContext): MockResponse {
    const policy = this.store.require(ctx.params.id);
    const body = asObject(ctx.body);
    const changes: Partial<Fields> = {};
    const name = str(body, "name", { nullable: true });
    if (name !== undefined) {
      this.store.assertUniqueName(name, policy.id);
      changes.name = name;
    }
    const semantic = oneOf(body, "semantic", SEMANTICS, { nullable: true });
    if (semantic !== undefined) changes.semantic = semantic;
    if (this.kind.typed) {
      const type = oneOf(body, "type", DIAL_BIND, { nullable: true });
      if (type !== undefined) changes.type = type;
    }
    for (const field of Object.keys(this.kind.roles)) {
      if (field in body) changes[field] = normalizeRoles(body[field], field);
    }
    if ("tags" in body) changes.tags = tags(body, "tags") ?? {};
    this.store.update(policy.id, { ...changes, ...this.typeChanged(policy, changes.type) });
    return empty();
  }

  /**
   * A change of a service policy's type clears its posture check roles on real controllers (v1.5.0,
   * v1.6.0), even those sent in the same request.
   */
  private typeChanged(policy: Fields, type: unknown): Partial<Fields> {
    return this.kind.typed &&
      type !== undefined &&
      type !== policy.type &&
      "postureCheckRoles" in this.kind.roles
      ? { postureCheckRoles: [] }
      : {};
  }

  private remove(ctx: RouteContext): MockResponse {
    this.store.delete(this.store.require(ctx.params.id).id);
    return empty();
  }

  private readFull(body: Body): Fields {
    const fields: Fields = {
      name: str(body, "name", { required: true }) as string,
      semantic: oneOf(body, "semantic", SEMANTICS, { required: true }) as string,
      tags: tags(body, "tags") ?? {},
    };
    if (this.kind.typed) fields.type = oneOf(body, "type", DIAL_BIND, { required: true });
    for (const field of Object.keys(this.kind.roles)) fields[field] = normalizeRoles(body[field], field);
    return fields;
  }

  private render(policy: PolicyRecord): Record<string, unknown> {
    const links: Record<string, { href: string }> = selfLink(this.store.name, policy.id);
    for (const link of this.kind.links) links[link] = { href: `./${this.store.name}/${policy.id}/${link}` };
    const out: Record<string, unknown> = {
      id: policy.id,
      createdAt: policy.createdAt,
      updatedAt: policy.updatedAt,
      _links: links,
      tags: policy.tags ?? {},
      name: policy.name,
      semantic: policy.semantic,
    };
    if (this.kind.typed) out.type = policy.type;
    for (const [field, nameOf] of Object.entries(this.kind.roles)) {
      const roles = (policy[field] as string[] | undefined) ?? [];
      out[field] = rolesOrNull(roles); // as a real controller answers: empty reads null
      out[`${field}Display`] = rolesDisplay(roles, nameOf);
    }
    return out;
  }
}
