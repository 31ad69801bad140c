// AuthProvider lifecycle driven by stack config, so one program covers create, update, replace,
// delete and import: `name`, `enabled`, `frontdoorId` (replace), `withPartner`, `importId`,
// `omitScopes` (leave the OIDC scopes unset), `clientId`.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();

const sso = new frontdoor.AuthProvider(
  "sso",
  {
    name: config.get("name") ?? "corp-sso",
    type: "OIDC",
    enabled: config.getBoolean("enabled") ?? true,
    frontdoorId: config.get("frontdoorId"),
    data: {
      issuer: "https://login.example.com/realms/corp",
      client_id: config.get("clientId") ?? "frontdoor",
      client_secret: config.requireSecret("ssoClientSecret"),
      ...(config.getBoolean("omitScopes") ? {} : { scopes: ["openid", "email"] }),
    },
  },
  { import: config.get("importId") },
);

if (config.getBoolean("withPartner") ?? true) {
  new frontdoor.AuthProvider("partner", {
    name: "partner-api-key",
    type: "API_KEY",
    data: { header_name: "x-api-key", api_key: config.requireSecret("partnerApiKey") },
  });
}

export const ssoId = sso.id;
export const ssoName = sso.name;
