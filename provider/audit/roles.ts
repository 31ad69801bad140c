// How a policy's role list selects objects, as the OpenZiti controller evaluates it (its policy
// stores): an object is selected when the list names it by `@<id>`, or holds `#all`, or, for the
// attribute roles `#<attr>`, when the object has all of them (semantic AllOf) or any (AnyOf). `@id`
// roles select on their own whatever the semantic; a list with no attribute role selects by id only.

/** An object by id and name, as reports show it. */
export interface Ref {
  id: string;
  name: string;
}

/** What a role list is matched against: the object's id and its role attributes. */
export interface Entity {
  id: string;
  roleAttributes?: string[] | null;
}

export function selects(roles: readonly string[], semantic: string, entity: Entity): boolean {
  if (roles.includes(`@${entity.id}`) || roles.includes("#all")) return true;
  const wanted = roles.filter((r) => r.startsWith("#")).map((r) => r.slice(1));
  if (wanted.length === 0) return false;
  const has = new Set(entity.roleAttributes ?? []);
  return semantic === "AnyOf" ? wanted.some((a) => has.has(a)) : wanted.every((a) => has.has(a));
}
