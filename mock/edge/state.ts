// The edge mock's state: its collections, API sessions and signing keys, plus the records every
// controller starts with (the default admin identity and the `default` auth policy).
import { randomBytes, randomUUID } from "node:crypto";
import { builtInConfigTypes, type MockRelease } from "./builtin-config-types";
import { JwtSigner } from "./jwt";
import { type IssuedCertificate, issueCertificate } from "./pki";
import { type BaseRecord, Collection } from "./store";

export interface IdentityRecord extends BaseRecord {
  name: string;
  typeId: string;
  isAdmin: boolean;
  isDefaultAdmin: boolean;
  authPolicyId: string;
  externalId: string | null;
  defaultHostingCost: number;
  defaultHostingPrecedence: string;
  serviceHostingCosts: Record<string, number>;
  serviceHostingPrecedences: Record<string, string>;
  roleAttributes: string[] | null;
  permissions: string[];
  appData: Record<string, unknown>;
  disabled: boolean;
  /** Base32 TOTP secret when the identity has completed MFA enrollment. */
  mfaSecret?: string;
}

export interface AuthenticatorRecord extends BaseRecord {
  identityId: string;
  method: "updb" | "cert";
  username?: string;
  /** Kept in memory only; never rendered. */
  password?: string;
  fingerprint?: string;
  certPem?: string;
  /** The CA through which a cert authenticator was created (deleted with the CA). */
  caId?: string;
  /** A certificate the controller signed at enrollment (ott). */
  issuedByNetwork?: boolean;
}

export interface EnrollmentRecord extends BaseRecord {
  identityId: string;
  method: "ott" | "ottca" | "updb";
  token: string;
  jwt: string;
  expiresAt: string;
  caId: string | null;
  username?: string;
}

export interface AuthPolicyRecord extends BaseRecord {
  name: string;
  primary: AuthPolicyPrimary;
  secondary: { requireTotp: boolean; requireExtJwtSigner: string | null };
}

export interface AuthPolicyPrimary {
  cert: { allowed: boolean; allowExpiredCerts: boolean };
  extJwt: { allowed: boolean; allowedSigners: string[] };
  updb: {
    allowed: boolean;
    minPasswordLength: number;
    requireSpecialChar: boolean;
    requireNumberChar: boolean;
    requireMixedCase: boolean;
    maxAttempts: number;
    lockoutDurationMinutes: number;
  };
}

export interface EdgeRouterPolicyRecord extends BaseRecord {
  name: string;
  semantic: string;
  identityRoles: string[];
  edgeRouterRoles: string[];
  isSystem: boolean;
}

export interface CaRecord extends BaseRecord {
  name: string;
  certPem: string;
  fingerprint: string;
  verificationToken: string;
  isVerified: boolean;
  isAuthEnabled: boolean;
  isAutoCaEnrollmentEnabled: boolean;
  isOttCaEnrollmentEnabled: boolean;
  identityRoles: string[];
  identityNameFormat: string;
  externalIdClaim?: Record<string, unknown>;
}

export interface EdgeRouterRecord extends BaseRecord {
  name: string;
  roleAttributes: string[] | null;
  isTunnelerEnabled: boolean;
  cost: number;
  noTraversal: boolean;
  disabled: boolean;
  appData: Record<string, unknown>;
  isVerified: boolean;
  isOnline: boolean;
  syncStatus: string;
  fingerprint: string | null;
  certPem: string | null;
  /** The pending enrollment (all null once the router enrolled). */
  enrollmentToken: string | null;
  enrollmentJwt: string | null;
  enrollmentCreatedAt: string | null;
  enrollmentExpiresAt: string | null;
}

export interface ExternalJwtSignerRecord extends BaseRecord {
  name: string;
  issuer: string;
  audience: string;
  jwksEndpoint: string | null;
  certPem: string | null;
  kid: string | null;
  claimsProperty: string;
  useExternalId: boolean;
  enabled: boolean;
  externalAuthUrl: string | null;
  clientId: string | null;
  scopes: string[];
  targetToken: string;
  /** From certPem (null for a JWKS signer). */
  fingerprint: string | null;
  commonName: string | null;
  notBefore: string | null;
  notAfter: string | null;
}

/** Common fields plus the type's own (operatingSystems, domains, macAddresses, process, ...). */
export interface PostureCheckRecord extends BaseRecord {
  name: string;
  typeId: string;
  roleAttributes: string[] | null;
  version: number;
  [typeField: string]: unknown;
}

export interface ServiceRecord extends BaseRecord {
  name: string;
  configs: string[];
  roleAttributes: string[] | null;
  encryptionRequired: boolean;
  terminatorStrategy: string;
  maxIdleTimeMillis: number;
}

/** Service policies and service edge router policies: roles by field name, plus the fields below. */
export interface PolicyRecord extends BaseRecord {
  name: string;
  semantic: string;
  /** Service policies only: Dial or Bind. */
  type?: string;
  [roles: string]: unknown;
}

export interface ConfigTypeRecord extends BaseRecord {
  name: string;
  schema: Record<string, unknown>;
  /** Absent on the built-in types; never returned (as real controllers, v1.5.0 and v1.6.0, do). */
  target?: string;
}

export interface ConfigRecord extends BaseRecord {
  name: string;
  configTypeId: string;
  data: Record<string, unknown>;
}

export interface ApiSession {
  id: string;
  token: string;
  identityId: string;
  authenticatorId: string;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  /** Epoch ms; extended by the TTL on each authenticated call. */
  expiresAtMs: number;
  isMfaRequired: boolean;
  isMfaComplete: boolean;
  ipAddress: string;
  configTypes: string[];
}

export const DEFAULT_AUTH_POLICY_ID = "default";

/** An auth policy's primary section with every method off and every limit 0. */
export function zeroPrimary(): AuthPolicyPrimary {
  return {
    cert: { allowed: false, allowExpiredCerts: false },
    extJwt: { allowed: false, allowedSigners: [] },
    updb: {
      allowed: false,
      minPasswordLength: 0,
      requireSpecialChar: false,
      requireNumberChar: false,
      requireMixedCase: false,
      maxAttempts: 0,
      lockoutDurationMinutes: 0,
    },
  };
}

/** The `default` policy's primary section as a fresh controller has it: every method allowed. */
function defaultPolicyPrimary(): AuthPolicyPrimary {
  const primary = zeroPrimary();
  primary.cert = { allowed: true, allowExpiredCerts: true };
  primary.extJwt.allowed = true;
  primary.updb.allowed = true;
  primary.updb.minPasswordLength = 5;
  return primary;
}

export class EdgeState {
  readonly identities = new Collection<IdentityRecord>("identities", [
    "id",
    "name",
    "typeId",
    "isAdmin",
    "isDefaultAdmin",
    "authPolicyId",
    "externalId",
    "roleAttributes",
    "disabled",
    "createdAt",
    "updatedAt",
  ]);
  readonly authenticators = new Collection<AuthenticatorRecord>("authenticators", [
    "id",
    "identityId",
    "method",
    "username",
    "fingerprint",
    "createdAt",
    "updatedAt",
  ]);
  readonly enrollments = new Collection<EnrollmentRecord>("enrollments", [
    "id",
    "identityId",
    "method",
    "expiresAt",
    "caId",
    "createdAt",
    "updatedAt",
  ]);
  readonly authPolicies = new Collection<AuthPolicyRecord>("auth-policies", [
    "id",
    "name",
    "createdAt",
    "updatedAt",
  ]);
  readonly edgeRouterPolicies = new Collection<EdgeRouterPolicyRecord>("edge-router-policies", [
    "id",
    "name",
    "semantic",
    "isSystem",
    "identityRoles",
    "edgeRouterRoles",
    "createdAt",
    "updatedAt",
  ]);
  readonly cas = new Collection<CaRecord>("cas", [
    "id",
    "name",
    "fingerprint",
    "isVerified",
    "isAuthEnabled",
    "isAutoCaEnrollmentEnabled",
    "isOttCaEnrollmentEnabled",
    "identityRoles",
    "createdAt",
    "updatedAt",
  ]);
  readonly edgeRouters = new Collection<EdgeRouterRecord>("edge-routers", [
    "id",
    "name",
    "roleAttributes",
    "isTunnelerEnabled",
    "isVerified",
    "isOnline",
    "cost",
    "noTraversal",
    "disabled",
    "createdAt",
    "updatedAt",
  ]);
  readonly externalJwtSigners = new Collection<ExternalJwtSignerRecord>("external-jwt-signers", [
    "id",
    "name",
    "issuer",
    "audience",
    "enabled",
    "createdAt",
    "updatedAt",
  ]);
  readonly postureChecks = new Collection<PostureCheckRecord>("posture-checks", [
    "id",
    "name",
    "typeId",
    "roleAttributes",
    "createdAt",
    "updatedAt",
  ]);
  readonly services = new Collection<ServiceRecord>("services", [
    "id",
    "name",
    "roleAttributes",
    "configs",
    "terminatorStrategy",
    "encryptionRequired",
    "createdAt",
    "updatedAt",
  ]);
  readonly servicePolicies = new Collection<PolicyRecord>("service-policies", [
    "id",
    "name",
    "type",
    "semantic",
    "identityRoles",
    "serviceRoles",
    "postureCheckRoles",
    "createdAt",
    "updatedAt",
  ]);
  readonly serviceEdgeRouterPolicies = new Collection<PolicyRecord>("service-edge-router-policies", [
    "id",
    "name",
    "semantic",
    "serviceRoles",
    "edgeRouterRoles",
    "createdAt",
    "updatedAt",
  ]);
  readonly configTypes = new Collection<ConfigTypeRecord>("config-types", [
    "id",
    "name",
    "target",
    "createdAt",
    "updatedAt",
  ]);
  readonly configs = new Collection<ConfigRecord>("configs", [
    "id",
    "name",
    "configTypeId",
    "createdAt",
    "updatedAt",
  ]);
  /** API sessions by token. */
  readonly sessions = new Map<string, ApiSession>();
  readonly jwt = new JwtSigner();
  /** The CAs of the TLS server certificate (set when the mock serves HTTPS): part of the CA bundle. */
  serverCaPems: string[] = [];
  private enrollmentCa?: IssuedCertificate;

  constructor(adminUsername: string, adminPassword: string, release: MockRelease = "v1.6.0") {
    this.authPolicies.insert({
      id: DEFAULT_AUTH_POLICY_ID,
      name: "Default",
      tags: {},
      primary: defaultPolicyPrimary(),
      secondary: { requireTotp: false, requireExtJwtSigner: null },
    });
    for (const type of builtInConfigTypes(release)) this.configTypes.insert({ ...type, tags: {} });
    const admin = this.addIdentity({ name: "Default Admin", isAdmin: true, isDefaultAdmin: true });
    this.addUpdb(admin.id, adminUsername, adminPassword);
  }

  /** Looked up, not kept: in cluster mode a node's records are replaced by the leader's. */
  get defaultAdmin(): IdentityRecord {
    const admin = this.identities.all().find((identity) => identity.isDefaultAdmin);
    if (!admin) throw new Error("the default admin identity was deleted behind the API's back");
    return admin;
  }

  /** Every collection a controller cluster replicates (API sessions are not among them: see cluster.ts). */
  replicatedCollections(): Collection<BaseRecord>[] {
    return [
      this.identities,
      this.authenticators,
      this.enrollments,
      this.authPolicies,
      this.edgeRouterPolicies,
      this.cas,
      this.edgeRouters,
      this.externalJwtSigners,
      this.postureChecks,
      this.services,
      this.servicePolicies,
      this.serviceEdgeRouterPolicies,
      this.configTypes,
      this.configs,
    ] as unknown as Collection<BaseRecord>[];
  }

  /** An identity with the controller's defaults for every field not given. */
  addIdentity(fields: Partial<IdentityRecord> & { name: string }): IdentityRecord {
    return this.identities.insert({ ...identityDefaults(), ...fields });
  }

  addUpdb(identityId: string, username: string, password: string): AuthenticatorRecord {
    return this.authenticators.insert({ identityId, method: "updb", username, password, tags: {} });
  }

  addCertAuthenticator(
    identityId: string,
    fingerprint: string,
    certPem: string,
    caId?: string,
  ): AuthenticatorRecord {
    return this.authenticators.insert({ identityId, method: "cert", fingerprint, certPem, caId, tags: {} });
  }

  authenticatorsOf(identityId: string): AuthenticatorRecord[] {
    return this.authenticators.all().filter((a) => a.identityId === identityId);
  }

  enrollmentsOf(identityId: string): EnrollmentRecord[] {
    return this.enrollments.all().filter((e) => e.identityId === identityId);
  }

  /** Removes an identity with everything hanging off it (authenticators, enrollments, sessions). */
  deleteIdentity(id: string): void {
    for (const a of this.authenticatorsOf(id)) this.authenticators.delete(a.id);
    for (const e of this.enrollmentsOf(id)) this.enrollments.delete(e.id);
    for (const [token, s] of this.sessions) if (s.identityId === id) this.sessions.delete(token);
    this.identities.delete(id);
  }

  /**
   * The CA that signs the certificates of enrolling identities (made on first use).
   * @internal (node-forge types: kept out of the shipped declarations, users' projects lack them)
   */
  identityCa(): IssuedCertificate {
    this.enrollmentCa ??= issueCertificate({ commonName: "Edge Mock Identity CA", isCa: true, days: 3650 });
    return this.enrollmentCa;
  }

  /** What `/.well-known/est/cacerts` hands out: the server's CAs and the identity CA. */
  caBundlePems(): string[] {
    return [...this.serverCaPems, this.identityCa().certPem];
  }

  newToken(): string {
    return randomUUID();
  }
}

export function identityDefaults(): Omit<IdentityRecord, "id" | "createdAt" | "updatedAt" | "name"> {
  return {
    typeId: "Default",
    isAdmin: false,
    isDefaultAdmin: false,
    authPolicyId: DEFAULT_AUTH_POLICY_ID,
    externalId: null,
    defaultHostingCost: 0,
    defaultHostingPrecedence: "default",
    serviceHostingCosts: {},
    serviceHostingPrecedences: {},
    roleAttributes: null,
    permissions: [],
    appData: {},
    tags: {},
    disabled: false,
  };
}

/** An id in the controller's style (shortid: 9 characters of [A-Za-z0-9_-]). */
export function shortId(): string {
  return randomBytes(7).toString("base64url").slice(0, 9);
}
