// How a policy's role list selects objects, as the OpenZiti controller evaluates it (its policy
// stores): an object is selected when the list names it by `@<id>`, or holds `#all`, or, for the
// attribute roles `#<attr>`, when the object has all of them (semantic AllOf) or any (AnyOf). `@id`
// roles select on their own whatever the semantic; a list with no attribute role selects by id only.
//
// A configuration planned from a preview may hold values not known until applied (the engine's
// unknown marker): a whole role list, one role of it, an object's role attributes, the semantic.
// `selection` then answers "maybe" where the answer depends on them, so a report can tell what is
// certain from what is not, instead of guessing.
import { UNKNOWN } from "../resource";

/** An object by id and name, as reports show it. */
export interface Ref {
  id: string;
  name: string;
}

/** What a role list is matched against: the object's id and its role attributes. */
export interface Entity {
  id: string;
  /** A list (elements may be UNKNOWN), null, or UNKNOWN when the whole list is not known yet. */
  roleAttributes?: readonly string[] | string | null;
}

export type Selection = "yes" | "no" | "maybe";

export { UNKNOWN };

/** Exact selection, for configurations without unknowns (the live one). */
export function selects(roles: readonly string[], semantic: string, entity: Entity): boolean {
  return selection(roles, semantic, entity) === "yes";
}

/**
 * Whether `roles` (a list, or UNKNOWN) with `semantic` ("AllOf", "AnyOf" or UNKNOWN) selects the
 * entity: "maybe" only when the answer depends on a value that is not known yet.
 */
export function selection(roles: readonly string[] | string, semantic: string, entity: Entity): Selection {
  if (!Array.isArray(roles)) return roles === UNKNOWN ? "maybe" : "no";
  if (roles.includes(`@${entity.id}`) || roles.includes("#all")) return "yes";
  // An unknown role may be this entity's `@id` or `#all`, whatever else the list holds.
  const unknownRole = roles.includes(UNKNOWN);
  const wanted = roles.filter((r) => r.startsWith("#")).map((r) => r.slice(1));
  if (wanted.length === 0) return unknownRole ? "maybe" : "no";
  const attributes = entity.roleAttributes ?? [];
  if (!Array.isArray(attributes)) return "maybe"; // the entity's attributes are not known yet
  const has = new Set(attributes.filter((a) => a !== UNKNOWN));
  const unknownAttribute = attributes.includes(UNKNOWN);
  const anyOf = wanted.some((a) => has.has(a));
  const allOf = wanted.every((a) => has.has(a));
  // For each semantic: yes when it holds on the known values alone and no unknown value can undo
  // it; no when no unknown value can make it hold.
  const under = (s: "AllOf" | "AnyOf"): Selection => {
    if (s === "AnyOf") {
      // Known matches stand (an unknown role only adds); an unknown attribute may be a wanted one.
      if (anyOf) return "yes";
      return unknownAttribute || unknownRole ? "maybe" : "no";
    }
    // An unknown role may be one more `#attr` the entity lacks, or this entity's `@id`.
    if (allOf) return unknownRole ? "maybe" : "yes";
    return unknownAttribute || unknownRole ? "maybe" : "no";
  };
  if (semantic !== UNKNOWN) return under(semantic === "AnyOf" ? "AnyOf" : "AllOf");
  const [all, any] = [under("AllOf"), under("AnyOf")];
  return all === any ? all : "maybe";
}
