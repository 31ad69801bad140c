// Two auth providers of one frontdoor: OIDC single sign-on and an API key for a partner.
// Connection settings come from stack config (frontdoor:apiUrl, frontdoor:token, frontdoor:frontdoorId)
// or FRONTDOOR_* environment variables; the secrets below from `pulumi config set --secret`.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();

const sso = new frontdoor.AuthProvider("corp-sso", {
  name: "corp-sso",
  type: "OIDC",
  data: {
    issuer: "https://login.example.com/realms/corp",
    client_id: "frontdoor",
    client_secret: config.requireSecret("ssoClientSecret"),
    scopes: ["openid", "email"],
  },
});

const partner = new frontdoor.AuthProvider("partner-api-key", {
  name: "partner-api-key",
  type: "API_KEY",
  data: { header_name: "x-api-key", api_key: config.requireSecret("partnerApiKey") },
});

export const ssoId = sso.id;
export const ssoEnabled = sso.enabled;
export const partnerId = partner.id;
