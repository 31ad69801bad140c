// The OpenZiti Edge management API mock (base path /edge/management/v1): an independent
// implementation of the controller contract (it imports nothing from provider/ or sdk/), with
// the real controller's quirks. See README.md in this folder for what it covers.
import type { MockApi, MockRequest, MockResponse } from "../types";
import type { MockRelease } from "./builtin-config-types";
import { CA_CERTS_PATH, CLIENT_BASE_PATH, ClientApi } from "./client-api";
import { ApiError, BASE_PATH, notFound } from "./envelope";
import { fingerprint as fingerprintOf, issueCertificate, parseCertificatePem } from "./pki";
import { AuthPolicies } from "./resources/auth-policies";
import { Cas } from "./resources/cas";
import { Configs, ConfigTypes } from "./resources/configs";
import { EdgeRouterPolicies } from "./resources/edge-router-policies";
import { EdgeRouters } from "./resources/edge-routers";
import { Enrollments } from "./resources/enrollments";
import { ExternalJwtSigners } from "./resources/external-jwt-signers";
import { Identities } from "./resources/identities";
import { Policies } from "./resources/policies";
import { PolicyAdvice } from "./resources/policy-advice";
import { PostureChecks } from "./resources/posture-checks";
import { Services } from "./resources/services";
import { matchRoute, type Route, route } from "./routes";
import { SESSION_HEADER, Sessions } from "./sessions";
import { type ApiSession, EdgeState } from "./state";
import type { BaseRecord, Collection } from "./store";
import { newTotpSecret } from "./totp";
import { controllersRoute, versionResponse } from "./version";

/**
 * The swagger checks, loaded only when an option asks for them: they need `ajv` and the swagger file,
 * which the checkout has and an installed package need not (its users rarely validate the mock itself).
 */
function conformance(): SwaggerChecks {
  try {
    return require("../../test/conformance/swagger");
  } catch (error) {
    throw new Error(
      `the Edge mock's swagger checks (validateRequests/validateResponses) run in the project's checkout only: ${(error as Error).message}`,
    );
  }
}

/** What the mock uses of test/conformance/swagger.ts (typed here so the shipped package need not contain it). */
interface SwaggerChecks {
  swaggerConformance(): { findOperation(method: string, path: string): unknown };
  validateRequest(method: string, path: string, body: unknown): string[];
  validateResponse(method: string, path: string, status: number, body: unknown): string[];
}

export interface EdgeMockOptions {
  /** Username and password of the built-in admin identity ("Default Admin"). */
  adminUsername: string;
  adminPassword: string;
  /**
   * What `/version` reports in `capabilities`. Default none: the mock serves no `/oidc` (a real v1.6.0
   * reports `OIDC_AUTH`); the cluster mode reports the real cluster's `["OIDC_AUTH", "HA_CONTROLLER"]`.
   */
  capabilities?: string[];
  /**
   * Cluster mode: the nodes `GET /controllers` lists (swagger controllerDetail). Without it the route
   * does not exist, as the mock has always answered (404) for a single controller.
   */
  controllers?: () => Record<string, unknown>[];
  /** API session lifetime (sliding), seconds. Default 1800. */
  sessionTtlSeconds?: number;
  /**
   * Check every request body against the controller's swagger and record violations in
   * `conformanceViolations` (requests are still served, as far as the mock's own checks allow).
   */
  validateRequests?: boolean;
  /** Same for every response the mock sends. */
  validateResponses?: boolean;
  /**
   * The controller release imitated where releases differ (docs/guides/controller-fidelity.md#where-the-releases-differ):
   * default v1.6.0.
   */
  release?: MockRelease;
}

/** The replicated records of every collection, in `EdgeState.replicatedCollections()` order. */
export type ReplicatedEdgeState = BaseRecord[][];

/** Collections reachable through the in-process helpers `get`, `list`, `patch`, `remove`. */
export type EdgeCollectionName =
  | "identities"
  | "auth-policies"
  | "edge-router-policies"
  | "cas"
  | "config-types"
  | "configs"
  | "services"
  | "service-policies"
  | "service-edge-router-policies"
  | "authenticators"
  | "enrollments"
  | "edge-routers"
  | "external-jwt-signers"
  | "posture-checks";

/** A stored record as the in-process helpers return it: API field names, plain JSON values. */
export type EdgeRecord = BaseRecord & Record<string, unknown>;

export interface AddAdminOptions {
  username: string;
  password: string;
  /** Give the identity TOTP MFA with this base32 secret: its sessions must then pass MFA. */
  totpSecretBase32?: string;
  /** Identity name; defaults to the username. */
  name?: string;
}

export interface IssuedAdminCertificate {
  certPem: string;
  keyPem: string;
  /** SHA-1 of the DER, lowercase hex: the cert authenticator's fingerprint. */
  fingerprint: string;
}

export class EdgeMock implements MockApi {
  /** Swagger violations seen with `validateRequests` / `validateResponses`. */
  readonly conformanceViolations: string[] = [];
  private readonly state: EdgeState;
  private readonly sessions: Sessions;
  private readonly routes: Route[];
  private readonly clientApi: ClientApi;
  private readonly clientRoutes: Route[];

  constructor(readonly options: EdgeMockOptions) {
    this.state = new EdgeState(options.adminUsername, options.adminPassword, options.release);
    this.sessions = new Sessions(this.state, options.sessionTtlSeconds ?? 1800);
    const services = new Services(this.state);
    this.clientApi = new ClientApi(this.state, this.sessions, services);
    this.clientRoutes = this.clientApi.routes();
    this.routes = [
      ...this.sessions.routes(),
      ...new Identities(this.state).routes(),
      ...new Enrollments(this.state).routes(),
      ...new AuthPolicies(this.state).routes(),
      ...new EdgeRouterPolicies(this.state).routes(),
      ...new Cas(this.state).routes(),
      ...new EdgeRouters(this.state).routes(),
      ...new ExternalJwtSigners(this.state).routes(),
      ...new PostureChecks(this.state).routes(),
      ...new ConfigTypes(this.state).routes(),
      ...new Configs(this.state).routes(),
      ...services.routes(),
      ...new PolicyAdvice(this.state).routes(),
      ...this.servicePolicies().routes(),
      ...this.serviceEdgeRouterPolicies().routes(),
      route("GET", "/version", "public", (ctx) => this.version(ctx.req)),
      ...(options.controllers ? [controllersRoute(options.controllers)] : []),
    ];
    this.clientRoutes.push(route("GET", "/version", "public", (ctx) => this.version(ctx.req)));
  }

  private servicePolicies(): Policies {
    return new Policies({
      collection: this.state.servicePolicies,
      roles: {
        identityRoles: (id) => this.state.identities.find(id)?.name,
        serviceRoles: (id) => this.state.services.find(id)?.name,
        // The mock has no posture checks: `@id` roles display as themselves.
        postureCheckRoles: () => undefined,
      },
      typed: true,
      links: ["identities", "services", "posture-checks"],
    });
  }

  private serviceEdgeRouterPolicies(): Policies {
    return new Policies({
      collection: this.state.serviceEdgeRouterPolicies,
      roles: {
        // The mock has no edge routers: `@id` roles display as themselves.
        edgeRouterRoles: () => undefined,
        serviceRoles: (id) => this.state.services.find(id)?.name,
      },
      typed: false,
      links: ["edge-routers", "services"],
    });
  }

  /**
   * Serve HTTPS as a controller does: enrollment JWTs are signed with the TLS server key (so a client
   * can check them against the certificate it is shown), and the CA bundle holds the server's CAs.
   */
  useServerIdentity(identity: { certPem: string; keyPem: string; caPems: string[] }): void {
    this.state.jwt.useKey(identity.keyPem, fingerprintOf(parseCertificatePem(identity.certPem)));
    this.state.serverCaPems = [...identity.caPems];
  }

  handle(req: MockRequest): MockResponse | undefined {
    if (req.path === CA_CERTS_PATH && req.method === "GET") return this.clientApi.caCerts();
    if (!req.path.startsWith("/edge/")) return undefined;
    const response = this.serve(req);
    // Unknown paths (404) have no operation to check against; the client API has another swagger.
    if (
      this.options.validateResponses &&
      req.path.startsWith(`${BASE_PATH}/`) &&
      conformance().swaggerConformance().findOperation(req.method, req.path)
    ) {
      const violations = conformance().validateResponse(req.method, req.path, response.status, response.body);
      this.conformanceViolations.push(...violations);
    }
    return response;
  }

  /**
   * Cluster mode: a write another node authenticated and forwarded here (to the leader), carried out
   * under that node's API session.
   */
  handleForwarded(req: MockRequest, session: ApiSession | undefined): MockResponse {
    return this.serve(req, session);
  }

  /**
   * Cluster mode: the API session a request would run under here (`undefined` on public routes), or the
   * error it would get (unknown route, no or bad session), without carrying it out.
   */
  authorize(req: MockRequest): { session?: ApiSession } | { refusal: MockResponse } {
    try {
      return { session: this.prepare(req).session };
    } catch (error) {
      return { refusal: errorResponse(error) };
    }
  }

  private serve(req: MockRequest, forwardedSession?: ApiSession): MockResponse {
    try {
      const { match, body, session } = this.prepare(req, forwardedSession);
      const host = header(req, "host") ?? "127.0.0.1";
      return match.route.handle({ req, params: match.params, body, session, issuer: `https://${host}` });
    } catch (error) {
      return errorResponse(error);
    }
  }

  /** Route, body and session of a request; throws the ApiError it must be answered with instead. */
  private prepare(req: MockRequest, forwardedSession?: ApiSession) {
    const [base, routes] = req.path.startsWith(`${CLIENT_BASE_PATH}/`)
      ? [CLIENT_BASE_PATH, this.clientRoutes]
      : [BASE_PATH, this.routes];
    const subPath = req.path.startsWith(`${base}/`)
      ? req.path.slice(base.length).replace(/\/+$/, "")
      : undefined;
    if (!subPath) throw notFound();
    const match = matchRoute(routes, req.method, subPath);
    if (match === undefined) throw notFound();
    if (match === "methodMismatch") {
      throw new ApiError(405, "METHOD_NOT_ALLOWED", "The resource requested does not support this HTTP verb");
    }
    const body = parseBody(req);
    if (
      this.options.validateRequests &&
      base === BASE_PATH &&
      (body !== undefined || hasBodyVerb(req.method))
    ) {
      this.conformanceViolations.push(...conformance().validateRequest(req.method, req.path, body));
    }
    const access = match.route.access;
    if (forwardedSession) return { match, body, session: forwardedSession };
    const session =
      access === "public"
        ? undefined
        : this.sessions.resolve(header(req, SESSION_HEADER), access === "full" || access === "client");
    if (access === "full" && session && !this.state.identities.find(session.identityId)?.isAdmin) {
      throw new ApiError(
        401,
        "UNAUTHORIZED",
        "The request could not be completed. The session is not authorized or the credentials are invalid",
      );
    }
    return { match, body, session };
  }

  /** `GET /version` (no session): see version.ts. */
  version(req: MockRequest): MockResponse {
    return versionResponse(req, this.options.capabilities ?? [], this.options.release ?? "v1.6.0");
  }

  // ---- Cluster mode (cluster.ts): replicated records, node-local sessions ----

  /** Copies of every replicated record (everything but API sessions and keys). */
  exportReplicated(): ReplicatedEdgeState {
    return this.state.replicatedCollections().map((collection) => collection.exportRecords());
  }

  /** Replaces every replicated record with the given ones (a follower applying what the leader committed). */
  importReplicated(records: ReplicatedEdgeState): void {
    const collections = this.state.replicatedCollections();
    collections.forEach((collection, index) => {
      collection.importRecords(records[index]);
    });
  }

  /** The live API session of a token, if this node knows it (shared sessions: see cluster.ts). */
  findSession(token: string): ApiSession | undefined {
    return this.state.sessions.get(token);
  }

  /** Makes another node's API session known here too. */
  adoptSession(session: ApiSession): void {
    this.state.sessions.set(session.token, session);
  }

  // ---- Test helpers (in-process; they do not go through HTTP) ----

  /** The id of the built-in "Default Admin" identity. */
  get defaultAdminId(): string {
    return this.state.defaultAdmin.id;
  }

  /** Public key (PEM) that verifies the RS256 enrollment JWTs. */
  get enrollmentJwtPublicKeyPem(): string {
    return this.state.jwt.publicKeyPem;
  }

  /** Adds an admin identity with a password (updb) authenticator, optionally with TOTP MFA. */
  addAdmin(options: AddAdminOptions): { identityId: string } {
    const name = options.name ?? options.username;
    this.state.identities.assertUniqueName(name);
    const identity = this.state.addIdentity({
      name,
      isAdmin: true,
      mfaSecret: options.totpSecretBase32,
    });
    this.state.addUpdb(identity.id, options.username, options.password);
    return { identityId: identity.id };
  }

  /** Turns on TOTP MFA for an identity; returns the base32 secret (a new one unless given). */
  enableMfa(identityId: string, secretBase32: string = newTotpSecret()): string {
    this.state.identities.update(identityId, { mfaSecret: secretBase32 });
    return secretBase32;
  }

  /**
   * A self-signed client certificate (CN = admin username) registered as a `cert` authenticator
   * of the default admin, for `POST /authenticate?method=cert` over mTLS.
   */
  issueAdminCertificate(): IssuedAdminCertificate {
    const issued = issueCertificate({ commonName: this.options.adminUsername });
    const authenticator = this.state.addCertAuthenticator(
      this.state.defaultAdmin.id,
      fingerprintOf(issued.cert),
      issued.certPem,
    );
    return {
      certPem: issued.certPem,
      keyPem: issued.keyPem,
      fingerprint: authenticator.fingerprint as string,
    };
  }

  /** Ends every API session at once (as a controller restart would): next calls get 401. */
  expireAllSessions(): void {
    this.state.sessions.clear();
  }

  /** A copy of a stored record (field names as in the API), or undefined. */
  get(collection: EdgeCollectionName, id: string): EdgeRecord | undefined {
    const record = this.collection(collection).find(id);
    return record ? (structuredClone(record) as EdgeRecord) : undefined;
  }

  /** Copies of all records of a collection, in creation order. */
  list(collection: EdgeCollectionName): EdgeRecord[] {
    return this.collection(collection)
      .all()
      .map((r) => structuredClone(r) as EdgeRecord);
  }

  /**
   * Changes stored fields behind the API's back (as another admin would), bumping updatedAt.
   * Values are stored as given: no validation, no role sorting.
   */
  patch(collection: EdgeCollectionName, id: string, fields: Record<string, unknown>): void {
    this.collection(collection).update(id, fields);
  }

  /** Deletes a record behind the API's back; whether it existed. */
  remove(collection: EdgeCollectionName, id: string): boolean {
    if (collection === "identities" && this.state.identities.find(id)) {
      this.state.deleteIdentity(id);
      return true;
    }
    return this.collection(collection).delete(id);
  }

  private collection(name: EdgeCollectionName): Collection<BaseRecord> {
    const collections: Record<EdgeCollectionName, Collection<BaseRecord>> = {
      identities: this.state.identities as unknown as Collection<BaseRecord>,
      "auth-policies": this.state.authPolicies as unknown as Collection<BaseRecord>,
      "edge-router-policies": this.state.edgeRouterPolicies as unknown as Collection<BaseRecord>,
      cas: this.state.cas as unknown as Collection<BaseRecord>,
      "config-types": this.state.configTypes as unknown as Collection<BaseRecord>,
      configs: this.state.configs as unknown as Collection<BaseRecord>,
      services: this.state.services as unknown as Collection<BaseRecord>,
      "service-policies": this.state.servicePolicies as unknown as Collection<BaseRecord>,
      "service-edge-router-policies": this.state
        .serviceEdgeRouterPolicies as unknown as Collection<BaseRecord>,
      authenticators: this.state.authenticators as unknown as Collection<BaseRecord>,
      enrollments: this.state.enrollments as unknown as Collection<BaseRecord>,
      "edge-routers": this.state.edgeRouters as unknown as Collection<BaseRecord>,
      "external-jwt-signers": this.state.externalJwtSigners as unknown as Collection<BaseRecord>,
      "posture-checks": this.state.postureChecks as unknown as Collection<BaseRecord>,
    };
    const collection = collections[name];
    if (!collection) throw new Error(`unknown edge collection '${name}'`);
    return collection;
  }
}

function errorResponse(error: unknown): MockResponse {
  if (error instanceof ApiError) return error.toResponse();
  return new ApiError(500, "UNHANDLED", `the mock failed: ${(error as Error).message}`).toResponse();
}

function header(req: MockRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function hasBodyVerb(method: string): boolean {
  return method === "POST" || method === "PUT" || method === "PATCH";
}

/** JSON bodies are parsed; text/plain (CA verification) and PEM (a CSR) stay text; empty is undefined. */
function parseBody(req: MockRequest): unknown {
  if (req.body.length === 0) return undefined;
  const text = req.body.toString("utf8");
  const type = (header(req, "content-type") ?? "").toLowerCase();
  if (type.startsWith("text/plain") || type.startsWith("application/x-pem-file")) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "COULD_NOT_PARSE_BODY", "The body of the request could not be parsed");
  }
}
