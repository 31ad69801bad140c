// Conformance of request and response bodies against the real OpenZiti Edge management swagger
// (Swagger 2.0). Used by the edge mock (to record what a client sends) and by tests (to check what
// the mock answers), so that both sides of the contract are held to the controller's own document.
//
// Swagger 2.0 is close to JSON Schema draft 4/7, with these differences handled here the way the
// controller's go-swagger generated models read them:
// - `x-nullable: true` allows `null`.
// - `required` names that the same schema object does not declare in `properties` are ignored
//   (the swagger has a few, e.g. `cachedUpdatedAt` on apiSessionDetail, `details` on
//   enrollmentDetail; go-swagger only generates checks for declared properties).
// - A bare `{type: "object"}` used as `additionalProperties` is Go's `interface{}`: any value (this
//   is how `tags`/`appData` carry strings, booleans and null).
// - Formats: `date-time` and `uuid` are checked; the others (uri, url, int64, ...) are not (links
//   are relative, e.g. `./identities/<id>`, which a strict `uri` check would reject).
// - `discriminator` (go-swagger's polymorphic models, e.g. postureCheckCreate by `typeId`): a body is
//   also checked against the subtype whose `x-class` equals its discriminator value (see
//   `withDiscriminators`), so a posture check's own fields are held to the swagger too.
// - Error statuses that an operation does not declare (e.g. 409 on verifyCa) are checked against
//   `apiErrorEnvelope`; a declared 4xx/5xx also accepts `apiErrorEnvelope` (authenticateMfa declares
//   `empty` for 401 while controllers send an error envelope).
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";

type Json = Record<string, unknown>;

/** The controller's swagger: a copy of the shared spec kept in test/contracts/ (checked against it by test/contracts.test.ts). */
import { CONTROLLER_SWAGGER_DEVIATIONS } from "./deviations";

export const SWAGGER_PATH = path.resolve(__dirname, "../contracts/openziti-edge-management.json");

interface Operation {
  operationId: string;
  method: string;
  template: string;
  /** Path segments of the template; `null` marks a `{param}` segment. */
  segments: (string | null)[];
  op: Json;
  pathParameters: Json[];
}

const DROPPED_KEYS = new Set([
  "description",
  "example",
  "examples",
  "discriminator",
  "readOnly",
  "title",
  "externalDocs",
  "xml",
]);

/** Converts one swagger schema object to JSON Schema (see the header for the rules). */
function convert(schema: unknown, asAdditionalProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => convert(s));
  if (!schema || typeof schema !== "object") return schema;
  const src = schema as Json;
  if (
    asAdditionalProperties &&
    src.type === "object" &&
    !src.properties &&
    !src.additionalProperties &&
    !src.allOf &&
    !src.$ref
  ) {
    return {};
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(src)) {
    // `null` values (e.g. `items: null` on controllerSettingsList) mean "absent" to go-swagger.
    if (value === null || DROPPED_KEYS.has(key) || key.startsWith("x-")) continue;
    if (key === "properties") {
      const props: Json = {};
      for (const [name, prop] of Object.entries(value as Json)) props[name] = convert(prop);
      out.properties = props;
    } else if (key === "additionalProperties" && typeof value === "object") {
      out.additionalProperties = convert(value, true);
    } else if (key === "items" || key === "not") {
      out[key] = convert(value);
    } else if (key === "allOf" || key === "anyOf" || key === "oneOf") {
      out[key] = (value as unknown[]).map((s) => convert(s));
    } else if (key === "required") {
      const declared = src.properties ? Object.keys(src.properties as Json) : [];
      const kept = (value as string[]).filter((name) => declared.includes(name));
      if (kept.length > 0) out.required = kept;
    } else {
      out[key] = value;
    }
  }
  if (src["x-nullable"] === true) return { anyOf: [out, { type: "null" }] };
  return out;
}

/**
 * For each polymorphic definition D (with `discriminator`), D becomes "the base, and if the
 * discriminator is X, the subtype whose `x-class` is X". The subtypes extend the base (`allOf` with
 * `$ref` D), so they are pointed at the base kept as `D__base`, not at the new D (a loop).
 */
function withDiscriminators(source: Json, converted: Json): Json {
  const out = { ...converted };
  for (const [name, def] of Object.entries(source)) {
    const field = (def as Json).discriminator;
    if (typeof field !== "string") continue;
    const ref = `#/definitions/${name}`;
    const base = `${name}__base`;
    const subtypes = Object.entries(source).filter(([, sub]) => {
      const s = sub as Json;
      return (
        typeof s["x-class"] === "string" &&
        ((s.allOf as Json[] | undefined) ?? []).some((p) => p.$ref === ref)
      );
    });
    if (subtypes.length === 0) continue;
    out[base] = converted[name];
    for (const [subName] of subtypes) {
      out[subName] = JSON.parse(
        JSON.stringify(converted[subName]).split(`"${ref}"`).join(`"#/definitions/${base}"`),
      );
    }
    out[name] = {
      allOf: [
        { $ref: `#/definitions/${base}` },
        ...subtypes.map(([subName, sub]) => ({
          if: { properties: { [field]: { const: (sub as Json)["x-class"] } }, required: [field] },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
          then: { $ref: `#/definitions/${subName}` },
        })),
      ],
    };
  }
  return out;
}

function jsonPath(instancePath: string): string {
  if (!instancePath) return "$";
  return `$${instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join("")}`;
}

function describe(error: ErrorObject): string {
  let where = jsonPath(error.instancePath);
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    where = `${where === "$" ? "$" : where}.${missing}`;
    return `${where}: is required`;
  }
  if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    return `${where}: must be one of ${JSON.stringify(allowed)}`;
  }
  return `${where}: ${error.message ?? error.keyword}`;
}

/** Loads the swagger once and validates bodies of its operations. */
export class SwaggerConformance {
  private readonly spec: Json;
  private readonly basePath: string;
  private readonly operations: Operation[] = [];
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(swaggerPath: string = SWAGGER_PATH) {
    this.spec = JSON.parse(fs.readFileSync(swaggerPath, "utf8")) as Json;
    this.basePath = (this.spec.basePath as string | undefined) ?? "";
    this.ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
    this.ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
    this.ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    for (const name of ["url", "uri", "int64", "int32", "byte"]) this.ajv.addFormat(name, true);
    const definitions: Json = {};
    for (const [name, def] of Object.entries(this.spec.definitions as Json)) {
      definitions[name] = convert(def);
    }
    this.ajv.addSchema({
      $id: "swagger",
      definitions: withDiscriminators(this.spec.definitions as Json, definitions),
    });
    for (const [template, item] of Object.entries(this.spec.paths as Json)) {
      const pathItem = item as Json;
      const pathParameters = (pathItem.parameters as Json[] | undefined) ?? [];
      for (const [method, op] of Object.entries(pathItem)) {
        if (method === "parameters") continue;
        const operation = op as Json;
        this.operations.push({
          operationId: (operation.operationId as string | undefined) ?? `${method} ${template}`,
          method: method.toUpperCase(),
          template,
          segments: template
            .split("/")
            .slice(1)
            .map((s) => (s.startsWith("{") ? null : s)),
          op: operation,
          pathParameters,
        });
      }
    }
  }

  /**
   * The operation for a method and a concrete path (with or without the base path and query
   * string). Literal segments win over `{param}` segments.
   */
  findOperation(method: string, concretePath: string): Operation | undefined {
    let p = concretePath.split("?")[0];
    if (this.basePath && p.startsWith(this.basePath)) p = p.slice(this.basePath.length) || "/";
    const parts = p.split("/").slice(1);
    if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
    let best: Operation | undefined;
    let bestLiterals = -1;
    for (const op of this.operations) {
      if (op.method !== method.toUpperCase() || op.segments.length !== parts.length) continue;
      let literals = 0;
      const matches = op.segments.every((seg, i) => {
        if (seg === null) return parts[i] !== "";
        literals++;
        return seg === parts[i];
      });
      if (matches && literals > bestLiterals) {
        best = op;
        bestLiterals = literals;
      }
    }
    return best;
  }

  /** Violations of a request body (`undefined` = no body sent); empty when it conforms. */
  validateRequest(method: string, concretePath: string, body: unknown): string[] {
    const op = this.findOperation(method, concretePath);
    if (!op) return [`${method.toUpperCase()} ${concretePath}: no such operation in the swagger`];
    const params = [...op.pathParameters, ...((op.op.parameters as Json[] | undefined) ?? [])];
    const bodyParam = params.find((p) => p.in === "body");
    const label = `${op.operationId} (${op.method} ${op.template}) request`;
    if (!bodyParam) return [];
    if (body === undefined) return bodyParam.required ? [`${label} $: body is required`] : [];
    const validate = this.compile(`req:${op.operationId}`, bodyParam.schema);
    return this.run(validate, body, label);
  }

  /** Violations of a response body for a status; empty when it conforms. */
  validateResponse(method: string, concretePath: string, status: number, body: unknown): string[] {
    const op = this.findOperation(method, concretePath);
    if (!op) return [`${method.toUpperCase()} ${concretePath}: no such operation in the swagger`];
    const responses = (op.op.responses as Json | undefined) ?? {};
    const declared = (responses[String(status)] ?? responses.default) as Json | undefined;
    const label = `${op.operationId} (${op.method} ${op.template}) response ${status}`;
    const errorEnvelope = this.compile("apiErrorEnvelope", {
      $ref: "#/definitions/apiErrorEnvelope",
    });
    if (!declared) {
      if (status >= 400) return this.run(errorEnvelope, body, label);
      return [`${label}: status ${status} is not declared`];
    }
    if (!declared.schema) return [];
    const violations = this.run(
      this.compile(`res:${op.operationId}:${status}`, declared.schema),
      body,
      label,
    );
    if (violations.length > 0 && status >= 400 && errorEnvelope(body)) return [];
    return violations;
  }

  private compile(key: string, swaggerSchema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      // Local `#/definitions/...` refs point into the schema registered as "swagger".
      const schema = JSON.parse(
        JSON.stringify(convert(swaggerSchema)).replace(/"#\/definitions\//g, '"swagger#/definitions/'),
      );
      validate = this.ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private run(validate: ValidateFunction, body: unknown, label: string): string[] {
    if (validate(body)) return [];
    const errors = validate.errors ?? [];
    // A nullable schema is `anyOf [schema, null]`: its "must be null" and "must match a schema in
    // anyOf" add nothing when the real reason is reported too.
    // Likewise a discriminated subtype's `if` ("must match then schema") beside the subtype's own errors.
    const noise = (e: ErrorObject) =>
      e.keyword === "anyOf" ||
      e.keyword === "if" ||
      (e.keyword === "type" && (e.params as { type?: string }).type === "null");
    const useful = errors.filter((e) => !noise(e));
    return (useful.length > 0 ? useful : errors).map((e) => `${label} ${describe(e)}`);
  }
}

let shared: SwaggerConformance | undefined;

/** The conformance checker for the bundled swagger, loaded once per process. */
export function swaggerConformance(): SwaggerConformance {
  shared ??= new SwaggerConformance();
  return shared;
}

/** Violations of a request body against the operation found by method + concrete path. */
export function validateRequest(method: string, concretePath: string, body: unknown): string[] {
  return swaggerConformance().validateRequest(method, concretePath, body);
}

/**
 * Violations of a response body against the operation's declared response for `status`, less the
 * real controller's documented deviations (deviations.ts).
 */
export function validateResponse(
  method: string,
  concretePath: string,
  status: number,
  body: unknown,
): string[] {
  return swaggerConformance()
    .validateResponse(method, concretePath, status, body)
    .filter((violation) => !CONTROLLER_SWAGGER_DEVIATIONS.some((known) => known.test(violation)));
}
