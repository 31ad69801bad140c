// The provider plugin at the protocol level, served from the sources in this process (servePlugin:
// main() of provider/plugin/main.ts on 127.0.0.1, Pulumi's own generated client, as the engine drives
// it), against the mock server: what mutation testing reaches (test/mutation/groups.json, group
// plugin). What is checked here is what the CLI suites cannot see directly: the secrets marked on each
// answer, preview's unknowns, the requests each call sends (none for bad input), the import Read's
// inputs. test/plugin.test.ts drives the built process (bin/plugin).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";
import { CONFIG_SECRETS } from "./support/oracles/secrets";
import {
  isSecret,
  js,
  type PluginServer,
  plainStrings,
  secret,
  servePlugin,
  struct,
  UNKNOWN,
  URN,
} from "./support/plugin";

const ROOT = path.resolve(__dirname, "..");
const CLIENT_SECRET = "plugin-test-client-secret-7731";

describe("Provider plugin over gRPC, served in process (mock server)", function () {
  this.timeout(60_000);
  const mock = useMock();
  let plugin: PluginServer;

  before(async () => {
    plugin = await servePlugin();
  });
  after(async () => {
    await plugin?.stop();
  });

  const configure = async (settings: Record<string, unknown>) => {
    const req = new provproto.ConfigureRequest();
    req.setArgs(struct(settings));
    req.setAcceptsecrets(true);
    return plugin.call<provproto.ConfigureResponse>("configure", req);
  };
  const mockSettings = () => {
    const c = mockConfig(mock);
    return {
      apiUrl: c["frontdoor:apiUrl"],
      frontdoorId: c["frontdoor:frontdoorId"],
      token: secret(c["frontdoor:token"]),
      edgeUrl: c["frontdoor:edgeUrl"],
      edgeUsername: c["frontdoor:edgeUsername"],
      edgePassword: secret(c["frontdoor:edgePassword"]),
      version: "0.1.0",
    };
  };
  const ssoInputs = (name: string) => ({
    name,
    type: "OIDC",
    data: {
      issuer: "https://login.example.com/realms/corp",
      client_id: "frontdoor",
      client_secret: secret(CLIENT_SECRET),
      scopes: ["openid", "email"],
    },
  });
  const check = async (kind: string, name: string, news: Record<string, unknown>, olds = {}) => {
    const req = new provproto.CheckRequest();
    req.setUrn(URN(kind, name));
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    return plugin.call<provproto.CheckResponse>("check", req);
  };

  it("reports the package's version and serves schema.json", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const info = await plugin.call<any>("getPluginInfo", new emptyproto.Empty());
    assert.equal(info.getVersion(), version);
    const schema = await plugin.call<provproto.GetSchemaResponse>(
      "getSchema",
      new provproto.GetSchemaRequest(),
    );
    assert.equal(schema.getSchema(), fs.readFileSync(path.join(ROOT, "schema.json"), "utf8"));
    const parsed = JSON.parse(schema.getSchema());
    assert.deepEqual(
      Object.keys(parsed.provider.inputProperties).sort(),
      Object.keys(parsed.config.variables).sort(),
      "an explicit provider takes every frontdoor:* setting",
    );
  });

  it("CheckConfig names a bad setting and marks every credential secret, before any request", async () => {
    mock.clearLog();
    const req = new provproto.CheckRequest();
    req.setUrn("urn:pulumi:dev::proj::pulumi:providers:frontdoor::other");
    req.setOlds(struct({}));
    // Every credential of the independent table, each given in plain text.
    const credentials = Object.fromEntries(
      Object.keys(CONFIG_SECRETS).map((key) => [key, `plain-given-${key}-5511`]),
    );
    req.setNews(struct({ apiUrl: "ftp://example.com", maxRetries: "many", ...credentials }));
    const res = await plugin.call<provproto.CheckResponse>("checkConfig", req);
    const failures = res.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    assert.ok(
      failures.some(([p]) => p === "apiUrl") && failures.some(([p]) => p === "maxRetries"),
      JSON.stringify(failures),
    );
    assert.match(failures.find(([p]) => p === "apiUrl")![1], /http/);
    const inputs = js(res.getInputs());
    for (const key of Object.keys(CONFIG_SECRETS))
      assert.ok(isSecret(inputs[key]), `${key} given in plain text comes back secret`);
    assert.equal(inputs.apiUrl, "ftp://example.com");
    assert.deepEqual(
      plainStrings(inputs).filter((text) => text.startsWith("plain-given-")),
      [],
    );
    assert.deepEqual(mock.log, []);
  });

  it("DiffConfig reports changed settings and never a replacement", async () => {
    const req = new provproto.DiffRequest();
    req.setUrn("urn:pulumi:dev::proj::pulumi:providers:frontdoor::other");
    req.setOlds(struct({ apiUrl: "https://a.example.com", token: secret("t1") }));
    req.setNews(struct({ apiUrl: "https://a.example.com", token: secret("t2") }));
    const res = await plugin.call<provproto.DiffResponse>("diffConfig", req);
    assert.equal(res.getChanges(), provproto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.deepEqual(res.getDiffsList(), ["token"]);
    assert.deepEqual(res.getReplacesList(), []);
  });

  it("accepts secrets and previews, then checks bad inputs without a request, valid ones with the credentials' proof, keeping secrets marked", async () => {
    const res = await configure(mockSettings());
    assert.equal(res.getAcceptsecrets(), true);
    assert.equal(res.getSupportspreview(), true);
    mock.clearLog();
    const bad = await check("AuthProvider", "bad", { name: "bad", type: "OIDC", data: { issuer: 42 } });
    assert.ok(bad.getFailuresList().length > 0);
    assert.ok(
      bad.getFailuresList().every((f) => f.getProperty().startsWith("data")),
      "failures name data.*",
    );
    assert.equal(mock.log.length, 0, "bad input: no request");
    const good = await check("AuthProvider", "sso", ssoInputs("plugin-sso"));
    assert.deepEqual(good.getFailuresList(), []);
    const inputs = js(good.getInputs());
    assert.ok(isSecret(inputs.data.client_secret), "data.client_secret stays secret in the checked inputs");
    assert.equal(
      inputs.frontdoorId,
      mock.credentials.frontdoorId,
      "frontdoorId defaults from the configuration",
    );
    // Valid input: the one read that proves the token and the frontdoor (provider/preflight.ts), once.
    await check("AuthProvider", "sso-2", ssoInputs("plugin-sso-2"));
    assert.deepEqual(
      mock.log.map((e) => `${e.method} ${e.path}?${e.query} ${e.status}`),
      [`GET /frontdoor/${mock.credentials.frontdoorId}/auth-providers?page=0&size=1 200`],
    );
  });

  let id = "";
  let outputs: Record<string, any> = {};
  let checked: Record<string, any> = {};

  it("Create in preview answers unknown computed outputs and sends nothing", async () => {
    const token = js((await check("CertificateRequestToken", "t", { name: "plugin-crt" })).getInputs());
    mock.clearLog();
    const req = new provproto.CreateRequest();
    req.setUrn(URN("CertificateRequestToken", "t"));
    req.setProperties(struct(token));
    req.setPreview(true);
    const res = await plugin.call<provproto.CreateResponse>("create", req);
    assert.equal(res.getId(), "");
    const outs = js(res.getProperties());
    assert.equal(outs.expiresAt, UNKNOWN);
    assert.ok(isSecret(outs.token) && outs.token.value === UNKNOWN, "the token: secret, not known yet");
    assert.equal(outs.name, "plugin-crt");
    assert.deepEqual(mock.log, []);
    checked = js((await check("AuthProvider", "sso", ssoInputs("plugin-sso"))).getInputs());
  });

  it("Create makes the object and marks its secrets; nothing secret is left in plain text", async () => {
    mock.clearLog();
    const req = new provproto.CreateRequest();
    req.setUrn(URN("AuthProvider", "sso"));
    req.setProperties(struct(checked));
    const res = await plugin.call<provproto.CreateResponse>("create", req);
    id = res.getId();
    outputs = js(res.getProperties());
    assert.deepEqual(
      mock.log.map((e) => e.method),
      ["POST"],
    );
    const stored = mock.frontdoor.get(mock.credentials.frontdoorId, "auth-providers", id);
    assert.equal(stored?.name, "plugin-sso");
    assert.ok(isSecret(outputs.secretValues), "the nested secret is kept apart, as a secret");
    assert.ok(!plainStrings(outputs).includes(CLIENT_SECRET));
    assert.equal(outputs.data.issuer, "https://login.example.com/realms/corp");
  });

  it("Diff: none for the same inputs, a detailed update for a changed name", async () => {
    const diff = async (news: Record<string, unknown>) => {
      const req = new provproto.DiffRequest();
      req.setId(id);
      req.setUrn(URN("AuthProvider", "sso"));
      req.setOlds(struct(outputs));
      req.setNews(struct(news));
      return plugin.call<provproto.DiffResponse>("diff", req);
    };
    const same = await diff(checked);
    assert.equal(same.getChanges(), provproto.DiffResponse.DiffChanges.DIFF_NONE);
    const renamed = await diff({ ...checked, name: "plugin-sso-2" });
    assert.equal(renamed.getChanges(), provproto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.deepEqual(renamed.getDiffsList(), ["name"]);
    assert.equal(renamed.getDetaileddiffMap().get("name")?.getKind(), provproto.PropertyDiff.Kind.UPDATE);
    assert.deepEqual(renamed.getReplacesList(), []);
  });

  it("Read with only an id (import, <frontdoorId>/<id>) answers the object and its inputs", async () => {
    mock.clearLog();
    const req = new provproto.ReadRequest();
    req.setId(`${mock.credentials.frontdoorId}/${id}`);
    req.setUrn(URN("AuthProvider", "imported"));
    req.setProperties(struct({}));
    req.setInputs(struct({}));
    const res = await plugin.call<provproto.ReadResponse>("read", req);
    assert.equal(res.getId(), id);
    const inputs = js(res.getInputs());
    assert.equal(inputs.name, "plugin-sso");
    assert.equal(inputs.type, "OIDC");
    assert.equal(inputs.frontdoorId, mock.credentials.frontdoorId);
    assert.ok(mock.log.every((e) => e.method === "GET"));
    assert.ok(!plainStrings(js(res.getProperties())).includes(CLIENT_SECRET));
    assert.ok(!plainStrings(inputs).includes(CLIENT_SECRET));
  });

  it("Update changes the object; Delete removes it; Read then answers no id", async () => {
    mock.clearLog();
    const upd = new provproto.UpdateRequest();
    upd.setId(id);
    upd.setUrn(URN("AuthProvider", "sso"));
    upd.setOlds(struct(outputs));
    upd.setNews(struct({ ...checked, name: "plugin-sso-2" }));
    const updated = js((await plugin.call<provproto.UpdateResponse>("update", upd)).getProperties());
    assert.equal(updated.name, "plugin-sso-2");
    assert.ok(isSecret(updated.secretValues));
    assert.equal(
      mock.frontdoor.get(mock.credentials.frontdoorId, "auth-providers", id)?.name,
      "plugin-sso-2",
    );
    assert.ok(mock.log.some((e) => e.method === "PATCH" || e.method === "PUT"));

    const del = new provproto.DeleteRequest();
    del.setId(id);
    del.setUrn(URN("AuthProvider", "sso"));
    del.setProperties(struct(updated));
    await plugin.call("delete", del);
    assert.equal(mock.frontdoor.get(mock.credentials.frontdoorId, "auth-providers", id), undefined);

    const read = new provproto.ReadRequest();
    read.setId(id);
    read.setUrn(URN("AuthProvider", "sso"));
    read.setProperties(struct(updated));
    read.setInputs(struct(checked));
    assert.equal((await plugin.call<provproto.ReadResponse>("read", read)).getId(), "");
  });

  it("Invoke runs a function with the configured settings; secret results are marked, all of them for secret arguments", async () => {
    const invoke = async (tok: string, args: Record<string, unknown>) => {
      const req = new provproto.InvokeRequest();
      req.setTok(tok);
      req.setArgs(struct(args));
      return js((await plugin.call<provproto.InvokeResponse>("invoke", req)).getReturn());
    };
    const policy = await invoke("frontdoor:index:getAuthPolicy", { id: "default" });
    assert.equal(policy.id, "default");
    assert.equal(policy.name, "Default");
    assert.deepEqual(plainStrings(policy).length > 0, true, "nothing secret: the answer is plain");

    // An identity with an ott enrollment: its JWT and token are secret results (the table's).
    const name = "plugin-invoke-laptop";
    const check = new provproto.CheckRequest();
    check.setUrn(URN("Identity", "laptop"));
    check.setOlds(struct({}));
    check.setNews(struct({ name, enrollment: { ott: true } }));
    const create = new provproto.CreateRequest();
    create.setUrn(URN("Identity", "laptop"));
    create.setProperties((await plugin.call<provproto.CheckResponse>("check", check)).getInputs());
    const made = await plugin.call<provproto.CreateResponse>("create", create);
    const found = await invoke("frontdoor:index:getIdentity", { name });
    assert.equal(found.name, name, "the name is plain");
    assert.ok(isSecret(found.enrollmentJwt) && typeof found.enrollmentJwt.value === "string");
    assert.ok(isSecret(found.enrollmentToken));
    const listed = await invoke("frontdoor:index:getIdentities", { filter: `name = "${name}"` });
    assert.ok(isSecret(listed.items[0].enrollmentJwt), "a list's items too");
    // A secret argument makes every result secret (as Pulumi's own providers do).
    const hidden = await invoke("frontdoor:index:getIdentity", { name: secret(name) });
    assert.deepEqual(
      Object.entries(hidden)
        .filter(([, v]) => v !== null && !isSecret(v)) // a null carries nothing to hide
        .map(([k]) => k),
      [],
    );
    assert.equal(hidden.name.value, name);
    const remove = new provproto.DeleteRequest();
    remove.setId(made.getId());
    remove.setUrn(URN("Identity", "laptop"));
    remove.setProperties(made.getProperties());
    await plugin.call("delete", remove);

    assert.deepEqual(
      (await invoke("frontdoor:index:getIdentities", { filter: 'name = "nobody-here"' })).items,
      [],
    );
    await assert.rejects(
      invoke("frontdoor:index:getNothing", {}),
      /unknown function frontdoor:index:getNothing/,
    );
  });

  it("tags of string, boolean and null values (schema.json's map of Any, as the Edge API defines them) pass Check and reach the controller", async () => {
    const tags = { owner: "alice", managed: true, retired: null };
    const checked = await check("Identity", "tagged", { name: "plugin-tagged", tags });
    assert.deepEqual(checked.getFailuresList(), []);
    const req = new provproto.CreateRequest();
    req.setUrn(URN("Identity", "tagged"));
    req.setProperties(checked.getInputs());
    const res = await plugin.call<provproto.CreateResponse>("create", req);
    assert.deepEqual(mock.edge.get("identities", res.getId())?.tags, tags);
    assert.deepEqual(js(res.getProperties()).tags, tags);
    // A value of another type is refused at Check, naming the property.
    const bad = await check("Identity", "bad-tags", { name: "plugin-bad-tags", tags: { count: 3 } });
    assert.ok(bad.getFailuresList().some((f) => f.getProperty().startsWith("tags")));
  });

  it("names an unknown resource type", async () => {
    await assert.rejects(check("Nothing", "x", {}), /unknown resource kind Nothing/);
  });
});
