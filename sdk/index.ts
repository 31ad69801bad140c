// pulumi-frontdoor: Frontdoor and OpenZiti Edge management resources for Pulumi programs.

export { AuthPolicy, type AuthPolicyArgs } from "./authPolicy";
export { AuthProvider, type AuthProviderArgs } from "./authProvider";
export { Ca, type CaArgs } from "./ca";
export { CertificateRequestToken, type CertificateRequestTokenArgs } from "./certificateRequestToken";
export {
  type CreateCertificateWithTokenArgs,
  type CreateCertificateWithTokenResult,
  createCertificateWithToken,
  createCertificateWithTokenOutput,
  type ValidateCertificateRequestTokenArgs,
  type ValidateCertificateRequestTokenResult,
  validateCertificateRequestToken,
  validateCertificateRequestTokenOutput,
} from "./certificates";
export { ClientCertificate, type ClientCertificateArgs } from "./clientCertificate";
export {
  Config,
  type ConfigArgs,
  type HealthCheckAction,
  type HostV1Data,
  type HostV2Data,
  type InterceptV1Data,
} from "./config";
export { ConfigType, type ConfigTypeArgs } from "./configType";
export { CustomFrontend, type CustomFrontendArgs } from "./customFrontend";
export { EdgeRouter, type EdgeRouterArgs } from "./edgeRouter";
export { EdgeRouterPolicy, type EdgeRouterPolicyArgs } from "./edgeRouterPolicy";
export {
  type EnrollIdentityArgs,
  type EnrollIdentityResult,
  enrollIdentity,
} from "./enrollment";
export {
  type Alert,
  type GetTopTalkersArgs,
  type GetTopTalkersResult,
  getTopTalkers,
  getTopTalkersOutput,
  type SearchAlertsArgs,
  type SearchAlertsResult,
  searchAlerts,
  searchAlertsOutput,
  type TopTalkersArgs,
  type TopTalkersResult,
} from "./events";
export { ExternalJwtSigner, type ExternalJwtSignerArgs } from "./externalJwtSigner";
export { Identity, type IdentityArgs } from "./identity";
export { KeyPair, type KeyPairArgs } from "./keyPair";
export * from "./lookups";
export { PostureCheck, type PostureCheckArgs } from "./postureCheck";
export { Service, type ServiceArgs } from "./service";
export { ServiceEdgeRouterPolicy, type ServiceEdgeRouterPolicyArgs } from "./serviceEdgeRouterPolicy";
export { ServicePolicy, type ServicePolicyArgs } from "./servicePolicy";
