// The HTTP client every API shares (provider/http/client.ts), against the mock on 127.0.0.1 with its
// fault injection, asserting the requests actually sent (method, path, count: the mock's log). What
// is expected comes from the contracts (DESIGN.md §1, §4, §5): 429 and 503 are "not now" and retried
// (Retry-After honoured); a POST answered 502/503/504, or whose answer was lost, may have been carried
// out, so it is NOT sent again blindly (the caller looks the object up); reads and idempotent writes
// are retried; one re-authentication on 401; retries bounded by count and by time.
import assert from "node:assert/strict";
import * as net from "node:net";
import { type MockServer, startMockServer } from "../mock/server";
import { type AuthScheme, HttpClient, type HttpClientOptions } from "../provider/http/client";
import { ApiError } from "../provider/http/errors";

const FAST = { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 1, maxDelayMs: 5 };

describe("HTTP client: retries, ambiguous POSTs and the requests sent (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  let mock: MockServer;
  let client: HttpClient;
  let base: string;
  const bearer = (): AuthScheme => ({
    headers: () => ({ authorization: `Bearer ${mock.credentials.frontdoorToken}` }),
  });
  const parse = (body: unknown) => body as { error?: string; message?: string };
  const make = (options: Partial<HttpClientOptions> = {}, auth = bearer()) =>
    new HttpClient({ baseUrl: mock.url, apiName: "Frontdoor API", retry: FAST, ...options }, auth, (b) => ({
      code: parse(b)?.error,
      message: parse(b)?.message,
    }));

  before(async () => {
    mock = await startMockServer();
    base = `/frontdoor/${mock.credentials.frontdoorId}/auth-providers`;
  });
  after(() => mock.close());
  beforeEach(() => {
    mock.clearLog();
    mock.faults.clear();
    client = make();
  });
  afterEach(() => client.close());

  const oidc = (name: string) => ({
    name,
    type: "OIDC",
    data: { issuer: "https://login.example.com", client_id: "c", client_secret: "client-secret-123456" },
  });
  const sent = () => mock.log.map((e) => `${e.method} ${e.path} ${e.status}`);
  const named = (name: string) =>
    mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers").filter((p) => p.name === name);

  it("a GET answered 429 (Retry-After 0) twice is sent three times and then answered", async () => {
    mock.faults.inject({ method: "GET", path: base, kind: "429", retryAfterSeconds: 0, count: 2 });
    const res = await client.request({ method: "GET", path: base });
    assert.equal(res.status, 200);
    assert.deepEqual(sent(), [`GET ${base} 429`, `GET ${base} 429`, `GET ${base} 200`]);
  });

  it("a GET answered 503, 502 or 504 (a gateway) is sent again", async () => {
    mock.faults.inject({ method: "GET", path: base, kind: "503", retryAfterSeconds: 0 });
    mock.faults.inject({ method: "GET", path: base, kind: "commit-then-502" });
    mock.faults.inject({ method: "GET", path: base, kind: "commit-then-504" });
    await client.request({ method: "GET", path: base });
    assert.deepEqual(sent(), [`GET ${base} 503`, `GET ${base} 502`, `GET ${base} 504`, `GET ${base} 200`]);
  });

  it("a GET whose connection dropped is sent again", async () => {
    mock.faults.inject({ method: "GET", path: base, kind: "drop" });
    await client.request({ method: "GET", path: base });
    assert.deepEqual(sent(), [`GET ${base} 0`, `GET ${base} 200`]);
  });

  it("a POST answered 429 was not carried out: sent again, one object", async () => {
    mock.faults.inject({ method: "POST", path: base, kind: "429", retryAfterSeconds: 0 });
    const res = await client.request<{ id: string }>({ method: "POST", path: base, body: oidc("p-429") });
    assert.equal(res.status, 201);
    assert.deepEqual(sent(), [`POST ${base} 429`, `POST ${base} 201`]);
    assert.equal(named("p-429").length, 1);
  });

  for (const kind of ["commit-then-502", "commit-then-503", "commit-then-504", "commit-then-drop"] as const) {
    it(`a POST carried out, then ${kind.slice(12)}: not sent again; an ambiguous error for the caller`, async () => {
      const name = `p-${kind}`;
      mock.faults.inject({ method: "POST", path: base, kind });
      const err = await client
        .request({ method: "POST", path: base, body: oidc(name), resource: `AuthProvider "${name}"` })
        .then(
          () => assert.fail("the POST should fail"),
          (e) => e,
        );
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.ambiguous, true);
      const status = kind === "commit-then-drop" ? 0 : Number(kind.slice(-3));
      assert.equal(err.status, status);
      assert.equal(err.method, "POST");
      assert.equal(err.path, base);
      assert.match(err.message, new RegExp(`^AuthProvider "${name}": POST ${mock.url}${base} failed \\(`));
      assert.deepEqual(sent(), [`POST ${base} ${status}`], "sent once, never again");
      assert.equal(named(name).length, 1, "the server made it");
    });
  }

  it("a POST whose connection dropped before it was carried out: ambiguous all the same, sent once", async () => {
    mock.faults.inject({ method: "POST", path: base, kind: "drop" });
    const err = await client.request({ method: "POST", path: base, body: oidc("p-drop") }).catch((e) => e);
    assert.ok(err instanceof ApiError && err.ambiguous && err.status === 0, String(err));
    assert.match(err.message, /failed \(no response/);
    assert.deepEqual(sent(), [`POST ${base} 0`]);
    assert.equal(named("p-drop").length, 0);
  });

  it("an idempotent POST (a login) is sent again after a 503 like a GET", async () => {
    mock.faults.inject({ method: "POST", path: base, kind: "commit-then-503" });
    mock.faults.inject({ method: "POST", path: base, kind: "429", retryAfterSeconds: 0 });
    const res = await client
      .request({ method: "POST", path: base, body: oidc("p-idem"), idempotent: true, accept: [409] })
      .catch((e) => e);
    // The first was carried out: the resend meets its own name (409, accepted here as an answer).
    assert.equal(res.status, 409, String(res));
    assert.deepEqual(sent(), [`POST ${base} 503`, `POST ${base} 429`, `POST ${base} 409`]);
  });

  it("retries end at maxAttempts (the first included), with the last answer's error", async () => {
    client = make({ retry: { ...FAST, maxAttempts: 3 } });
    mock.faults.inject({ method: "GET", path: base, kind: "503", retryAfterSeconds: 0, count: 5 });
    const err = await client.request({ method: "GET", path: base }).catch((e) => e);
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 503);
    assert.equal(err.ambiguous, false);
    assert.deepEqual(sent(), [`GET ${base} 503`, `GET ${base} 503`, `GET ${base} 503`]);
  });

  it("retries end when the time budget is spent: with none left, one attempt", async () => {
    client = make({ retry: { ...FAST, maxElapsedMs: 0 } });
    mock.faults.inject({ method: "GET", path: base, kind: "429", retryAfterSeconds: 0, count: 3 });
    const err = await client.request({ method: "GET", path: base }).catch((e) => e);
    assert.equal((err as ApiError).status, 429);
    assert.deepEqual(sent(), [`GET ${base} 429`]);
  });

  it("401: credentials renewed once and the request sent again; a second 401 is the error", async () => {
    let token = "not-a-valid-token-0000";
    let renewals = 0;
    const renewing: AuthScheme = {
      headers: () => ({ authorization: `Bearer ${token}` }),
      renew: async () => {
        renewals++;
        token = mock.credentials.frontdoorToken;
        return true;
      },
    };
    client = make({}, renewing);
    assert.equal((await client.request({ method: "GET", path: base })).status, 200);
    assert.equal(renewals, 1);
    assert.deepEqual(sent(), [`GET ${base} 401`, `GET ${base} 200`]);

    mock.clearLog();
    token = "still-not-valid-token-1111";
    const stuck: AuthScheme = {
      headers: () => ({ authorization: `Bearer ${token}` }),
      renew: async () => true,
    };
    client = make({}, stuck);
    const err = await client.request({ method: "GET", path: base }).catch((e) => e);
    assert.equal((err as ApiError).status, 401);
    assert.deepEqual(sent(), [`GET ${base} 401`, `GET ${base} 401`], "renewed once, not forever");

    mock.clearLog();
    const refused: AuthScheme = {
      headers: () => ({ authorization: "Bearer nope-nope-nope" }),
      renew: async () => false,
    };
    client = make({}, refused);
    const again = await client.request({ method: "GET", path: base }).catch((e) => e);
    assert.equal((again as ApiError).status, 401);
    assert.deepEqual(sent(), [`GET ${base} 401`]);
    // An anonymous request is never renewed: the credential is in the path (certificate request token).
    mock.clearLog();
    const anonymous = await client.request({ method: "GET", path: base, anonymous: true }).catch((e) => e);
    assert.equal((anonymous as ApiError).status, 401);
    assert.deepEqual(sent(), [`GET ${base} 401`]);
  });

  it("errors name the resource, method, path, HTTP status, the server's code and message", async () => {
    const err = await client
      .request({ method: "POST", path: base, body: { name: "" }, resource: 'AuthProvider "x"' })
      .catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 400);
    assert.equal(err.ambiguous, false);
    assert.ok(err.code, "the server's error code");
    assert.match(
      err.message,
      new RegExp(`^AuthProvider "x": POST ${mock.url}${base} failed \\(HTTP 400 ${err.code}\\): .+`),
    );
    assert.deepEqual(sent(), [`POST ${base} 400`], "a 400 is not retried");
    // A status the caller accepts is an answer, not an error (404 on read means gone).
    const gone = await client.request({ method: "GET", path: `${base}/no-such-id`, accept: [404] });
    assert.equal(gone.status, 404);
    const missing = await client.request({ method: "GET", path: `${base}/no-such-id` }).catch((e) => e);
    assert.match(String(missing.message), /^Frontdoor API: GET .*\/no-such-id failed \(HTTP 404/);
  });

  it("sends JSON with its content type and the query without unset values; parses JSON answers", async () => {
    const created = await client.request<{ id: string; name: string }>({
      method: "POST",
      path: base,
      body: oidc("p-json"),
    });
    assert.equal(created.body.name, "p-json");
    const page = await client.request<{ page?: unknown }>({
      method: "GET",
      path: base,
      query: { size: 1, page: 0, sort: undefined },
    });
    assert.equal(page.status, 200);
    const entry = mock.log.at(-1)!;
    assert.equal(entry.query, "size=1&page=0");
    assert.equal(typeof page.body, "object");
    assert.equal(JSON.parse(mock.log[0].body!).name, "p-json");
  });

  it("a base URL with a path prefix keeps it; a trailing slash is not doubled", async () => {
    client = make({ baseUrl: `${mock.url}/frontdoor/` });
    const res = await client.request({
      method: "GET",
      path: `/${mock.credentials.frontdoorId}/auth-providers`,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(sent(), [`GET ${base} 200`]);
  });

  it("an error names the URL requested: origin, the base URL's path and the path, never a query", async () => {
    // The path a Terraform `host` pasted as the base URL makes: the message shows it doubled, as sent.
    client = make({ baseUrl: `${mock.url}/edge/management/v1/` });
    const err = await client
      .request({ method: "POST", path: "/edge/management/v1/authenticate?method=password", anonymous: true })
      .catch((e) => e);
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 404);
    assert.match(
      err.message,
      new RegExp(
        `^Frontdoor API: POST ${mock.url}/edge/management/v1/edge/management/v1/authenticate failed \\(HTTP 404`,
      ),
    );
    assert.doesNotMatch(err.message, /method=password/);
    assert.equal(err.path, "/edge/management/v1/authenticate?method=password", "path: as the caller gave it");
    // No answer at all (nothing listens): the URL too.
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    client = make({ baseUrl: `http://127.0.0.1:${closed}/api`, retry: { ...FAST, maxAttempts: 1 } });
    const down = await client.request({ method: "GET", path: "/things" }).catch((e) => e);
    assert.ok(down instanceof ApiError && down.status === 0, String(down));
    assert.match(
      down.message,
      new RegExp(`^Frontdoor API: GET http://127\\.0\\.0\\.1:${closed}/api/things failed \\(no response`),
    );
  });

  it("a request timeout on a POST is ambiguous and not resent; on a GET it is retried", async () => {
    client = make({ timeoutMs: 300 });
    mock.faults.inject({ method: "POST", path: base, kind: "delay", delayMs: 3000 });
    const err = await client.request({ method: "POST", path: base, body: oidc("p-slow") }).catch((e) => e);
    assert.ok(err instanceof ApiError && err.ambiguous && err.status === 0, String(err));
    assert.equal(mock.log.filter((e) => e.method === "POST").length, 1);
    mock.faults.inject({ method: "GET", path: base, kind: "delay", delayMs: 3000 });
    const res = await client.request({ method: "GET", path: base });
    assert.equal(res.status, 200);
    assert.equal(mock.log.filter((e) => e.method === "GET").length, 2);
  });
});
