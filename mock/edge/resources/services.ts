// /services: CRUD and list. Quirks of a controller: unset roleAttributes read back as null,
// terminatorStrategy defaults to "smartrouting" and maxIdleTimeMillis to 0; encryptionRequired is
// required at creation and read-only afterwards (PUT/PATCH ignore it); configs must exist, at most
// one per config type, and read back sorted. `GET /identities/{id}/services`: the services an identity
// may dial or bind through service policies (`policyType=dial|bind` narrows to one; posture checks and
// edge routers are not considered, as on a real controller, which also answers `permissions: null`
// there: it does not compute them for the listed identity).
import type { MockResponse } from "../../types";
import { collectionRoutes, listPage, patchRecord, recordHead, replaceRecord } from "../crud";
import { created, invalidField } from "../envelope";
import { Reach } from "../reach";
import { type Route, type RouteContext, route } from "../routes";
import type { EdgeState, ServiceRecord } from "../state";
import { type Body, bool, int, str, stringList, tags } from "../validate";

export const DEFAULT_TERMINATOR_STRATEGY = "smartrouting";

type Fields = Omit<ServiceRecord, "id" | "createdAt" | "updatedAt">;

export class Services {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    const ofIdentity = route("GET", "/identities/{id}/services", "full", (ctx) => this.ofIdentity(ctx));
    return collectionRoutes(this.state.services, this, (service) => this.render(service), ofIdentity);
  }

  private ofIdentity(ctx: RouteContext): MockResponse {
    const identity = this.state.identities.require(ctx.params.id);
    const wanted = (ctx.req.query.get("policyType") ?? "").toLowerCase();
    const reach = new Reach(this.state);
    const accessible = this.state.services.all().filter((service) => {
      const permissions = reach.permissions(identity.id, service.id).map((p) => p.toLowerCase());
      return wanted === "dial" || wanted === "bind" ? permissions.includes(wanted) : permissions.length > 0;
    });
    return listPage(this.state.services, ctx, (s) => this.render(s), accessible);
  }

  list(ctx: RouteContext): MockResponse {
    return listPage(this.state.services, ctx, (s) => ({ ...this.render(s), permissions: null }));
  }

  create(body: Body): MockResponse {
    const fields: Fields = {
      ...this.readFull(body),
      encryptionRequired: bool(body, "encryptionRequired", { required: true }) as boolean,
    };
    this.state.services.assertUniqueName(fields.name);
    return created("services", this.state.services.insert(fields).id);
  }

  update(ctx: RouteContext, mode: "patch" | "put"): MockResponse {
    if (mode === "put") {
      // encryptionRequired is read-only after creation: PUT keeps it.
      return replaceRecord(this.state.services, ctx, (body, old) => ({
        ...this.readFull(body),
        encryptionRequired: old.encryptionRequired,
      }));
    }
    return patchRecord(this.state.services, ctx, (body) => {
      const changes: Partial<Fields> = {};
      if ("configs" in body) changes.configs = this.configs(body);
      if ("roleAttributes" in body)
        changes.roleAttributes = stringList(body, "roleAttributes", { nullable: true }) ?? null;
      const strategy = str(body, "terminatorStrategy", { nullable: true });
      if (strategy !== undefined) changes.terminatorStrategy = strategy || DEFAULT_TERMINATOR_STRATEGY;
      const idle = int(body, "maxIdleTimeMillis", { nullable: true, min: 0 });
      if (idle !== undefined) changes.maxIdleTimeMillis = idle;
      if ("tags" in body) changes.tags = tags(body, "tags") ?? {};
      return changes;
    });
  }

  /** Everything but encryptionRequired, as POST and PUT carry it. */
  private readFull(body: Body): Omit<Fields, "encryptionRequired"> {
    return {
      name: str(body, "name", { required: true }) as string,
      configs: this.configs(body),
      roleAttributes: stringList(body, "roleAttributes", { nullable: true }) ?? null,
      terminatorStrategy: str(body, "terminatorStrategy", { nullable: true }) || DEFAULT_TERMINATOR_STRATEGY,
      maxIdleTimeMillis: int(body, "maxIdleTimeMillis", { nullable: true, min: 0 }) ?? 0,
      tags: tags(body, "tags") ?? {},
    };
  }

  /** Config ids that exist, at most one per config type; stored sorted. */
  private configs(body: Body): string[] {
    const ids = stringList(body, "configs", { nullable: true }) ?? [];
    const types = new Set<string>();
    for (const id of ids) {
      const config = this.state.configs.find(id);
      if (!config) throw invalidField("configs", `no config found with id '${id}'`, id);
      if (types.has(config.configTypeId)) {
        throw invalidField("configs", `duplicate configs for config type '${config.configTypeId}'`, ids);
      }
      types.add(config.configTypeId);
    }
    return [...ids].sort();
  }

  render(service: ServiceRecord): Record<string, unknown> {
    const link = (rel: string) => ({ href: `./services/${service.id}/${rel}` });
    return {
      ...recordHead("services", service, {
        configs: link("configs"),
        "service-edge-router-policies": link("service-edge-router-policies"),
        "service-policies": link("service-policies"),
        terminators: link("terminators"),
      }),
      name: service.name,
      configs: service.configs.length > 0 ? [...service.configs] : null, // a real controller: null when none
      // Config data by type name is only filled for config types the session asked for: none here.
      // A real controller answers null for a service without configs.
      config: service.configs.length > 0 ? {} : null,
      encryptionRequired: service.encryptionRequired,
      maxIdleTimeMillis: service.maxIdleTimeMillis,
      terminatorStrategy: service.terminatorStrategy,
      roleAttributes: service.roleAttributes === null ? null : [...service.roleAttributes],
      // The caller is an admin: it may do both.
      permissions: ["Bind", "Dial"],
      postureQueries: [],
    };
  }
}
