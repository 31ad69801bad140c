// What the three role policies (edge router, service edge router, service) share: the body sent is the
// whole declared state (PUT, so roles removed are removed), and the state read back holds each role
// list as a set, its `...Display` with the names the roles resolve to, and `semantic` defaulted to
// AllOf the way the controller defaults it.
import type { EdgeObject } from "../http/edge";
import type { Props } from "../resource";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { displayOf, RoleDisplay } from "./roles";

/**
 * `roles` maps each role list input to the description of its `...Display` output; `extra` names the
 * other inputs sent as they are (e.g. `type`); `readExtra` adds outputs only one policy has.
 */
export function rolePolicy<R extends string>(spec: {
  kind: string;
  path: string;
  roles: Record<R, string>;
  extra?: string[];
  readExtra?: (server: EdgeObject) => Props;
}) {
  const collection = new EdgeCollection(spec.kind, spec.path);
  const roleFields: string[] = Object.keys(spec.roles);
  const sent = ["name", ...(spec.extra ?? []), "semantic", ...roleFields, "tags"];
  const body = (inputs: Props): Props => Object.fromEntries(sent.map((key) => [key, inputs[key]]));
  const outputs = (server: EdgeObject): Props => ({
    name: server.name,
    ...Object.fromEntries((spec.extra ?? []).map((key) => [key, server[key]])),
    semantic: server.semantic ?? "AllOf",
    ...Object.fromEntries(roleFields.map((key) => [key, listOf(server[key])])),
    tags: tagsOf(server.tags),
    ...Object.fromEntries(roleFields.map((key) => [`${key}Display`, displayOf(server[`${key}Display`])])),
    ...spec.readExtra?.(server),
  });
  const displays = Object.fromEntries(
    roleFields.map((key) => [`${key}Display`, RoleDisplay.describe(spec.roles[key as R])]),
  ) as { [K in R as `${K}Display`]: typeof RoleDisplay };
  return {
    collection,
    body,
    outputs,
    displays,
    definition: {
      setProperties: roleFields,
      ...putOperations(collection, body, outputs),
      ...collectionOperations(collection, (server) => outputs(server)),
    },
  };
}
