// The mock server itself: routing, fault injection, request log, control interface, TLS and CLI.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import forge from "node-forge";
import type { FaultKind } from "../mock/faults";
import { CONTROL_TOKEN_HEADER, controlHeaders, type MockServer, startMockServer } from "../mock/server";
import type { MockRequest } from "../mock/types";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function authHeaders(server: MockServer): Record<string, string> {
  return { authorization: `Bearer ${server.credentials.frontdoorToken}`, "content-type": "application/json" };
}

function providersPath(server: MockServer): string {
  return `${server.url}/frontdoor/${server.credentials.frontdoorId}/auth-providers`;
}

const listProviders = (server: MockServer) => fetch(providersPath(server), { headers: authHeaders(server) });

const OIDC_BODY = {
  type: "OIDC",
  data: {
    issuer: "https://idp.example.com",
    client_id: "c",
    client_secret: "very-secret-value",
    scopes: ["openid"],
  },
};

function createProvider(server: MockServer, name: string) {
  return fetch(providersPath(server), {
    method: "POST",
    headers: authHeaders(server),
    body: JSON.stringify({ name, ...OIDC_BODY }),
  });
}

async function providerNames(server: MockServer): Promise<string[]> {
  const body = (await (await listProviders(server)).json()) as any;
  return body.content.map((item: any) => item.name);
}

const control = (server: MockServer, method: string, route: string, body?: unknown) =>
  fetch(`${server.url}/__mock/${route}`, {
    method,
    headers: controlHeaders(server.controlToken),
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A raw HTTP request with a Host header of our choosing (fetch does not let a caller set Host). */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? "GET", headers: options.headers },
      (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

describe("mock server", () => {
  let server: MockServer;
  before(async () => {
    server = await startMockServer();
  });
  after(() => server.close());
  afterEach(() => {
    server.faults.clear();
    server.clearLog();
  });

  describe("routing", () => {
    it("listens on an ephemeral loopback port and sends /edge/ and /_search to their mocks", async () => {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const seen: string[] = [];
      const echo = (name: string) => (req: MockRequest) => {
        seen.push(`${name} ${req.method} ${req.path} ${req.query.get("q") ?? ""}`);
        return { status: 200, body: { name } };
      };
      const original = { edge: server.edge.handle, search: server.search.handle };
      server.edge.handle = echo("edge");
      server.search.handle = echo("search");
      try {
        assert.equal((await fetch(`${server.url}/edge/management/v1/version?q=1`)).status, 200);
        assert.equal((await fetch(`${server.url}/edge.alert-2024/_search`, { method: "POST" })).status, 200);
      } finally {
        server.edge.handle = original.edge;
        server.search.handle = original.search;
      }
      assert.deepEqual(seen, [
        "edge GET /edge/management/v1/version 1",
        "search POST /edge.alert-2024/_search ",
      ]);
      const unknown = await fetch(`${server.url}/nothing-here`);
      assert.equal(unknown.status, 404);
    });
  });

  describe("faults", () => {
    it("answers 429 with Retry-After (default 1, 0 allowed) and the API's error shape", async () => {
      server.faults.inject({ path: "/auth-providers", kind: "429" });
      const limited = await listProviders(server);
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get("retry-after"), "1");
      assert.equal(((await limited.json()) as any).error, "too_many_requests");
      assert.equal((await listProviders(server)).status, 200, "only the next request is hit");

      server.faults.inject({ kind: "429", retryAfterSeconds: 0 });
      assert.equal((await listProviders(server)).headers.get("retry-after"), "0");

      server.faults.inject({ path: "/edge/", kind: "429" });
      const edge = await fetch(`${server.url}/edge/management/v1/identities`);
      assert.equal(edge.status, 429);
      assert.equal(((await edge.json()) as any).error.code, "RATE_LIMITED");
    });

    it("answers 503 the next `count` times, matching method and path", async () => {
      server.faults.inject({ method: "get", path: /\/auth-providers$/, kind: "503", count: 2 });
      const post = await createProvider(server, "not-hit-by-a-get-fault");
      assert.equal(post.status, 201);
      assert.equal((await listProviders(server)).status, 503);
      assert.equal((await listProviders(server)).status, 503);
      assert.equal((await listProviders(server)).status, 200);
      assert.equal(server.faults.pending, 0);
    });

    it("drops the connection without an answer, and logs status 0", async () => {
      server.faults.inject({ kind: "drop" });
      await assert.rejects(listProviders(server));
      assert.equal(server.log.at(-1)?.status, 0);
      assert.equal((await listProviders(server)).status, 200);
    });

    it("delays an answer by delayMs", async () => {
      server.faults.inject({ kind: "delay", delayMs: 300 });
      const started = Date.now();
      assert.equal((await listProviders(server)).status, 200);
      assert.ok(Date.now() - started >= 290, `took ${Date.now() - started} ms`);
    });

    it("commit-then-drop really commits before dropping (an ambiguous create)", async () => {
      server.faults.inject({ method: "POST", kind: "commit-then-drop" });
      await assert.rejects(createProvider(server, "ambiguous"));
      assert.ok((await providerNames(server)).includes("ambiguous"));
      const retried = await createProvider(server, "ambiguous");
      assert.equal(retried.status, 409);
    });

    for (const status of [502, 503, 504]) {
      it(`commit-then-${status} commits, then answers ${status} like a gateway (an ambiguous create)`, async () => {
        server.faults.inject({ method: "POST", kind: `commit-then-${status}` as FaultKind });
        const answer = await createProvider(server, `gateway-${status}`);
        assert.equal(answer.status, status);
        assert.match(String(answer.headers.get("content-type")), /text\/html/);
        assert.ok((await providerNames(server)).includes(`gateway-${status}`));
        assert.equal(server.log.at(-2)?.status, status, "logged with the status answered");
      });
    }

    it("500 answers an internal error without carrying the request out", async () => {
      server.faults.inject({ method: "POST", kind: "500" });
      const answer = await createProvider(server, "internal");
      assert.equal(answer.status, 500);
      assert.deepEqual(await answer.json(), {
        error: "internal_error",
        message: "internal error (injected)",
      });
      assert.ok(!(await providerNames(server)).includes("internal"));
    });

    it("hits a seeded, deterministic fraction of requests in random mode", async () => {
      const pattern = async (seed: number) => {
        server.faults.random({ seed, rate: 0.5, kinds: ["503", "429"] });
        const statuses: number[] = [];
        for (let i = 0; i < 16; i++) statuses.push((await listProviders(server)).status);
        server.faults.stop();
        return statuses;
      };
      const first = await pattern(7);
      assert.deepEqual(await pattern(7), first);
      assert.ok(first.includes(200) && first.some((status) => status !== 200), first.join(","));
      assert.notDeepEqual(await pattern(8), first);
      assert.equal((await listProviders(server)).status, 200, "stop() ends random mode");
    });

    it("never applies to /__mock/ control calls", async () => {
      server.faults.inject({ kind: "503" });
      assert.equal((await control(server, "GET", "log")).status, 200);
      assert.equal((await listProviders(server)).status, 503);
    });
  });

  describe("request log", () => {
    it("records method, path, query, status, time and body in arrival order, without secrets", async () => {
      const before = Date.now();
      await createProvider(server, "logged");
      await fetch(`${providersPath(server)}?page=0&size=5`, { headers: authHeaders(server) });
      await fetch(`${server.url}/frontdoor/fd-demo/certificate-request-tokens/by-token/crt_secretvalue`, {
        headers: authHeaders(server),
      });
      assert.deepEqual(
        server.log.map((entry) => [entry.method, entry.path, entry.status]),
        [
          ["POST", "/frontdoor/fd-demo/auth-providers", 201],
          ["GET", "/frontdoor/fd-demo/auth-providers", 200],
          ["GET", "/frontdoor/fd-demo/certificate-request-tokens/by-token/[redacted]", 404],
        ],
      );
      assert.equal(server.log[1].query, "page=0&size=5");
      assert.ok(Date.parse(server.log[0].at) >= before - 1000);
      assert.ok(server.log[0].body?.includes('"name":"logged"'));
      assert.ok(!server.log[0].body?.includes("very-secret-value"));
      assert.ok(!JSON.stringify(server.log).includes(server.credentials.frontdoorToken));
      assert.ok(!JSON.stringify(server.log).includes("crt_secretvalue"));
      server.clearLog();
      assert.equal(server.log.length, 0);
    });
  });

  describe("control interface", () => {
    it("injects and clears faults over HTTP, with a path regex", async () => {
      const injected = await control(server, "POST", "faults", {
        path: "auth-prov.ders$",
        pathRegex: true,
        kind: "503",
        count: 5,
      });
      assert.equal(injected.status, 204);
      assert.equal((await listProviders(server)).status, 503);
      assert.equal((await control(server, "DELETE", "faults")).status, 204);
      assert.equal((await listProviders(server)).status, 200);
      const bad = await control(server, "POST", "faults", { kind: "teapot" });
      assert.equal(bad.status, 400);
    });

    it("serves and clears the log and the credentials", async () => {
      await listProviders(server);
      const log = (await (await control(server, "GET", "log")).json()) as any[];
      assert.equal(log.length, 1);
      assert.equal(log[0].status, 200);
      assert.equal((await control(server, "DELETE", "log")).status, 204);
      assert.equal(server.log.length, 0);
      const credentials = (await (await control(server, "GET", "credentials")).json()) as any;
      assert.equal(credentials.url, server.url);
      assert.equal(credentials.frontdoorId, "fd-demo");
      assert.equal(credentials.tokenUrl, `${server.url}/oauth2/token`);
      assert.deepEqual(
        { ...credentials, url: undefined, caPem: undefined },
        { ...server.credentials, url: undefined, caPem: undefined },
      );
    });

    it("refuses calls without the token printed at start, and writes that are not JSON", async () => {
      const url = `${server.url}/__mock/faults`;
      const rule = JSON.stringify({ kind: "503" });
      const noToken = await fetch(`${server.url}/__mock/credentials`);
      assert.equal(noToken.status, 401);
      assert.ok(!(await noToken.text()).includes(server.credentials.frontdoorToken));
      const wrong = await fetch(url, {
        method: "POST",
        headers: controlHeaders("0".repeat(server.controlToken.length)),
        body: rule,
      });
      assert.equal(wrong.status, 401);
      // What a cross-site form post looks like: a simple content type, no custom header possible.
      for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]) {
        const form = await fetch(url, {
          method: "POST",
          headers: { [CONTROL_TOKEN_HEADER]: server.controlToken, "content-type": contentType },
          body: rule,
        });
        assert.equal(form.status, 415, contentType);
      }
      const noType = await rawRequest(url, {
        method: "POST",
        headers: { [CONTROL_TOKEN_HEADER]: server.controlToken },
        body: rule,
      });
      assert.equal(noType.status, 415);
      assert.equal(server.faults.pending, 0, "a refused call changed the mock");
      assert.equal((await control(server, "POST", "faults", { kind: "503" })).status, 204);
      assert.equal(server.faults.pending, 1);
    });

    it("answers only requests whose Host is a loopback name", async () => {
      const port = new URL(server.url).port;
      const credentials = `${server.url}/__mock/credentials`;
      const token = { [CONTROL_TOKEN_HEADER]: server.controlToken };
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, "api.localhost"]) {
        assert.equal((await rawRequest(credentials, { headers: { ...token, host } })).status, 200, host);
      }
      server.clearLog();
      for (const host of [`attacker.example:${port}`, "127.0.0.1.nip.io", "10.0.0.1", "localhost.evil.com"]) {
        assert.equal((await rawRequest(credentials, { headers: { ...token, host } })).status, 403, host);
        const api = await rawRequest(providersPath(server), { headers: { ...authHeaders(server), host } });
        assert.equal(api.status, 403, `API via ${host}`);
      }
      assert.deepEqual(server.log, [], "a refused request reached the APIs");
    });

    it("changes and deletes Frontdoor objects behind the API's back", async () => {
      const created = (await (await createProvider(server, "drift-me")).json()) as any;
      const route = `frontdoor/fd-demo/auth-providers/${created.id}`;
      const patched = await control(server, "PATCH", route, { name: "drifted", enabled: false });
      assert.equal(patched.status, 200);
      const viaApi = (await (
        await fetch(`${providersPath(server)}/${created.id}`, { headers: authHeaders(server) })
      ).json()) as any;
      assert.equal(viaApi.name, "drifted");
      assert.equal(viaApi.enabled, false);
      assert.equal((await control(server, "DELETE", route)).status, 204);
      assert.equal(
        (await fetch(`${providersPath(server)}/${created.id}`, { headers: authHeaders(server) })).status,
        404,
      );
      assert.equal((await control(server, "DELETE", route)).status, 404);
    });

    it("sets a custom frontend's status and issues tokens", async () => {
      const frontends = `${server.url}/frontdoor/fd-demo/custom-frontends`;
      const created = (await (
        await fetch(frontends, {
          method: "POST",
          headers: authHeaders(server),
          body: JSON.stringify({ hostname: "ctl.example.com" }),
        })
      ).json()) as any;
      const statusReply = await control(
        server,
        "POST",
        `frontdoor/fd-demo/custom-frontends/${created.id}/status`,
        { status: "ACTIVE" },
      );
      assert.equal(statusReply.status, 200);
      const viaApi = (await (
        await fetch(`${frontends}/${created.id}`, { headers: authHeaders(server) })
      ).json()) as any;
      assert.equal(viaApi.status, "ACTIVE");

      const issued = (await (
        await control(server, "POST", "frontdoor/tokens", { frontdoorIds: ["fd-ctl"], ttlSeconds: 60 })
      ).json()) as any;
      const list = await fetch(`${server.url}/frontdoor/fd-ctl/auth-providers`, {
        headers: { authorization: `Bearer ${issued.token}` },
      });
      assert.equal(list.status, 200);
    });
  });
});

describe("mock server with TLS", () => {
  let server: MockServer;
  before(async () => {
    server = await startMockServer({ tls: true });
  });
  after(() => server.close());

  function get(url: string, options: https.RequestOptions): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = https.get(url, options, (response) => {
        let body = "";
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
    });
  }

  function clientCertificate(commonName: string): { key: string; cert: string } {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
    const certificate = forge.pki.createCertificate();
    certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
    certificate.serialNumber = "02";
    certificate.validity.notBefore = new Date(Date.now() - 60_000);
    certificate.validity.notAfter = new Date(Date.now() + 3_600_000);
    certificate.setSubject([{ name: "commonName", value: commonName }]);
    certificate.setIssuer([{ name: "commonName", value: commonName }]);
    certificate.sign(key, forge.md.sha256.create());
    return { key: privateKey, cert: forge.pki.certificateToPem(certificate) };
  }

  it("serves HTTPS that a client trusting caPem accepts and others refuse", async () => {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(server.caPem ?? "", /BEGIN CERTIFICATE/);
    const headers = controlHeaders(server.controlToken);
    const trusted = await get(`${server.url}/__mock/credentials`, {
      ca: server.caPem,
      agent: false,
      headers,
    });
    assert.equal(trusted.status, 200);
    await assert.rejects(
      get(`${server.url}/__mock/credentials`, { agent: false, headers }),
      /self.signed|unable to verify|certificate/i,
    );
  });

  it("passes a client certificate through to the API modules", async () => {
    let seen: MockRequest | undefined;
    const original = server.search.handle;
    server.search.handle = (req: MockRequest) => {
      seen = req;
      return { status: 200, body: {} };
    };
    try {
      const { key, cert } = clientCertificate("ziti-admin");
      const reply = await get(`${server.url}/events/_search`, { ca: server.caPem, key, cert, agent: false });
      assert.equal(reply.status, 200);
      assert.equal(seen?.clientCertificate?.subject.CN, "ziti-admin");
      await get(`${server.url}/events/_search`, { ca: server.caPem, agent: false });
      assert.equal(seen?.clientCertificate, undefined);
    } finally {
      server.search.handle = original;
    }
  });
});

describe("mock server CLI", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
  });

  it("prints its URL and export lines, serves, and exits cleanly on SIGTERM", async () => {
    const root = path.resolve(__dirname, "..");
    child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "mock/cli.ts", "--port", "0"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
    });
    const deadline = Date.now() + 30_000;
    while (
      !output.includes("export FRONTDOOR_MOCK_TOKEN=") &&
      Date.now() < deadline &&
      child.exitCode === null
    ) {
      await sleep(50);
    }
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    assert.ok(url, output);
    assert.ok(output.includes(`export FRONTDOOR_API_URL=${url}\n`));
    assert.ok(output.includes("export FRONTDOOR_ID=fd-demo\n"));
    assert.ok(output.includes(`export FRONTDOOR_TOKEN_URL=${url}/oauth2/token\n`));
    const token = /^export FRONTDOOR_MOCK_TOKEN=([0-9a-f]{32,})$/m.exec(output)?.[1];
    assert.ok(token, output);
    assert.ok(output.includes(`export FRONTDOOR_MOCK_PID=${child.pid}\n`), "its own pid, to stop it by");
    assert.equal((await fetch(`${url}/__mock/credentials`)).status, 401);
    const credentials = (await (
      await fetch(`${url}/__mock/credentials`, { headers: controlHeaders(token) })
    ).json()) as any;
    assert.ok(output.includes(`export FRONTDOOR_TOKEN=${credentials.frontdoorToken}\n`));
    assert.ok(output.includes(credentials.edgePassword));

    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
  });

  it("warns when told to bind to an address that is not loopback", async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the bind fails, so nothing is exposed,
    // and the warning comes before it.
    child = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "mock/cli.ts", "--host", "192.0.2.1", "--port", "0"],
      { cwd: path.resolve(__dirname, ".."), stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child!.once("exit", (c) => resolve(c)));
    assert.match(stderr, /warning: the mock server binds to 192\.0\.2\.1, not a loopback address/);
    assert.equal(code, 1, stderr);
  });
});
