import { type Args, resourceClass } from "./resource";
import type { AuthProviderInputs } from "./types.generated";

export type AuthProviderArgs = Args<AuthProviderInputs>;

/**
 * An auth provider of a frontdoor (`frontdoor:index:AuthProvider`): OIDC or API key authentication for
 * inbound requests. `data` is stored as a secret (it holds the client secret or key).
 *
 * ```ts
 * const sso = new frontdoor.AuthProvider("corp-sso", {
 *   name: "corp-sso",
 *   type: "OIDC",
 *   data: { issuer: "https://login.example.com", client_id: "frontdoor", client_secret: cfg.requireSecret("ssoSecret") },
 * });
 * ```
 */
export class AuthProvider extends resourceClass("AuthProvider") {}
