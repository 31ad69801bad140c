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
export { CustomFrontend, type CustomFrontendArgs } from "./customFrontend";
export { EdgeRouterPolicy, type EdgeRouterPolicyArgs } from "./edgeRouterPolicy";
export {
  type Alert,
  getTopTalkers,
  getTopTalkersOutput,
  type SearchAlertsArgs,
  type SearchAlertsResult,
  searchAlerts,
  searchAlertsOutput,
  type TopTalkersArgs,
  type TopTalkersResult,
} from "./events";
export { Identity, type IdentityArgs } from "./identity";
export { KeyPair, type KeyPairArgs } from "./keyPair";
