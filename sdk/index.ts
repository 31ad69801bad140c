// pulumi-frontdoor: Frontdoor and OpenZiti Edge management resources for Pulumi programs.
export { AuthProvider, type AuthProviderArgs } from "./authProvider";
