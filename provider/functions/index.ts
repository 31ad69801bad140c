// The registry of functions (queries and token-based calls) that the SDK offers; schema.json's
// `functions` section is generated from it.
import type { z } from "zod";
import { certificateFunctions } from "./certificates";
import { enrollmentFunctions } from "./enrollment";
import { eventFunctions } from "./events";
import { lookupFunctions } from "./lookups";

export interface FunctionDefinition {
  /** camelCase name: `getTopTalkers` (token `frontdoor:index:getTopTalkers`). */
  name: string;
  description: string;
  inputs: z.ZodType;
  outputs: z.ZodType;
}

export const functionDefinitions: FunctionDefinition[] = [
  ...eventFunctions,
  ...certificateFunctions,
  ...enrollmentFunctions,
  ...lookupFunctions,
];
