// One auth provider through the frontdoor plugin, which the CLI downloads from the URL the generated
// Node.js SDK names (test/plugin-binaries.test.ts installs its own generation of the SDK, with its
// server's URL, into this program's node_modules).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor-native";

const config = new pulumi.Config();
const sso = new frontdoor.AuthProvider("sso", {
  name: "download-ts-sso",
  type: "OIDC",
  data: {
    issuer: "https://login.example.com/realms/corp",
    client_id: "frontdoor",
    client_secret: config.requireSecret("ssoClientSecret"),
  },
});
export const ssoId = sso.id;
