// KeyPair, ClientCertificate (issued from the KeyPair's CSR, and uploaded), CertificateRequestToken and
// CustomFrontend, driven by stack config so one program covers create, update, replace, delete and
// import:
//   keyCn (KeyPair subject: replace), deviceCertName (rename), deviceCsr (a CSR of your own instead of
//   the KeyPair's: no KeyPair then), uploadedPem (the uploaded certificate; none without it) /
//   withUploaded,
//   tokenName / tokenCn / withToken, hostname (replace) / frontendProviders ("sso", "both", "apiKey",
//   "none") / withFrontend, and import<Resource> = "<frontdoorId>/<id>" for the `import` option.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const importOf = (key: string): pulumi.CustomResourceOptions => ({ import: config.get(key) });

const sso = new frontdoor.AuthProvider("sso", {
  name: "lifecycle-sso",
  type: "OIDC",
  data: {
    issuer: "https://login.example.com/realms/corp",
    client_id: "frontdoor",
    client_secret: config.requireSecret("ssoClientSecret"),
  },
});
const apiKey = new frontdoor.AuthProvider("api-key", {
  name: "lifecycle-api-key",
  type: "API_KEY",
  data: { header_name: "x-api-key", api_key: config.requireSecret("apiKey") },
});

const deviceCsr = config.get("deviceCsr");
const key = deviceCsr
  ? undefined
  : new frontdoor.KeyPair("device-key", {
      commonName: config.get("keyCn") ?? "device-1.devices.example.com",
      organization: "Acme",
    });
const deviceCert = new frontdoor.ClientCertificate(
  "device-cert",
  { name: config.get("deviceCertName") ?? "device-1", value: deviceCsr ?? key!.csrPem },
  importOf("importDeviceCert"),
);

const uploadedPem = config.get("uploadedPem");
const uploaded =
  uploadedPem === undefined || config.getBoolean("withUploaded") === false
    ? undefined
    : new frontdoor.ClientCertificate(
        "uploaded",
        { name: "partner", value: uploadedPem },
        importOf("importUploaded"),
      );

const token =
  (config.getBoolean("withToken") ?? true)
    ? new frontdoor.CertificateRequestToken(
        "enrol",
        {
          name: config.get("tokenName") ?? "sensor-1",
          commonName: config.get("tokenCn") ?? "sensor-1.devices.example.com",
          organization: "Acme",
        },
        importOf("importToken"),
      )
    : undefined;

const providerChoice: Record<string, pulumi.Input<string>[]> = {
  sso: [sso.id],
  apiKey: [apiKey.id],
  both: [sso.id, apiKey.id],
  none: [],
};
const web =
  (config.getBoolean("withFrontend") ?? true)
    ? new frontdoor.CustomFrontend(
        "web",
        {
          hostname: config.get("hostname") ?? "apps.example.com",
          authProviderIds: providerChoice[config.get("frontendProviders") ?? "sso"],
        },
        importOf("importFrontend"),
      )
    : undefined;

export const ssoId = sso.id;
export const apiKeyId = apiKey.id;
export const keyId = key?.id;
export const keyPublicKeyPem = key?.publicKeyPem;
export const keyPrivateKeyPem = key?.privateKeyPem;
export const deviceCertId = deviceCert.id;
export const deviceCertPem = deviceCert.certificatePem;
export const deviceCertFingerprint = deviceCert.fingerprintSha256;
export const deviceCertSubject = deviceCert.subject;
export const deviceCertIssuer = deviceCert.issuer;
export const uploadedId = uploaded?.id;
export const uploadedFingerprint = uploaded?.fingerprintSha256;
export const tokenId = token?.id;
export const tokenValue = token?.token;
export const tokenExpiresAt = token?.expiresAt;
export const frontendId = web?.id;
export const frontendStatus = web?.status;
export const frontendDnsRecords = web?.dnsRecords;
