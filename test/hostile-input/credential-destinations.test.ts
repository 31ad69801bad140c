// Credentials go only where the settings' rule allows (provider/http/destinations.ts): a node that a
// hostile `GET /controllers` names gets the admin password, a session or a client certificate only
// if its address passes the rule of frontdoor:edgeUrls (https; plain http only to a loopback name,
// unless frontdoor:allowPlainHttp) and its TLS certificate verifies with the configured CA bundle.
// The cluster here is one configured node on 127.0.0.1 that answers `GET /controllers` with the
// addresses of recording servers (test/support/hostileServers.ts), some under names that look like
// other machines but resolve to 127.0.0.1; the configured node is then killed, so the provider fails
// over to what it discovered. Each test asserts on the recording servers what reached them.
import assert from "node:assert/strict";
import { issueCertificate } from "../../mock/edge/pki";
import { createRootCa, issueServerCertificate } from "../../mock/pki";
import { MAX_CLUSTER_NODES } from "../../provider/http/cluster";
import { EdgeClient } from "../../provider/http/edge";
import {
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
  withLoopbackNames,
} from "../support/hostileServers";
import { captureStderr } from "../support/stderr";

const BASE = "/edge/management/v1";
const PASSWORD = "hostile-net-admin-password-9";
const NAMES = ["ctrl-2.cluster.test", "ctrl-3.cluster.test", "ctrl-4.cluster.test"];

describe("credential destinations: nodes named by a hostile GET /controllers", function () {
  this.timeout(30_000);
  const ca = createRootCa("hostile-net cluster CA");
  let servers: RecordingServer[];
  let clients: EdgeClient[];
  beforeEach(() => {
    servers = [];
    clients = [];
  });
  afterEach(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
  });

  async function recorder(tls?: { certificatePem: string; privateKeyPem: string }) {
    const server = await startRecordingServer(tls);
    servers.push(server);
    return server;
  }

  /** The configured node: logs in, lists `listed` (and itself) as the cluster's nodes. */
  async function configuredNode(listed: (self: string) => string[]) {
    const node = await recorder();
    const self = `http://127.0.0.1:${node.port}`;
    node.respond = (request) => answer(request, listed(self));
    return { node, url: self };
  }

  function client(edgeUrls: string, extra: Record<string, string> = {}): EdgeClient {
    const edge = new EdgeClient({
      edgeUrls,
      edgeUsername: "admin",
      edgePassword: PASSWORD,
      caBundle: ca.certificatePem,
      retryTimeoutSeconds: "2",
      ...extra,
    });
    clients.push(edge);
    return edge;
  }

  /** Logs in on the configured node (discovery), kills it, and reads again: the failover. */
  async function failOver(edge: EdgeClient, configured: RecordingServer) {
    return captureStderr(async () => {
      await edge.get("/services/x", "Service x");
      await configured.close();
      return edge.get("/services/x", "Service x");
    });
  }

  const passwordIn = (requests: RecordedRequest[]) => requests.some((r) => r.body.includes(PASSWORD));

  it("skips a node on plain http to a name that is not loopback: never connects, warns naming it", async () => {
    const hostile = await recorder();
    const evil = `http://ctrl-2.cluster.test:${hostile.port}`;
    const { node, url } = await configuredNode((self) => [self, evil]);
    const edge = client(url);
    const outcome = await withLoopbackNames(NAMES, () => failOver(edge, node));

    assert.equal(passwordIn(hostile.requests), false, "the password went in clear to the discovered node");
    assert.equal(hostile.connections, 0, "the provider connected to the plain-http node");
    assert.deepEqual(hostile.requests, []);
    assert.deepEqual(
      edge.cluster?.nodes.map((n) => n.url),
      [url],
    );
    const warning = outcome.written.join("");
    assert.ok(
      warning.includes(
        `[frontdoor] warning: Edge cluster: GET /controllers lists "${evil}", not used: it uses plain http to ctrl-2.cluster.test`,
      ),
      warning,
    );
    // With only the dead configured node left, the read fails naming it, not the skipped one.
    assert.match(
      String((outcome.error as Error)?.message),
      /no node of the cluster http:\/\/127\.0\.0\.1:\d+ answered/,
    );
    assert.doesNotMatch(String((outcome.error as Error)?.message), /ctrl-2/);
    assert.equal(passwordIn(node.requests), true, "the configured node got the login");
  });

  it("frontdoor:allowPlainHttp extends to discovered nodes (the same rule as the settings)", async () => {
    const plain = await recorder();
    const other = `http://ctrl-2.cluster.test:${plain.port}`;
    plain.respond = (request) => answer(request, []);
    const { node, url } = await configuredNode((self) => [self, other]);
    const edge = client(url, { allowPlainHttp: "true" });
    const outcome = await withLoopbackNames(NAMES, () => failOver(edge, node));
    assert.equal(outcome.error, undefined);
    assert.deepEqual(
      plain.requests.map((r) => `${r.method} ${new URL(r.url, "http://x").pathname}`),
      [`POST ${BASE}/authenticate`, `GET ${BASE}/services/x`],
    );
  });

  it("uses a node on another host over https whose certificate the configured CA signed for its name", async () => {
    const good = await recorder(issueServerCertificate(ca, ["ctrl-3.cluster.test"]));
    good.respond = (request) => answer(request, []);
    const other = `https://ctrl-3.cluster.test:${good.port}`;
    const { node, url } = await configuredNode((self) => [self, other]);
    const edge = client(url);
    const outcome = await withLoopbackNames(NAMES, () => failOver(edge, node));
    assert.equal(outcome.error, undefined);
    assert.deepEqual(
      edge.cluster?.nodes.map((n) => n.url),
      [url, other],
    );
    assert.equal(passwordIn(good.requests), true, "the verified node got the login");
    assert.equal(outcome.written.join("").includes("warning"), false, outcome.written.join(""));
  });

  for (const [what, certificate] of [
    ["a name its certificate does not cover", () => issueServerCertificate(ca, ["ctrl-9.elsewhere.test"])],
    [
      "a certificate of a CA the settings do not trust",
      () => issueServerCertificate(createRootCa("hostile CA"), ["ctrl-4.cluster.test"]),
    ],
  ] as const) {
    it(`a node with ${what} fails the TLS handshake: no request, so no password or session, reaches it`, async () => {
      const hostile = await recorder(certificate());
      const other = `https://ctrl-4.cluster.test:${hostile.port}`;
      const { node, url } = await configuredNode((self) => [self, other]);
      const edge = client(url);
      const outcome = await withLoopbackNames(NAMES, () => failOver(edge, node));
      // It was tried (the address passes the URL rule), and the TLS verification stopped it.
      assert.equal(hostile.connections >= 1, true);
      assert.deepEqual(hostile.requests, []);
      assert.match(
        String((outcome.error as Error)?.message),
        /ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_VERIFY_LEAF_SIGNATURE/,
      );
      assert.doesNotMatch(String((outcome.error as Error)?.message), new RegExp(PASSWORD));
    });
  }

  it("skips addresses with credentials in them or of other schemes, quoting each (no forged log line)", async () => {
    const hostile = await recorder();
    const listed = [
      `https://admin:${PASSWORD}@ctrl-3.cluster.test:${hostile.port}`,
      `ftp://127.0.0.1:${hostile.port}`,
      `http://ctrl-2.cluster.test:${hostile.port}/\n[frontdoor] forged line`,
    ];
    const { node, url } = await configuredNode((self) => [self, ...listed]);
    const edge = client(url);
    const outcome = await withLoopbackNames(NAMES, () => failOver(edge, node));
    assert.deepEqual(
      edge.cluster?.nodes.map((n) => n.url),
      [url],
    );
    assert.equal(hostile.connections, 0);
    const lines = outcome.written.join("").split("\n");
    assert.equal(
      lines.filter((l) => l.startsWith("[frontdoor] warning: Edge cluster: GET /controllers lists")).length,
      3,
    );
    assert.equal(
      lines.some((l) => l.startsWith("[frontdoor] forged")),
      false,
    );
    assert.ok(lines.some((l) => l.includes("must not carry credentials")));
    assert.ok(lines.some((l) => l.includes("must be an http(s) URL, not ftp")));
    // An address's user name and password are never shown.
    assert.equal(outcome.written.join("").includes(PASSWORD), false);
  });

  it(`keeps at most ${MAX_CLUSTER_NODES} nodes, however many the list names`, async () => {
    const { url } = await configuredNode((self) => [
      self,
      ...Array.from({ length: 200 }, (_, i) => `https://127.0.0.${(i % 250) + 2}:${1000 + i}`),
    ]);
    const edge = client(url);
    const outcome = await captureStderr(() => edge.get("/services/x", "Service x"));
    assert.equal(outcome.error, undefined);
    assert.equal(edge.cluster?.nodes.length, MAX_CLUSTER_NODES);
    assert.match(outcome.written.join(""), new RegExp(`lists more than ${MAX_CLUSTER_NODES} nodes`));
  });
});

describe("credential destinations: a client certificate and a server whose certificate does not verify", function () {
  this.timeout(30_000);
  const ca = createRootCa("hostile-net client-cert CA");
  const client = issueCertificate({ commonName: "hostile-net-admin-client" });

  // What Node does (measured here, and the reason the docs say it): over TLS 1.3 the client checks the
  // server's certificate before its own certificate leaves; over TLS 1.2 Node sends it in the handshake
  // and checks the server's after. The key never leaves, and no HTTP request (no login) is made.
  for (const [maxVersion, presented] of [
    ["TLSv1.3", []],
    ["TLSv1.2", ["hostile-net-admin-client"]],
  ] as const) {
    it(`over ${maxVersion}: no request; the client certificate presented: ${presented.length > 0}`, async () => {
      const server = await startRecordingServer({
        ...issueServerCertificate(ca, ["ctrl-9.elsewhere.test"]),
        requestCert: true,
        maxVersion,
      });
      const edge = new EdgeClient({
        edgeUrl: `https://127.0.0.1:${server.port}`,
        edgeCertPem: client.certPem,
        edgeKeyPem: client.keyPem,
        caBundle: ca.certificatePem,
        retryTimeoutSeconds: "1",
      });
      try {
        const error = await edge.get("/services/x", "Service x").catch((e: Error) => e);
        assert.match(String((error as Error)?.message), /ERR_TLS_CERT_ALTNAME_INVALID/);
        assert.deepEqual(server.requests, []);
        assert.deepEqual(server.clientCertificates, presented);
      } finally {
        await edge.close();
        await server.close();
      }
    });
  }
});

describe("credential destinations: the CI's OIDC token request URL", function () {
  this.timeout(30_000);
  const saved = {
    url: process.env.ACTIONS_ID_TOKEN_REQUEST_URL,
    token: process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN,
  };
  let tokenService: RecordingServer;
  beforeEach(async () => {
    tokenService = await startRecordingServer();
    tokenService.respond = () => ({ status: 200, body: { value: "not-a-jwt" } });
    process.env.ACTIONS_ID_TOKEN_REQUEST_URL = `http://ctrl-2.cluster.test:${tokenService.port}/token?api-version=2.0`;
    process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = "ci-request-bearer-0123456789";
  });
  afterEach(async () => {
    for (const [name, value] of [
      ["ACTIONS_ID_TOKEN_REQUEST_URL", saved.url],
      ["ACTIONS_ID_TOKEN_REQUEST_TOKEN", saved.token],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await tokenService.close();
  });

  async function login(extra: Record<string, string>): Promise<Error> {
    const edge = new EdgeClient({ edgeUrl: "http://127.0.0.1:9", edgeJwtAudience: "ziti", ...extra });
    try {
      return await withLoopbackNames(NAMES, () =>
        edge.get("/services/x", "Service x").then(
          () => new Error("logged in"),
          (e: Error) => e,
        ),
      );
    } finally {
      await edge.close();
    }
  }

  it("refuses plain http to a name that is not loopback: the request token is never sent", async () => {
    const error = await login({});
    assert.match(error.message, /^ACTIONS_ID_TOKEN_REQUEST_URL uses plain http to ctrl-2\.cluster\.test/);
    assert.equal(tokenService.connections, 0);
  });

  it("follows frontdoor:allowPlainHttp like every other destination (its query string kept)", async () => {
    const error = await login({ allowPlainHttp: "true" });
    assert.deepEqual(
      tokenService.requests.map((r) => [r.url, r.headers.authorization]),
      [["/token?api-version=2.0&audience=ziti", "Bearer ci-request-bearer-0123456789"]],
    );
    // The token it answered is no JWT: refused before the controller is asked.
    assert.match(error.message, /it is not a JWT/);
  });
});

/** A controller's answers: a session for the login, `listed` as the cluster, an object for the rest. */
function answer(request: RecordedRequest, listed: string[]): { status: number; body: unknown } {
  const path = new URL(request.url, "http://x").pathname.slice(BASE.length);
  if (request.method === "POST" && path === "/authenticate")
    return { status: 200, body: { data: { token: "session-0123456789abcdef", expirationSeconds: 1800 } } };
  if (request.method === "GET" && path === "/controllers")
    return {
      status: 200,
      body: {
        data: listed.map((url, i) => ({
          id: `ctrl${i + 1}`,
          name: `ctrl${i + 1}`,
          apiAddresses: { "edge-management": [{ url: `${url}${BASE}`, version: "v1" }] },
        })),
        meta: {},
      },
    };
  return { status: 200, body: { data: { id: "x", name: "x" } } };
}
