// The HTTP client (provider/http/client.ts) on the wire: what it sends (headers, bodies, content types,
// query, path) and how it reads what comes back (empty, text, JSON, error bodies, Date and Retry-After
// headers, refused connections, TLS), against a scripted server on 127.0.0.1 that records each request
// as it arrived. Expected values come from the contracts (DESIGN.md §1: JSON with `Accept:
// application/json`; a CA's verification PEM sent as `text/plain`; Retry-After honoured; errors name
// the resource, status and server message) and from Node's own messages, not from the client's code.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { createRootCa, issueServerCertificate } from "../mock/pki";
import { type AuthScheme, HttpClient, type HttpClientOptions, noAuth } from "../provider/http/client";
import { ApiError, ProviderError } from "../provider/http/errors";
import type { RetryPolicy } from "../provider/http/retry";
import { debugging, type LogSink, resetProgress, restoreDebug, setDebug, setLogSink } from "../provider/log";
import {
  closedPort,
  fullBacklogPort,
  type ScriptedServer,
  startScriptedServer,
} from "./support/scriptedServer";
import { captureStderr } from "./support/stderr";

const FAST: RetryPolicy = { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 1, maxDelayMs: 5 };
const bearer: AuthScheme = { headers: () => ({ authorization: "Bearer wire-token-123456" }) };
const parser = (body: unknown) => {
  const b = body as { error?: string; message?: string } | undefined;
  return { code: b?.error, message: b?.message };
};

function clientFor(url: string, options: Partial<HttpClientOptions> = {}, auth: AuthScheme = bearer) {
  return new HttpClient({ baseUrl: url, apiName: "Wire API", retry: FAST, ...options }, auth, parser);
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    (answer) => assert.fail(`expected an error, got ${JSON.stringify(answer)}`),
    (err: unknown) => err,
  );

/** Runs `work` with debug output on, and returns what it wrote to stderr. */
async function debugOutput(work: () => Promise<unknown>): Promise<string> {
  // Restored afterwards, so the rest of the mocha process is not flooded with debug output.
  const debugWas = debugging();
  setDebug(true);
  try {
    const { written } = await captureStderr(work);
    return written.join("");
  } finally {
    restoreDebug(debugWas);
  }
}

describe("HTTP client on the wire (scripted server on 127.0.0.1)", function () {
  this.timeout(60_000);
  let server: ScriptedServer;
  let client: HttpClient;
  beforeEach(async () => {
    server = await startScriptedServer();
    client = clientFor(server.url);
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it("sends Accept: application/json, the caller's headers, and credentials unless anonymous", async () => {
    await client.request({ method: "GET", path: "/a", headers: { "x-request-note": "n1" } });
    await client.request({ method: "GET", path: "/b", anonymous: true });
    const asyncAuth = clientFor(
      server.url,
      {},
      { headers: async () => ({ authorization: "Basic YXN5bmM6cA==" }) },
    );
    await asyncAuth.request({ method: "GET", path: "/c" });
    await asyncAuth.close();
    const [a, b, c] = server.seen;
    assert.equal(a.headers.accept, "application/json");
    assert.equal(a.headers["x-request-note"], "n1");
    assert.equal(a.headers.authorization, "Bearer wire-token-123456");
    assert.equal(b.headers.accept, "application/json");
    assert.equal(b.headers.authorization, undefined, "anonymous: no credentials");
    assert.equal(c.headers.authorization, "Basic YXN5bmM6cA==");
  });

  it("a JSON body goes as JSON (application/json unless the caller names a type); no body, no type", async () => {
    await client.request({ method: "POST", path: "/j", body: { name: "n", tags: { a: "1" } } });
    await client.request({
      method: "PATCH",
      path: "/m",
      body: { name: "m" },
      contentType: "application/merge-patch+json",
    });
    await client.request({ method: "GET", path: "/g" });
    const [json, merge, get] = server.seen;
    assert.equal(json.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(json.body), { name: "n", tags: { a: "1" } });
    assert.equal(merge.headers["content-type"], "application/merge-patch+json");
    assert.deepEqual(JSON.parse(merge.body), { name: "m" });
    assert.equal(get.headers["content-type"], undefined);
    assert.equal(get.body, "");
  });

  it("a text body (a PEM to verify a CA) goes as it is, text/plain unless the caller names a type", async () => {
    const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    await client.request({ method: "POST", path: "/cas/1/verify", body: pem });
    await client.request({
      method: "POST",
      path: "/enroll",
      body: pem,
      contentType: "application/x-pem-file",
    });
    const [plain, typed] = server.seen;
    assert.equal(plain.headers["content-type"], "text/plain");
    assert.equal(plain.body, pem);
    assert.equal(typed.headers["content-type"], "application/x-pem-file");
    assert.equal(typed.body, pem);
  });

  it("the query leaves unset values out, and no '?' when none is left; base URL slashes are not doubled", async () => {
    await client.request({ method: "GET", path: "/q", query: { filter: undefined } });
    await client.request({ method: "GET", path: "/q", query: { limit: 5, offset: 0, filter: undefined } });
    const prefixed = clientFor(`${server.url}/api/v1//`);
    await prefixed.request({ method: "GET", path: "/things" });
    await prefixed.close();
    assert.deepEqual(
      server.seen.map((s) => s.url),
      ["/q", "/q?limit=5&offset=0", "/api/v1/things"],
    );
  });

  it("answers: an empty body is undefined, JSON is parsed, other text is kept as text", async () => {
    server.script.push(
      { status: 204 },
      { status: 200, headers: { "content-type": "application/json" }, body: '{"id":"x1"}' },
      { status: 200, headers: { "content-type": "text/plain" }, body: "plain words" },
    );
    assert.equal((await client.request({ method: "DELETE", path: "/d" })).body, undefined);
    assert.deepEqual((await client.request({ method: "GET", path: "/j" })).body, { id: "x1" });
    assert.equal((await client.request({ method: "GET", path: "/t" })).body, "plain words");
  });

  it("an error without the API's message shows the body, cut after 300 characters; an empty one says so", async () => {
    const long = "x".repeat(299) + "YZ" + "w".repeat(100);
    const exactly300 = "e".repeat(300);
    server.script.push(
      { status: 500, headers: { "content-type": "application/json" }, body: '{"detail":"disk full"}' },
      { status: 500, headers: { "content-type": "text/plain" }, body: long },
      { status: 500, headers: { "content-type": "text/plain" }, body: exactly300 },
      { status: 500 },
      {
        status: 500,
        headers: { "content-type": "application/json" },
        body: '{"error":"E1","message":"said"}',
      },
    );
    const json = (await failure(client.request({ method: "GET", path: "/e1" }))) as ApiError;
    assert.equal(json.serverMessage, '{"detail":"disk full"}');
    assert.equal(json.status, 500);
    const cut = (await failure(client.request({ method: "GET", path: "/e2" }))) as ApiError;
    assert.equal(cut.serverMessage, `${long.slice(0, 300)}...`);
    const whole = (await failure(client.request({ method: "GET", path: "/e2" }))) as ApiError;
    assert.equal(whole.serverMessage, exactly300, "300 characters are shown whole");
    const empty = (await failure(
      client.request({ method: "GET", path: "/e3", resource: 'Thing "t"' }),
    )) as ApiError;
    assert.equal(empty.serverMessage, "(empty response)");
    // The message shows the URL requested (base URL and path), the path alone stays in `path`.
    assert.equal(empty.message, `Thing "t": GET ${server.url}/e3 failed (HTTP 500): (empty response)`);
    assert.equal(empty.path, "/e3");
    const said = (await failure(client.request({ method: "GET", path: "/e4" }))) as ApiError;
    assert.equal(said.serverMessage, "said");
    assert.equal(said.code, "E1");
    assert.equal(server.seen.length, 5, "a 500 is not retried");
  });

  it("a 401 whose Date header is far off names the clock skew; other statuses and a close clock do not", async () => {
    const hourAgo = new Date(Date.now() - 3600_000).toUTCString();
    const body = '{"error":"UNAUTHORIZED","message":"token expired"}';
    const json = { "content-type": "application/json" };
    server.script.push(
      { status: 401, headers: { ...json, date: hourAgo }, body },
      { status: 403, headers: { ...json, date: hourAgo }, body },
      { status: 401, headers: { ...json, date: new Date().toUTCString() }, body },
    );
    const skewed = (await failure(client.request({ method: "GET", path: "/s" }))) as ApiError;
    assert.match(
      skewed.serverMessage,
      /^token expired \(the local clock is 3\d{3} s ahead of the server's Date header/,
    );
    assert.match(skewed.serverMessage, /clock skew/);
    const forbidden = (await failure(client.request({ method: "GET", path: "/s" }))) as ApiError;
    assert.equal(forbidden.serverMessage, "token expired");
    const close = (await failure(client.request({ method: "GET", path: "/s" }))) as ApiError;
    assert.equal(close.serverMessage, "token expired");
  });

  it("credentials are renewed on a 401 only, never for an anonymous request; after renewal retries start over", async () => {
    let renewals = 0;
    const renewing: AuthScheme = { ...bearer, renew: async () => ++renewals > 0 };
    const c = clientFor(server.url, { retry: { ...FAST, maxAttempts: 2 } }, renewing);
    try {
      server.script.push({ status: 400, body: "bad" });
      assert.equal(((await failure(c.request({ method: "GET", path: "/r" }))) as ApiError).status, 400);
      server.script.push({ status: 401, body: "who" });
      const anonymous = (await failure(
        c.request({ method: "GET", path: "/r", anonymous: true }),
      )) as ApiError;
      assert.equal(anonymous.status, 401);
      assert.equal(renewals, 0, "neither a 400 nor an anonymous 401 renews");
      assert.equal(server.seen.length, 2);
      // 401 (renewed), then 503: with 2 attempts, the 503 is still retried (the renewal's resend is free).
      server.script.push({ status: 401, body: "who" }, { status: 503, headers: { "retry-after": "0" } });
      assert.equal((await c.request({ method: "GET", path: "/r" })).status, 200);
      assert.equal(renewals, 1);
      assert.deepEqual(
        server.seen.slice(2).map((s) => s.url),
        ["/r", "/r", "/r"],
      );
    } finally {
      await c.close();
    }
  });

  it("honours Retry-After over its own shorter backoff", async () => {
    const c = clientFor(server.url, { retry: { ...FAST, maxDelayMs: 5000 } });
    try {
      server.script.push({ status: 503, headers: { "retry-after": "1" } });
      assert.equal((await c.request({ method: "GET", path: "/ra" })).status, 200);
      const [first, second] = server.seen;
      // A lower bound only (a loaded machine makes it longer): the backoff alone would be a few ms.
      assert.ok(second.at - first.at >= 900, `resent after ${second.at - first.at} ms`);
    } finally {
      await c.close();
    }
  });

  it("a failure to get credentials is the caller's error as it is: not wrapped, not retried, nothing sent", async () => {
    const refused = new ProviderError("frontdoor:token is not set");
    const denied = new ApiError({
      resource: "Login",
      method: "POST",
      path: "/login",
      status: 403,
      serverMessage: "no",
    });
    for (const thrown of [refused, denied]) {
      const c = clientFor(
        server.url,
        {},
        {
          headers: () => {
            throw thrown;
          },
        },
      );
      assert.equal(await failure(c.request({ method: "GET", path: "/x" })), thrown);
      await c.close();
    }
    assert.equal(server.seen.length, 0);
  });

  it("pool: at most `connections` connections at once", async () => {
    const c = clientFor(server.url, { connections: 2 });
    try {
      for (let i = 0; i < 6; i++) server.script.push({ status: 200, body: "{}", holdMs: 100 });
      await Promise.all(Array.from({ length: 6 }, (_, i) => c.request({ method: "GET", path: `/p${i}` })));
      assert.equal(new Set(server.seen.map((s) => s.remotePort)).size, 2);
    } finally {
      await c.close();
    }
  });

  it("a closed client sends nothing more", async () => {
    const c = clientFor(server.url);
    await c.request({ method: "GET", path: "/before" });
    await c.close();
    await failure(c.request({ method: "GET", path: "/after" }));
    assert.deepEqual(
      server.seen.map((s) => s.url),
      ["/before"],
    );
  });

  it("debug output names each request's status, each retry and a renewal", async () => {
    let renewed = false;
    const c = clientFor(server.url, {}, { ...bearer, renew: async () => (renewed = true) });
    server.script.push({ status: 503, headers: { "retry-after": "0" } }, { status: 401 });
    const out = await debugOutput(() => c.request({ method: "GET", path: "/dbg" }));
    await c.close();
    assert.ok(renewed);
    assert.match(out, /GET \/dbg -> 503\n/);
    assert.match(out, /GET \/dbg: HTTP 503; retry 1 in \d+ ms\n/);
    assert.match(out, /GET \/dbg: 401, credentials renewed, retrying\n/);
    assert.match(out, /GET \/dbg -> 200\n/);
  });
});

describe("HTTP client: refused connections", function () {
  this.timeout(60_000);
  it("a connection refused never reached the server: a POST is not ambiguous and is sent again", async () => {
    const port = await closedPort();
    const c = clientFor(`http://127.0.0.1:${port}`, { retry: { ...FAST, maxAttempts: 3 } });
    let err: unknown;
    const out = await debugOutput(async () => {
      err = await failure(c.request({ method: "POST", path: "/things", body: { name: "n" } }));
    });
    await c.close();
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 0);
    assert.equal(err.code, "ECONNREFUSED");
    assert.equal(err.ambiguous, false);
    assert.equal(
      err.serverMessage,
      `connect ECONNREFUSED 127.0.0.1:${port} (http://127.0.0.1:${port} cannot be reached: check the address in the settings, and that the server is running)`,
    );
    assert.match(
      out,
      new RegExp(`POST /things: connect ECONNREFUSED 127.0.0.1:${port} .*; retry 1 in \\d+ ms`),
    );
    assert.match(out, /; retry 2 in /);
    assert.doesNotMatch(out, /; retry 3 in /, "3 attempts in all");
  });
});

/** Runs `work` with the log's lines (warnings, progress) captured, and returns them. */
async function logLines(work: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const sink: LogSink = (_severity, _message, line) => lines.push(line);
  resetProgress();
  setLogSink(sink);
  try {
    await work();
  } finally {
    setLogSink(undefined);
  }
  return lines;
}

describe("HTTP client: no silent minute (refused connections at first contact, progress lines)", function () {
  this.timeout(60_000);
  // No count limit and a long time budget: what ends the retries below is the rule under test.
  const PATIENT: RetryPolicy = {
    maxAttempts: Number.POSITIVE_INFINITY,
    maxElapsedMs: 60_000,
    baseDelayMs: 50,
    maxDelayMs: 200,
  };

  it("a refused connection before the server ever answered: a few tries in about a second, naming the address", async () => {
    const port = await closedPort();
    const c = clientFor(`http://127.0.0.1:${port}`, { retry: PATIENT });
    const started = Date.now();
    let err: unknown;
    const out = await debugOutput(async () => {
      err = await failure(c.request({ method: "GET", path: "/login" }));
    });
    const took = Date.now() - started;
    await c.close();
    assert.ok(err instanceof ApiError && err.code === "ECONNREFUSED", String(err));
    assert.match(
      err.message,
      new RegExp(`http://127\\.0\\.0\\.1:${port} cannot be reached: check the address`),
    );
    const tries = (out.match(/; retry \d+ in /g) ?? []).length + 1;
    assert.ok(tries >= 3, `a few tries, not one: ${tries}\n${out}`);
    // Well under the 60 s budget: the first-contact rule ended it (about 1 s, with scheduling slack).
    assert.ok(took >= 900 && took < 10_000, `took ${took} ms`);
  });

  it("an unknown host (.invalid, RFC 6761) before any answer: the same quick failure, naming the address", async () => {
    const c = clientFor("http://frontdoor-test.invalid:8443", { retry: PATIENT });
    const started = Date.now();
    const err = await failure(c.request({ method: "GET", path: "/x" }));
    await c.close();
    assert.ok(err instanceof ApiError && err.code === "ENOTFOUND", String(err));
    assert.equal(err.ambiguous, false);
    assert.match(err.message, /http:\/\/frontdoor-test\.invalid:8443 cannot be reached/);
    assert.ok(Date.now() - started < 10_000);
  });

  it("once the server has answered, a refused connection is an outage: retried for the whole budget, with a progress line", async () => {
    const server = await startScriptedServer();
    const c = clientFor(server.url, {
      retry: { ...PATIENT, maxElapsedMs: 4_000, baseDelayMs: 200, maxDelayMs: 1_000 },
    });
    try {
      assert.equal((await c.request({ method: "GET", path: "/first" })).status, 200);
      await server.close();
      const started = Date.now();
      let err: unknown;
      const lines = await logLines(async () => {
        err = await failure(c.request({ method: "GET", path: "/again", resource: 'Thing "t"' }));
      });
      const took = Date.now() - started;
      assert.ok(err instanceof ApiError && err.code === "ECONNREFUSED", String(err));
      assert.doesNotMatch(err.message, /cannot be reached/, "not a wrong address: it answered before");
      assert.ok(took >= 3_900, `retried until the budget ended: ${took} ms`);
      // One line (at most one every 5 s), naming the resource, what it waits for, the attempt, the time left.
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(
        lines[0],
        /^\[frontdoor\] waiting: Thing "t": GET \/again: no answer \(ECONNREFUSED\); attempt \d+ in \d\.\d s \(retrying for up to [1-4] s more, frontdoor:retryTimeoutSeconds\)$/,
      );
    } finally {
      await c.close();
    }
  });

  it("a 503 whose Retry-After makes the wait long prints one progress line; a short wait prints none", async () => {
    const server = await startScriptedServer();
    const c = clientFor(server.url, { retry: { ...FAST, maxDelayMs: 10_000 } });
    try {
      server.script.push({ status: 503, headers: { "retry-after": "0" }, body: "busy" });
      const quiet = await logLines(() => c.request({ method: "GET", path: "/quick" }));
      assert.deepEqual(quiet, []);
      server.script.push({ status: 503, headers: { "retry-after": "3" }, body: "busy" });
      const lines = await logLines(() => c.request({ method: "GET", path: "/busy", resource: 'Thing "b"' }));
      assert.deepEqual(lines, [
        '[frontdoor] waiting: Thing "b": GET /busy: HTTP 503; attempt 2 of 5 in 3.0 s (retrying for up to 60 s more, frontdoor:retryTimeoutSeconds)',
      ]);
      assert.deepEqual(
        server.seen.map((r) => r.url),
        ["/quick", "/quick", "/busy", "/busy"],
      );
    } finally {
      await c.close();
      await server.close();
    }
  });
});

describe("HTTP client: failFast (one node of a cluster, provider/http/cluster.ts)", function () {
  this.timeout(60_000);
  let server: ScriptedServer;
  before(async () => {
    server = await startScriptedServer();
  });
  after(() => server.close());
  beforeEach(() => server.seen.splice(0));

  it("fails at once on 502, 503, 504 and a refused connection, so the cluster moves on; retries a 429 as before", async () => {
    const c = clientFor(server.url, { failFast: true });
    try {
      for (const status of [502, 503, 504]) {
        server.script.push({ status, body: "down" });
        const err = await failure(c.request({ method: "GET", path: `/s${status}` }));
        assert.ok(err instanceof ApiError && err.status === status, String(err));
      }
      assert.equal(server.seen.length, 3, "one request each");
      server.script.push({ status: 429, body: "slow down" });
      assert.equal((await c.request({ method: "GET", path: "/limited" })).status, 200);
      assert.equal(server.seen.length, 5, "the 429 retried on the same server");
    } finally {
      await c.close();
    }
    const port = await closedPort();
    const refused = clientFor(`http://127.0.0.1:${port}`, { failFast: true });
    const out = await debugOutput(async () => {
      const err = await failure(refused.request({ method: "GET", path: "/x" }));
      assert.ok(err instanceof ApiError && err.code === "ECONNREFUSED", String(err));
    });
    await refused.close();
    assert.doesNotMatch(out, /retry 1 in/);
  });
});

describe("HTTP client: a connect that hangs (accept queue full on 127.0.0.1)", function () {
  this.timeout(60_000);
  it("the connect timeout never reached the server: a POST is not ambiguous and is sent again", async () => {
    const listener = await fullBacklogPort();
    const c = clientFor(`http://127.0.0.1:${listener.port}`, {
      timeoutMs: 300,
      retry: { ...FAST, maxAttempts: 2 },
    });
    let err: unknown;
    try {
      const out = await debugOutput(async () => {
        err = await failure(c.request({ method: "POST", path: "/things", body: { name: "n" } }));
      });
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.status, 0);
      assert.equal(err.code, "UND_ERR_CONNECT_TIMEOUT");
      assert.equal(err.ambiguous, false);
      assert.match(
        out,
        /POST \/things: .*; retry 1 in \d+ ms/,
        "sent again: it cannot have been carried out",
      );
    } finally {
      await c.close();
      await listener.close();
    }
  });
});

describe("HTTP client: noAuth (anonymous calls, e.g. the certificate function's anonymous mode)", function () {
  this.timeout(60_000);
  it("sends no credentials and no authorization header", async () => {
    const server = await startScriptedServer();
    const c = clientFor(server.url, {}, noAuth);
    try {
      server.script.push({ status: 200, body: '{"public":true}' });
      const res = await c.request({ method: "GET", path: "/public" });
      assert.deepEqual(res.body, { public: true });
      assert.equal(server.seen.length, 1);
      assert.equal(server.seen[0].headers.authorization, undefined);
    } finally {
      await c.close();
      await server.close();
    }
  });
});

/** A CA, a server certificate for 127.0.0.1 and a client certificate: made once (RSA keys are slow). */
let pki: ReturnType<typeof makePki> | undefined;
function makePki() {
  const ca = createRootCa("wire test CA");
  return {
    ca,
    server: issueServerCertificate(ca, ["127.0.0.1"]),
    client: issueServerCertificate(ca, ["wire-client"]),
  };
}

describe("HTTP client: TLS", function () {
  this.timeout(120_000);
  let server: ScriptedServer;
  before(async () => {
    pki ??= makePki();
    server = await startScriptedServer({
      certificatePem: pki.server.certificatePem,
      privateKeyPem: pki.server.privateKeyPem,
      requestCert: true,
    });
  });
  after(() => server.close());
  beforeEach(() => server.seen.splice(0));

  it("trusts a server signed by the configured CA bundle, and presents the configured client certificate", async () => {
    const { ca, client: cert } = pki!;
    const c = clientFor(server.url, {
      tls: {
        caBundle: ca.certificatePem,
        clientCertPem: cert.certificatePem,
        clientKeyPem: cert.privateKeyPem,
      },
    });
    try {
      assert.equal((await c.request({ method: "GET", path: "/tls" })).status, 200);
      assert.equal(server.seen[0].clientCertificate, new X509Certificate(cert.certificatePem).fingerprint256);
    } finally {
      await c.close();
    }
    // A CA bundle alone: no client certificate.
    const plain = clientFor(server.url, { tls: { caBundle: ca.certificatePem } });
    await plain.request({ method: "GET", path: "/tls" });
    await plain.close();
    assert.equal(server.seen[1].clientCertificate, undefined);
  });

  it("without the CA: a TLS failure, neither retried nor ambiguous, that says to configure the CA bundle", async () => {
    for (const method of ["GET", "POST"] as const) {
      const c = clientFor(server.url);
      let err: unknown;
      const out = await debugOutput(async () => {
        err = await failure(c.request({ method, path: "/tls", body: method === "POST" ? {} : undefined }));
      });
      await c.close();
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.status, 0);
      assert.equal(err.ambiguous, false, method);
      assert.match(
        err.serverMessage,
        /^unable to verify the first certificate \(TLS verification failed: configure the server's CA bundle, e\.g\. frontdoor:caBundle\)$/,
      );
      assert.doesNotMatch(out, /retry/, `${method} is not retried`);
    }
    assert.equal(server.seen.length, 0);
  });

  it("a client key that does not load fails the request (it is not silently left out)", async () => {
    const c = clientFor(server.url, {
      tls: {
        caBundle: pki!.ca.certificatePem,
        clientCertPem: pki!.client.certificatePem,
        clientKeyPem: "not a key",
      },
    });
    const err = await failure(c.request({ method: "GET", path: "/tls" }));
    await c.close();
    // OpenSSL's own complaint about the key, not a handshake without it (which would fail verification
    // here too, had the CA bundle been dropped with the key).
    assert.ok(err instanceof ApiError, String(err));
    assert.match(err.serverMessage, /DECODER routines/);
    assert.doesNotMatch(err.serverMessage, /TLS verification failed/);
    assert.equal(server.seen.length, 0);
  });
});
