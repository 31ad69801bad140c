// Frontdoor lookups (getAuthProvider(s), getClientCertificate(s), getCertificateRequestToken(s),
// getCustomFrontend(s)) through real HTTP against the mock on 127.0.0.1, the objects made through the
// API as an admin outside Pulumi makes them. Expected values come from the Frontdoor API description
// (/work/shared/specs/frontdoor-management-api.md): lists are paged (`page` zero-based, `size`), `sort`
// is `<field>,<asc|desc>`; the requests the mock logged show every page fetched and `sort` sent on each.
// The same lookups through the plugin's gRPC Invoke, with the secrets the description names marked.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as pulumi from "@pulumi/pulumi";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { listFrontdoor, lookupFrontdoor } from "../provider/functions/frontdoorLookups";
import { redact } from "../provider/redact";
import * as sdk from "../sdk";
import { testCa } from "./edge-support";
import { mockConfig } from "./support/engine";
import { withEnv } from "./support/env";
import { frontdoorApi, useMock } from "./support/fixtures";
import { js, type PluginServer, servePlugin, struct } from "./support/plugin";

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const pulumiIsSecret = (o: pulumi.Output<unknown>) => pulumi.isSecret(o);
const isSecret = (v: unknown) => typeof v === "object" && v !== null && SIG_KEY in v;

describe("Frontdoor lookups: by name or id, and every page of a sorted list", function () {
  this.timeout(60_000);
  const mock = useMock();
  const settings = () =>
    Object.fromEntries(Object.entries(mockConfig(mock)).map(([k, v]) => [k.replace(/^frontdoor:/, ""), v]));
  const made = async (collection: string, body: unknown) => {
    const res = await frontdoorApi(mock, "POST", collection, body);
    const answer = await res.json();
    assert.ok(res.status < 300, `POST ${collection}: ${res.status} ${JSON.stringify(answer)}`);
    return answer as Record<string, unknown> & { id: string };
  };
  const listRequests = (collection: string) =>
    mock.log.filter((e) => e.method === "GET" && e.path.endsWith(`/${collection}`));
  // Each test makes the objects it needs (mutation testing runs a test alone, on a fresh mock), and
  // secrets unique to the run (the redaction registry outlives a run in the test process).
  const tokens = async (prefix: string, count: number) => {
    const names = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(3, "0")}`);
    for (const name of names) await made("certificate-request-tokens", { name });
    return names;
  };
  const pagesOf = (collection: string) => listRequests(collection).map((e) => new URLSearchParams(e.query));

  /** A scripted service on 127.0.0.1: `answer` gives each request's status and JSON body. */
  const scripted = async (answer: (url: string) => [number, unknown]) => {
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      asked.push(String(req.url));
      const [status, body] = answer(String(req.url));
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
    let open = 0;
    server.on("connection", (socket) => {
      open++;
      socket.on("close", () => open--);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    return { url, asked, close, openConnections: () => open };
  };

  it("a list reads every page (page 0, 1, 2 of size 100) and sends sort on each, in the order asked", async () => {
    const names = await tokens("crt-", 205);
    mock.log.length = 0;
    const { items } = await listFrontdoor("CertificateRequestToken", { sort: "name,desc" }, settings());
    assert.deepEqual(
      items.map((i) => i.name).filter((n) => String(n).startsWith("crt-")),
      [...names].reverse(),
    );
    const pages = pagesOf("certificate-request-tokens");
    assert.deepEqual(
      pages.map((q) => [q.get("page"), q.get("size"), q.getAll("sort")]),
      [
        ["0", "100", ["name,desc"]],
        ["1", "100", ["name,desc"]],
        ["2", "100", ["name,desc"]],
      ],
    );
    // The token is a secret (FD Certificate request token): registered for redaction.
    const token = String(items[0].token);
    assert.match(token, /^crt_/);
    assert.ok(!redact(`x ${token} y`).includes(token));
  });

  it("by name: the one object, read by id (data of an auth provider, which list items omit)", async () => {
    const data = {
      issuer: "https://login.example.com/",
      client_id: "fd",
      client_secret: `lookup-secret-${randomUUID()}`,
    };
    const created = await made("auth-providers", { name: "corp-sso", type: "OIDC", data });
    mock.log.length = 0;
    const found = await lookupFrontdoor("AuthProvider", { name: "corp-sso" }, settings());
    assert.equal(found.id, created.id);
    assert.equal((found.data as Record<string, unknown>).client_secret, data.client_secret);
    assert.equal(found.type, "OIDC");
    assert.ok(mock.log.some((e) => e.method === "GET" && e.path.endsWith(`/auth-providers/${created.id}`)));
    assert.ok(!redact(data.client_secret).includes(data.client_secret), "the secret is registered");
    const byId = await lookupFrontdoor("AuthProvider", { id: created.id }, settings());
    assert.deepEqual(byId, found);
    const all = await listFrontdoor("AuthProvider", {}, settings());
    assert.ok(
      all.items.some((i) => i.id === created.id && (i.data as Record<string, unknown>).client_id === "fd"),
    );
    // Sorted by type, both ways: `sort` sent as `<field>,<asc|desc>` with page and size, the order the API's.
    await made("auth-providers", {
      name: "partner-key",
      type: "API_KEY",
      data: { header_name: "x-api-key", api_key: "lookup-api-key-6809-abcdef" },
    });
    for (const [sort, first] of [
      ["type,asc", "API_KEY"],
      ["type,desc", "OIDC"],
    ]) {
      mock.log.length = 0;
      const { items } = await listFrontdoor("AuthProvider", { sort }, settings());
      assert.deepEqual(
        items.map((i) => i.type),
        first === "API_KEY" ? ["API_KEY", "OIDC"] : ["OIDC", "API_KEY"],
        sort,
      );
      assert.deepEqual(
        listRequests("auth-providers").map((e) => Object.fromEntries(new URLSearchParams(e.query))),
        [{ sort, page: "0", size: "100" }],
      );
      const key = items.find((i) => i.type === "API_KEY")!.data as Record<string, unknown>;
      assert.equal(key.api_key, "lookup-api-key-6809-abcdef");
      assert.equal(key.client_secret, undefined, "an API key's data has no OIDC field");
    }
  });

  it("not exactly one of that name: an error naming the kind, the name and the count", async () => {
    const cert = testCa("lookup client cert").certPem;
    await made("client-certificates", { name: "twin", value: cert });
    mock.log.length = 0;
    await assert.rejects(lookupFrontdoor("ClientCertificate", { name: "nobody" }, settings()), {
      message:
        /^getClientCertificate: 0 ClientCertificate objects have name "nobody" in frontdoor "[^"]+", expected exactly one$/,
    });
    const one = await lookupFrontdoor("ClientCertificate", { name: "twin" }, settings());
    assert.equal(one.name, "twin");
    // By name: the list without sort (the API's own order), then the one object by id (its value).
    assert.match(String(one.value), /BEGIN CERTIFICATE/);
    assert.deepEqual(
      pagesOf("client-certificates").map((q) => [...q.keys()].sort()),
      [
        ["page", "size"],
        ["page", "size"],
      ],
      "the two look-ups by name list without sort",
    );
    assert.ok(mock.log.some((e) => e.method === "GET" && e.path.endsWith(`/client-certificates/${one.id}`)));
    mock.log.length = 0;
    const { items } = await listFrontdoor("ClientCertificate", { sort: "name,asc" }, settings());
    assert.deepEqual(
      items.map((i) => i.name),
      ["twin"],
    );
    assert.deepEqual(
      listRequests("client-certificates").map((e) => Object.fromEntries(new URLSearchParams(e.query))),
      [{ sort: "name,asc", page: "0", size: "100" }],
    );
  });

  it("two of that name (a service that lets names repeat: they only 'should be unique'): the count and the ids", async () => {
    // The mock refuses a second name; a scripted service on 127.0.0.1 lists two.
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      asked.push(String(req.url));
      res.writeHead(200, { "content-type": "application/json" });
      const content = [
        { id: "ap-1", name: "dup", type: "OIDC", enabled: true },
        { id: "ap-2", name: "dup", type: "OIDC", enabled: true },
      ];
      res.end(
        JSON.stringify({
          content,
          pageable: { pageNumber: 0, pageSize: 100 },
          totalElements: 2,
          totalPages: 1,
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await assert.rejects(
        lookupFrontdoor("AuthProvider", { name: "dup" }, { ...settings(), apiUrl: url }),
        /getAuthProvider: 2 AuthProvider objects have name "dup" in frontdoor ".+", expected exactly one \(ids ap-1, ap-2\); look it up by id/,
      );
      assert.deepEqual(asked, [`/frontdoor/${mock.credentials.frontdoorId}/auth-providers?page=0&size=100`]);
    } finally {
      server.close();
    }
  });

  it("a custom frontend by hostname (DNS names compare without case)", async () => {
    const created = await made("custom-frontends", { hostname: "app.example.com", authProviderIds: [] });
    const found = await lookupFrontdoor("CustomFrontend", { hostname: "App.Example.com" }, settings());
    assert.equal(found.id, created.id);
    assert.equal(found.hostname, "app.example.com");
    mock.log.length = 0;
    const all = await listFrontdoor("CustomFrontend", { sort: "hostname,asc" }, settings());
    assert.deepEqual(
      all.items.map((i) => i.id),
      [created.id],
    );
    // The resource's own list (not in the description), asked as the documented lists are.
    assert.deepEqual(
      listRequests("custom-frontends").map((e) => Object.fromEntries(new URLSearchParams(e.query))),
      [{ page: "0", size: "100", sort: "hostname,asc" }],
    );
  });

  it("bad arguments fail before any request, naming the argument", async () => {
    mock.log.length = 0;
    await assert.rejects(
      listFrontdoor("AuthProvider", { sort: "name;drop" }, settings()),
      /getAuthProviders: sort: must look like <field>,<asc\|desc>/,
    );
    await assert.rejects(
      lookupFrontdoor("AuthProvider", {}, settings()),
      /getAuthProvider: id: give exactly one of id and name/,
    );
    const { frontdoorId: _, ...noFrontdoor } = settings();
    await assert.rejects(
      lookupFrontdoor("AuthProvider", { name: "x" }, noFrontdoor),
      /getAuthProvider: frontdoorId: required/,
    );
    assert.deepEqual(mock.log, []);
  });

  it("by id: the object read; an id that no object has fails naming the kind, the id and the frontdoor", async () => {
    const created = await made("certificate-request-tokens", { name: `by-id-${randomUUID()}` });
    const found = await lookupFrontdoor("CertificateRequestToken", { id: created.id }, settings());
    assert.equal(found.id, created.id);
    assert.equal(found.name, created.name);
    const fd = mock.credentials.frontdoorId;
    await assert.rejects(
      lookupFrontdoor("CertificateRequestToken", { id: "no-such-token" }, settings()),
      (err: Error) =>
        err.message ===
        `getCertificateRequestToken: there is no CertificateRequestToken with id "no-such-token" in frontdoor "${fd}"`,
    );
  });

  it("frontdoorId given: that frontdoor's collection asked, not the configured one", async () => {
    mock.log.length = 0;
    await listFrontdoor("ClientCertificate", { frontdoorId: "other-fd" }, settings()).catch(() => undefined);
    await lookupFrontdoor("AuthProvider", { frontdoorId: "other-fd", name: "x" }, settings()).catch(
      () => undefined,
    );
    assert.deepEqual(
      mock.log.filter((e) => e.method === "GET").map((e) => e.path),
      ["/frontdoor/other-fd/client-certificates", "/frontdoor/other-fd/auth-providers"],
    );
  });

  it("a frontdoor without objects of the kind: an empty list", async () => {
    // A scripted service on 127.0.0.1 with an empty list (the mock's frontdoor has objects of earlier tests).
    const { url, asked, close } = await scripted(() => [
      200,
      { content: [], totalPages: 0, totalElements: 0 },
    ]);
    try {
      const got = await listFrontdoor("ClientCertificate", {}, { ...settings(), apiUrl: url });
      assert.deepEqual(got, { items: [] });
      assert.deepEqual(asked, [
        `/frontdoor/${mock.credentials.frontdoorId}/client-certificates?page=0&size=100`,
      ]);
    } finally {
      await close();
    }
  });

  it("sort: <field>,<asc|desc> (FD list parameters); anything else refused naming sort, before any request", async () => {
    const good = ["name,asc", "name,desc", "createdAt,desc", "a.b_c9,asc", "_x,asc", "N,desc"];
    const bad = [
      "name",
      "name,",
      ",asc",
      "name,up",
      "name,ASC",
      "9name,asc",
      "na me,asc",
      "name;x,asc",
      "x;name,asc",
      "name,asc;x",
      "name,ascx",
      "name,,asc",
      "-name,asc",
      " name,asc",
      "name,asc ",
    ];
    for (const sort of bad) {
      mock.log.length = 0;
      await assert.rejects(
        listFrontdoor("AuthProvider", { sort }, settings()),
        { message: /^getAuthProviders: sort: must look like <field>,<asc\|desc>, e\.g\. name,desc/ },
        JSON.stringify(sort),
      );
      assert.deepEqual(mock.log, [], JSON.stringify(sort));
    }
    // Accepted ones sent as given (a scripted service: the mock knows only the fields it stores).
    const { url, asked, close } = await scripted(() => [200, { content: [], totalPages: 0 }]);
    try {
      for (const sort of good)
        await listFrontdoor("ClientCertificate", { sort }, { ...settings(), apiUrl: url });
      assert.deepEqual(
        asked.map((u) => new URL(u, url).searchParams.getAll("sort")),
        good.map((sort) => [sort]),
      );
    } finally {
      await close();
    }
  });

  it("an id and a name (or a hostname) together, or neither: refused naming id", async () => {
    await assert.rejects(lookupFrontdoor("ClientCertificate", { id: "x", name: "y" }, settings()), {
      message: /^getClientCertificate: id: give exactly one of id and name$/,
    });
    await assert.rejects(
      lookupFrontdoor("CustomFrontend", { id: "x", hostname: "a.example.com" }, settings()),
      { message: /^getCustomFrontend: id: give exactly one of id and hostname$/ },
    );
    await assert.rejects(
      lookupFrontdoor("CustomFrontend", { name: "a.example.com" }, settings()),
      /getCustomFrontend: .*name/,
      "a custom frontend has no name argument",
    );
  });

  it("a service without the custom frontends' list: the lookup by hostname and the list fail saying so, by id still works", async () => {
    const fd = mock.credentials.frontdoorId;
    const { url, asked, close } = await scripted((u) =>
      u.includes("/custom-frontends?") ? [404, { error: "not found" }] : [404, {}],
    );
    try {
      const remote = { ...settings(), apiUrl: url };
      for (const [call, fn] of [
        [() => lookupFrontdoor("CustomFrontend", { hostname: "a.example.com" }, remote), "getCustomFrontend"],
        [() => listFrontdoor("CustomFrontend", { sort: "hostname,asc" }, remote), "getCustomFrontends"],
      ] as const)
        await assert.rejects(call(), (err: Error) => {
          assert.equal(err.name, "ListUnavailableError");
          assert.match(
            err.message,
            new RegExp(
              `: ${fn} needs the list, but this server offers no list of custom frontends \\(GET /frontdoor/${fd}/custom-frontends answered HTTP 404;`,
            ),
          );
          assert.match(err.message, /Look one up by id instead\.$/);
          return true;
        });
      assert.deepEqual(asked, [
        `/frontdoor/${fd}/custom-frontends?page=0&size=100`,
        `/frontdoor/${fd}/custom-frontends?sort=hostname%2Casc&page=0&size=100`,
      ]);
    } finally {
      await close();
    }
  });

  it("a custom frontend's list item with only domainName (no hostname) matches by it", async () => {
    const item = (id: string) => ({ id, domainName: "Shop.example.com", status: "ACTIVE" });
    const { url, close } = await scripted(() => [
      200,
      { content: [item("cf-1"), item("cf-2")], totalPages: 1 },
    ]);
    try {
      await assert.rejects(
        lookupFrontdoor("CustomFrontend", { hostname: "shop.EXAMPLE.com" }, { ...settings(), apiUrl: url }),
        {
          message:
            /: 2 CustomFrontend objects have hostname "shop.EXAMPLE.com" in frontdoor "[^"]+", expected exactly one \(ids cf-1, cf-2\); look it up by id$/,
        },
      );
    } finally {
      await close();
    }
  });

  it("closes its connections when the lookup ends (none left open to the service)", async () => {
    const { url, close, openConnections } = await scripted(() => [200, { content: [], totalPages: 0 }]);
    try {
      await listFrontdoor("ClientCertificate", {}, { ...settings(), apiUrl: url });
      // The client keeps idle sockets 30 s (provider/http/client.ts); closed, they end at once.
      const deadline = Date.now() + 2000;
      while (openConnections() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(openConnections(), 0);
    } finally {
      await close();
    }
  });

  it("an answer whose data is null or missing: the lookup answers it as it is (no secret to find there)", async () => {
    for (const data of [null, undefined]) {
      const provider = {
        id: "ap-9",
        name: "bare",
        type: "API_KEY",
        enabled: true,
        ...(data === null ? { data } : {}),
      };
      const { url, close } = await scripted((u) =>
        u.includes("/auth-providers/ap-9") ? [200, provider] : [404, {}],
      );
      try {
        const found = await lookupFrontdoor("AuthProvider", { id: "ap-9" }, { ...settings(), apiUrl: url });
        assert.equal(found.id, "ap-9");
        assert.equal(found.name, "bare");
        assert.equal(found.data ?? null, null);
      } finally {
        await close();
      }
    }
  });

  it("the dynamic SDK's functions: settings from the environment, the Output variant secret", async () => {
    const env = {
      FRONTDOOR_API_URL: mock.url,
      FRONTDOOR_ID: mock.credentials.frontdoorId,
      FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
    };
    await withEnv(env, async () => {
      await made("auth-providers", {
        name: "sdk-sso",
        type: "OIDC",
        data: { issuer: "https://sdk.example.com/", client_id: "s", client_secret: `sdk-${randomUUID()}` },
      });
      const found = await sdk.getAuthProvider({ name: "sdk-sso" });
      assert.equal(found.name, "sdk-sso");
      const names = await tokens("sdk-crt-", 101);
      mock.log.length = 0;
      const { items } = await sdk.getCertificateRequestTokens({ sort: "name,asc" });
      assert.deepEqual(
        items.map((i) => i.name).filter((n) => n.startsWith("sdk-crt-")),
        names,
      );
      // Every page (size 100: as many as the items need), sort sent on each.
      const pages = Math.ceil(items.length / 100);
      assert.ok(pages >= 2);
      assert.deepEqual(
        pagesOf("certificate-request-tokens").map((q) => [q.get("page"), q.get("size"), q.getAll("sort")]),
        Array.from({ length: pages }, (_, n) => [String(n), "100", ["name,asc"]]),
      );
      const output = sdk.getAuthProviderOutput({ name: "sdk-sso" });
      assert.equal(await pulumiIsSecret(output), true, "a result holding data.client_secret is secret");
      const frontends = sdk.getCustomFrontendsOutput({});
      assert.equal(await pulumiIsSecret(frontends), false, "custom frontends hold no secret");
    });
  });

  describe("through the plugin's gRPC Invoke", () => {
    let plugin: PluginServer;
    before(async () => {
      plugin = await servePlugin();
      const req = new provproto.ConfigureRequest();
      req.setArgs(struct(settings()));
      req.setAcceptsecrets(true);
      await plugin.call("configure", req);
    });
    after(() => plugin?.stop());
    const invoke = async (fn: string, args: Record<string, unknown>) => {
      const req = new provproto.InvokeRequest();
      req.setTok(`frontdoor:index:${fn}`);
      req.setArgs(struct(args));
      const res = await plugin.call<provproto.InvokeResponse>("invoke", req);
      assert.deepEqual(
        res.getFailuresList().map((f) => f.getReason()),
        [],
      );
      return js(res.getReturn());
    };

    it("answers the lookups, the secret leaves the description names marked (client_secret, token)", async () => {
      const secret = `grpc-${randomUUID()}`;
      await made("auth-providers", {
        name: "grpc-sso",
        type: "OIDC",
        data: { issuer: "https://idp.example.com/", client_id: "c", client_secret: secret },
      });
      await made("client-certificates", { name: "grpc-cert", value: testCa("grpc client cert").certPem });
      await made("custom-frontends", { hostname: "grpc.example.com", authProviderIds: [] });
      await tokens("grpc-crt-", 101);
      const found = await invoke("getAuthProvider", { name: "grpc-sso" });
      assert.equal(found.name, "grpc-sso", "the name is plain");
      assert.equal(found.data.issuer, "https://idp.example.com/", "the issuer is plain");
      assert.ok(isSecret(found.data.client_secret) && found.data.client_secret.value === secret);
      mock.log.length = 0;
      const listed = await invoke("getCertificateRequestTokens", { sort: "name,asc" });
      assert.ok(listed.items.length > 100);
      assert.ok(listed.items.every((i: Record<string, unknown>) => isSecret(i.token)));
      assert.ok(listed.items.every((i: Record<string, unknown>) => typeof i.name === "string"));
      assert.deepEqual(
        pagesOf("certificate-request-tokens").map((q) => q.get("page")),
        Array.from({ length: Math.ceil(listed.items.length / 100) }, (_, n) => String(n)),
      );
      const certs = await invoke("getClientCertificates", {});
      assert.ok(certs.items.some((i: Record<string, unknown>) => i.name === "grpc-cert"));
      const frontend = await invoke("getCustomFrontend", { hostname: "grpc.example.com" });
      assert.equal(frontend.status !== undefined, true);
    });
  });
});
