// A custom frontend: your own hostname served by the frontdoor, with two auth providers its shares may
// use. `up` waits until the DNS records can be read; they are stack outputs, ready to feed a DNS provider
// (see README.md for Cloudflare and Route 53).
// Connection settings: frontdoor:apiUrl, frontdoor:frontdoorId and frontdoor:token (--secret) or
// frontdoor:clientId/clientSecret/tokenUrl (or the FRONTDOOR_* / NETFOUNDRY_* environment variables).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const hostname = config.get("hostname") ?? "apps.example.com";
const prefix = config.get("namePrefix") ?? "custom-frontend";

const sso = new frontdoor.AuthProvider("sso", {
  name: `${prefix}-sso`,
  type: "OIDC",
  data: {
    issuer: "https://login.example.com",
    client_id: "frontdoor",
    client_secret: config.getSecret("ssoClientSecret") ?? pulumi.secret("example-client-secret"),
  },
});
const apiKey = new frontdoor.AuthProvider("api-key", {
  name: `${prefix}-api-key`,
  type: "API_KEY",
  data: {
    header_name: "x-api-key",
    api_key: config.getSecret("apiKey") ?? pulumi.secret("example-api-key-0123456789"),
  },
});

const web = new frontdoor.CustomFrontend("web", {
  hostname,
  authProviderIds: [sso.id, apiKey.id],
  // waitForActive: true,  // also wait until the records have propagated (status ACTIVE)
});

export const frontendId = web.id;
export const status = web.status;
export const domainName = web.domainName;
export const aRecordName = web.dnsRecords.aRecord.name;
export const aRecordAddresses = web.dnsRecords.aRecord.ipAddresses;
export const cnameRecords = web.dnsRecords.cnameRecords;
// All of it in one output: {aRecord: {name, ipAddresses}, cnameRecords: [{name, value}]}.
export const dnsRecords = web.dnsRecords;
