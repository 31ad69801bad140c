// The controller side of the GitOps pipeline's keyless login (../.github/workflows): the controller
// trusts GitHub Actions' OIDC tokens of one repository, and maps them to one admin identity that may
// log in only that way. Applied once by an admin; the workflows then log in with the CI's own token
// (frontdoor:edgeJwtAudience / ZITI_EDGE_JWT_AUDIENCE, `permissions: id-token: write`).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
// GitHub's issuer and its keys; another CI (or a test) sets its own.
const issuer = config.get("issuer") ?? "https://token.actions.githubusercontent.com";
const jwksEndpoint = config.get("jwksEndpoint") ?? `${issuer}/.well-known/jwks`;
// The audience the workflows ask their token for (ZITI_EDGE_JWT_AUDIENCE).
const audience = config.require("audience");
// `owner/name`: every workflow of this repository logs in as the pipeline identity. For a narrower
// rule, map another claim (`claimsProperty: "sub"`, e.g. `repo:acme/infra:environment:production`).
const repository = config.require("repository");

const signer = new frontdoor.ExternalJwtSigner("github-actions", {
  name: "github-actions",
  issuer,
  audience,
  jwksEndpoint,
  // The issuer's OIDC discovery document is found from here: the provider checks a refused token's
  // issuer and key against it to say why it was refused.
  externalAuthUrl: issuer,
  claimsProperty: "repository",
  useExternalId: true,
});

// JWTs of this signer only: no password, no certificate for the pipeline identity.
const policy = new frontdoor.AuthPolicy("pipelines", {
  name: "pipelines-keyless",
  primary: {
    updb: { allowed: false },
    cert: { allowed: false },
    extJwt: { allowed: true, allowedSigners: [signer.id] },
  },
});

// The audit steps read every object, and a program may manage Edge objects: an admin.
const pipeline = new frontdoor.Identity("pipeline", {
  name: `pipeline-${repository.replace(/\//g, "-")}`,
  type: "User",
  isAdmin: true,
  authPolicyId: policy.id,
  externalId: repository,
});

export const signerId = signer.id;
export const pipelineIdentityId = pipeline.id;
