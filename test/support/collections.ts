// The collections a test looks in for objects left behind (or duplicated): every one the Edge
// management API serves for a kind the provider manages, and the Frontdoor ones with the field that
// names their objects. Listed here, by the API's paths, not taken from the provider under test.

/** Edge management API collections of every kind the provider manages. */
export const EDGE_COLLECTIONS = [
  "identities",
  "auth-policies",
  "edge-router-policies",
  "cas",
  "edge-routers",
  "external-jwt-signers",
  "posture-checks",
  "config-types",
  "configs",
  "services",
  "service-policies",
  "service-edge-router-policies",
] as const;

/** Frontdoor collections, with the field that names an object of each. */
export const FRONTDOOR_COLLECTIONS = [
  ["auth-providers", "name"],
  ["client-certificates", "name"],
  ["certificate-request-tokens", "name"],
  ["custom-frontends", "hostname"],
] as const;
