// Frontdoor lookups (getAuthProvider(s), getClientCertificate(s), getCertificateRequestToken(s),
// getCustomFrontend(s)) through real HTTP against the mock on 127.0.0.1, the objects made through the
// API as an admin outside Pulumi makes them. Expected values come from the Frontdoor API description
// (/work/shared/specs/frontdoor-management-api.md): lists are paged (`page` zero-based, `size`), `sort`
// is `<field>,<asc|desc>`; the requests the mock logged show every page fetched and `sort` sent on each.
// The same lookups through the plugin's gRPC Invoke, with the secrets the description names marked.
import assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as pulumi from "@pulumi/pulumi";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { listFrontdoor, lookupFrontdoor } from "../provider/functions/frontdoorLookups";
import { redact } from "../provider/redact";
import * as sdk from "../sdk";
import { testCa } from "./edge-support";
import { mockConfig } from "./support/engine";
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

  it("a list reads every page (page 0, 1, 2 of size 100) and sends sort on each, in the order asked", async () => {
    const names = Array.from({ length: 205 }, (_, i) => `crt-${String(i).padStart(3, "0")}`);
    for (const name of names) await made("certificate-request-tokens", { name });
    mock.log.length = 0;
    const { items } = await listFrontdoor("CertificateRequestToken", { sort: "name,desc" }, settings());
    assert.deepEqual(
      items.map((i) => i.name),
      [...names].reverse(),
    );
    const pages = listRequests("certificate-request-tokens").map((e) => new URLSearchParams(e.query));
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
      client_secret: "lookup-secret-5150",
    };
    const created = await made("auth-providers", { name: "corp-sso", type: "OIDC", data });
    mock.log.length = 0;
    const found = await lookupFrontdoor("AuthProvider", { name: "corp-sso" }, settings());
    assert.equal(found.id, created.id);
    assert.equal((found.data as Record<string, unknown>).client_secret, "lookup-secret-5150");
    assert.equal(found.type, "OIDC");
    assert.ok(mock.log.some((e) => e.method === "GET" && e.path.endsWith(`/auth-providers/${created.id}`)));
    assert.ok(!redact("lookup-secret-5150").includes("lookup-secret-5150"), "the secret is registered");
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
    await assert.rejects(
      lookupFrontdoor("ClientCertificate", { name: "nobody" }, settings()),
      /getClientCertificate: 0 ClientCertificate objects have name "nobody" in frontdoor ".+", expected exactly one/,
    );
    const one = await lookupFrontdoor("ClientCertificate", { name: "twin" }, settings());
    assert.equal(one.name, "twin");
    // By name: the list without sort (the API's own order), then the one object by id (its value).
    assert.match(String(one.value), /BEGIN CERTIFICATE/);
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

  it("the dynamic SDK's functions: settings from the environment, the Output variant secret", async () => {
    const env = {
      FRONTDOOR_API_URL: mock.url,
      FRONTDOOR_ID: mock.credentials.frontdoorId,
      FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
    };
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      await made("auth-providers", {
        name: "sdk-sso",
        type: "OIDC",
        data: { issuer: "https://sdk.example.com/", client_id: "s", client_secret: "sdk-secret-2600" },
      });
      const found = await sdk.getAuthProvider({ name: "sdk-sso" });
      assert.equal(found.name, "sdk-sso");
      mock.log.length = 0;
      const { items } = await sdk.getCertificateRequestTokens({ sort: "name,asc" });
      assert.ok(items.length > 200);
      assert.deepEqual(
        listRequests("certificate-request-tokens").map((e) => new URLSearchParams(e.query).getAll("sort")),
        [["name,asc"], ["name,asc"], ["name,asc"]],
      );
      const output = sdk.getAuthProviderOutput({ name: "sdk-sso" });
      assert.equal(await pulumiIsSecret(output), true, "a result holding data.client_secret is secret");
      const frontends = sdk.getCustomFrontendsOutput({});
      assert.equal(await pulumiIsSecret(frontends), false, "custom frontends hold no secret");
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
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
      await made("auth-providers", {
        name: "grpc-sso",
        type: "OIDC",
        data: { issuer: "https://idp.example.com/", client_id: "c", client_secret: "grpc-secret-8086" },
      });
      const found = await invoke("getAuthProvider", { name: "grpc-sso" });
      assert.equal(found.name, "grpc-sso", "the name is plain");
      assert.equal(found.data.issuer, "https://idp.example.com/", "the issuer is plain");
      assert.ok(isSecret(found.data.client_secret) && found.data.client_secret.value === "grpc-secret-8086");
      mock.log.length = 0;
      const tokens = await invoke("getCertificateRequestTokens", { sort: "name,asc" });
      assert.ok(tokens.items.length > 100);
      assert.ok(tokens.items.every((i: Record<string, unknown>) => isSecret(i.token)));
      assert.ok(tokens.items.every((i: Record<string, unknown>) => typeof i.name === "string"));
      assert.deepEqual(
        listRequests("certificate-request-tokens").map((e) => new URLSearchParams(e.query).get("page")),
        ["0", "1", "2"],
      );
      const certs = await invoke("getClientCertificates", {});
      assert.ok(certs.items.some((i: Record<string, unknown>) => i.name === "twin"));
      const frontend = await invoke("getCustomFrontend", { hostname: "app.example.com" });
      assert.equal(frontend.status !== undefined, true);
    });
  });
});
