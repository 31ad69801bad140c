// The registry of resource kinds: the engine, the SDK and the schema generator all start here.
import { ProviderError } from "../http/errors";
import type { ResourceDefinition } from "../resource";
import { authPolicy } from "./authPolicy";
import { authProvider } from "./authProvider";
import { ca } from "./ca";
import { certificateRequestToken } from "./certificateRequestToken";
import { clientCertificate } from "./clientCertificate";
import { config } from "./config";
import { configType } from "./configType";
import { customFrontend } from "./customFrontend";
import { edgeRouter } from "./edgeRouter";
import { edgeRouterPolicy } from "./edgeRouterPolicy";
import { externalJwtSigner } from "./externalJwtSigner";
import { identity } from "./identity";
import { keyPair } from "./keyPair";
import { postureCheck } from "./postureCheck";
import { service } from "./service";
import { serviceEdgeRouterPolicy } from "./serviceEdgeRouterPolicy";
import { servicePolicy } from "./servicePolicy";

export const resourceDefinitions: ResourceDefinition<any, any>[] = [
  authProvider,
  clientCertificate,
  certificateRequestToken,
  customFrontend,
  keyPair,
  identity,
  authPolicy,
  edgeRouterPolicy,
  ca,
  edgeRouter,
  externalJwtSigner,
  postureCheck,
  configType,
  config,
  service,
  servicePolicy,
  serviceEdgeRouterPolicy,
];

export function resourceDefinition(kind: string): ResourceDefinition {
  const def = resourceDefinitions.find((d) => d.kind === kind);
  if (!def) throw new ProviderError(`unknown resource kind ${kind}`);
  return def;
}
