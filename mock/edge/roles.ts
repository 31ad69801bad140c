// Policy roles: `#attribute`, `@entityId`, or `#all` on its own. The controller stores them sorted,
// so a client that sends ["#b", "#a"] reads back ["#a", "#b"].
import { invalidField } from "./envelope";

export const ALL_ROLE = "#all";

/** Validated, sorted roles; unset or null gives `[]`. */
export function normalizeRoles(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidField(field, "must be of type array", value);
  for (const role of value) {
    if (typeof role !== "string" || !/^[#@]\S+$/.test(role)) {
      throw invalidField(field, "roles must be '#<attribute>', '@<id>' or '#all'", role ?? null);
    }
  }
  const roles = [...(value as string[])];
  if (roles.includes(ALL_ROLE) && roles.length > 1) {
    throw invalidField(field, "if #all is specified, it must be the only role", roles);
  }
  return roles.sort();
}

/** `[{role, name}]`: attributes show as themselves, `@id` as `@<entity name>` when known. */
export function rolesDisplay(
  roles: string[],
  nameOf: (id: string) => string | undefined,
): { role: string; name: string }[] {
  return roles.map((role) => {
    if (!role.startsWith("@")) return { role, name: role };
    const name = nameOf(role.slice(1));
    return { role, name: name === undefined ? role : `@${name}` };
  });
}

/** As a real controller answers (v1.6.0): a role list that is empty or was never set reads `null`. */
export function rolesOrNull(roles: string[] | null | undefined): string[] | null {
  return roles && roles.length > 0 ? [...roles] : null;
}

/**
 * A real controller (v1.6.0) refuses an `@` role that names no existing object: 400
 * COULD_NOT_VALIDATE on the field, "no identities found with the given ids". `@name` is not resolved.
 */
export function assertRefsExist(
  roles: string[] | null | undefined,
  field: string,
  plural: string,
  exists: (id: string) => boolean,
): void {
  const missing = (roles ?? []).filter((role) => role.startsWith("@") && !exists(role.slice(1)));
  if (missing.length > 0) throw invalidField(field, `no ${plural} found with the given ids`, missing);
}
