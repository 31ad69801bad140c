// /auth-policies: CRUD and list. The `default` policy always exists and can not be deleted; a
// policy in use by identities answers 409 on delete. PATCH reproduces a real controller bug (seen
// on ziti v1.6.0 by test/real-vs-mock.test.ts): a PATCH that carries nested `primary` fields answers
// 200 but does not apply them: each field it sent is reset to the controller's default (for
// minPasswordLength 5), the fields it did not send stay as they were. Clients must PUT.
import type { MockResponse } from "../../types";
import { collectionRoutes, patchRecord, recordHead, replaceRecord } from "../crud";
import { ApiError, created, empty, invalidField } from "../envelope";
import type { Route, RouteContext } from "../routes";
import {
  type AuthPolicyPrimary,
  type AuthPolicyRecord,
  DEFAULT_AUTH_POLICY_ID,
  type EdgeState,
  zeroPrimary,
} from "../state";
import { type Body, bool, int, object, str, stringList, tags } from "../validate";

const UPDB_INTEGERS = ["minPasswordLength", "maxAttempts", "lockoutDurationMinutes"] as const;
const UPDB_BOOLEANS = ["allowed", "requireSpecialChar", "requireNumberChar", "requireMixedCase"] as const;

/**
 * Reads `primary` onto `base`: with `required`, every nested field must be present (create/PUT);
 * without, only the fields present are applied (PATCH).
 */
function readPrimary(primary: Body, base: AuthPolicyPrimary, required: boolean): AuthPolicyPrimary {
  const out = structuredClone(base);
  const rule = { required, nullable: !required };
  const cert = object(primary, "cert", rule, "primary");
  if (cert) {
    out.cert.allowed = bool(cert, "allowed", rule, "primary.cert") ?? out.cert.allowed;
    out.cert.allowExpiredCerts =
      bool(cert, "allowExpiredCerts", rule, "primary.cert") ?? out.cert.allowExpiredCerts;
  }
  const extJwt = object(primary, "extJwt", rule, "primary");
  if (extJwt) {
    out.extJwt.allowed = bool(extJwt, "allowed", rule, "primary.extJwt") ?? out.extJwt.allowed;
    out.extJwt.allowedSigners =
      stringList(extJwt, "allowedSigners", rule, "primary.extJwt") ?? out.extJwt.allowedSigners;
  }
  const updb = object(primary, "updb", rule, "primary");
  if (updb) {
    for (const field of UPDB_BOOLEANS) {
      out.updb[field] = bool(updb, field, rule, "primary.updb") ?? out.updb[field];
    }
    for (const field of UPDB_INTEGERS) {
      out.updb[field] = int(updb, field, { ...rule, min: 0 }, "primary.updb") ?? out.updb[field];
    }
  }
  return out;
}

/** The controller's default of each nested primary field (what a buggy PATCH leaves behind). */
function defaultPrimary(): AuthPolicyPrimary {
  const primary = zeroPrimary();
  primary.updb.minPasswordLength = 5;
  return primary;
}

/** `stored`, with every field that `sent` changed reset to its default. */
function resetSentFields(stored: AuthPolicyPrimary, sent: AuthPolicyPrimary): AuthPolicyPrimary {
  const out = structuredClone(stored);
  const defaults = defaultPrimary() as unknown as Record<string, Record<string, unknown>>;
  const target = out as unknown as Record<string, Record<string, unknown>>;
  const given = sent as unknown as Record<string, Record<string, unknown>>;
  for (const group of ["cert", "extJwt", "updb"]) {
    for (const [field, value] of Object.entries(given[group])) {
      if (JSON.stringify(value) !== JSON.stringify(target[group][field]))
        target[group][field] = defaults[group][field];
    }
  }
  return out;
}

function readSecondary(
  secondary: Body,
  base: AuthPolicyRecord["secondary"],
  required: boolean,
): AuthPolicyRecord["secondary"] {
  const requireTotp = bool(secondary, "requireTotp", { required, nullable: !required }, "secondary");
  const signer =
    "requireExtJwtSigner" in secondary
      ? (str(secondary, "requireExtJwtSigner", { nullable: true }, "secondary") ?? null)
      : base.requireExtJwtSigner;
  return { requireTotp: requireTotp ?? base.requireTotp, requireExtJwtSigner: signer };
}

export class AuthPolicies {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return collectionRoutes(this.state.authPolicies, this, render);
  }

  /**
   * Signer ids must exist. A real controller (v1.6.0) answers 404 NOT_FOUND naming the first unknown
   * one by its internal field names: `primary.extJwt.allowedExtJwtSigners[i]`, `secondary.requiredExtJwtSigner`.
   */
  private assertSignersExist(fields: Pick<AuthPolicyRecord, "primary" | "secondary">): void {
    const unknown = (id: string) => !this.state.externalJwtSigners.find(id);
    const signers = fields.primary.extJwt.allowedSigners ?? [];
    const index = signers.findIndex(unknown);
    if (index >= 0) throw signerNotFound(`primary.extJwt.allowedExtJwtSigners[${index}]`, signers[index]);
    const required = fields.secondary.requireExtJwtSigner;
    if (required && unknown(required)) throw signerNotFound("secondary.requiredExtJwtSigner", required);
  }

  create(body: Body): MockResponse {
    const fields = readFull(body);
    this.assertSignersExist(fields);
    this.state.authPolicies.assertUniqueName(fields.name);
    const policy = this.state.authPolicies.insert(fields);
    return created("auth-policies", policy.id);
  }

  update(ctx: RouteContext, mode: "patch" | "put"): MockResponse {
    const policies = this.state.authPolicies;
    const check = (fields: Pick<AuthPolicyRecord, "primary" | "secondary">) =>
      this.assertSignersExist(fields);
    if (mode === "put") return replaceRecord(policies, ctx, readFull, check);
    return patchRecord(policies, ctx, patchFields, (changes, stored) => check({ ...stored, ...changes }));
  }

  remove(ctx: RouteContext): MockResponse {
    const policy = this.state.authPolicies.require(ctx.params.id);
    if (policy.id === DEFAULT_AUTH_POLICY_ID) {
      throw invalidField("id", "the default auth policy can not be deleted", policy.id);
    }
    const users = this.state.identities.all().filter((i) => i.authPolicyId === policy.id);
    if (users.length > 0) {
      const names = users.map((i) => `${i.id} (${i.name})`).join(", ");
      throw new ApiError(
        409,
        "CAN_NOT_DELETE_REFERENCED_ENTITY",
        `the entity cannot be deleted because it is referenced by another entity: auth policy ${policy.id} is referenced by identities [${names}]`,
        { field: "authPolicyId", reason: `referenced by identities [${names}]`, value: policy.id },
      );
    }
    this.state.authPolicies.delete(policy.id);
    return empty();
  }
}

function signerNotFound(field: string, id: string): ApiError {
  return new ApiError(404, "NOT_FOUND", "The resource requested was not found or is no longer available", {
    field,
    reason: `externalJwtSigner with id ${id} not found`,
    value: id,
  });
}

function readFull(body: Body): Omit<AuthPolicyRecord, "id" | "createdAt" | "updatedAt"> {
  const name = str(body, "name", { required: true }) as string;
  const primary = object(body, "primary", { required: true }) as Body;
  const secondary = object(body, "secondary", { required: true }) as Body;
  return {
    name,
    tags: tags(body, "tags") ?? {},
    primary: readPrimary(primary, zeroPrimary(), true),
    secondary: readSecondary(secondary, { requireTotp: false, requireExtJwtSigner: null }, true),
  };
}

function render(policy: AuthPolicyRecord): Record<string, unknown> {
  return {
    ...recordHead("auth-policies", policy),
    name: policy.name,
    primary: structuredClone(policy.primary),
    // A real controller leaves requireExtJwtSigner out when it is not set.
    secondary: {
      requireTotp: policy.secondary.requireTotp,
      ...(policy.secondary.requireExtJwtSigner
        ? { requireExtJwtSigner: policy.secondary.requireExtJwtSigner }
        : {}),
    },
  };
}

/** What a PATCH sends besides the name. */
function patchFields(body: Body, policy: AuthPolicyRecord): Partial<AuthPolicyRecord> {
  const changes: Partial<AuthPolicyRecord> = {};
  if ("tags" in body) changes.tags = tags(body, "tags") ?? {};
  const primary = object(body, "primary", { nullable: true });
  // The bug: each nested field sent is reset to its default instead of set.
  if (primary) changes.primary = resetSentFields(policy.primary, readPrimary(primary, policy.primary, false));
  const secondary = object(body, "secondary", { nullable: true });
  if (secondary) changes.secondary = readSecondary(secondary, policy.secondary, false);
  return changes;
}
