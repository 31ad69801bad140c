// Input fields shared by several resources.
import { z } from "zod";

/**
 * Why a string cannot be an object id, or undefined when it can. Ids end up in URL paths: `.` and
 * `..` would climb to another path once the URL is normalised, and `/ ? # %` or control characters
 * would change which request is made (encoding them would only hide the mistake).
 */
export function unsafeIdReason(id: string): string | undefined {
  if (id === "") return "must not be empty";
  if (id === "." || id === "..") return `must be an id, not "${id}"`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  if (/[/?#%\u0000-\u001f\u007f]/.test(id)) return "must be an id: no / ? # % or control characters";
  return undefined;
}

/**
 * The id that `import` takes (the resource option, `pulumi import`, an import file): for Frontdoor kinds
 * `<frontdoorId>/<id>`, since the frontdoor is part of the object's address (see engine.ts, scopedId).
 */
export function importIdOf(api: "frontdoor" | "edge" | "none", id: string, frontdoorId: unknown): string {
  return api === "frontdoor" && typeof frontdoorId === "string" ? `${frontdoorId}/${id}` : id;
}

function refineId(value: string, ctx: z.RefinementCtx): void {
  const reason = value === "" ? undefined : unsafeIdReason(value); // "" is min(1)'s to report
  if (reason) ctx.addIssue({ code: "custom", message: reason });
}

/**
 * The name of an Edge object. Control characters are refused: ZitiQL, the filter language every
 * lookup by name goes through, has no escape for most of them (a real controller answers 400
 * INVALID_FILTER), so an object so named could never be found again by name (adoption, lookups).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const edgeName = (description: string) =>
  z
    .string()
    .min(1)
    .refine((name) => !CONTROL_CHARACTER.test(name), {
      message: "must not contain control characters (a lookup by name could not find it)",
    })
    .describe(description);

/** An id of another object (an auth provider, a CA, a policy), checked as `unsafeIdReason` says. */
export const objectId = z.string().min(1, "must not be empty").superRefine(refineId);

/** Every Frontdoor object lives under one frontdoor; the config `frontdoor:frontdoorId` is the default. */
export const frontdoorId = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? "required: set frontdoorId or the config frontdoor:frontdoorId"
        : "must be a string",
  })
  .min(1, "must not be empty")
  .superRefine(refineId)
  .describe(
    "Frontdoor that owns the object (default: config frontdoor:frontdoorId). Changing it replaces the object.",
  );

/** The name of a Frontdoor object (the API takes 1 to 255 characters). */
export const frontdoorName = (description: string) => z.string().min(1).max(255).describe(description);

/** `reEnrollmentTrigger` of the objects that enroll (identities, edge routers): a change re-enrolls in place. */
export const reEnrollmentTrigger = (effect: string) =>
  z.string().min(1).optional().describe(`Any value; changing it ${effect}`);

/** Who made a Frontdoor object and when: outputs the service records on every object. */
export const created = (what: string) => ({
  createdAt: z.string().describe(`When ${what} was created (ISO 8601).`),
  createdBy: z.string().describe("Who created it."),
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whole days from now until `timestamp` (negative once it passed; null without a timestamp). An
 * output only: it changes every day, and the diff compares inputs alone, so it is never drift.
 */
export function daysUntil(timestamp: unknown, now = Date.now()): number | null {
  const at = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(at) ? null : Math.floor((at - now) / DAY_MS);
}

/** The `daysUntilExpiry` output of objects that expire (certificates, tokens, enrollments). */
export const daysUntilExpiry = (what: string) =>
  z
    .number()
    .nullable()
    .describe(
      `Whole days until ${what} expires, as of the last create, update or refresh (negative once expired). ` +
        "It changes by itself, so it is never drift; programs warn near expiry (frontdoor:expiryWarningDays).",
    );
