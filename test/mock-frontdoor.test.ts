// The Frontdoor management API mock, exercised over real HTTP on loopback.
import assert from "node:assert/strict";
import forge from "node-forge";
import { type MockServer, startMockServer } from "../mock/server";
import { newKeys } from "./frontdoor-pki";
import { advanceClock, resetClock } from "./support/clock";

const DAY_MS = 24 * 60 * 60 * 1000;

interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

async function call(
  server: MockServer,
  method: string,
  path: string,
  options: { auth?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  const auth = options.auth === undefined ? `Bearer ${server.credentials.frontdoorToken}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${server.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

function expectError(reply: Reply, status: number, error: string, messagePart?: string | RegExp): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.body?.error, error, reply.text);
  if (messagePart instanceof RegExp) assert.match(reply.body.message, messagePart);
  else if (messagePart)
    assert.ok(reply.body.message.includes(messagePart), `"${reply.body.message}" lacks "${messagePart}"`);
}

/** A fresh, empty frontdoor of the test's own and a token for it. */
function freshFrontdoor(server: MockServer, name: string) {
  const id = `fd-${name}-${Math.random().toString(36).slice(2, 8)}`;
  const token = server.frontdoor.issueToken({
    frontdoorIds: [id],
    ttlSeconds: 600,
    principal: `${name}@test`,
  });
  const base = `/frontdoor/${id}`;
  return {
    id,
    base,
    call: (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
      call(server, method, `${base}${path}`, { auth: `Bearer ${token}`, ...options }),
  };
}

const KEYS = newKeys();

function makeCsr(commonName: string, options: { tamper?: boolean } = {}): string {
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = KEYS.publicKey;
  csr.setSubject([
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "CSR Org" },
  ]);
  csr.sign(KEYS.privateKey, forge.md.sha256.create());
  if (options.tamper) {
    const signature = csr.signature as string;
    csr.signature = String.fromCharCode(signature.charCodeAt(0) ^ 0xff) + signature.slice(1);
  }
  return forge.pki.certificationRequestToPem(csr);
}

function selfSignedCertificate(commonName: string): string {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = KEYS.publicKey;
  certificate.serialNumber = "01";
  certificate.validity.notBefore = new Date();
  certificate.validity.notAfter = new Date(Date.now() + DAY_MS);
  certificate.setSubject([{ name: "commonName", value: commonName }]);
  certificate.setIssuer([{ name: "commonName", value: commonName }]);
  certificate.sign(KEYS.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(certificate);
}

const subjectValue = (certificate: forge.pki.Certificate, shortName: string) =>
  certificate.subject.getField(shortName)?.value;

const oidc = (overrides: Record<string, unknown> = {}) => ({
  issuer: "https://login.example.com/realms/demo",
  client_id: "frontdoor",
  client_secret: "oidc-client-secret",
  scopes: ["openid", "email"],
  supports_pkce: true,
  ...overrides,
});

describe("mock server: Frontdoor management API", () => {
  let server: MockServer;
  before(async () => {
    server = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 150 } });
  });
  after(() => server.close());

  describe("authentication", () => {
    const path = () => `/frontdoor/${server.credentials.frontdoorId}/auth-providers`;
    const token = () => server.credentials.frontdoorToken;

    it("accepts 'Bearer <token>' with exactly one space", async () => {
      const reply = await call(server, "GET", path(), { auth: `Bearer ${token()}` });
      assert.equal(reply.status, 200);
      assert.ok(Array.isArray(reply.body.content));
    });

    it("rejects malformed headers with 400 invalid_request", async () => {
      for (const auth of [
        `Bearer  ${token()}`,
        "Bearer",
        "Bearer ",
        `Token ${token()}`,
        `bearer${token()}`,
      ]) {
        expectError(await call(server, "GET", path(), { auth }), 400, "invalid_request", "Authorization");
      }
    });

    it("accepts exactly the API description's 'Basic <username:token>' (colon separator), not base64", async () => {
      assert.equal((await call(server, "GET", path(), { auth: `Basic someone:${token()}` })).status, 200);
      expectError(
        await call(server, "GET", path(), { auth: "Basic someone:not-a-token" }),
        401,
        "unauthorized",
      );
      const encoded = Buffer.from(`someone:${token()}`).toString("base64");
      for (const auth of [
        `Basic ${encoded}`,
        `Basic ${token()}`,
        `Basic :${token()}`,
        "Basic someone:",
        `Basic  someone:${token()}`,
      ]) {
        expectError(await call(server, "GET", path(), { auth }), 400, "invalid_request", "username:token");
      }
    });

    it("shows a skewed clock in its Date header and judges expiry by it", async () => {
      const skewed = await startMockServer({ frontdoor: { clockSkewSeconds: 7200 } });
      try {
        const shortLived = skewed.frontdoor.issueToken({ frontdoorIds: ["fd-skew"], ttlSeconds: 600 });
        const reply = await call(skewed, "GET", "/frontdoor/fd-skew/auth-providers", {
          auth: `Bearer ${shortLived}`,
        });
        assert.equal(reply.status, 200, reply.text);
        const shown = Date.parse(reply.headers.get("date")!);
        // Within a minute of two hours ahead (a loaded machine may be slow; the skew is 120 minutes).
        assert.ok(Math.abs(shown - (Date.now() + 7200_000)) < 60_000, reply.headers.get("date")!);
        // A certificate request token the server made an hour ago (its clock) is valid for the day.
        const record = (
          await call(skewed, "POST", "/frontdoor/fd-skew/certificate-request-tokens", {
            auth: `Bearer ${shortLived}`,
            body: { name: "t" },
          })
        ).body;
        assert.ok(Math.abs(Date.parse(record.createdAt) - (Date.now() + 7200_000)) < 60_000);
      } finally {
        await skewed.close();
      }
      const normal = await call(server, "GET", path());
      assert.ok(Math.abs(Date.parse(normal.headers.get("date")!) - Date.now()) < 60_000);
    });

    it("answers 401 for a missing, unknown or expired token", async () => {
      expectError(await call(server, "GET", path(), { auth: null }), 401, "unauthorized", "missing");
      expectError(await call(server, "GET", path(), { auth: "Bearer nope" }), 401, "unauthorized", "invalid");
      const expired = server.frontdoor.issueToken({
        frontdoorIds: [server.credentials.frontdoorId],
        ttlSeconds: 0,
      });
      expectError(
        await call(server, "GET", path(), { auth: `Bearer ${expired}` }),
        401,
        "unauthorized",
        "expired",
      );
    });

    it("answers 403 not_found for a frontdoor the token cannot access, or that does not exist", async () => {
      const other = server.credentials.otherFrontdoorId;
      const reply = await call(server, "GET", `/frontdoor/${other}/auth-providers`);
      expectError(reply, 403, "not_found", `frontdoor ${other} not found`);
      expectError(
        await call(server, "GET", "/frontdoor/fd-nowhere/auth-providers"),
        403,
        "not_found",
        "fd-nowhere",
      );
    });

    it("never echoes the token in error messages", async () => {
      const reply = await call(server, "GET", path(), { auth: `Bearer  ${token()}` });
      assert.ok(!reply.text.includes(token()));
    });
  });

  describe("OAuth2 client credentials", () => {
    const tokenRequest = (clientId: string, secret: string, form = "grant_type=client_credentials") =>
      fetch(server.credentials.tokenUrl, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: form,
      });

    it("issues a bearer token that grants access to the client's frontdoor", async () => {
      const before = server.frontdoor.oauthTokensIssued;
      const response = await tokenRequest(server.credentials.clientId, server.credentials.clientSecret);
      assert.equal(response.status, 200);
      const body = (await response.json()) as any;
      assert.equal(body.token_type, "Bearer");
      assert.equal(body.expires_in, 3600);
      assert.equal(server.frontdoor.oauthTokensIssued, before + 1);
      const reply = await call(server, "GET", `/frontdoor/${server.credentials.frontdoorId}/auth-providers`, {
        auth: `Bearer ${body.access_token}`,
      });
      assert.equal(reply.status, 200);
    });

    it("rejects wrong client credentials with 401 invalid_client and other grants with 400", async () => {
      const wrong = await tokenRequest(server.credentials.clientId, "wrong-secret");
      assert.equal(wrong.status, 401);
      assert.deepEqual(await wrong.json(), { error: "invalid_client" });
      const grant = await tokenRequest(
        server.credentials.clientId,
        server.credentials.clientSecret,
        "grant_type=password",
      );
      assert.equal(grant.status, 400);
      assert.deepEqual(await grant.json(), { error: "unsupported_grant_type" });
    });

    it("uses the configured token lifetime (a zero lifetime gives tokens that are refused as expired)", async () => {
      const shortLived = await startMockServer({ frontdoor: { oauthTokenTtlSeconds: 0 } });
      try {
        const { clientId, clientSecret, tokenUrl, frontdoorId } = shortLived.credentials;
        const response = await fetch(tokenUrl, {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "grant_type=client_credentials",
        });
        const body = (await response.json()) as any;
        assert.equal(body.expires_in, 0);
        const reply = await call(shortLived, "GET", `/frontdoor/${frontdoorId}/auth-providers`, {
          auth: `Bearer ${body.access_token}`,
        });
        expectError(reply, 401, "unauthorized", "expired");
      } finally {
        await shortLived.close();
      }
    });
  });

  describe("auth providers", () => {
    it("supports create, get, patch (enabled, name), put and delete", async () => {
      const fd = freshFrontdoor(server, "ap");
      const created = await fd.call("POST", "/auth-providers", {
        body: { name: "corp-oidc", type: "OIDC", data: oidc() },
      });
      assert.equal(created.status, 201, created.text);
      const id = created.body.id;
      assert.deepEqual(created.body, { id, name: "corp-oidc", type: "OIDC", enabled: true, data: oidc() });
      assert.deepEqual((await fd.call("GET", `/auth-providers/${id}`)).body, created.body);

      const disabled = await fd.call("PATCH", `/auth-providers/${id}`, { body: { enabled: false } });
      assert.equal(disabled.body.enabled, false);
      assert.equal(disabled.body.name, "corp-oidc");
      const renamed = await fd.call("PATCH", `/auth-providers/${id}`, { body: { name: "renamed" } });
      assert.equal(renamed.body.name, "renamed");
      assert.equal(renamed.body.enabled, false);

      const apiKey = { header_name: "x-api-key", api_key: "0123456789abcdef" };
      const replaced = await fd.call("PUT", `/auth-providers/${id}`, {
        body: { name: "keyed", type: "API_KEY", data: apiKey },
      });
      assert.equal(replaced.status, 200, replaced.text);
      assert.deepEqual(replaced.body.data, apiKey);
      assert.equal(replaced.body.type, "API_KEY");

      const deleted = await fd.call("DELETE", `/auth-providers/${id}`);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, "");
      expectError(await fd.call("GET", `/auth-providers/${id}`), 404, "not_found", id);
      expectError(await fd.call("DELETE", `/auth-providers/${id}`), 404, "not_found");
    });

    it("validates types and data schemas, naming the property", async () => {
      const fd = freshFrontdoor(server, "apv");
      const post = (body: unknown) => fd.call("POST", "/auth-providers", { body });
      expectError(
        await post({ name: 5, type: "OIDC", data: oidc() }),
        400,
        "invalid_request",
        "property 'name' must be of type string",
      );
      expectError(
        await post({ type: "OIDC", data: oidc() }),
        400,
        "invalid_request",
        "property 'name' is required",
      );
      expectError(
        await post({ name: "x", type: "SAML", data: {} }),
        400,
        "invalid_request",
        "property 'type'",
      );
      expectError(
        await post({ name: "x", type: "OIDC", data: oidc({ extra: 1 }) }),
        400,
        "invalid_request",
        "'data.extra' is not allowed",
      );
      expectError(
        await post({ name: "x", type: "OIDC", data: oidc({ issuer: "not a url" }) }),
        400,
        "invalid_request",
        "'data.issuer'",
      );
      expectError(
        await post({ name: "x", type: "OIDC", data: oidc({ scopes: "openid" }) }),
        400,
        "invalid_request",
        "'data.scopes'",
      );
      expectError(
        await post({ name: "x", type: "OIDC", data: oidc({ supports_pkce: "yes" }) }),
        400,
        "invalid_request",
        "'data.supports_pkce'",
      );
      expectError(
        await post({ name: "x", type: "API_KEY", data: { header_name: "x-api-key", api_key: "short" } }),
        400,
        "invalid_request",
        "'data.api_key'",
      );
      expectError(
        await post({
          name: "x",
          type: "API_KEY",
          data: { header_name: "bad header", api_key: "0123456789abcdef" },
        }),
        400,
        "invalid_request",
        "'data.header_name'",
      );
      expectError(
        await post({ name: "x", type: "OIDC", data: oidc(), id: "mine" }),
        400,
        "invalid_request",
        "'id'",
      );
      expectError(
        await fd.call("POST", "/auth-providers", { rawBody: "{nope" }),
        400,
        "invalid_request",
        "JSON",
      );

      const created = await post({ name: "ok", type: "OIDC", data: oidc() });
      // Changing the type alone validates the stored data against the new type's schema.
      const retyped = await fd.call("PATCH", `/auth-providers/${created.body.id}`, {
        body: { type: "API_KEY" },
      });
      expectError(retyped, 400, "invalid_request", "data.");
    });

    it("answers 409 naming a duplicate name", async () => {
      const fd = freshFrontdoor(server, "apd");
      const body = { name: "dup", type: "OIDC", data: oidc() };
      assert.equal((await fd.call("POST", "/auth-providers", { body })).status, 201);
      expectError(
        await fd.call("POST", "/auth-providers", { body }),
        409,
        "conflict",
        "named 'dup' already exists",
      );
    });

    it("lists in the page envelope without data, with paging, size clamping and sort", async () => {
      const fd = freshFrontdoor(server, "apl");
      for (const name of ["c", "a", "e", "b", "d"]) {
        await fd.call("POST", "/auth-providers", { body: { name, type: "OIDC", data: oidc() } });
      }
      const first = await fd.call("GET", "/auth-providers");
      assert.deepEqual(first.body.pageable, { pageNumber: 0, pageSize: 20 });
      assert.equal(first.body.totalElements, 5);
      assert.equal(first.body.totalPages, 1);
      assert.deepEqual(
        first.body.content.map((item: any) => item.name),
        ["a", "b", "c", "d", "e"],
      );
      assert.deepEqual(Object.keys(first.body.content[0]).sort(), ["enabled", "id", "name", "type"]);

      const page = await fd.call("GET", "/auth-providers?page=1&size=2&sort=name,desc");
      assert.deepEqual(
        page.body.content.map((item: any) => item.name),
        ["c", "b"],
      );
      assert.deepEqual(page.body.pageable, { pageNumber: 1, pageSize: 2 });
      assert.equal(page.body.totalPages, 3);

      const clamped = await fd.call("GET", "/auth-providers?size=1000");
      assert.equal(clamped.body.pageable.pageSize, 100);
      const beyond = await fd.call("GET", "/auth-providers?page=9&size=2");
      assert.deepEqual(beyond.body.content, []);
      expectError(await fd.call("GET", "/auth-providers?sort=colour,asc"), 400, "invalid_request", "colour");
      expectError(await fd.call("GET", "/auth-providers?page=x"), 400, "invalid_request", "page");
    });
  });

  describe("client certificates", () => {
    it("signs a CSR with the frontdoor's CA and exactly the documented properties", async () => {
      const fd = freshFrontdoor(server, "cc");
      const created = await fd.call("POST", "/client-certificates", {
        body: { name: "device-1", value: makeCsr("device-1.example") },
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body).sort(), [
        "createdAt",
        "createdBy",
        "frontdoorId",
        "id",
        "name",
      ]);
      assert.equal(created.body.frontdoorId, fd.id);
      assert.equal(created.body.createdBy, "cc@test");

      const fetched = await fd.call("GET", `/client-certificates/${created.body.id}`);
      assert.match(fetched.body.value, /^-----BEGIN CERTIFICATE-----/);
      const certificate = forge.pki.certificateFromPem(fetched.body.value);
      const ca = forge.pki.certificateFromPem(server.frontdoor.caCertificatePem(fd.id));

      assert.equal(certificate.issuer.hash, ca.subject.hash);
      assert.ok(ca.verify(certificate), "signed by the frontdoor CA");
      assert.equal(subjectValue(certificate, "CN"), "device-1.example");
      const lifetime = certificate.validity.notAfter.getTime() - certificate.validity.notBefore.getTime();
      assert.equal(lifetime, 365 * DAY_MS);

      const eku = certificate.getExtension("extKeyUsage") as any;
      assert.equal(eku.serverAuth, true);
      assert.ok(!eku.clientAuth);
      const keyUsage = certificate.getExtension("keyUsage") as any;
      const expected = {
        digitalSignature: true,
        keyCertSign: true,
        cRLSign: true,
        nonRepudiation: false,
        keyEncipherment: false,
        dataEncipherment: false,
        keyAgreement: false,
        encipherOnly: false,
        decipherOnly: false,
      };
      for (const [bit, value] of Object.entries(expected)) assert.equal(Boolean(keyUsage[bit]), value, bit);
      const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey;
      assert.equal(publicKey.n.toString(16), KEYS.publicKey.n.toString(16));

      const second = await fd.call("POST", "/client-certificates", {
        body: { name: "device-2", value: makeCsr("device-2") },
      });
      const secondPem = (await fd.call("GET", `/client-certificates/${second.body.id}`)).body.value;
      assert.notEqual(forge.pki.certificateFromPem(secondPem).serialNumber, certificate.serialNumber);
    });

    it("uses a distinct intermediate CA per frontdoor", () => {
      const a = freshFrontdoor(server, "ca1");
      const b = freshFrontdoor(server, "ca2");
      assert.notEqual(server.frontdoor.caCertificatePem(a.id), server.frontdoor.caCertificatePem(b.id));
    });

    it("uploads a certificate, lists without value, and supports patch, put and delete", async () => {
      const fd = freshFrontdoor(server, "ccu");
      const pem = selfSignedCertificate("uploaded");
      const created = await fd.call("POST", "/client-certificates", { body: { name: "up", value: pem } });
      assert.equal(created.status, 201, created.text);
      const id = created.body.id;
      const fetched = await fd.call("GET", `/client-certificates/${id}`);
      assert.equal(subjectValue(forge.pki.certificateFromPem(fetched.body.value), "CN"), "uploaded");

      const list = await fd.call("GET", "/client-certificates");
      assert.equal(list.body.totalElements, 1);
      assert.equal(list.body.content[0].value, undefined);

      const patched = await fd.call("PATCH", `/client-certificates/${id}`, { body: { name: "up-2" } });
      assert.equal(patched.body.name, "up-2");
      const put = await fd.call("PUT", `/client-certificates/${id}`, {
        body: { name: "up-3", value: makeCsr("regenerated") },
      });
      assert.equal(put.status, 200, put.text);
      const regenerated = (await fd.call("GET", `/client-certificates/${id}`)).body;
      assert.equal(regenerated.name, "up-3");
      assert.equal(subjectValue(forge.pki.certificateFromPem(regenerated.value), "CN"), "regenerated");

      const deleted = await fd.call("DELETE", `/client-certificates/${id}`);
      assert.equal(deleted.status, 200);
      assert.equal(deleted.body.id, id);
      assert.equal(deleted.body.name, "up-3");
      assert.equal(deleted.body.frontdoorId, fd.id);
      assert.equal(deleted.body.deletedBy, "ccu@test");
      assert.ok(!Number.isNaN(Date.parse(deleted.body.deletedAt)));
      expectError(await fd.call("GET", `/client-certificates/${id}`), 404, "not_found");
    });

    it("rejects a CSR with a bad signature, an invalid certificate and other PEM", async () => {
      const fd = freshFrontdoor(server, "ccb");
      const post = (value: string) =>
        fd.call("POST", "/client-certificates", { body: { name: "bad", value } });
      expectError(await post(makeCsr("x", { tamper: true })), 400, "invalid_request", "signature");
      const broken = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
      expectError(await post(broken), 400, "invalid_request", "property 'value'");
      expectError(await post("hello"), 400, "invalid_request", "property 'value'");
      assert.equal((await fd.call("GET", "/client-certificates")).body.totalElements, 0);
    });

    it("keeps names unique across certificates and certificate request tokens", async () => {
      const fd = freshFrontdoor(server, "ccn");
      await fd.call("POST", "/certificate-request-tokens", { body: { name: "shared" } });
      const clash = await fd.call("POST", "/client-certificates", {
        body: { name: "shared", value: makeCsr("x") },
      });
      expectError(clash, 409, "conflict", "'shared'");
      await fd.call("POST", "/client-certificates", { body: { name: "cert", value: makeCsr("x") } });
      expectError(
        await fd.call("POST", "/certificate-request-tokens", { body: { name: "cert" } }),
        409,
        "conflict",
        "'cert'",
      );
    });
  });

  describe("certificate request tokens", () => {
    it("creates a full record with a crt_ token expiring after the default 7 days", async () => {
      const fd = freshFrontdoor(server, "crt");
      const created = await fd.call("POST", "/certificate-request-tokens", {
        body: { name: "t1", commonName: "laptop-7" },
      });
      assert.equal(created.status, 201, created.text);
      const record = created.body;
      assert.match(record.token, /^crt_/);
      assert.equal(record.commonName, "laptop-7");
      assert.equal(record.organization, null);
      assert.equal(record.frontdoorId, fd.id);
      assert.equal(Date.parse(record.expiresAt) - Date.parse(record.createdAt), 7 * DAY_MS);
      assert.deepEqual((await fd.call("GET", `/certificate-request-tokens/${record.id}`)).body, record);
      assert.deepEqual((await fd.call("GET", "/certificate-request-tokens")).body.content, [record]);

      // The by-token lookup is an authenticated call (only token-based creation is anonymous).
      const byToken = `/certificate-request-tokens/by-token/${record.token}`;
      const lookup = await fd.call("GET", byToken);
      assert.equal(lookup.status, 200);
      assert.deepEqual(lookup.body, record);
      const anonymous = await call(server, "GET", `${fd.base}${byToken}`, { auth: null });
      expectError(anonymous, 401, "unauthorized", "missing");
      assert.ok(!anonymous.text.includes(record.token));
      const otherFrontdoor = await call(server, "GET", `${fd.base}${byToken}`);
      expectError(otherFrontdoor, 403, "not_found", fd.id);
      expectError(await fd.call("GET", "/certificate-request-tokens/by-token/crt_unknown"), 404, "not_found");
    });

    it("refuses to change the token and supports patch, put and delete", async () => {
      const fd = freshFrontdoor(server, "crtu");
      const created = (
        await fd.call("POST", "/certificate-request-tokens", {
          body: { name: "t", commonName: "cn", organization: "org", organizationalUnit: "ou" },
        })
      ).body;
      const path = `/certificate-request-tokens/${created.id}`;
      expectError(
        await fd.call("PATCH", path, { body: { token: "crt_mine" } }),
        400,
        "invalid_request",
        "'token'",
      );
      expectError(
        await fd.call("PATCH", path, { body: { name: 7 } }),
        400,
        "invalid_request",
        "property 'name' must be of type string",
      );
      const patched = await fd.call("PATCH", path, { body: { name: "t2" } });
      assert.equal(patched.body.name, "t2");
      assert.equal(patched.body.organization, "org");
      assert.equal(patched.body.token, created.token);
      const put = await fd.call("PUT", path, { body: { name: "t3", commonName: "cn3" } });
      assert.equal(put.body.organization, null);
      assert.equal(put.body.organizationalUnit, null);
      assert.equal(put.body.commonName, "cn3");
      const deleted = await fd.call("DELETE", path);
      assert.deepEqual(Object.keys(deleted.body).sort(), [
        "deletedAt",
        "deletedBy",
        "frontdoorId",
        "id",
        "name",
      ]);
      expectError(await fd.call("GET", path), 404, "not_found");
    });

    it("creates a certificate from a CSR with the token's subject and name; the token stays usable", async () => {
      const fd = freshFrontdoor(server, "crtc");
      const token = (
        await fd.call("POST", "/certificate-request-tokens", {
          body: { name: "kiosk", commonName: "kiosk-1", organization: "Acme", organizationalUnit: "Shops" },
        })
      ).body;
      const path = `${fd.base}/client-certificates/token/${token.token}`;
      const created = await call(server, "POST", path, {
        auth: null,
        body: { type: "CSR", value: makeCsr("ignored") },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.name, "kiosk");
      const pem = (await fd.call("GET", `/client-certificates/${created.body.id}`)).body.value;
      const certificate = forge.pki.certificateFromPem(pem);
      assert.equal(subjectValue(certificate, "CN"), "kiosk-1");
      assert.equal(subjectValue(certificate, "O"), "Acme");
      assert.equal(subjectValue(certificate, "OU"), "Shops");
      assert.ok(forge.pki.certificateFromPem(server.frontdoor.caCertificatePem(fd.id)).verify(certificate));

      // Usable until expiresAt (the API description says nothing of single use): the token stays. A second CSR
      // would make a second certificate of the same name (409); an upload under a new name works.
      assert.deepEqual((await fd.call("GET", `/certificate-request-tokens/${token.id}`)).body, token);
      const again = await call(server, "POST", path, {
        auth: null,
        body: { type: "CSR", value: makeCsr("x") },
      });
      expectError(again, 409, "conflict", "kiosk");
      const upload = await call(server, "POST", path, {
        auth: null,
        body: { name: "kiosk-spare", type: "CERTIFICATE", value: selfSignedCertificate("spare") },
      });
      assert.equal(upload.status, 201, upload.text);
    });

    it("deletes a used token only with the consumeCertificateRequestTokens option", async () => {
      const consuming = await startMockServer({ frontdoor: { consumeCertificateRequestTokens: true } });
      try {
        const fd = freshFrontdoor(consuming, "consume");
        const token = (await fd.call("POST", "/certificate-request-tokens", { body: { name: "once" } })).body;
        const path = `${fd.base}/client-certificates/token/${token.token}`;
        const body = { type: "CSR", value: makeCsr("x") };
        assert.equal((await call(consuming, "POST", path, { auth: null, body })).status, 201);
        expectError(await fd.call("GET", `/certificate-request-tokens/${token.id}`), 404, "not_found");
        expectError(await call(consuming, "POST", path, { auth: null, body }), 401, "unauthorized");
      } finally {
        await consuming.close();
      }
    });

    it("uploads a certificate under the given name with a token", async () => {
      const fd = freshFrontdoor(server, "crtp");
      const token = (await fd.call("POST", "/certificate-request-tokens", { body: { name: "upload-token" } }))
        .body;
      const path = `${fd.base}/client-certificates/token/${token.token}`;
      expectError(
        await call(server, "POST", path, {
          auth: null,
          body: { type: "CERTIFICATE", value: selfSignedCertificate("u") },
        }),
        400,
        "invalid_request",
        "'name'",
      );
      const body = { name: "uploaded-by-token", type: "CERTIFICATE", value: selfSignedCertificate("u") };
      const created = await call(server, "POST", path, { auth: null, body });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.name, "uploaded-by-token");
      assert.equal((await fd.call("GET", "/certificate-request-tokens")).body.totalElements, 1);
    });

    it("refuses an expired token with 401 on lookup and on use", async () => {
      const fd = freshFrontdoor(server, "crte");
      const token = (await fd.call("POST", "/certificate-request-tokens", { body: { name: "old" } })).body;
      server.frontdoor.patch(fd.id, "certificate-request-tokens", token.id, {
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      });
      const lookup = await fd.call("GET", `/certificate-request-tokens/by-token/${token.token}`);
      expectError(lookup, 401, "unauthorized", "expired");
      const use = await call(server, "POST", `${fd.base}/client-certificates/token/${token.token}`, {
        auth: null,
        body: { type: "CSR", value: makeCsr("x") },
      });
      expectError(use, 401, "unauthorized", "certificate request token expired");
      assert.ok(!use.text.includes(token.token));
    });

    it("honours a configured token lifetime", async () => {
      const custom = await startMockServer({ frontdoor: { certificateRequestTokenTtlSeconds: 60 } });
      try {
        const fd = freshFrontdoor(custom, "ttl");
        const record = (await fd.call("POST", "/certificate-request-tokens", { body: { name: "t" } })).body;
        assert.equal(Date.parse(record.expiresAt) - Date.parse(record.createdAt), 60_000);
      } finally {
        await custom.close();
      }
    });
  });

  describe("custom frontends", () => {
    afterEach(() => {
      resetClock();
      server.frontdoor.options.customFrontendReadyAfterMs = 150;
    });
    async function providerIn(fd: ReturnType<typeof freshFrontdoor>, name: string): Promise<string> {
      return (await fd.call("POST", "/auth-providers", { body: { name, type: "OIDC", data: oidc() } })).body
        .id;
    }

    it("validates hostname and auth provider ids", async () => {
      const fd = freshFrontdoor(server, "cfv");
      const post = (body: unknown) => fd.call("POST", "/custom-frontends", { body });
      expectError(await post({ hostname: "not a host" }), 400, "invalid_request", "'hostname'");
      expectError(await post({ hostname: "-bad.example.com" }), 400, "invalid_request", "'hostname'");
      expectError(
        await post({ hostname: 42 }),
        400,
        "invalid_request",
        "property 'hostname' must be of type string",
      );
      expectError(
        await post({ hostname: "app.example.com", authProviderIds: ["ap-missing"] }),
        400,
        "invalid_request",
        "ap-missing",
      );
    });

    it("goes NEW -> PENDING -> ACTIVE, with DNS records only after NEW", async () => {
      // NEW for a minute of the fake clock (test/support/clock.ts): the checks of NEW cannot outlast
      // it on a slow machine, and no sleep waits for PENDING.
      server.frontdoor.options.customFrontendReadyAfterMs = 60_000;
      const fd = freshFrontdoor(server, "cfs");
      const providerId = await providerIn(fd, "p");
      const created = await fd.call("POST", "/custom-frontends", {
        body: { hostname: "app.example.com", authProviderIds: [providerId], frontendId: "fe-42" },
      });
      assert.equal(created.status, 201, created.text);
      const id = created.body.id;
      assert.deepEqual(created.body, {
        id,
        frontdoorId: fd.id,
        status: "NEW",
        domainName: "app.example.com",
      });
      const fresh = (await fd.call("GET", `/custom-frontends/${id}`)).body;
      assert.equal(fresh.status, "NEW");
      assert.equal(fresh.hostname, "app.example.com");
      assert.equal(fresh.frontendId, "fe-42");
      assert.deepEqual(fresh.authProviderIds, [providerId]);
      expectError(
        await fd.call("GET", `/custom-frontends/${id}/dns-records`),
        400,
        "invalid_request",
        "infrastructure not ready",
      );
      expectError(
        await fd.call("POST", "/custom-frontends", { body: { hostname: "app.example.com" } }),
        409,
        "conflict",
        "app.example.com",
      );

      advanceClock(60_001); // the clock stays moved until the end of the test (afterEach)
      server.frontdoor.options.customFrontendReadyAfterMs = 150;
      assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).body.status, "PENDING");
      const dns = await fd.call("GET", `/custom-frontends/${id}/dns-records`);
      assert.equal(dns.status, 200, dns.text);
      assert.equal(dns.body.frontdoorId, fd.id);
      assert.equal(dns.body.customFrontendId, id);
      assert.equal(dns.body.domainName, "app.example.com");
      assert.equal(dns.body.aRecord.name, "*.app.example.com");
      assert.equal(dns.body.aRecord.ipAddress.length, 2);
      for (const ip of dns.body.aRecord.ipAddress) assert.match(ip, /^192\.0\.2\.\d{1,3}$/);
      assert.ok(dns.body.cnameRecords.length >= 1);
      assert.equal(dns.body.cnameRecords[0].name, "_acme-challenge.app.example.com");
      assert.equal(typeof dns.body.cnameRecords[0].value, "string");

      // Without an active delay it stays PENDING until told otherwise.
      server.frontdoor.setCustomFrontendStatus(fd.id, id, "ACTIVE");
      assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).body.status, "ACTIVE");
      const list = await fd.call("GET", "/custom-frontends");
      assert.equal(list.body.totalElements, 1);
      assert.equal(list.body.content[0].status, "ACTIVE");
      // The list is "not shown" in the API description: the mock can go without it.
      server.frontdoor.options.listCustomFrontends = false;
      try {
        expectError(await fd.call("GET", "/custom-frontends"), 405, "method_not_allowed");
        assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).status, 200);
      } finally {
        delete server.frontdoor.options.listCustomFrontends;
      }

      expectError(
        await fd.call("PATCH", `/custom-frontends/${id}`, { body: { hostname: "x.example.com" } }),
        400,
        "invalid_request",
        "'hostname'",
      );
      const patched = await fd.call("PATCH", `/custom-frontends/${id}`, { body: { authProviderIds: [] } });
      assert.deepEqual(patched.body, {
        id,
        frontdoorId: fd.id,
        status: "PENDING",
        domainName: "app.example.com",
        authProviderIds: [],
      });
      assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).body.status, "PENDING");

      assert.equal((await fd.call("DELETE", `/custom-frontends/${id}`)).status, 204);
      expectError(await fd.call("GET", `/custom-frontends/${id}`), 404, "not_found");
    });

    it("turns ACTIVE by itself when an active delay is configured, also after a PATCH", async () => {
      const timed = await startMockServer({
        frontdoor: { customFrontendReadyAfterMs: 0, customFrontendActiveAfterMs: 60_000 },
      });
      try {
        // On the fake clock (test/support/clock.ts): a minute passes without waiting for it.
        const fd = freshFrontdoor(timed, "cfa");
        const id = (await fd.call("POST", "/custom-frontends", { body: { hostname: "a.example.org" } })).body
          .id;
        assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).body.status, "PENDING");
        advanceClock(60_001);
        assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).body.status, "ACTIVE");
        await fd.call("PATCH", `/custom-frontends/${id}`, { body: { authProviderIds: [] } });
        assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).body.status, "PENDING");
        advanceClock(60_001);
        assert.equal((await fd.call("GET", `/custom-frontends/${id}`)).body.status, "ACTIVE");
      } finally {
        resetClock();
        await timed.close();
      }
    });

    it("refuses to delete an auth provider in use (409 naming the frontend) and updates its users", async () => {
      const fd = freshFrontdoor(server, "cfd");
      const providerId = await providerIn(fd, "in-use");
      const frontend = await fd.call("POST", "/custom-frontends", {
        body: { hostname: "shop.example.net", authProviderIds: [providerId] },
      });
      const before = server.frontdoor.get(fd.id, "custom-frontends", frontend.body.id)!;
      const refused = await fd.call("DELETE", `/auth-providers/${providerId}`);
      expectError(refused, 409, "conflict", "shop.example.net");

      advanceClock(1000); // a later time stamp, without waiting for the clock to tick
      await fd.call("PATCH", `/auth-providers/${providerId}`, { body: { enabled: false } });
      resetClock();
      const after = server.frontdoor.get(fd.id, "custom-frontends", frontend.body.id)!;
      assert.ok(Date.parse(after.updatedAt as string) > Date.parse(before.updatedAt as string));

      await fd.call("DELETE", `/custom-frontends/${frontend.body.id}`);
      assert.equal((await fd.call("DELETE", `/auth-providers/${providerId}`)).status, 204);
    });
  });
});
