// /config-types and /configs: CRUD and list. A config type's `schema` is a JSON schema (it must
// compile); every config's data is validated against its type's schema on create and update (400
// COULD_NOT_VALIDATE naming `data.<path>`). The type of a config and the target of a config type
// are fixed at creation (the update shapes do not carry them). A config type with configs cannot be
// deleted (409); a deleted config leaves the services that listed it.
import Ajv, { type ValidateFunction } from "ajv";
import type { MockResponse } from "../../types";
import { collectionRoutes, recordHead, updateTarget } from "../crud";
import { ApiError, created, empty, entityRef, invalidField } from "../envelope";
import type { Route, RouteContext } from "../routes";
import type { ConfigRecord, ConfigTypeRecord, EdgeState } from "../state";
import { type Body, object, oneOf, str, tags } from "../validate";

const TARGETS = ["service", "router"] as const;

export class ConfigTypes {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return collectionRoutes(this.state.configTypes, this, render);
  }

  create(body: Body): MockResponse {
    const name = str(body, "name", { required: true }) as string;
    this.state.configTypes.assertUniqueName(name);
    const type = this.state.configTypes.insert({
      name,
      schema: schemaOf(body) ?? {},
      target: oneOf(body, "target", TARGETS, { nullable: true }) ?? "service",
      tags: tags(body, "tags") ?? {},
    });
    return created("config-types", type.id);
  }

  update(ctx: RouteContext, mode: "patch" | "put"): MockResponse {
    const full = mode === "put";
    const { stored: type, body, name } = updateTarget(this.state.configTypes, ctx, mode);
    const schema = schemaOf(body);
    // A real controller (v1.6.0) requires the schema on PATCH too.
    if (schema === undefined) throw invalidField("schema", "schema in body must be of type object", null);
    const changes: Partial<ConfigTypeRecord> = {};
    if (name !== undefined) changes.name = name;
    if (full || schema !== undefined) changes.schema = schema ?? {};
    if (full || "tags" in body) changes.tags = tags(body, "tags") ?? {};
    this.state.configTypes.update(type.id, changes);
    return empty();
  }

  remove(ctx: RouteContext): MockResponse {
    const type = this.state.configTypes.require(ctx.params.id);
    if (this.state.configs.all().some((c) => c.configTypeId === type.id)) {
      throw new ApiError(
        409,
        "CAN_NOT_DELETE_REFERENCED_ENTITY",
        `The entity requested for delete can not be deleted because it is referenced by configs`,
      );
    }
    this.state.configTypes.delete(type.id);
    return empty();
  }
}

export class Configs {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return collectionRoutes(this.state.configs, this, (config) => this.render(config));
  }

  create(body: Body): MockResponse {
    const name = str(body, "name", { required: true }) as string;
    const configTypeId = str(body, "configTypeId", { required: true }) as string;
    const type = this.state.configTypes.find(configTypeId);
    if (!type)
      throw invalidField("configTypeId", `no config type found with id '${configTypeId}'`, configTypeId);
    const data = validData(body, type, true) as Body;
    this.state.configs.assertUniqueName(name);
    const config = this.state.configs.insert({ name, configTypeId, data, tags: tags(body, "tags") ?? {} });
    return created("configs", config.id);
  }

  update(ctx: RouteContext, mode: "patch" | "put"): MockResponse {
    const full = mode === "put";
    const { stored: config, body, name } = updateTarget(this.state.configs, ctx, mode);
    // A real controller (v1.6.0) validates the data on PATCH too: without it, null fails the schema.
    if (!full && body.data === undefined)
      throw invalidField(
        "(root)",
        "(root) is invalid: (root): Invalid type. Expected: object, given: null",
        null,
      );
    const data = validData(body, this.state.configTypes.require(config.configTypeId), full);
    const changes: Partial<ConfigRecord> = {};
    if (name !== undefined) changes.name = name;
    if (data !== undefined) changes.data = data;
    if (full || "tags" in body) changes.tags = tags(body, "tags") ?? {};
    this.state.configs.update(config.id, changes);
    return empty();
  }

  remove(ctx: RouteContext): MockResponse {
    const config = this.state.configs.require(ctx.params.id);
    for (const service of this.state.services.all()) {
      if (service.configs.includes(config.id)) {
        service.configs = service.configs.filter((id) => id !== config.id);
      }
    }
    this.state.configs.delete(config.id);
    return empty();
  }

  private render(config: ConfigRecord): Record<string, unknown> {
    const type = this.state.configTypes.find(config.configTypeId);
    return {
      ...recordHead("configs", config, { "config-type": { href: `./config-types/${config.configTypeId}` } }),
      name: config.name,
      configTypeId: config.configTypeId,
      configType: entityRef("config-types", config.configTypeId, type?.name ?? ""),
      data: structuredClone(config.data),
    };
  }
}

function render(type: ConfigTypeRecord): Record<string, unknown> {
  return {
    ...recordHead("config-types", type, { configs: { href: `./config-types/${type.id}/configs` } }),
    name: type.name,
    schema: structuredClone(type.schema),
    // `target` is taken at creation and kept, but real controllers (v1.5.0, v1.6.0) never return it.
  };
}

// idn-hostname (the built-in types' address format) is not checked: the mock does not tell hostnames apart.
const ajv = new Ajv({ strict: false, allErrors: false, formats: { "idn-hostname": true } });
const validators = new Map<string, ValidateFunction>();

/** The compiled validator of a JSON schema, or a 400 on `field` when it is not a valid schema. */
function compile(schema: Record<string, unknown>, field: string): ValidateFunction {
  const { $id: _id, ...withoutId } = schema; // ids may repeat across types: compile anonymously
  const key = JSON.stringify(withoutId);
  let validate = validators.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(withoutId);
    } catch (error) {
      throw invalidField(field, `invalid JSON schema: ${(error as Error).message}`, null);
    }
    validators.set(key, validate);
  }
  return validate;
}

function schemaOf(body: Body): Record<string, unknown> | undefined {
  const schema = object(body, "schema", { nullable: true });
  if (schema) compile(schema, "schema");
  return schema;
}

/** `data`, validated against the type's schema (`required`: must be present). */
function validData(body: Body, type: ConfigTypeRecord, required: boolean): Body | undefined {
  const data = object(body, "data", { required });
  if (data === undefined) return undefined;
  const validate = compile(type.schema, "schema");
  if (!validate(data)) {
    const error = validate.errors?.[0];
    const where = (error?.instancePath ?? "").split("/").filter(Boolean);
    const missing = error?.keyword === "required" ? [String(error.params.missingProperty)] : [];
    const extra = error?.keyword === "additionalProperties" ? [String(error.params.additionalProperty)] : [];
    throw invalidField(
      ["data", ...where, ...missing, ...extra].join("."),
      `${error?.message ?? "is invalid"} (config type ${type.name})`,
      data,
    );
  }
  return structuredClone(data);
}
