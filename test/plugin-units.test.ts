// The plugin's parts one by one, in this process (mutation testing reaches them: test/mutation/groups.json,
// group plugin): the wire conversion of secrets (provider/plugin/wire.ts), the plugin's provider methods
// over plain data (provider.ts), its process entry (main.ts), and the gRPC answers the walk of
// test/plugin-server.test.ts does not reach: a create that fails after the object was made (its id and
// properties go back, so the engine keeps it: no orphan), the methods the provider does not implement,
// the kinds of a detailed diff. Expected wire values are Pulumi's rpc protocol, written out here.
import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { type MockServer, startMockServer } from "../mock/server";
import { main, nodeSupported, strayRejection } from "../provider/plugin/main";
import * as provider from "../provider/plugin/provider";
import { isSecretValue, schemaPaths, secretValue, unwrapSecrets, wrapSecrets } from "../provider/plugin/wire";
import { resourceDefinition } from "../provider/resources";
import { mockConfig } from "./support/engine";
import { isSecret, js, type PluginServer, secret, servePlugin, struct, UNKNOWN, URN } from "./support/plugin";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

describe("plugin wire: secrets out on the way in, back on the way out", () => {
  it("a secret is an object (not an array, not null) whose signature key holds the secret signature", () => {
    assert.equal(isSecretValue({ [SIG]: SECRET_SIG, value: "x" }), true);
    assert.equal(isSecretValue({ [SIG]: "something else", value: "x" }), false);
    assert.equal(isSecretValue(Object.assign([], { [SIG]: SECRET_SIG })), false);
    assert.equal(isSecretValue(null), false);
    assert.equal(isSecretValue(SECRET_SIG), false);
    assert.deepEqual(secretValue(7), { [SIG]: SECRET_SIG, value: 7 });
  });

  it("unwrap: plain values and the path of each secret, a secret inside a secret counted once", () => {
    const { value, secrets } = unwrapSecrets({
      name: "n",
      token: secret("t"),
      data: { inner: secret({ deeper: secret("d") }), list: ["a", secret("b")] },
    });
    assert.deepEqual(value, { name: "n", token: "t", data: { inner: { deeper: "d" }, list: ["a", "b"] } });
    assert.deepEqual(secrets, [["token"], ["data", "inner"], ["data", "list", 1]]);
    assert.deepEqual(unwrapSecrets(secret("whole")), { value: "whole", secrets: [[]] });
    assert.deepEqual(unwrapSecrets("plain"), { value: "plain", secrets: [] });
  });

  it("wrap: by name (each element of an array), by index (that one only); missing, null and secret values as they are", () => {
    const value = {
      a: "x",
      n: null,
      already: secret("s"),
      list: [{ k: "1" }, { k: "2" }],
      text: "not an object",
      nested: { leaf: "l" },
    };
    const wrapped = wrapSecrets(value, [
      ["a"],
      ["n"],
      ["already"],
      ["list", "k"],
      ["missing"],
      ["text", "deeper"],
      ["nested", "toString"],
      ["nested", "leaf"],
    ]);
    assert.deepEqual(wrapped, {
      a: secret("x"),
      n: null,
      already: secret("s"),
      list: [{ k: secret("1") }, { k: secret("2") }],
      text: "not an object",
      nested: { leaf: secret("l") },
    });
    assert.deepEqual(wrapSecrets({ list: ["a", "b"] }, [["list", 1]]), { list: ["a", secret("b")] });
    assert.deepEqual(wrapSecrets({ list: ["a", "b"] }, [["list", 2]]), { list: ["a", "b"] });
    assert.deepEqual(wrapSecrets({ list: ["a", "b"] }, [["list", 0, "k"]]), { list: ["a", "b"] });
    assert.deepEqual(value.a, "x", "the value given is not changed");
  });

  it("wrap drops undefined (the Struct conversion refuses it): in objects left out, in arrays null", () => {
    assert.deepEqual(wrapSecrets({ a: undefined, b: [undefined, { c: undefined, d: 1 }] }, []), {
      b: [null, { d: 1 }],
    });
    assert.deepEqual(schemaPaths(["data.client_secret", "token"]), [["data", "client_secret"], ["token"]]);
  });

  it("wrap leaves alone what a path does not name: null, a text's characters, an object's key by index", () => {
    // null is no value to hide; a secret is not wrapped twice; a text is no object with keys ("0" is
    // its first character); an index steps into arrays only.
    assert.deepEqual(
      wrapSecrets({ none: null, done: secret("s"), text: "abc", map: { "0": "v" } }, [
        ["none"],
        ["done"],
        ["text", "x"],
        ["text", "0"],
        ["map", 0],
      ]),
      { none: null, done: secret("s"), text: "abc", map: { "0": "v" } },
    );
  });
});

describe("plugin provider methods over plain data", () => {
  it("kindOf: a type or a URN's type, parents first; anything but frontdoor:index:<Kind> is refused by name", () => {
    assert.equal(provider.kindOf("frontdoor:index:Identity"), "Identity");
    assert.equal(provider.kindOf("urn:pulumi:dev::p::a:b:C$frontdoor:index:Identity::x"), "Identity");
    for (const type of ["other:index:Identity", "frontdoor:other:Identity", "frontdoor:index:"])
      assert.throws(
        () => provider.kindOf(type),
        (err: Error) =>
          err.message === `unknown resource type ${type}: this provider serves frontdoor:index:<Kind>`,
      );
    assert.throws(
      () => provider.kindOf("urn:pulumi:dev::p"),
      /^ProviderError: unknown resource type : this provider/,
    );
    assert.throws(() => provider.kindOf("frontdoor:index:Nothing"), /unknown resource kind Nothing/);
  });

  it("configLookup: the provider's inputs when given, else the stack's variables; unknown and null are not set", () => {
    const fromArgs = provider.configLookup(
      { apiUrl: "https://a", maxRetries: 3, token: UNKNOWN, x: null },
      new Map(),
    );
    assert.equal(fromArgs("frontdoor:apiUrl"), "https://a");
    assert.equal(fromArgs("frontdoor:maxRetries"), "3", "a non-string as JSON");
    assert.equal(fromArgs("frontdoor:token"), undefined);
    assert.equal(fromArgs("frontdoor:x"), undefined);
    assert.equal(fromArgs("frontdoor:edgeUrl"), undefined);
    const variables = new Map([
      ["frontdoor:config:apiUrl", "https://from-config"],
      ["frontdoor:edgeUrl", "https://edge"],
    ]);
    const fromVariables = provider.configLookup({}, variables);
    assert.equal(fromVariables("frontdoor:apiUrl"), "https://from-config");
    assert.equal(fromVariables("frontdoor:edgeUrl"), "https://edge");
    assert.equal(
      provider.configLookup({ edgeUrl: "https://given" }, variables)("frontdoor:apiUrl"),
      undefined,
    );
  });

  it("a setting given as null or not known yet (preview) reads as not set", () => {
    const lookup = provider.configLookup({ apiUrl: null, edgeUrl: UNKNOWN, maxRetries: 3 }, new Map());
    assert.equal(lookup("frontdoor:apiUrl"), undefined);
    assert.equal(lookup("frontdoor:edgeUrl"), undefined);
    assert.equal(lookup("frontdoor:maxRetries"), "3");
  });

  it("checkConfig names each bad setting by its key without the prefix, the reason with it", () => {
    assert.deepEqual(provider.checkConfig({ maxRetries: "many" }), [
      { property: "maxRetries", reason: provider.checkConfig({ maxRetries: "many" })[0].reason },
    ]);
    assert.match(provider.checkConfig({ maxRetries: "many" })[0].reason, /^frontdoor:maxRetries /);
    assert.deepEqual(provider.checkConfig({}), []);
  });

  it("outputs: a preview's are the inputs with defaults, computed ones unknown; an update's keep the computed ones", () => {
    const outs = provider.previewCreate("CertificateRequestToken", { name: "t" });
    assert.equal(outs.name, "t");
    assert.equal(outs.token, UNKNOWN);
    assert.equal(outs.expiresAt, UNKNOWN);
    const updated = provider.previewUpdate(
      "CertificateRequestToken",
      { name: "a", token: "kept" },
      { name: "b" },
    );
    assert.equal(updated.name, "b");
    assert.equal(updated.token, "kept");
    assert.deepEqual(provider.outputSecretPaths(resourceDefinition("CertificateRequestToken"), [["given"]]), [
      ["given"],
      ["token"],
      ["secretValues"],
    ]);
  });
});

describe("plugin process entry", () => {
  it("runs on Node.js 20.18+ and 22+ only", () => {
    for (const v of ["20.18.0", "20.19.5", "22.0.0", "24.1.0"]) assert.equal(nodeSupported(v), true, v);
    for (const v of ["20.17.9", "21.7.0", "18.20.0", "19.0.0"]) assert.equal(nodeSupported(v), false, v);
  });

  it("main writes the port of a server that answers, or refuses an old Node.js naming it, on stderr", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
    assert.deepEqual(await main({ ...io, nodeVersion: "18.20.0" }), { code: 1 });
    assert.deepEqual(out, []);
    assert.deepEqual(err, [
      "pulumi-resource-frontdoor needs Node.js 20.18+ (20.x) or 22+; this is 18.20.0 (the `node` on PATH)\n",
    ]);
    const started = await main({ ...io, nodeVersion: "22.1.0" });
    try {
      assert.equal(started.code, 0);
      assert.match(out.join(""), /^\d+\n$/);
      assert.equal(err.length, 1, "nothing more on stderr");
    } finally {
      started.server?.forceShutdown();
    }
    assert.equal(strayRejection(new Error("late")), "pulumi-resource-frontdoor: unhandled: late\n");
    assert.equal(strayRejection("text"), "pulumi-resource-frontdoor: unhandled: text\n");
  });
});

describe("plugin gRPC answers beyond the walk (served in process, mock server)", function () {
  this.timeout(60_000);
  let mock: MockServer;
  let plugin: PluginServer;
  before(async () => {
    // DNS records never ready: a custom frontend's create fails after the object was made.
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 3_600_000 } });
    plugin = await servePlugin();
    const req = new provproto.ConfigureRequest();
    req.setArgs(
      struct(
        Object.fromEntries(
          Object.entries(mockConfig(mock)).map(([k, v]) => [k.replace(/^frontdoor:/, ""), v]),
        ),
      ),
    );
    const res = await plugin.call<provproto.ConfigureResponse>("configure", req);
    assert.equal(res.getAcceptresources(), false, "resources are not accepted: plain ids");
  });
  after(async () => {
    await plugin?.stop();
    await mock?.close();
  });

  it("a create that fails after the object was made answers its id and properties, secrets marked: no orphan", async () => {
    const check = new provproto.CheckRequest();
    check.setUrn(URN("CustomFrontend", "slow"));
    check.setNews(struct({ hostname: secret("slow.example.com"), readyTimeoutSeconds: 0.2 }));
    const checked = await plugin.call<provproto.CheckResponse>("check", check);
    assert.deepEqual(checked.getFailuresList(), []);
    const create = new provproto.CreateRequest();
    create.setUrn(URN("CustomFrontend", "slow"));
    create.setProperties(checked.getInputs());
    const err = (await plugin.call("create", create).catch((e) => e)) as grpc.ServiceError;
    assert.equal(err.code, grpc.status.UNKNOWN);
    assert.match(err.details, /was not its DNS records readable after 0\.2 s/);
    const status = statusproto.Status.deserializeBinary(
      err.metadata.get("grpc-status-details-bin")[0] as Buffer,
    );
    assert.equal(status.getDetailsList().length, 1);
    const detail = status
      .getDetailsList()[0]
      .unpack(provproto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
    assert.ok(detail, "the detail is an ErrorResourceInitFailed");
    const [made] = mock.frontdoor.list(mock.credentials.frontdoorId, "custom-frontends");
    assert.equal(detail.getId(), made.id, "the id of the object on the server");
    const properties = js(detail.getProperties());
    assert.ok(isSecret(properties.hostname), "a secret given stays secret in the properties kept");
    assert.equal(properties.status, "NEW");
    assert.deepEqual(detail.getReasonsList(), [err.details]);
  });

  it("an error without an object made is a plain status: no details", async () => {
    const check = new provproto.CheckRequest();
    check.setUrn(URN("Nothing", "x"));
    const err = (await plugin.call("check", check).catch((e) => e)) as grpc.ServiceError;
    assert.equal(err.code, grpc.status.UNKNOWN);
    assert.match(err.details, /unknown resource kind Nothing/);
    assert.deepEqual(err.metadata.get("grpc-status-details-bin"), []);
  });

  it("a request without its structs reads them as empty", async () => {
    const check = new provproto.CheckRequest();
    check.setUrn(URN("CertificateRequestToken", "t"));
    const res = await plugin.call<provproto.CheckResponse>("check", check);
    assert.deepEqual(
      res.getFailuresList().map((f) => f.getProperty()),
      ["name"],
    );
  });

  it("DiffConfig: an added setting is ADD, a removed one DELETE; never a replacement, never delete-before-replace", async () => {
    const req = new provproto.DiffRequest();
    req.setOlds(struct({ apiUrl: "https://a.example.com" }));
    req.setNews(struct({ edgeUrl: "https://e.example.com" }));
    const res = await plugin.call<provproto.DiffResponse>("diffConfig", req);
    assert.deepEqual([...res.getDiffsList()].sort(), ["apiUrl", "edgeUrl"]);
    const kinds = res.getDetaileddiffMap();
    assert.equal(kinds.get("apiUrl")?.getKind(), provproto.PropertyDiff.Kind.DELETE);
    assert.equal(kinds.get("edgeUrl")?.getKind(), provproto.PropertyDiff.Kind.ADD);
    assert.equal(kinds.get("edgeUrl")?.getInputdiff(), true);
    assert.equal(res.getHasdetaileddiff(), true);
    assert.equal(res.getDeletebeforereplace(), false);
    const same = new provproto.DiffRequest();
    same.setOlds(struct({ apiUrl: "https://a.example.com" }));
    same.setNews(struct({ apiUrl: "https://a.example.com" }));
    const none = await plugin.call<provproto.DiffResponse>("diffConfig", same);
    assert.equal(none.getChanges(), provproto.DiffResponse.DiffChanges.DIFF_NONE);
    assert.equal(none.getHasdetaileddiff(), true);
  });

  it("Diff of a replacing property: UPDATE_REPLACE, and an added one that replaces: ADD_REPLACE", async () => {
    const req = new provproto.DiffRequest();
    req.setId("abc");
    req.setUrn(URN("KeyPair", "k"));
    req.setOlds(struct({ commonName: "a", keySize: 2048 }));
    req.setNews(struct({ commonName: "b", organization: "Acme", keySize: 2048 }));
    const res = await plugin.call<provproto.DiffResponse>("diff", req);
    assert.ok(res.getReplacesList().includes("commonName"), JSON.stringify(res.toObject()));
    const kinds = res.getDetaileddiffMap();
    assert.equal(kinds.get("commonName")?.getKind(), provproto.PropertyDiff.Kind.UPDATE_REPLACE);
    assert.equal(kinds.get("organization")?.getKind(), provproto.PropertyDiff.Kind.ADD_REPLACE);
  });

  it("Read of a refresh keeps the program's inputs with their secrets; Cancel answers", async () => {
    const check = new provproto.CheckRequest();
    check.setUrn(URN("CertificateRequestToken", "t"));
    check.setNews(struct({ name: secret("kept-secret-name") }));
    const checked = await plugin.call<provproto.CheckResponse>("check", check);
    const create = new provproto.CreateRequest();
    create.setUrn(URN("CertificateRequestToken", "t"));
    create.setProperties(checked.getInputs());
    const made = await plugin.call<provproto.CreateResponse>("create", create);
    assert.ok(isSecret(js(made.getProperties()).name), "a secret input stays secret in the outputs");
    const read = new provproto.ReadRequest();
    read.setId(made.getId());
    read.setUrn(URN("CertificateRequestToken", "t"));
    read.setProperties(made.getProperties());
    read.setInputs(checked.getInputs());
    const res = await plugin.call<provproto.ReadResponse>("read", read);
    assert.ok(isSecret(js(res.getInputs()).name));
    assert.ok(isSecret(js(res.getProperties()).name));
    await plugin.call("cancel", new (require("google-protobuf/google/protobuf/empty_pb").Empty)());
  });

  it("the methods the provider does not implement answer UNIMPLEMENTED, naming the method", async () => {
    for (const [method, request, name] of [
      ["construct", new provproto.ConstructRequest(), "Construct"],
      ["call", new provproto.CallRequest(), "Call"],
      ["parameterize", new provproto.ParameterizeRequest(), "Parameterize"],
      ["getMapping", new provproto.GetMappingRequest(), "GetMapping"],
    ] as const) {
      const err = (await plugin.call(method, request).catch((e) => e)) as grpc.ServiceError;
      assert.equal(err.code, grpc.status.UNIMPLEMENTED, method);
      assert.equal(err.details, `${name} is not implemented by the frontdoor provider`);
    }
  });
});
