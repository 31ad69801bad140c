// Input fields shared by several resources.
import { z } from "zod";

/** Every Frontdoor object lives under one frontdoor; the config `frontdoor:frontdoorId` is the default. */
export const frontdoorId = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? "required: set frontdoorId or the config frontdoor:frontdoorId"
        : "must be a string",
  })
  .min(1, "must not be empty")
  .describe(
    "Frontdoor that owns the object (default: config frontdoor:frontdoorId). Changing it replaces the object.",
  );
