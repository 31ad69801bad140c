// /service-policies and /service-edge-router-policies: CRUD and list of the policies that share one
// shape (name, semantic, role lists, tags; service policies add `type` Dial|Bind). Roles are validated
// and stored sorted; unset roles read back as []; each `xRoles` has an `xRolesDisplay` naming what
// `@id` roles point to. POST and PUT need name and semantic (and type), as the swagger says.
import type { MockResponse } from "../../types";
import { collectionRoutes, patchRecord, recordHead, replaceRecord } from "../crud";
import { created } from "../envelope";
import { normalizeRoles, rolesDisplay, rolesOrNull } from "../roles";
import type { Route, RouteContext } from "../routes";
import type { PolicyRecord } from "../state";
import type { Collection } from "../store";
import { type Body, oneOf, str, tags } from "../validate";
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
    return collectionRoutes(this.kind.collection, this, (policy) => this.render(policy));
  }

  private get store(): Collection<PolicyRecord> {
    return this.kind.collection;
  }

  create(body: Body): MockResponse {
    const fields = this.readFull(body);
    this.store.assertUniqueName(fields.name);
    return created(this.store.name, this.store.insert(fields).id);
  }

  update(ctx: RouteContext, mode: "patch" | "put"): MockResponse {
    if (mode === "put")
      return replaceRecord(this.store, ctx, (body, old) => {
        const fields = this.readFull(body);
        return { ...fields, ...this.typeChanged(old, fields.type) };
      });
    return patchRecord(this.store, ctx, (body, stored) => {
      const changes: Partial<Fields> = {};
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
      return { ...changes, ...this.typeChanged(stored, changes.type) };
    });
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
    const links: Record<string, { href: string }> = {};
    for (const link of this.kind.links) links[link] = { href: `./${this.store.name}/${policy.id}/${link}` };
    const out: Record<string, unknown> = {
      ...recordHead(this.store.name, policy, links),
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
