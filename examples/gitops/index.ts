// The access configuration of one frontdoor, applied by the pipeline in .github/workflows/.
// The OIDC client secret comes from the environment (a GitHub Actions secret), so the repository
// holds no credential; it is stored in the Pulumi state only as a secret.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const clientSecret = process.env.FRONTDOOR_OIDC_CLIENT_SECRET;
if (!clientSecret) throw new Error("FRONTDOOR_OIDC_CLIENT_SECRET is not set (a secret of the pipeline)");
// What differs between environments is stack config (Pulumi.<stack>.yaml, reviewed in pull requests
// like the code), e.g. `frontdoor-gitops:oidcIssuer` for a staging realm.
const issuer = new pulumi.Config().get("oidcIssuer") ?? "https://login.example.com/realms/corp";

const sso = new frontdoor.AuthProvider("corp-sso", {
  name: "corp-sso",
  type: "OIDC",
  data: {
    issuer,
    client_id: "frontdoor",
    client_secret: pulumi.secret(clientSecret),
    scopes: ["openid", "email", "profile"],
  },
});

export const ssoId = sso.id;
