// Where the real controller (ziti v1.6.0, the release `npm run peers` builds) answers outside the
// swagger in ../contracts (which is newer than v1.6.0): facts of the controller, not defects of the
// provider. validateResponse() accepts exactly these; any other deviation, of the controller (seen by
// the real-peer suites) or of the mock, is reported, so a new one gets looked at. The mock answers
// the way the controller does (test/real-vs-mock.test.ts checks it; mock/edge/README.md).
export const CONTROLLER_SWAGGER_DEVIATIONS: RegExp[] = [
  // CA verification tokens are short ids like "Fq2bQnGzg", not UUIDs.
  /\(GET \/cas(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.verificationToken: must match format "uuid"/,
  // A CA created without identityRoles answers `identityRoles: null` (the swagger says array).
  /\(GET \/cas(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.identityRoles: must be array/,
  // A policy's roles that are empty or unset read null (the swagger says array).
  /\(GET \/(edge-router-policies|service-policies|service-edge-router-policies)(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.(identityRoles|edgeRouterRoles|serviceRoles|postureCheckRoles): must be array/,
  // An OS posture check's rule without versions answers `versions: null` (the swagger says array).
  /\(GET \/posture-checks(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.operatingSystems\[\d+\]\.versions: must be array/,
  // A service without configs answers `configs: null` and `config: null` (the swagger: array, object).
  /\(GET \/services(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.(configs: must be array|config: must be object)/,
  // An identity's service list (admin API) answers `permissions: null`: it is not computed for the
  // listing identity's policies; services without configs read `configs`/`config` null as above.
  /\(GET \/identities\/\{id\}\/services\) response 200 \$\.data\[\d+\]\.(configs: must be array|config: must be object|permissions: must be array)/,
  // Policy advice leaves `meta` null, and `commonRouters` null when the two share no edge router.
  /\(GET \/identities\/\{id\}\/policy-advice\/\{serviceId\}\) response 200 \$\.(meta: must be object|data\.commonRouters: must be array)/,
  // An external JWT signer's unset optional fields read null (the swagger: string, array).
  /\(GET \/external-jwt-signers(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.(clientId|externalAuthUrl|fingerprint|kid): must be string/,
  /\(GET \/external-jwt-signers(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.scopes: must be array/,
  // Identity `permissions` do not exist in v1.6.0: never returned (the swagger makes them required).
  /\(GET \/identities(\/\{id\})?\) response 200 \$\.data(\[\d+\])?\.permissions: is required/,
];
