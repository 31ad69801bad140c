// `count` auth providers (stack config), for the harness benchmarks.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const secret = config.requireSecret("clientSecret");

for (let i = 0; i < count; i++) {
  new frontdoor.AuthProvider(`ap-${i}`, {
    name: `bench-${i}`,
    type: "OIDC",
    data: { issuer: "https://login.example.com", client_id: `client-${i}`, client_secret: secret },
  });
}

export const declared = count;
