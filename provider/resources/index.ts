// The registry of resource kinds. The engine asks for one kind at a time, and a provider host serves
// the kinds its resources use: each kind's module (its zod schemas, built at load) is loaded when that
// kind is first asked for, not with the registry (all 17 at once were about a fifth of a host's
// provider load time). The list of all definitions, for the generators and tools, is in all.ts.
import { ProviderError } from "../http/errors";
import type { ResourceDefinition } from "../resource";

/**
 * Each kind's module, in the order the schema, the SDK types and the docs list the kinds. Kind
 * `ServicePolicy` is defined as `servicePolicy` in ./servicePolicy. Each path is written out (not
 * computed from the kind) so that a bundler finds every module: the self-contained plugin binaries
 * are one bundled file (scripts/release/plugin-binaries.js).
 */
const kindModules: Record<string, () => Record<string, ResourceDefinition | undefined>> = {
  AuthProvider: () => require("./authProvider"),
  ClientCertificate: () => require("./clientCertificate"),
  CertificateRequestToken: () => require("./certificateRequestToken"),
  CustomFrontend: () => require("./customFrontend"),
  KeyPair: () => require("./keyPair"),
  Identity: () => require("./identity"),
  AuthPolicy: () => require("./authPolicy"),
  EdgeRouterPolicy: () => require("./edgeRouterPolicy"),
  Ca: () => require("./ca"),
  EdgeRouter: () => require("./edgeRouter"),
  ExternalJwtSigner: () => require("./externalJwtSigner"),
  PostureCheck: () => require("./postureCheck"),
  ConfigType: () => require("./configType"),
  Config: () => require("./config"),
  Service: () => require("./service"),
  ServicePolicy: () => require("./servicePolicy"),
  ServiceEdgeRouterPolicy: () => require("./serviceEdgeRouterPolicy"),
};

/** The kinds, in the order the schema, the SDK types and the docs list them. */
export const resourceKinds: string[] = Object.keys(kindModules);

const loaded = new Map<string, ResourceDefinition>();

export function resourceDefinition(kind: string): ResourceDefinition {
  const known = loaded.get(kind);
  if (known) return known;
  if (!Object.hasOwn(kindModules, kind)) throw new ProviderError(`unknown resource kind ${kind}`);
  const name = kind[0].toLowerCase() + kind.slice(1);
  const def = kindModules[kind]()[name];
  if (def?.kind !== kind) throw new Error(`./${name} does not define the kind ${kind}`);
  loaded.set(kind, def);
  return def;
}
