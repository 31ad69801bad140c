// What is secret, written down once in the tests from the API descriptions and the swagger, NOT
// read from schema.json or the provider's definitions (the code under test): were the scans to learn
// secretness from the provider, a field that stopped being secret would drop out of the scan with it.
// Sources (test/contracts/, copies of the contracts the product follows):
//   FD   frontdoor-management-api.md        EDGE  edge-api-and-event-queries.md
//   SW   openziti-edge-management.json      ISSUE the project's promise (docs/guides/reliability-and-recovery.md#secrets): tokens,
//        passwords, client secrets, private keys, enrollment JWTs and tokens, verification tokens
// Paths are dotted; `items.` steps into the array of a plural lookup's result. Every kind and every
// function of the package has an entry (empty lists included), so a new one cannot go unjudged.

export interface SecretFields {
  /** Input paths whose values are secret. */
  inputs: string[];
  /** Output paths whose values are secret (a secret input that is echoed back is listed again). */
  outputs: string[];
  /** Where the judgement comes from. */
  source: string;
}

const none = (source: string): SecretFields => ({ inputs: [], outputs: [], source });

/** Resource kinds (schema token `frontdoor:index:<kind>`). */
export const RESOURCE_SECRETS: Record<string, SecretFields> = {
  AuthProvider: {
    // FD "Auth provider": OIDC data `client_secret (string, secret)`, "Stored secrets are returned in
    // responses" (so the outputs carry it too). API_KEY (FD: example type) data carries the key that
    // authenticates callers: a credential (ISSUE).
    inputs: ["data.client_secret", "data.api_key"],
    outputs: ["data.client_secret", "data.api_key"],
    source: "FD Auth provider; ISSUE (API keys are credentials)",
  },
  ClientCertificate: none("FD Client certificate: `value` is a certificate or a CSR, both public"),
  CertificateRequestToken: {
    inputs: [],
    // FD "Certificate request token": `token | string | secret; example prefix crt_`.
    outputs: ["token"],
    source: "FD Certificate request token (token: secret)",
  },
  CustomFrontend: none("FD Custom frontend: hostnames, ids, status, DNS records (published anyway)"),
  // A key pair made locally: the private key is the secret half (ISSUE: private keys).
  KeyPair: { inputs: [], outputs: ["privateKeyPem"], source: "ISSUE (private keys)" },
  Identity: {
    inputs: [],
    // EDGE "Identity": enrollment (response) ott {jwt, token}, updb {jwt, token}; SW enrollment
    // `jwt`/`token`; ISSUE: enrollment JWTs and tokens.
    outputs: ["enrollmentJwt", "enrollmentToken"],
    source: "EDGE Identity enrollment; SW enrollmentDetail; ISSUE",
  },
  AuthPolicy: none("EDGE Auth policy: allowed methods and limits, no credential"),
  EdgeRouterPolicy: none("EDGE Edge router policy: roles"),
  Ca: {
    // The CA's private key is given so that the provider can verify the CA (a private key: ISSUE).
    inputs: ["privateKeyPem"],
    // EDGE "CA": `verificationToken (string, secret)`; SW caDetail.verificationToken.
    outputs: ["privateKeyPem", "verificationToken"],
    source: "EDGE CA (verificationToken: secret); ISSUE (private keys)",
  },
  EdgeRouter: {
    inputs: [],
    // EDGE "Edge router": enrollmentJwt, enrollmentToken; SW edgeRouterDetail; ISSUE.
    outputs: ["enrollmentJwt", "enrollmentToken"],
    source: "EDGE Edge router enrollment; SW; ISSUE",
  },
  // EDGE "External JWT signer": clientId, certPem, issuer...: no secret among its fields.
  ExternalJwtSigner: none("EDGE External JWT signer (clientId and certificate are public)"),
  PostureCheck: none("EDGE/SW posture checks: no credential"),
  ConfigType: none("SW configType: a JSON schema"),
  Config: none("SW config: service configuration data"),
  Service: none("SW service"),
  ServicePolicy: none("SW service policy: roles"),
  ServiceEdgeRouterPolicy: none("SW service edge router policy: roles"),
};

/** Lookup functions: their result is the kind's state (one object, or `items` of them). */
function lookups(kind: string, single: string, plural: string): Record<string, SecretFields> {
  const { outputs, source } = RESOURCE_SECRETS[kind];
  return {
    [single]: { inputs: [], outputs: [...outputs], source: `the ${kind} state: ${source}` },
    [plural]: {
      inputs: [],
      outputs: outputs.map((p) => `items.${p}`),
      source: `the ${kind} state: ${source}`,
    },
  };
}

/** Functions (schema token `frontdoor:index:<name>`). */
export const FUNCTION_SECRETS: Record<string, SecretFields> = {
  // EDGE "Event data queries": basic credentials `<USERNAME>:<PASSWORD>` of the remote-access user.
  getTopTalkers: { inputs: ["searchPassword"], outputs: [], source: "EDGE event queries (password)" },
  searchAlerts: { inputs: ["searchPassword"], outputs: [], source: "EDGE event queries (password)" },
  // FD: the certificate request token is the secret, and the credential of the token-based create.
  createCertificateWithToken: { inputs: ["token"], outputs: [], source: "FD Certificate request token" },
  validateCertificateRequestToken: { inputs: ["token"], outputs: [], source: "FD Certificate request token" },
  enrollIdentity: {
    // The enrollment JWT given (ISSUE); EDGE "the client keeps the private key"; the identity file
    // holds that key (`id.key`).
    inputs: ["jwt"],
    outputs: ["privateKeyPem", "identityJson"],
    source: "ISSUE (enrollment JWTs, private keys); EDGE enrollment",
  },
  ...lookups("Identity", "getIdentity", "getIdentities"),
  ...lookups("AuthPolicy", "getAuthPolicy", "getAuthPolicies"),
  ...lookups("EdgeRouterPolicy", "getEdgeRouterPolicy", "getEdgeRouterPolicies"),
  ...lookups("Ca", "getCa", "getCas"),
  ...lookups("EdgeRouter", "getEdgeRouter", "getEdgeRouters"),
  ...lookups("ExternalJwtSigner", "getExternalJwtSigner", "getExternalJwtSigners"),
  ...lookups("PostureCheck", "getPostureCheck", "getPostureChecks"),
  ...lookups("Service", "getService", "getServices"),
  ...lookups("ServicePolicy", "getServicePolicy", "getServicePolicies"),
  ...lookups("ServiceEdgeRouterPolicy", "getServiceEdgeRouterPolicy", "getServiceEdgeRouterPolicies"),
  ...lookups("Config", "getConfig", "getConfigs"),
  ...lookups("ConfigType", "getConfigType", "getConfigTypes"),
  ...lookups("AuthProvider", "getAuthProvider", "getAuthProviders"),
  ...lookups("ClientCertificate", "getClientCertificate", "getClientCertificates"),
  ...lookups("CertificateRequestToken", "getCertificateRequestToken", "getCertificateRequestTokens"),
  ...lookups("CustomFrontend", "getCustomFrontend", "getCustomFrontends"),
};

/** Provider configuration keys (`frontdoor:<key>`) that hold credentials. */
export const CONFIG_SECRETS: Record<string, string> = {
  token: "FD Authentication: `Authorization: Bearer <ACCESS_TOKEN>` (or Basic username:token)",
  clientSecret: "DESIGN §4: OAuth2 client-credentials grant (client id and secret)",
  edgePassword: "EDGE Authenticate: method password, body {username, password}",
  edgeKeyPem: "ISSUE (private keys): the key of the client certificate for method=cert",
  edgeIdentityJson: "a Ziti identity file holds the identity's private key (id.key)",
  edgeJwt: "ISSUE 31: an external JWT is a bearer credential (`Authorization: Bearer` of method=ext-jwt)",
  edgeTotpSecret: "EDGE MFA: the TOTP shared secret is what one-time passwords derive from",
  searchPassword: "EDGE Event data queries: basic credentials <USERNAME>:<PASSWORD>",
};

/**
 * Where the servers keep the secrets they hand out, by the field names of the contracts (the mock
 * follows them): after a run, these are the actual values the provider received, to be searched for
 * in everything it stored and printed.
 */
export const SERVER_SECRET_FIELDS = {
  frontdoor: {
    "auth-providers": ["data.client_secret", "data.api_key"], // FD: stored secrets are returned
    "certificate-request-tokens": ["token"], // FD: token, secret
  },
  edge: {
    enrollments: ["jwt", "token"], // SW enrollmentDetail: jwt, token
    cas: ["verificationToken"], // EDGE CA: verificationToken (secret)
    "edge-routers": ["enrollmentJwt", "enrollmentToken"], // EDGE edge router
  },
} as const;
