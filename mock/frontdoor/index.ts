// The Frontdoor management API mock: routing, authentication, and in-process control for tests.
import type { CertificateAuthority } from "../pki";
import type { MockApi, MockRequest, MockResponse } from "../types";
import { frontdoorNotFound, type IssueTokenOptions, TokenRegistry, tokenFromAuthorization } from "./auth";
import { handleAuthProviders } from "./authProviders";
import { handleCertificateRequestTokens } from "./certificateRequestTokens";
import { handleClientCertificates, handleTokenBasedCreate } from "./clientCertificates";
import { type FrontdoorMockOptions, type RequestContext, type ResourceHandler, serverNow } from "./context";
import {
  CUSTOM_FRONTEND_STATUSES,
  type CustomFrontendStatus,
  view as customFrontendView,
  handleCustomFrontends,
  setStatus,
} from "./customFrontends";
import { FrontdoorError, type JsonObject, notFound } from "./http";
import { OAUTH_TOKEN_PATH, type OAuthClient, OAuthEndpoint } from "./oauth";
import { type Collection, FrontdoorState, isCollection } from "./store";

export type { FrontdoorMockOptions } from "./context";
export type { CustomFrontendStatus } from "./customFrontends";
export type { Collection } from "./store";

/** Stable demo values, so the demo and the CLI can print them. Local mock only: not real secrets. */
export const FRONTDOOR_DEMO = {
  frontdoorId: "fd-demo",
  frontdoorToken: "fd-demo-token-0123456789abcdef",
  otherFrontdoorId: "fd-other",
  principal: "demo-user@example.com",
  clientId: "demo-client",
  clientSecret: "demo-client-secret-0123456789",
} as const;

const DEFAULT_OAUTH_TOKEN_TTL_SECONDS = 3600;

const HANDLERS: Record<Collection, ResourceHandler> = {
  "auth-providers": handleAuthProviders,
  "client-certificates": handleClientCertificates,
  "certificate-request-tokens": handleCertificateRequestTokens,
  "custom-frontends": handleCustomFrontends,
};

export class FrontdoorMock implements MockApi {
  private readonly frontdoors = new Map<string, FrontdoorState>();
  private readonly tokens: TokenRegistry;
  private readonly oauth: OAuthEndpoint;

  /** @internal (node-forge types: kept out of the shipped declarations) */
  constructor(
    readonly options: FrontdoorMockOptions,
    private readonly rootCa: CertificateAuthority,
  ) {
    this.tokens = new TokenRegistry(() => serverNow(this.options));
    this.oauth = new OAuthEndpoint(
      this.tokens,
      () => options.oauthTokenTtlSeconds ?? DEFAULT_OAUTH_TOKEN_TTL_SECONDS,
    );
    this.addFrontdoor(FRONTDOOR_DEMO.frontdoorId);
    this.addFrontdoor(FRONTDOOR_DEMO.otherFrontdoorId);
    this.tokens.register(FRONTDOOR_DEMO.frontdoorToken, {
      principal: FRONTDOOR_DEMO.principal,
      frontdoorIds: [FRONTDOOR_DEMO.frontdoorId],
      expiresAtMs: Number.POSITIVE_INFINITY,
    });
    this.addOAuthClient({
      clientId: FRONTDOOR_DEMO.clientId,
      clientSecret: FRONTDOOR_DEMO.clientSecret,
      frontdoorIds: [FRONTDOOR_DEMO.frontdoorId],
    });
  }

  /** Access tokens issued by `POST /oauth2/token` so far. */
  get oauthTokensIssued(): number {
    return this.oauth.issued;
  }

  /** Creates an empty frontdoor (no-op when it exists). */
  addFrontdoor(frontdoorId: string): void {
    if (!this.frontdoors.has(frontdoorId))
      this.frontdoors.set(frontdoorId, new FrontdoorState(frontdoorId, this.rootCa));
  }

  /**
   * A new access token for tests (e.g. an expired one with ttlSeconds <= 0). The listed frontdoors are
   * created when missing, so a test can ask for a fresh, empty frontdoor of its own.
   */
  issueToken(options: IssueTokenOptions): string {
    for (const id of options.frontdoorIds) this.addFrontdoor(id);
    return this.tokens.issue(options);
  }

  addOAuthClient(client: OAuthClient): void {
    for (const id of client.frontdoorIds) this.addFrontdoor(id);
    this.oauth.addClient(client);
  }

  /** A copy of the stored object as GET-by-id shows it (custom frontends with their current status). */
  get(frontdoorId: string, collection: Collection, id: string): JsonObject | undefined {
    const record = this.frontdoors.get(frontdoorId)?.collection(collection).get(id);
    return record ? this.snapshot(collection, record) : undefined;
  }

  list(frontdoorId: string, collection: Collection): JsonObject[] {
    const records = this.frontdoors.get(frontdoorId)?.collection(collection).values() ?? [];
    return [...records].map((record) => this.snapshot(collection, record));
  }

  private snapshot(collection: Collection, record: JsonObject): JsonObject {
    const shown = collection === "custom-frontends" ? customFrontendView(record, this.options) : record;
    return structuredClone(shown);
  }

  /**
   * Merges raw fields into a stored object behind the API's back (no validation), to simulate drift.
   * For custom frontends a `status` field sets the status (as `setCustomFrontendStatus`).
   */
  patch(frontdoorId: string, collection: Collection, id: string, fields: JsonObject): JsonObject | undefined {
    const record = this.frontdoors.get(frontdoorId)?.collection(collection).get(id);
    if (!record) return undefined;
    const { status, ...rest } = fields;
    if (collection === "custom-frontends" && status !== undefined) {
      this.setCustomFrontendStatus(frontdoorId, id, status as CustomFrontendStatus);
    } else if (status !== undefined) {
      rest.status = status;
    }
    Object.assign(record, rest);
    return this.snapshot(collection, record);
  }

  remove(frontdoorId: string, collection: Collection, id: string): boolean {
    return this.frontdoors.get(frontdoorId)?.collection(collection).delete(id) ?? false;
  }

  setCustomFrontendStatus(frontdoorId: string, id: string, status: CustomFrontendStatus): void {
    if (!CUSTOM_FRONTEND_STATUSES.includes(status))
      throw new Error(`unknown custom frontend status '${status}'`);
    const record = this.frontdoors.get(frontdoorId)?.collection("custom-frontends").get(id);
    if (!record) throw new Error(`custom frontend ${id} not found in frontdoor ${frontdoorId}`);
    setStatus(record, status);
  }

  /** PEM of the frontdoor's intermediate CA, which signs certificates generated from CSRs. */
  caCertificatePem(frontdoorId: string): string {
    const fd = this.frontdoors.get(frontdoorId);
    if (!fd) throw new Error(`frontdoor ${frontdoorId} not found`);
    return fd.ca.certificatePem;
  }

  async handle(req: MockRequest): Promise<MockResponse | undefined> {
    if (req.path === OAUTH_TOKEN_PATH) return this.withServerDate(this.oauth.handle(req));
    if (!req.path.startsWith("/frontdoor/")) return undefined;
    try {
      return this.withServerDate(await this.route(req));
    } catch (error) {
      if (error instanceof FrontdoorError) return this.withServerDate(error.toResponse());
      throw error;
    }
  }

  /**
   * The `Date` header shows the server's own clock (skewed by clockSkewSeconds; in tests, a fake clock
   * moves it), the clock its expiry checks use, rather than the one Node's HTTP layer reads.
   */
  private withServerDate(response: MockResponse): MockResponse {
    const date = new Date(serverNow(this.options)).toUTCString();
    return { ...response, headers: { ...response.headers, date } };
  }

  private route(req: MockRequest): MockResponse | Promise<MockResponse> {
    const [, , frontdoorId, collection, ...rest] = req.path.split("/").map(decodeSegment);
    // The one anonymous route: the certificate request token in the path is the credential.
    if (collection === "client-certificates" && rest[0] === "token" && rest.length === 2) {
      return handleTokenBasedCreate(this.existingFrontdoor(frontdoorId), rest[1], req, this.options);
    }
    const caller = this.tokens.resolve(tokenFromAuthorization(req.headers.authorization));
    const fd = this.frontdoors.get(frontdoorId);
    if (!fd || !caller.frontdoorIds.includes(frontdoorId)) throw frontdoorNotFound(frontdoorId);
    if (!collection || !isCollection(collection)) throw notFound(`no such resource: ${req.path}`);
    const ctx: RequestContext = { req, fd, principal: caller.principal, options: this.options, rest };
    return HANDLERS[collection](ctx);
  }

  private existingFrontdoor(frontdoorId: string): FrontdoorState {
    const fd = this.frontdoors.get(frontdoorId);
    if (!fd) throw notFound(`frontdoor ${frontdoorId} not found`);
    return fd;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
