// The controller side of the GitOps pipeline's keyless login (../.github/workflows): the controller
// trusts GitHub Actions' OIDC tokens and maps their `sub` claim to two pipeline identities, each of
// which may log in only that way. Applied once by an admin; the workflows then log in with the CI's
// own token (frontdoor:edgeJwtAudience / ZITI_EDGE_JWT_AUDIENCE, `permissions: id-token: write`).
//
// GitHub's `sub` names the repository and what the job runs for: `repo:OWNER/REPO:ref:refs/heads/main`
// for a push to main (up.yml) and the nightly schedule (drift.yml), `repo:OWNER/REPO:pull_request` for
// a pull request (preview.yml). A job of another branch, tag, environment or repository gets no identity.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
// GitHub's issuer and its keys; another CI (or a test) sets its own.
const issuer = config.get("issuer") ?? "https://token.actions.githubusercontent.com";
const jwksEndpoint = config.get("jwksEndpoint") ?? `${issuer}/.well-known/jwks`;
// The audience the workflows ask their token for (ZITI_EDGE_JWT_AUDIENCE).
const audience = config.require("audience");
// `owner/name`: the repository whose main branch and pull requests log in.
const repository = config.require("repository");
// Controllers that keep identity permissions give previews a read-only identity (admin_readonly).
// v1.5.0 and v1.6.0 neither store nor return permissions: there the preview identity is a plain
// (non-admin) identity, which may log in but read nothing of the management API.
const readOnlyPreviews = config.getBoolean("readOnlyPreviews") ?? false;

const signer = new frontdoor.ExternalJwtSigner("github-actions", {
  name: "github-actions",
  issuer,
  audience,
  jwksEndpoint,
  // The issuer's OIDC discovery document is found from here: the provider checks a refused token's
  // issuer and key against it to say why it was refused.
  externalAuthUrl: issuer,
  // The whole subject (repository and branch or event), never `repository` alone: that would let
  // every workflow of every branch, pull requests included, log in as the same identity.
  claimsProperty: "sub",
  useExternalId: true,
});

// JWTs of this signer only: no password, no certificate. The signer is also the second factor (the
// provider sends the session's token with each request, so the controller counts it), and the
// project's policy pack accepts the admin on it (frontdoor-admin-second-factor). It is the same
// GitHub token, not an independent factor: whoever holds the token holds both, and v1.5/v1.6 serve
// a session without it (docs/guides/gitops-pipeline.md, "The admin's second factor is the same token").
const policy = new frontdoor.AuthPolicy("pipelines", {
  name: "pipelines-keyless",
  primary: {
    updb: { allowed: false },
    cert: { allowed: false },
    extJwt: { allowed: true, allowedSigners: [signer.id] },
  },
  secondary: { requireExtJwtSigner: signer.id },
});

const slug = repository.replace(/\//g, "-");

// `up` on main and the nightly audit: they apply the program and read every object, so an admin.
const main = new frontdoor.Identity("pipeline-main", {
  name: `pipeline-${slug}-main`,
  type: "User",
  isAdmin: true,
  authPolicyId: policy.id,
  externalId: `repo:${repository}:ref:refs/heads/main`,
});

// Pull-request previews: never an admin, since a pull request can change the workflow it runs.
const preview = new frontdoor.Identity("pipeline-preview", {
  name: `pipeline-${slug}-preview`,
  type: "User",
  isAdmin: false,
  authPolicyId: policy.id,
  externalId: `repo:${repository}:pull_request`,
  ...(readOnlyPreviews ? { permissions: ["admin_readonly"] } : {}),
});

export const signerId = signer.id;
export const mainIdentityId = main.id;
export const previewIdentityId = preview.id;
