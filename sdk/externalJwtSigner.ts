import { type Args, resourceClass } from "./resource";
import type { ExternalJwtSignerInputs } from "./types.generated";

export type ExternalJwtSignerArgs = Args<ExternalJwtSignerInputs>;

/**
 * An OpenZiti external JWT signer (`frontdoor:index:ExternalJwtSigner`): identities may log in with
 * JWTs of this issuer, verified with the keys of `jwksEndpoint` (or of `certPem`). Give its id to an
 * AuthPolicy's `primary.extJwt.allowedSigners` (or `secondary.requireExtJwtSigner`).
 *
 * ```ts
 * const keycloak = new frontdoor.ExternalJwtSigner("keycloak", {
 *   name: "keycloak",
 *   issuer: "https://login.example.com/realms/corp",
 *   audience: "openziti",
 *   jwksEndpoint: "https://login.example.com/realms/corp/protocol/openid-connect/certs",
 *   claimsProperty: "email",
 *   useExternalId: true,
 *   externalAuthUrl: "https://login.example.com/realms/corp",
 *   clientId: "ziti-clients",
 *   scopes: ["openid", "email"],
 * });
 * new frontdoor.AuthPolicy("sso-only", {
 *   name: "sso-only",
 *   primary: { updb: { allowed: false }, extJwt: { allowed: true, allowedSigners: [keycloak.id] } },
 * });
 * ```
 */
export class ExternalJwtSigner extends resourceClass("ExternalJwtSigner") {}
