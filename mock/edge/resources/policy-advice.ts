// GET /identities/{id}/policy-advice/{serviceId}: whether service policies let the identity dial or
// bind the service, how many edge routers each may use, and the routers both may use (with whether
// they are online), as a real controller (v1.6.0) answers: false flags and zero counts are left out,
// no common router reads `commonRouters: null`, and `meta` is null.
import type { MockResponse } from "../../types";
import { selfLink } from "../envelope";
import { Reach } from "../reach";
import { type Route, type RouteContext, route } from "../routes";
import type { EdgeState } from "../state";

export class PolicyAdvice {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return [route("GET", "/identities/{id}/policy-advice/{serviceId}", "full", (ctx) => this.advise(ctx))];
  }

  private advise(ctx: RouteContext): MockResponse {
    const identity = this.state.identities.require(ctx.params.id);
    const service = this.state.services.require(ctx.params.serviceId);
    const reach = new Reach(this.state);
    const permissions = reach.permissions(identity.id, service.id);
    const identityRouters = reach.identityRouters(identity.id);
    const serviceRouters = reach.serviceRouters(service.id);
    const ref = (entity: string, id: string, name: string) => ({
      _links: selfLink(entity, id),
      entity,
      id,
      name,
    });
    const common = this.state.edgeRouters
      .all()
      .filter((r) => identityRouters.has(r.id) && serviceRouters.has(r.id))
      .map((r) => ({ ...ref("edge-routers", r.id, r.name), isOnline: r.isOnline }));
    const data: Record<string, unknown> = {
      identityId: identity.id,
      identity: ref("identities", identity.id, identity.name),
      serviceId: service.id,
      service: ref("services", service.id, service.name),
      commonRouters: common.length > 0 ? common : null,
    };
    if (permissions.includes("Bind")) data.isBindAllowed = true;
    if (permissions.includes("Dial")) data.isDialAllowed = true;
    if (identityRouters.size > 0) data.identityRouterCount = identityRouters.size;
    if (serviceRouters.size > 0) data.serviceRouterCount = serviceRouters.size;
    return { status: 200, body: { data, meta: null } };
  }
}
