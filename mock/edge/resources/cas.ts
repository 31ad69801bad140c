// /cas: CRUD, list and verification. A CA is created unverified with a random verificationToken;
// it becomes verified by POSTing (text/plain) a PEM certificate that the CA signed and whose
// subject CN is the token. certPem is immutable: PATCH/PUT carrying a different one are 400.
import type { MockResponse } from "../../types";
import { collectionRoutes, recordHead } from "../crud";
import { ApiError, created, empty, invalidField } from "../envelope";
import {
  type Certificate,
  commonName,
  fingerprint,
  isCaCertificate,
  isSignedBy,
  parseCertificatePem,
} from "../pki";
import { rolesOrNull } from "../roles";
import { type Route, type RouteContext, route } from "../routes";
import type { CaRecord, EdgeState } from "../state";
import { shortId } from "../state";
import { asObject, type Body, bool, object, str, stringList, tags } from "../validate";

// As a real controller (v1.6.0) fills it in, without spaces around the dash.
export const DEFAULT_IDENTITY_NAME_FORMAT = "[caName]-[commonName]";

type Fields = Omit<CaRecord, "id" | "createdAt" | "updatedAt">;
type Mode = "create" | "put" | "patch";

function parsePem(pem: string, field: string): Certificate {
  try {
    return parseCertificatePem(pem);
  } catch {
    throw invalidField(field, "could not parse a PEM certificate", pem);
  }
}

export class Cas {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    const verify = route("POST", "/cas/{id}/verify", "full", (ctx) => this.verify(ctx));
    return collectionRoutes(this.state.cas, this, render, verify);
  }

  create(body: Body): MockResponse {
    const certPem = str(body, "certPem", { required: true }) as string;
    const fields = readFields(body, "create");
    const cert = parsePem(certPem, "certPem");
    if (!isCaCertificate(cert)) {
      throw invalidField("certPem", "certificate is not a CA (basicConstraints cA is not true)", certPem);
    }
    const print = fingerprint(cert);
    const sameCertificate = this.state.cas.all().find((ca) => ca.fingerprint === print);
    if (sameCertificate) {
      // ziti v1.6.0's words (test/real-name-clash.test.ts).
      throw invalidField("certPem", `certificate already used as CA ${sameCertificate.id}`, certPem);
    }
    this.state.cas.assertUniqueName(fields.name as string);
    const ca = this.state.cas.insert({
      identityNameFormat: DEFAULT_IDENTITY_NAME_FORMAT,
      tags: {},
      ...fields,
      certPem,
      fingerprint: print,
      verificationToken: shortId(), // a short id like the controller's, not the UUID the swagger says
      isVerified: false,
    } as Fields);
    return created("cas", ca.id);
  }

  update(ctx: RouteContext, mode: Mode): MockResponse {
    const ca = this.state.cas.require(ctx.params.id);
    const body = asObject(ctx.body);
    const certPem = str(body, "certPem", { nullable: true });
    if (certPem !== undefined && certPem.trim() !== ca.certPem.trim()) {
      let same = false;
      try {
        same = fingerprint(parseCertificatePem(certPem)) === ca.fingerprint;
      } catch {
        same = false;
      }
      if (!same) throw invalidField("certPem", "certPem is immutable; create a new CA instead", certPem);
    }
    const fields = readFields(body, mode);
    if (fields.name !== undefined) this.state.cas.assertUniqueName(fields.name, ca.id);
    if (mode === "put") {
      // PUT replaces: optional fields not sent go back to their defaults.
      fields.tags ??= {};
    }
    // PUT, and PATCH too on a real controller (v1.6.0): an externalIdClaim not sent is removed.
    fields.externalIdClaim ??= undefined;
    this.state.cas.update(ca.id, fields);
    return empty();
  }

  remove(ctx: RouteContext): MockResponse {
    const ca = this.state.cas.require(ctx.params.id);
    // Deleting a CA also deletes what hangs off it: its cert authenticators and ottca enrollments.
    for (const a of this.state.authenticators.all()) {
      if (a.caId === ca.id) this.state.authenticators.delete(a.id);
    }
    for (const e of this.state.enrollments.all()) {
      if (e.caId === ca.id) this.state.enrollments.delete(e.id);
    }
    this.state.cas.delete(ca.id);
    return empty();
  }

  private verify(ctx: RouteContext): MockResponse {
    const ca = this.state.cas.require(ctx.params.id);
    if (typeof ctx.body !== "string") {
      throw new ApiError(400, "INVALID_CONTENT_TYPE", "The content type supplied is not acceptable");
    }
    if (ca.isVerified) throw new ApiError(409, "CA_ALREADY_VERIFIED", "CA has already been verified");
    let cert: Certificate;
    try {
      cert = parseCertificatePem(ctx.body);
    } catch {
      throw new ApiError(400, "COULD_NOT_PARSE_PEM_BLOCK", "The certificate's PEM block could not be parsed");
    }
    if (!isSignedBy(cert, parseCertificatePem(ca.certPem))) {
      throw new ApiError(400, "CERT_FAILED_VALIDATION", "certificate failed to validate against CA");
    }
    if (commonName(cert) !== ca.verificationToken) {
      throw new ApiError(
        400,
        "INVALID_COMMON_NAME",
        "The common name of the supplied certificate is invalid",
      );
    }
    this.state.cas.update(ca.id, { isVerified: true });
    return empty();
  }
}

/** The updatable fields present in a body; create and PUT enforce the swagger's required ones. */
function readFields(body: Body, mode: Mode): Partial<Fields> {
  const required = mode !== "patch";
  const rule = { required, nullable: !required };
  const out: Partial<Fields> = {};
  const name = str(body, "name", rule);
  if (name !== undefined) out.name = name;
  for (const flag of ["isAuthEnabled", "isAutoCaEnrollmentEnabled", "isOttCaEnrollmentEnabled"] as const) {
    const value = bool(body, flag, rule);
    if (value !== undefined) out[flag] = value;
  }
  const identityRoles = stringList(body, "identityRoles", { required, nullable: !required });
  if (identityRoles !== undefined) out.identityRoles = [...identityRoles].sort();
  const format = str(body, "identityNameFormat", { required: mode === "put", nullable: true });
  if (format !== undefined) out.identityNameFormat = format;
  const claim = object(body, "externalIdClaim", { nullable: true });
  if (claim !== undefined) out.externalIdClaim = claim;
  if ("tags" in body) out.tags = tags(body, "tags") ?? {};
  return out;
}

function render(ca: CaRecord): Record<string, unknown> {
  return {
    ...recordHead("cas", ca, {
      verify: { href: `./cas/${ca.id}/verify`, method: "POST" },
      jwt: { href: `./cas/${ca.id}/jwt` },
    }),
    name: ca.name,
    certPem: ca.certPem,
    fingerprint: ca.fingerprint,
    verificationToken: ca.verificationToken,
    isVerified: ca.isVerified,
    isAuthEnabled: ca.isAuthEnabled,
    isAutoCaEnrollmentEnabled: ca.isAutoCaEnrollmentEnabled,
    isOttCaEnrollmentEnabled: ca.isOttCaEnrollmentEnabled,
    identityRoles: rolesOrNull(ca.identityRoles),
    identityNameFormat: ca.identityNameFormat,
    ...(ca.externalIdClaim ? { externalIdClaim: ca.externalIdClaim } : {}),
  };
}
