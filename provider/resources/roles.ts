// Policy roles and role attributes: the input schemas shared by the policy resources and CAs.
// A role is `#attribute`, `@id` (a specific object), or `#all` on its own; the controller sorts
// roles, so they are sets (order never shows as a change).
import { z } from "zod";

export const ALL = "#all";

export const role = z.string().regex(/^[#@]\S+$/, 'a role is "#<attribute>", "@<id>" or "#all"');

export function roles(what: string) {
  return z
    .array(role)
    .default([])
    .refine((list) => !list.includes(ALL) || list.length === 1, {
      message: '"#all" must be the only role when it is given',
    })
    .refine((list) => new Set(list).size === list.length, { message: "roles must not repeat" })
    .describe(`${what}: "#<attribute>", "@<id>", or "#all" alone (a set: order does not matter).`);
}

export const tags = z
  .record(z.string(), z.union([z.string(), z.boolean(), z.null()]))
  .default({})
  .describe("User-defined tags (values: string, boolean or null).");

/**
 * Lists the controller keeps as sets drop repeated items (v1.5.0, v1.6.0): a repeat is refused at
 * check, or the list read back would differ from the declared one on every refresh.
 */
const noRepeats = [
  (list: unknown[]) => new Set(list).size === list.length,
  { message: "items must not repeat (the controller keeps each once)" },
] as const;

/** A list the controller keeps as a set: empty by default, repeats refused at check. */
export function setOf<T extends z.ZodType>(item: T, description: string) {
  return z
    .array(item)
    .default([])
    .refine(...noRepeats)
    .describe(description);
}

export const roleAttributes = setOf(
  z.string().min(1),
  "Role attributes (without #) that policies select with `#<attribute>` (a set).",
);

/** `[{role, name}]` as the controller returns it with each policy's roles. */
export const RoleDisplay = z.array(z.object({ role: z.string(), name: z.string() }));

/** A `*RolesDisplay` field of a policy (absent or null when the controller has none). */
export function displayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export const semantic = z
  .enum(["AllOf", "AnyOf"])
  .default("AllOf")
  .describe("Whether an object must match all roles (AllOf, default) or any (AnyOf).");
