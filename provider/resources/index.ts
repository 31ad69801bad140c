// The registry of resource kinds: the engine, the SDK and the schema generator all start here.
import { ProviderError } from "../http/errors";
import type { ResourceDefinition } from "../resource";
import { authProvider } from "./authProvider";

export const resourceDefinitions: ResourceDefinition<any, any>[] = [authProvider];

export function resourceDefinition(kind: string): ResourceDefinition {
  const def = resourceDefinitions.find((d) => d.kind === kind);
  if (!def) throw new ProviderError(`unknown resource kind ${kind}`);
  return def;
}
