// The registry of resource kinds. The engine asks for one kind at a time, and a provider host serves
// the kinds its resources use: each kind's module (its zod schemas, built at load) is loaded when that
// kind is first asked for, not with the registry (all 17 at once were about a fifth of a host's
// provider load time). The list of all definitions, for the generators and tools, is in all.ts.
import { ProviderError } from "../http/errors";
import type { ResourceDefinition } from "../resource";

/** Each kind's module and the name of its definition there. */
const MODULES: Record<string, [module: string, name: string]> = {
  AuthProvider: ["./authProvider", "authProvider"],
  ClientCertificate: ["./clientCertificate", "clientCertificate"],
  CertificateRequestToken: ["./certificateRequestToken", "certificateRequestToken"],
  CustomFrontend: ["./customFrontend", "customFrontend"],
  KeyPair: ["./keyPair", "keyPair"],
  Identity: ["./identity", "identity"],
  AuthPolicy: ["./authPolicy", "authPolicy"],
  EdgeRouterPolicy: ["./edgeRouterPolicy", "edgeRouterPolicy"],
  Ca: ["./ca", "ca"],
  EdgeRouter: ["./edgeRouter", "edgeRouter"],
  ExternalJwtSigner: ["./externalJwtSigner", "externalJwtSigner"],
  PostureCheck: ["./postureCheck", "postureCheck"],
  ConfigType: ["./configType", "configType"],
  Config: ["./config", "config"],
  Service: ["./service", "service"],
  ServicePolicy: ["./servicePolicy", "servicePolicy"],
  ServiceEdgeRouterPolicy: ["./serviceEdgeRouterPolicy", "serviceEdgeRouterPolicy"],
};

/** The kinds the registry serves. */
export const resourceKinds: string[] = Object.keys(MODULES);

export function resourceDefinition(kind: string): ResourceDefinition {
  const entry = Object.hasOwn(MODULES, kind) ? MODULES[kind] : undefined;
  if (!entry) throw new ProviderError(`unknown resource kind ${kind}`);
  const def = require(entry[0])[entry[1]] as ResourceDefinition | undefined;
  if (def?.kind !== kind) throw new Error(`${entry[0]} does not define the kind ${kind}`);
  return def;
}
