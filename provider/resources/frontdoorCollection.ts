// The calls every Frontdoor resource makes on its collection (`/frontdoor/{frontdoorId}/<collection>`),
// written once: get (404 = gone), create, patch, put, delete (404 = already gone), find by name.
import { answerWithoutIdError } from "../http/errors";
import { FrontdoorClient } from "../http/frontdoor";
import type { Props, ResourceContext } from "../resource";

import { markHeld, NamedCollection, type ServerObject } from "./operations";

export type { ServerObject };

export class FrontdoorCollection extends NamedCollection {
  path(frontdoorId: unknown, ...rest: string[]): string {
    return FrontdoorClient.path(String(frontdoorId), this.collection, ...rest);
  }

  get(ctx: ResourceContext, props: Props, id: string): Promise<ServerObject | undefined> {
    return ctx.frontdoor().find<ServerObject>(this.path(props.frontdoorId, id), this.label(props));
  }

  async require(ctx: ResourceContext, props: Props, id: string): Promise<ServerObject> {
    const found = await this.get(ctx, props, id);
    if (!found) throw new Error(`${this.label(props)} (id ${id}) no longer exists`);
    return found;
  }

  /** POST; the new id is remembered as held by this run at once (see markHeld). */
  async create(ctx: ResourceContext, props: Props, body: Props): Promise<ServerObject> {
    const path = this.path(props.frontdoorId);
    const res = await ctx
      .frontdoor()
      .http.request<ServerObject>({ method: "POST", path, body, resource: this.label(props) });
    const created = res.body;
    if (typeof created?.id !== "string" || created.id === "")
      throw answerWithoutIdError(this.label(props), path, res.status);
    markHeld(this.kind, created.id);
    return created;
  }

  patch(ctx: ResourceContext, props: Props, id: string, body: Props): Promise<ServerObject> {
    return this.send(ctx, props, "PATCH", this.path(props.frontdoorId, id), body);
  }

  put(ctx: ResourceContext, props: Props, id: string, body: Props): Promise<ServerObject> {
    return this.send(ctx, props, "PUT", this.path(props.frontdoorId, id), body);
  }

  async delete(ctx: ResourceContext, props: Props, id: string): Promise<void> {
    await ctx.frontdoor().http.request({
      method: "DELETE",
      path: this.path(props.frontdoorId, id),
      resource: this.label(props),
      accept: [404],
    });
  }

  /** Ids of every object in the collection. */
  async listIds(ctx: ResourceContext, scope: Props): Promise<string[]> {
    const items = await ctx.frontdoor().listAll<ServerObject>(this.path(scope.frontdoorId), this.kind);
    return items.map((item) => item.id);
  }

  /** The object with this name (full representation), if any: adoption after an ambiguous create. */
  async findByName(ctx: ResourceContext, props: Props): Promise<ServerObject | undefined> {
    const items = await ctx
      .frontdoor()
      .listAll<ServerObject>(this.path(props.frontdoorId), this.label(props));
    const match = items.find((item) => item.name === props.name);
    return match && this.get(ctx, props, match.id);
  }

  private send(ctx: ResourceContext, props: Props, method: "PATCH" | "PUT", path: string, body: Props) {
    return ctx.frontdoor().call<ServerObject>({ method, path, body, resource: this.label(props) });
  }
}
