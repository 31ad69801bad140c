// OAuth2 client-credentials token endpoint (`POST /oauth2/token`), shaped like Cognito's: client id
// and secret in HTTP Basic, form body `grant_type=client_credentials`.
import type { MockRequest, MockResponse } from "../types";
import type { TokenRegistry } from "./auth";

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  frontdoorIds: string[];
}

export const OAUTH_TOKEN_PATH = "/oauth2/token";

const oauthError = (status: number, error: string): MockResponse => ({ status, body: { error } });

export class OAuthEndpoint {
  private readonly clients = new Map<string, OAuthClient>();
  /** How many access tokens this endpoint has issued (to test renewal). */
  issued = 0;

  constructor(
    private readonly tokens: TokenRegistry,
    private readonly tokenTtlSeconds: () => number,
  ) {}

  addClient(client: OAuthClient): void {
    this.clients.set(client.clientId, { ...client, frontdoorIds: [...client.frontdoorIds] });
  }

  handle(req: MockRequest): MockResponse {
    if (req.method !== "POST") return { status: 405, body: { error: "invalid_request" } };
    const client = this.authenticate(req.headers.authorization);
    if (!client) return oauthError(401, "invalid_client");
    const contentType = String(req.headers["content-type"] ?? "");
    if (!contentType.startsWith("application/x-www-form-urlencoded"))
      return oauthError(400, "invalid_request");
    const form = new URLSearchParams(req.body.toString("utf8"));
    if (form.get("grant_type") !== "client_credentials") return oauthError(400, "unsupported_grant_type");
    const ttl = this.tokenTtlSeconds();
    const accessToken = this.tokens.issue({
      frontdoorIds: client.frontdoorIds,
      ttlSeconds: ttl,
      principal: client.clientId,
    });
    this.issued += 1;
    return { status: 200, body: { access_token: accessToken, token_type: "Bearer", expires_in: ttl } };
  }

  private authenticate(header: string | undefined): OAuthClient | undefined {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? "");
    if (!match) return undefined;
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return undefined;
    // Client ids and secrets are URL-encoded before Basic encoding (RFC 6749 2.3.1).
    const clientId = safeDecode(decoded.slice(0, colon));
    const clientSecret = safeDecode(decoded.slice(colon + 1));
    const client = this.clients.get(clientId);
    return client && client.clientSecret === clientSecret ? client : undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
