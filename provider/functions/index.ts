// The registry of functions (queries and token-based calls) that the SDK offers; schema.json's
// `functions` section is generated from it, and the plugin's Invoke runs them from it.
import type { z } from "zod";
import type { RawSettings } from "../config";
import { certificateFunctions } from "./certificates";
import { enrollmentFunctions } from "./enrollment";
import { eventFunctions } from "./events";
import { frontdoorLookupFunctions } from "./frontdoorLookups";
import { lookupFunctions } from "./lookups";

export interface FunctionDefinition {
  /** camelCase name: `getTopTalkers` (token `frontdoor:index:getTopTalkers`). */
  name: string;
  description: string;
  inputs: z.ZodType;
  outputs: z.ZodType;
  /**
   * Runs it with the connection settings of the caller: the program's (SDK functions) or the
   * configured provider's (the plugin's Invoke).
   */
  run(args: unknown, settings: RawSettings): Promise<unknown>;
}

export const functionDefinitions: FunctionDefinition[] = [
  ...eventFunctions,
  ...certificateFunctions,
  ...enrollmentFunctions,
  ...lookupFunctions,
  ...frontdoorLookupFunctions,
];
