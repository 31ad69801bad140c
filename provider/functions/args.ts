// Arguments of the functions programs call (lookups, enrollment, certificate request tokens): parsed
// with their zod schema, failing before any request with every bad argument named.
import { z } from "zod";
import { ProviderError } from "../http/errors";

/** `fn: property: message; ...` (unknown arguments listed by name), never the values given. */
export function parseArgs<S extends z.ZodType>(fn: string, schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const property = issue.path.map(String).join(".") || "(arguments)";
    const unknown = issue.code === "unrecognized_keys" ? ` ${issue.keys.join(", ")}` : "";
    return `${property}: ${issue.message}${unknown}`;
  });
  throw new ProviderError(`${fn}: ${problems.join("; ")}`);
}

/** `caBundle` of the functions that open HTTPS connections themselves (read with pemSetting). */
export const caBundleArg = (note: string) =>
  z.string().optional().describe(`Extra trusted CA certificates, PEM text or file path ${note}`);
