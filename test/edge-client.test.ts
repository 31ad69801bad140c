// The Edge management API client over real HTTP(S) against the mock controller: password and
// certificate login, one session per process, re-authentication after expiry, MFA with TOTP,
// error envelopes (never echoing the rejected value), pagination and ZitiQL filters.
import assert from "node:assert/strict";
import { issueCertificate } from "../mock/edge/pki";
import { totp as mockTotp, newTotpSecret } from "../mock/edge/totp";
import type { MockServer } from "../mock/server";
import { EdgeClient, nameFilter } from "../provider/http/edge";
import { ApiError, ProviderError } from "../provider/http/errors";
import { totpCode } from "../provider/http/totp";
import { edgeSettings, useMock } from "./support/fixtures";

function authCalls(mock: MockServer, path = "/edge/management/v1/authenticate"): number {
  return mock.log.filter((e) => e.method === "POST" && e.path === path).length;
}

describe("Edge client", () => {
  const mock = useMock();
  let settings: Record<string, string>;
  before(() => {
    settings = edgeSettings(mock);
  });
  beforeEach(() => mock.clearLog());

  it("computes RFC 6238 codes (test vector) and the same codes as the controller", () => {
    // RFC 6238 appendix B, SHA1, T = 59 s: 94287082 -> 6 digits 287082.
    const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // base32 of "12345678901234567890"
    assert.equal(totpCode(rfcSecret, 59_000), "287082");
    const secret = newTotpSecret();
    const now = Date.now();
    assert.equal(totpCode(secret, now), mockTotp(secret, now));
  });

  it("logs in once with a password and shares the session among concurrent requests", async () => {
    const client = new EdgeClient(settings);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => client.get("/auth-policies/default", "AuthPolicy default")),
    );
    assert.ok(results.every((p) => (p as { name?: string })?.name === "Default"));
    assert.equal(authCalls(mock), 1);
    assert.equal(client.auth.logins, 1);
    const login = mock.log.find((e) => e.path.endsWith("/authenticate"));
    assert.equal(login?.query, "method=password");
    await client.close();
  });

  it("re-authenticates once when the session expired, and retries the request", async () => {
    const client = new EdgeClient(settings);
    assert.ok(await client.get("/auth-policies/default", "p"));
    mock.edge.expireAllSessions();
    assert.ok(await client.get("/auth-policies/default", "p"));
    assert.equal(client.auth.logins, 2);
    const statuses = mock.log.filter((e) => e.path.endsWith("/auth-policies/default")).map((e) => e.status);
    assert.deepEqual(statuses, [200, 401, 200]);
    await client.close();
  });

  it("says which credentials are wrong, without the password", async () => {
    const client = new EdgeClient({ ...settings, edgePassword: "wrong-password-123" });
    await assert.rejects(client.get("/identities", "Identity list"), (err: ApiError) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 401);
      assert.match(err.message, /Edge authentication \(method=password\).*INVALID_AUTH/);
      assert.doesNotMatch(err.message, /wrong-password-123/);
      return true;
    });
    await client.close();
  });

  it("completes MFA with a TOTP code from edgeTotpSecret", async () => {
    const secret = newTotpSecret();
    mock.edge.addAdmin({ username: "mfa-admin", password: "mfa-password-1", totpSecretBase32: secret });
    const client = new EdgeClient({
      ...settings,
      edgeUsername: "mfa-admin",
      edgePassword: "mfa-password-1",
      edgeTotpSecret: secret,
    });
    assert.ok(await client.get("/auth-policies/default", "p"));
    assert.equal(authCalls(mock, "/edge/management/v1/authenticate/mfa"), 1);
    await client.close();
  });

  it("fails with the setting to provide when MFA is required and no TOTP secret is set", async () => {
    mock.edge.addAdmin({
      username: "mfa-admin-2",
      password: "mfa-password-2",
      totpSecretBase32: newTotpSecret(),
    });
    const client = new EdgeClient({
      ...settings,
      edgeUsername: "mfa-admin-2",
      edgePassword: "mfa-password-2",
    });
    await assert.rejects(client.get("/identities", "l"), (err: Error) => {
      assert.ok(err instanceof ProviderError);
      assert.match(err.message, /requires MFA.*frontdoor:edgeTotpSecret.*ZITI_TOTP_SECRET/);
      return true;
    });
    await client.close();
  });

  it("names the missing settings when no credentials are configured", () => {
    assert.throws(
      () => new EdgeClient({ edgeUrl: mock.url }),
      /frontdoor:edgeUsername \+ frontdoor:edgePassword/,
    );
    assert.throws(() => new EdgeClient({}), /frontdoor:edgeUrl/);
  });

  it("maps error envelopes to code, message, field and reason, never the rejected value", async () => {
    const client = new EdgeClient(settings);
    const value = `u-${"x".repeat(120)}`;
    await assert.rejects(
      client.create(
        "/identities",
        { name: "e1", type: "User", isAdmin: false, enrollment: { updb: value } },
        'Identity "e1"',
      ),
      (err: ApiError) => {
        assert.equal(err.status, 400);
        assert.equal(err.code, "COULD_NOT_VALIDATE");
        assert.match(
          err.message,
          new RegExp(
            `^Identity "e1": POST ${mock.url}/edge/management/v1/identities failed \\(HTTP 400 COULD_NOT_VALIDATE\\)`,
          ),
        );
        assert.match(err.message, /enrollment\.updb: username must be 4\.\.100 characters/);
        assert.ok(!err.message.includes(value));
        return true;
      },
    );
    assert.equal(await client.get("/identities/does-not-exist", "i"), undefined);
    await client.delete("/identities/does-not-exist", "i"); // already gone: fine
    await client.close();
  });

  it("reads every page of a list and filters by name with quotes escaped", async () => {
    for (let i = 0; i < 510; i++) mock.edge.addAdmin({ username: `page-user-${i}`, password: "pw-12345" });
    mock.edge.addAdmin({ username: "quoted", name: 'odd "name" \\ here', password: "pw-12345" });
    const client = new EdgeClient(settings);
    const all = await client.list<{ name: string }>("/identities", undefined, "Identity list");
    assert.ok(all.length >= 512, `got ${all.length}`);
    assert.equal(new Set(all.map((i) => i.name)).size, all.length);
    const lists = mock.log.filter((e) => e.method === "GET" && e.path.endsWith("/identities"));
    assert.equal(lists.length, 2);
    assert.match(lists[0].query ?? "", /limit=500&offset=0/);
    const found = await client.list<{ name: string }>("/identities", nameFilter('odd "name" \\ here'), "l");
    assert.deepEqual(
      found.map((i) => i.name),
      ['odd "name" \\ here'],
    );
    await client.close();
  });
});

describe("Edge client with a client certificate over TLS", () => {
  const mock = useMock({ tls: true });

  it("authenticates with method=cert (mutual TLS) and verifies the server with the CA bundle", async () => {
    const issued = mock.edge.issueAdminCertificate();
    const client = new EdgeClient({
      edgeUrl: mock.url,
      edgeCertPem: issued.certPem,
      edgeKeyPem: issued.keyPem,
      caBundle: mock.caPem!,
    });
    assert.ok(await client.get("/auth-policies/default", "p"));
    const login = mock.log.find((e) => e.path.endsWith("/authenticate"));
    assert.equal(login?.query, "method=cert");
    await client.close();
  });

  it("refuses a certificate the controller does not know", async () => {
    const stranger = issueCertificate({ commonName: "stranger" });
    const client = new EdgeClient({
      edgeUrl: mock.url,
      edgeCertPem: stranger.certPem,
      edgeKeyPem: stranger.keyPem,
      caBundle: mock.caPem!,
      maxRetries: "0",
    });
    await assert.rejects(client.get("/identities", "l"), /method=cert.*401/);
    await client.close();
  });
});
