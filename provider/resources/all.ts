// Every resource kind's definition, in the order the schema, the SDK types and the docs list them.
// Generators and tools load them all from here; the engine loads one kind at a time (index.ts).
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
