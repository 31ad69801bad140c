// /external-jwt-signers: CRUD and list. Keys come from exactly one of jwksEndpoint and certPem (400
// naming the field otherwise); names and issuers are unique. Unset kid, clientId, externalAuthUrl,
// fingerprint and scopes read null, as on a real controller (v1.6.0; the swagger says string/array);
// other "none"s: "" for unset strings, the zero time for the validity of a JWKS signer.
// claimsProperty defaults to "sub", targetToken to "ACCESS". Auth policies naming unknown signers are
// refused (auth-policies.ts); a signer in use can be deleted (not yet compared with the controller).
import type { MockResponse } from "../../types";
import { collectionRoutes, pick, recordHead } from "../crud";
import { created, empty, invalidField } from "../envelope";
import { commonName, fingerprint, parseCertificatePem } from "../pki";
import type { Route, RouteContext } from "../routes";
import type { EdgeState, ExternalJwtSignerRecord } from "../state";
import { asObject, type Body, bool, oneOf, str, stringList, tags } from "../validate";

export const TARGET_TOKENS = ["ACCESS", "ID"] as const;
const ZERO_TIME = "0001-01-01T00:00:00.000Z";

type Mode = "create" | "put" | "patch";
type Fields = Partial<Omit<ExternalJwtSignerRecord, "id" | "createdAt" | "updatedAt">>;

export class ExternalJwtSigners {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return collectionRoutes(this.state.externalJwtSigners, this, render);
  }

  create(body: Body): MockResponse {
    const fields = this.checked({ ...defaults(), ...readFields(body, "create") });
    // Real controllers (v1.5.0, v1.6.0) drop the tags of a new signer (an update keeps them).
    fields.tags = {};
    const signer = this.state.externalJwtSigners.insert(fields as Required<Fields>);
    return created("external-jwt-signers", signer.id);
  }

  update(ctx: RouteContext, mode: Mode): MockResponse {
    const signer = this.state.externalJwtSigners.require(ctx.params.id);
    const fields = readFields(asObject(ctx.body), mode);
    const { id: _id, createdAt: _c, updatedAt: _u, ...current } = signer;
    const next = mode === "put" ? { ...defaults(), ...fields } : { ...current, ...fields };
    this.state.externalJwtSigners.update(signer.id, this.checked(next, signer.id));
    return empty();
  }

  /** The whole signer as it would be stored: key source, uniqueness, certificate details. */
  private checked(fields: Fields, exceptId?: string): Fields {
    this.state.externalJwtSigners.assertUniqueName(fields.name as string, exceptId);
    const clash = this.state.externalJwtSigners
      .all()
      .find((s) => s.issuer === fields.issuer && s.id !== exceptId);
    if (clash) {
      throw invalidField(
        "issuer",
        `duplicate value '${fields.issuer}' in unique index on issuer`,
        fields.issuer,
      );
    }
    if (fields.jwksEndpoint && fields.certPem) {
      throw invalidField("certPem", "only one of certPem and jwksEndpoint may be set", null);
    }
    if (!fields.jwksEndpoint && !fields.certPem) {
      throw invalidField("jwksEndpoint", "one of certPem and jwksEndpoint is required", null);
    }
    if (!fields.certPem) {
      return { ...fields, fingerprint: null, commonName: null, notBefore: null, notAfter: null };
    }
    let cert: ReturnType<typeof parseCertificatePem>;
    try {
      cert = parseCertificatePem(fields.certPem);
    } catch {
      throw invalidField("certPem", "could not parse a PEM certificate", null);
    }
    return {
      ...fields,
      fingerprint: fingerprint(cert),
      commonName: commonName(cert) ?? "",
      notBefore: cert.validity.notBefore.toISOString(),
      notAfter: cert.validity.notAfter.toISOString(),
    };
  }
}

function defaults(): Fields {
  return {
    jwksEndpoint: null,
    certPem: null,
    kid: null,
    claimsProperty: "sub",
    useExternalId: false,
    externalAuthUrl: null,
    clientId: null,
    scopes: [],
    targetToken: "ACCESS",
    tags: {},
  };
}

/** The fields present in a body, checked (null means the field's default). */
function readFields(body: Body, mode: Mode): Fields {
  const required = mode !== "patch";
  const rule = { required, nullable: !required };
  const out: Fields = {};
  const has = (field: string) => field in body;
  const name = str(body, "name", rule);
  if (name !== undefined) out.name = name;
  const issuer = str(body, "issuer", rule);
  if (issuer !== undefined) out.issuer = issuer;
  const audience = str(body, "audience", rule);
  if (audience !== undefined) out.audience = audience;
  const enabled = bool(body, "enabled", rule);
  if (enabled !== undefined) out.enabled = enabled;
  for (const field of ["jwksEndpoint", "certPem", "kid", "externalAuthUrl", "clientId"] as const) {
    if (has(field)) out[field] = str(body, field, { nullable: true }) || null;
  }
  if (has("claimsProperty")) out.claimsProperty = str(body, "claimsProperty", { nullable: true }) || "sub";
  if (has("useExternalId")) out.useExternalId = bool(body, "useExternalId", { nullable: true }) ?? false;
  if (has("scopes")) out.scopes = stringList(body, "scopes", { nullable: true }) ?? [];
  if (has("targetToken")) {
    out.targetToken = oneOf(body, "targetToken", TARGET_TOKENS, { nullable: true }) ?? "ACCESS";
  }
  if (has("tags")) out.tags = tags(body, "tags") ?? {};
  return out;
}

function render(signer: ExternalJwtSignerRecord): Record<string, unknown> {
  return {
    ...recordHead("external-jwt-signers", signer),
    ...pick(signer, ["name", "issuer", "audience", "jwksEndpoint", "certPem"]),
    kid: signer.kid ?? null,
    claimsProperty: signer.claimsProperty,
    useExternalId: signer.useExternalId,
    enabled: signer.enabled,
    externalAuthUrl: signer.externalAuthUrl ?? null,
    clientId: signer.clientId ?? null,
    scopes: signer.scopes.length > 0 ? [...signer.scopes] : null,
    targetToken: signer.targetToken,
    fingerprint: signer.fingerprint ?? null,
    commonName: signer.commonName ?? "",
    notBefore: signer.notBefore ?? ZERO_TIME,
    notAfter: signer.notAfter ?? ZERO_TIME,
    enrollToCertEnabled: false,
    enrollToTokenEnabled: false,
    enrollNameClaimsSelector: "",
    enrollAttributeClaimsSelector: "",
    enrollAuthPolicyId: "",
  };
}
