// Access tokens of the Frontdoor mock and the Authorization header rules of the API description, exactly:
// `Bearer <token>` with exactly one space, or `Basic <username:token>` with one space after `Basic`
// and a colon separator. The API description shows the credentials as they are, so a base64-encoded
// `username:token` (RFC 7617 style, which has no colon) is a wrong header format: 400.
import { randomBytes } from "node:crypto";
import { FrontdoorError, invalidRequest, unauthorized } from "./http";

export interface TokenInfo {
  principal: string;
  frontdoorIds: string[];
  /** Epoch milliseconds; Infinity for a token that never expires. */
  expiresAtMs: number;
}

export interface IssueTokenOptions {
  frontdoorIds: string[];
  /** Lifetime; 0 or negative gives an already expired token. */
  ttlSeconds: number;
  principal?: string;
}

export class TokenRegistry {
  private readonly tokens = new Map<string, TokenInfo>();

  /** `now`: the server's clock (epoch ms), which may be skewed. */
  constructor(private readonly now: () => number = Date.now) {}

  register(token: string, info: TokenInfo): void {
    this.tokens.set(token, info);
  }

  issue(options: IssueTokenOptions): string {
    const token = `fdt_${randomBytes(24).toString("base64url")}`;
    this.register(token, {
      principal: options.principal ?? "test-user@example.com",
      frontdoorIds: [...options.frontdoorIds],
      expiresAtMs: this.now() + options.ttlSeconds * 1000,
    });
    return token;
  }

  /** The token's holder; 401 when the token is unknown or expired. */
  resolve(token: string): TokenInfo {
    const info = this.tokens.get(token);
    if (!info) throw unauthorized("invalid access token");
    if (this.now() >= info.expiresAtMs) throw unauthorized("access token expired");
    return info;
  }
}

/** Extracts the access token from an Authorization header value (400 when malformed, 401 when absent). */
export function tokenFromAuthorization(header: string | undefined): string {
  if (header === undefined || header === "") throw unauthorized("missing Authorization header");
  const bearer = /^Bearer ([^\s]+)$/.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic ([^\s]+)$/.exec(header);
  if (basic) return tokenFromBasic(basic[1]);
  if (/^(Bearer|Basic)\b/i.test(header)) {
    throw invalidRequest(
      "malformed Authorization header: expected 'Bearer <token>' or 'Basic <username:token>', with exactly one space",
    );
  }
  throw invalidRequest("malformed Authorization header: unsupported scheme (use Bearer or Basic)");
}

function tokenFromBasic(credentials: string): string {
  const colon = credentials.indexOf(":");
  if (colon <= 0 || colon === credentials.length - 1) {
    throw invalidRequest(
      "malformed Authorization header: expected 'Basic <username:token>' (username, colon, token)",
    );
  }
  return credentials.slice(colon + 1);
}

/** 403 in the API's odd shape: a valid token without access looks like a missing frontdoor. */
export const frontdoorNotFound = (frontdoorId: string) =>
  new FrontdoorError(403, "not_found", `frontdoor ${frontdoorId} not found`);
