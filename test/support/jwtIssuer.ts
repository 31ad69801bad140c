// A JWT issuer on 127.0.0.1 for the keyless-login tests, as an OIDC provider and GitHub Actions
// publish theirs: HTTPS with a certificate of a test CA (`caPem`, which the controller and the
// provider are told to trust), `/.well-known/openid-configuration` naming the issuer and its JWKS,
// `/jwks` with the one published key, and a GitHub-style token request endpoint (`tokenRequestUrl`:
// GET `<url>&audience=<aud>` with `Authorization: Bearer <requestToken>`, answer `{"value": jwt}`).
// Keys are made here with node:crypto; `sign` signs with the published key, or with a key nobody
// publishes (`unknownKey`) to imitate a token of a rotated-out or foreign key.
import { createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { type CertificateAuthority, createRootCa, issueServerCertificate } from "../../mock/pki";

export interface JwtIssuer {
  /** The issuer (`iss`) and base URL of the discovery document. */
  url: string;
  jwksUrl: string;
  /** The test CA that signed the server's certificate (PEM). */
  caPem: string;
  /** The published key's id. */
  kid: string;
  /** GitHub's ACTIONS_ID_TOKEN_REQUEST_URL (it has a query already, as GitHub's does). */
  tokenRequestUrl: string;
  /** GitHub's ACTIONS_ID_TOKEN_REQUEST_TOKEN. */
  requestToken: string;
  /** Tokens handed out by the token request endpoint, in order. */
  issued: string[];
  /** The claims (besides iss, aud, iat, exp) of the tokens the request endpoint hands out. */
  requestClaims: Record<string, unknown>;
  /**
   * `unknownKey`: signed with a key nobody publishes, under its own kid; `forged`: signed with that
   * key under the published key's kid (a signature that does not verify).
   */
  sign(claims: Record<string, unknown>, options?: { unknownKey?: boolean; forged?: boolean }): string;
  close(): Promise<void>;
}

/** `ca`: the CA of the server's certificate (default: a new one), e.g. one a controller cluster trusts already. */
export async function startJwtIssuer(options: { ca?: CertificateAuthority } = {}): Promise<JwtIssuer> {
  const ca = options.ca ?? createRootCa("JWT issuer test CA");
  const tls = issueServerCertificate(ca, ["127.0.0.1", "localhost"]);
  const published = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const foreign = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = `k-${randomBytes(4).toString("hex")}`;
  const requestToken = randomBytes(24).toString("base64url");
  const issued: string[] = [];
  let url = "";

  const signWith = (key: KeyObject, keyId: string, claims: Record<string, unknown>) => {
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
    const input = `${encode({ alg: "RS256", typ: "JWT", kid: keyId })}.${encode(claims)}`;
    return `${input}.${createSign("RSA-SHA256").update(input).sign(key).toString("base64url")}`;
  };

  const issuer: JwtIssuer = {
    url: "",
    jwksUrl: "",
    caPem: ca.certificatePem,
    kid,
    tokenRequestUrl: "",
    requestToken,
    issued,
    requestClaims: {},
    sign: (claims, options = {}) =>
      options.unknownKey
        ? signWith(foreign.privateKey, `${kid}-old`, claims)
        : options.forged
          ? signWith(foreign.privateKey, kid, claims)
          : signWith(published.privateKey, kid, claims),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Clients keep connections alive (the controller's JWKS fetches, Node's global agent): end them.
        server.closeAllConnections();
      }),
  };

  const server = https.createServer({ cert: tls.certificatePem, key: tls.privateKeyPem }, (req, res) => {
    const target = new URL(req.url ?? "/", url);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (target.pathname === "/.well-known/openid-configuration") {
      return json(200, { issuer: url, jwks_uri: `${url}/jwks` });
    }
    if (target.pathname === "/jwks") {
      const jwk = published.publicKey.export({ format: "jwk" });
      return json(200, { keys: [{ ...jwk, kid, alg: "RS256", use: "sig" }] });
    }
    if (target.pathname === "/token") {
      if (req.headers.authorization !== `Bearer ${requestToken}`)
        return json(401, { message: "Bad credentials" });
      const now = Math.floor(Date.now() / 1000);
      const value = issuer.sign({
        ...issuer.requestClaims,
        iss: url,
        aud: target.searchParams.get("audience") ?? url,
        iat: now,
        exp: now + 300,
        // One token per request, as a CI's (two requests within a second must differ).
        jti: randomBytes(8).toString("hex"),
      });
      issued.push(value);
      return json(200, { count: 1, value });
    }
    json(404, { message: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer.url = url;
  issuer.jwksUrl = `${url}/jwks`;
  issuer.tokenRequestUrl = `${url}/token?api-version=2.0`;
  return issuer;
}
