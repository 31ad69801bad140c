// The registry of resource kinds. The engine asks for one kind at a time, and a provider host serves
// the kinds its resources use: each kind's module (its zod schemas, built at load) is loaded when that
// kind is first asked for, not with the registry (all 17 at once were about a fifth of a host's
// provider load time). The list of all definitions, for the generators and tools, is in all.ts.
import { ProviderError } from "../http/errors";
import type { ResourceDefinition } from "../resource";

/**
 * The kinds, in the order the schema, the SDK types and the docs list them. Kind `ServicePolicy` is
 * defined as `servicePolicy` in ./servicePolicy.
 */
export const resourceKinds: string[] = [
  "AuthProvider",
  "ClientCertificate",
  "CertificateRequestToken",
  "CustomFrontend",
  "KeyPair",
  "Identity",
  "AuthPolicy",
  "EdgeRouterPolicy",
  "Ca",
  "EdgeRouter",
  "ExternalJwtSigner",
  "PostureCheck",
  "ConfigType",
  "Config",
  "Service",
  "ServicePolicy",
  "ServiceEdgeRouterPolicy",
];

const loaded = new Map<string, ResourceDefinition>();

export function resourceDefinition(kind: string): ResourceDefinition {
  const known = loaded.get(kind);
  if (known) return known;
  if (!resourceKinds.includes(kind)) throw new ProviderError(`unknown resource kind ${kind}`);
  const name = kind[0].toLowerCase() + kind.slice(1);
  const def = require(`./${name}`)[name] as ResourceDefinition | undefined;
  if (def?.kind !== kind) throw new Error(`./${name} does not define the kind ${kind}`);
  loaded.set(kind, def);
  return def;
}
