// What the three role policies (edge router, service edge router, service) share: the body sent is the
// whole declared state (PUT, so roles removed are removed), and the state read back holds each role
// list as a set, its `...Display` with the names the roles resolve to, and `semantic` defaulted to
// AllOf the way the controller defaults it.
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { Props } from "../resource";
import { edgeName } from "./common";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { displayOf, RoleDisplay, roles, semantic, tags } from "./roles";

/** The inputs of a policy: name, its own fields (`extra`), semantic, its role lists, tags (in that order). */
type PolicyShape<R extends string, E extends z.ZodRawShape> = { name: ReturnType<typeof edgeName> } & E & {
    semantic: typeof semantic;
  } & { [K in R]: ReturnType<typeof roles> } & { tags: typeof tags };

/** What every role policy's description ends with: how roles are written. */
const ROLES_NOTE = "Roles are `#attribute`, `@id` or `#all` alone; their order does not matter.";

/** `edgeRouterRoles` -> "Edge router roles with the names they resolve to." */
function displayDescription(roleField: string): string {
  const words = roleField.replace(/([A-Z])/g, " $1").toLowerCase();
  return `${words[0].toUpperCase()}${words.slice(1)} with the names they resolve to.`;
}

/**
 * `description` says what the policy grants (the roles note is appended); `roles` gives each role list
 * input what it selects; `extra` the policy's other inputs, sent and read back as they are (e.g. `type`);
 * `readExtra` adds outputs only one policy has.
 */
export function rolePolicy<R extends string, E extends z.ZodRawShape = Record<never, never>>(spec: {
  kind: string;
  path: string;
  description: string;
  roles: Record<R, string>;
  extra?: E;
  readExtra?: (server: EdgeObject) => Props;
}) {
  const collection = new EdgeCollection(spec.kind, spec.path);
  const roleFields: string[] = Object.keys(spec.roles);
  const extraFields = Object.keys(spec.extra ?? {});
  const inputs = z.strictObject({
    name: edgeName("Name of the policy (unique)."),
    ...spec.extra,
    semantic,
    ...Object.fromEntries(roleFields.map((key) => [key, roles(spec.roles[key as R])])),
    tags,
  }) as unknown as z.ZodObject<PolicyShape<R, E>, z.core.$strict>;
  const sent = ["name", ...extraFields, "semantic", ...roleFields, "tags"];
  const body = (inputs: Props): Props => Object.fromEntries(sent.map((key) => [key, inputs[key]]));
  const outputs = (server: EdgeObject): Props => ({
    name: server.name,
    ...Object.fromEntries(extraFields.map((key) => [key, server[key]])),
    semantic: server.semantic ?? "AllOf",
    ...Object.fromEntries(roleFields.map((key) => [key, listOf(server[key])])),
    tags: tagsOf(server.tags),
    ...Object.fromEntries(roleFields.map((key) => [`${key}Display`, displayOf(server[`${key}Display`])])),
    ...spec.readExtra?.(server),
  });
  const displays = Object.fromEntries(
    roleFields.map((key) => [`${key}Display`, RoleDisplay.describe(displayDescription(key))]),
  ) as { [K in R as `${K}Display`]: typeof RoleDisplay };
  return {
    inputs,
    collection,
    body,
    outputs,
    displays,
    /** The parts of the resource definition every role policy has (kind, API, inputs, operations). */
    definition: {
      kind: spec.kind,
      api: "edge" as const,
      description: `${spec.description} ${ROLES_NOTE}`,
      inputs,
      setProperties: roleFields,
      ...putOperations(collection, body, outputs),
      ...collectionOperations(collection, (server) => outputs(server)),
    },
  };
}
