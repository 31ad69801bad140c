// The engine (provider/engine.ts) through its host entry points: what the earlier engine tests left
// open (issue 24, the last mutation survivors). From the contracts in DESIGN.md and engine.ts's own
// doc comments: a name clash is a 409, or a 400 saying the value must be unique (for a POST only); a
// held object is never adopted, and after a lost answer it is sent again instead; an adopted object is
// finished like a created one (def.adopt), and when that (or converting the answer to state) fails the
// object is kept in the state as a partial failure with the serialized provider; settings are judged
// once per set of settings. Real HTTP on 127.0.0.1: the mock (with faults and its request log) or the
// scripted server, for answers the mock never gives (a GET answered 409, an answer nested 100000 deep).
// Each test uses its own names: a mutation run repeats the tests in one process.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { issueCertificate } from "../mock/edge/pki";
import { type MockServer, startMockServer } from "../mock/server";
import { ApiError, PartialFailureError, ProviderError } from "../provider/http/errors";
import { configureFor, engine, mockConfig } from "./support/engine";
import { frontdoorApi, useMock } from "./support/fixtures";
import { type ScriptedServer, startScriptedServer } from "./support/scriptedServer";
import { captureStderr } from "./support/stderr";

const KIND = "AuthProvider";
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const apiKey = (name: string, header = "x-api-key") => ({
  name,
  type: "API_KEY",
  data: { header_name: header, api_key: "survivor-api-key-0123456789" },
});

/** An object made by someone else in the mock's frontdoor, with a plain API call: its id. */
async function madeOutside(mock: MockServer, collection: string, body: object): Promise<string> {
  const res = await frontdoorApi(mock, "POST", collection, body);
  assert.ok(res.status < 300, await res.clone().text());
  return ((await res.json()) as { id: string }).id;
}

describe("engine survivors: clashes, held objects, settings (mock on 127.0.0.1)", function () {
  this.timeout(120_000);
  const mock = useMock();
  const fd = () => mock.credentials.frontdoorId;
  const base = () => `/frontdoor/${fd()}/auth-providers`;
  const requests = () => mock.log.map((e) => `${e.method} ${e.path}`);
  const named = (name: string) => mock.frontdoor.list(fd(), "auth-providers").filter((p) => p.name === name);
  const createOutside = (body: object) => madeOutside(mock, "auth-providers", body);
  const checked = async (news: object) => {
    const result = await engine.check(KIND, {}, news as Record<string, unknown>);
    assert.deepEqual(result.failures, []);
    return result.inputs;
  };
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.faults.clear();
    mock.clearLog();
  });
  afterEach(() => mock.faults.clear());

  it("diff marks the object as held by this deployment: a create of its name meets it and does not adopt it", async () => {
    const name = unique("held");
    const id = await createOutside(apiKey(name));
    const state = { frontdoorId: fd(), ...apiKey(name), enabled: true };
    await engine.diff(KIND, id, state, state);
    mock.clearLog();
    const err = await engine.create(KIND, await checked(apiKey(name))).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    assert.match(
      err.message,
      new RegExp(
        `^AuthProvider "${name}": an object of that name already exists \\(id ${id}\\) .*another resource of this deployment holds it`,
      ),
    );
    // The clash, and the lookup: the list, then the object of that name.
    assert.deepEqual(requests(), [`POST ${base()}`, `GET ${base()}`, `GET ${base()}/${id}`]);
    assert.equal(named(name).length, 1);
  });

  it("a lost create (dropped) whose name a held object has: not adopted, sent again, and the clash is the error", async () => {
    const name = unique("lost-held");
    const id = await createOutside(apiKey(name));
    const state = { frontdoorId: fd(), ...apiKey(name), enabled: true };
    await engine.diff(KIND, id, state, state);
    mock.clearLog();
    mock.faults.inject({ method: "POST", path: base(), kind: "drop" });
    const err = await engine.create(KIND, await checked(apiKey(name))).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    // The error is the clash's (the server's answer quoted), met by the second POST.
    assert.match(
      err.message,
      new RegExp(
        `^AuthProvider "${name}": an object of that name already exists \\(id ${id}\\) \\(POST ${base()}: HTTP 409: [^)]*${name}[^)]*\\), and another resource of this deployment holds it`,
      ),
    );
    const lookup = [`GET ${base()}`, `GET ${base()}/${id}`];
    assert.deepEqual(requests(), [`POST ${base()}`, ...lookup, `POST ${base()}`, ...lookup]);
    assert.equal(named(name).length, 1);
  });

  it("a clash with an object differing in two inputs: the error lists both, comma-separated", async () => {
    const name = unique("two");
    const id = await createOutside(apiKey(name, "x-other-header"));
    const err = await engine.create(KIND, await checked({ ...apiKey(name), enabled: false })).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    assert.match(
      err.message,
      new RegExp(
        `^AuthProvider "${name}": an object of that name already exists \\(id ${id}\\) \\(POST [^)]*\\) and differs from the declaration in (data, enabled|enabled, data): not adopted\\.`,
      ),
    );
  });

  it("without frontdoor:maxRetries a lost create is sent at most 10 times (then the error), not without end", async () => {
    const name = unique("unbounded");
    const { "frontdoor:maxRetries": _unused, ...unbounded } = mockConfig(mock);
    await configureFor(unbounded);
    const inputs = await checked(apiKey(name));
    mock.clearLog();
    mock.faults.inject({ method: "POST", path: base(), kind: "drop", count: 11 });
    const err = await engine.create(KIND, inputs).catch((e) => e);
    assert.ok(err instanceof ApiError && err.ambiguous, String(err));
    assert.equal(requests().filter((r) => r === `POST ${base()}`).length, 10);
    assert.equal(named(name).length, 0);
  });

  it("check keeps an expired certificate that was accepted before (the old inputs reach the resource's check)", async () => {
    const expired = issueCertificate({ commonName: `${unique("exp")}.example.com`, days: -1 });
    const name = unique("cc");
    const news = { name, value: expired.certPem };
    const olds = { frontdoorId: fd(), ...news };
    const { written, result, error } = await captureStderr(() =>
      engine.check("ClientCertificate", olds, news),
    );
    assert.equal(error, undefined);
    assert.deepEqual(result?.failures, []);
    assert.match(
      written.join(""),
      new RegExp(`warning: ClientCertificate "${name}": value: the certificate expired on .*renew it`),
    );
    const fresh = await engine.check("ClientCertificate", {}, news);
    assert.deepEqual(
      fresh.failures.map((f) => f.property),
      ["value"],
      "a new expired certificate fails",
    );
  });

  it("settings are judged once per configure: a later change of the identity file shows at the next configure", async () => {
    const file = path.join(os.tmpdir(), `${unique("engine-identity")}.json`);
    fs.writeFileSync(file, "not json");
    const config = {
      "frontdoor:apiUrl": mock.url,
      "frontdoor:frontdoorId": fd(),
      "frontdoor:token": mock.credentials.frontdoorToken,
      "frontdoor:edgeIdentityFile": file,
    };
    const identityFailures = async () =>
      (await engine.check(KIND, {}, apiKey(unique("judged")))).failures.filter(
        (f) => f.property === "frontdoor:edgeIdentityFile",
      );
    try {
      await configureFor(config);
      const first = await identityFailures();
      assert.equal(first.length, 1);
      assert.match(first[0].reason, /is not valid JSON/);
      fs.rmSync(file);
      assert.deepEqual(await identityFailures(), first, "the same settings: the same judgement");
      await configureFor(config);
      const again = await identityFailures();
      assert.equal(again.length, 1);
      assert.match(again[0].reason, /cannot be read: .*\(ENOENT\)/);
    } finally {
      fs.rmSync(file, { force: true });
    }
    assert.deepEqual(mock.log, [], "check sends nothing");
  });

  it("the first check of a new provider process (the engine module freshly loaded) judges the settings", async () => {
    const modulePath = require.resolve("../provider/engine");
    const loaded = require.cache[modulePath];
    delete require.cache[modulePath];
    try {
      const fresh = require("../provider/engine") as typeof engine;
      assert.notEqual(fresh, engine, "a fresh module");
      const config: Record<string, string> = { ...mockConfig(mock), "frontdoor:maxRetries": "-1" };
      await fresh.configure({ get: (key) => config[key] });
      const result = await fresh.check(KIND, {}, apiKey(unique("fresh")));
      assert.deepEqual(
        result.failures.map((f) => f.property),
        ["frontdoor:maxRetries"],
      );
    } finally {
      require.cache[modulePath] = loaded;
    }
  });

  it("check without a frontdoor (none configured, none declared): frontdoorId fails, and no frontdoorId is added", async () => {
    await configureFor({ "frontdoor:apiUrl": mock.url, "frontdoor:token": mock.credentials.frontdoorToken });
    const news = apiKey(unique("nofd"));
    const result = await engine.check(KIND, {}, news);
    assert.deepEqual(result.failures, [
      { property: "frontdoorId", reason: "required: set frontdoorId or the config frontdoor:frontdoorId" },
    ]);
    assert.deepStrictEqual(result.inputs, { ...news, __provider: undefined });
  });

  it("an unexpected error of a resource without a name: the kind and the error's own message, nothing else", async () => {
    const id = await createOutside(apiKey(unique("noname")));
    mock.clearLog();
    // A state whose data is no object: the update's own code fails (a TypeError) before any request.
    const err = await engine.update(KIND, id, { data: {} }, { type: "OIDC", data: null }).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    assert.match(err.message, /^AuthProvider: Cannot read properties of null \(reading '\w+'\)$/);
    assert.deepEqual(mock.log, []);
  });
});

describe("engine survivors: adopting a custom frontend (mock on 127.0.0.1, status set by the test)", function () {
  this.timeout(60_000);
  let mock: MockServer;
  // NEW until the test makes it PENDING: the adoption's own polls are then told from the lookup's.
  before(async () => {
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 3_600_000 } });
  });
  after(async () => {
    mock.onRequest = undefined;
    await mock.close();
  });
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.faults.clear();
  });
  afterEach(() => {
    mock.onRequest = undefined;
    mock.faults.clear();
  });
  const base = () => `/frontdoor/${mock.credentials.frontdoorId}/custom-frontends`;
  const createOutside = async (hostname: string) => ({
    id: await madeOutside(mock, "custom-frontends", { hostname, authProviderIds: [] }),
  });
  /** The requests of a clash whose lookup finds the frontend (NEW), then the adoption's poll (PENDING). */
  const adoptionRequests = (id: string) => [
    `POST ${base()} 409`,
    `GET ${base()} 200`,
    `GET ${base()}/${id} 200`,
    `GET ${base()}/${id} 200`,
  ];
  const checkedFrontend = async (hostname: string) => {
    const result = await engine.check("CustomFrontend", {}, { hostname, __provider: "serialized-cf" });
    assert.deepEqual(result.failures, []);
    return result.inputs;
  };
  /** When the adoption polls the frontend (its second GET: the lookup made the first), `then` runs. */
  const onAdoptionPoll = (id: string, then: () => void) => {
    let gets = 0;
    mock.onRequest = (entry) => {
      if (entry.method === "GET" && entry.path === `${base()}/${id}` && ++gets === 2) then();
    };
  };

  it("an adopted frontend is waited for like a created one: its DNS records are in the outputs", async () => {
    const hostname = `${unique("adopt")}.example.com`;
    const made = await createOutside(hostname);
    const inputs = await checkedFrontend(hostname);
    mock.clearLog();
    onAdoptionPoll(made.id, () =>
      mock.frontdoor.setCustomFrontendStatus(mock.credentials.frontdoorId, made.id, "PENDING"),
    );
    const { written, result, error } = await captureStderr(() => engine.create("CustomFrontend", inputs));
    assert.equal(error, undefined, String(error));
    assert.equal(result?.id, made.id);
    assert.equal(result?.outs.status, "PENDING");
    assert.equal((result!.outs.dnsRecords as any).aRecord.name, `*.${hostname}`);
    assert.match(
      written.join(""),
      new RegExp(
        `warning: CustomFrontend "${hostname}": an object of that name already existed \\(id ${made.id}\\)`,
      ),
    );
    assert.deepEqual(
      mock.log.map((e) => `${e.method} ${e.path} ${e.status}`),
      [...adoptionRequests(made.id), `GET ${base()}/${made.id}/dns-records 200`],
    );
  });

  it("an adoption whose wait fails: kept in the state as the lookup saw it, with the serialized provider", async () => {
    const hostname = `${unique("adopt-fail")}.example.com`;
    const made = await createOutside(hostname);
    const inputs = await checkedFrontend(hostname);
    mock.clearLog();
    const records = `${base()}/${made.id}/dns-records`;
    onAdoptionPoll(made.id, () => {
      mock.frontdoor.setCustomFrontendStatus(mock.credentials.frontdoorId, made.id, "PENDING");
      mock.faults.inject({ method: "GET", path: records, kind: "500" });
    });
    const { error: err } = await captureStderr(() => engine.create("CustomFrontend", inputs));
    assert.ok(err instanceof PartialFailureError, String(err));
    assert.equal(err.id, made.id);
    assert.match(
      err.message,
      new RegExp(
        `^CustomFrontend "${hostname}" \\(id ${made.id}\\) exists, but its create did not complete: .*GET ${mock.url}${records} failed \\(HTTP 500`,
      ),
    );
    assert.deepStrictEqual(err.properties, {
      frontdoorId: mock.credentials.frontdoorId,
      hostname,
      authProviderIds: [],
      // The frontend the service chose, as the mock holds it.
      frontendId: mock.frontdoor
        .list(mock.credentials.frontdoorId, "custom-frontends")
        .find((f) => f.id === made.id)?.frontendId,
      waitForActive: false,
      readyTimeoutSeconds: 600,
      status: "NEW",
      domainName: hostname,
      dnsRecords: { aRecord: { name: "", ipAddresses: [] }, cnameRecords: [] },
      __provider: "serialized-cf",
    });
    assert.deepEqual(
      mock.log.map((e) => `${e.method} ${e.path} ${e.status}`),
      [...adoptionRequests(made.id), `GET ${records} 500`],
    );
  });
});

describe("engine survivors: answers the mock never gives (scripted server on 127.0.0.1)", function () {
  this.timeout(60_000);
  let server: ScriptedServer;
  const fd = "fd-survivors";
  const providers = `/frontdoor/${fd}/auth-providers`;
  const seen = () => server.seen.map((s) => `${s.method} ${s.url.split("?")[0]}`);
  before(async () => {
    server = await startScriptedServer();
  });
  after(() => server.close());
  beforeEach(async () => {
    server.seen.length = 0;
    server.script.length = 0;
    await configureFor({
      "frontdoor:apiUrl": server.url,
      "frontdoor:frontdoorId": fd,
      "frontdoor:token": "survivors-token-123456",
      "frontdoor:edgeUrl": server.url,
      "frontdoor:edgeUsername": "admin",
      "frontdoor:edgePassword": "survivors-edge-password",
      "frontdoor:maxRetries": "0",
    });
  });
  const json = (status: number, body: unknown) => ({
    status,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  /** An AuthProvider answer whose data holds a list nested 100000 deep: no state conversion survives it. */
  const deepAnswer = (id: string, name: string, enabled: boolean) =>
    `{"id":"${id}","name":"${name}","type":"API_KEY","enabled":${enabled},` +
    `"data":{"header_name":"x-api-key","nest":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
  const checked = async (news: object) => {
    const result = await engine.check(KIND, {}, { ...news, __provider: "serialized-ap" });
    assert.deepEqual(result.failures, []);
    return result.inputs;
  };
  /** The state of the declared inputs: the api key apart in secretValues, the serialized provider. */
  const stateOf = (name: string, enabled: boolean) => ({
    frontdoorId: fd,
    name,
    type: "API_KEY",
    enabled,
    data: { header_name: "x-api-key" },
    secretValues: { "data.api_key": "survivor-api-key-0123456789" },
    __provider: "serialized-ap",
  });

  it("a POST refused 422 saying the name must be unique is no clash (only 409 and 400 are): no lookup, no state", async () => {
    const inputs = await checked(apiKey("unique-422"));
    server.script.push(json(422, { error: "unprocessable", message: "name must be unique" }));
    const err = await engine.create(KIND, inputs).catch((e) => e);
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 422);
    assert.equal("properties" in err, false, "not a partial failure: no state rides on the error");
    assert.deepEqual(seen(), [`POST ${providers}`]);
  });

  it("a POST answered 500 naming the name constraint (an HA cluster's follower) is a clash: looked up and adopted", async () => {
    const clash = (field: string) => ({
      error: {
        code: "UNHANDLED",
        message: "An unhandled error occurred",
        cause: { code: "UNHANDLED", message: `{"EntityType":"services","Field":"${field}","Value":"v"}` },
      },
    });
    const service = { name: "follower-clash" };
    const found = { id: "svc-follower-1", name: "follower-clash", encryptionRequired: true };
    server.script.push(json(200, { data: { token: "survivors-session-2" } }));
    server.script.push(json(500, clash("name")));
    server.script.push(json(200, { data: [found], meta: { pagination: { totalCount: 1 } } }));
    const { result, error } = await captureStderr(() => engine.create("Service", service));
    assert.equal(error, undefined);
    assert.equal(result?.id, "svc-follower-1");
    assert.deepEqual(seen(), [
      "POST /edge/management/v1/authenticate",
      "POST /edge/management/v1/services",
      "GET /edge/management/v1/services",
    ]);
    // Another constraint's 500 is an error of its own: no lookup.
    server.seen.length = 0;
    server.script.push(json(500, clash("id")));
    const err = await engine.create("Service", { name: "other-constraint" }).catch((e) => e);
    assert.ok(err instanceof ApiError && err.status === 500, String(err));
    assert.deepEqual(seen(), ["POST /edge/management/v1/services"]);
    // This test's Edge session goes with its clients (the next configure makes new ones): the other
    // tests script their own login.
    await configureFor({});
  });

  it("a GET answered 409 during a create (the config type's lookup) is no name clash: no lookup of the config", async () => {
    server.script.push(json(200, { data: { token: "survivors-session-1" } }));
    server.script.push(json(409, { error: { code: "CONFLICT", message: "name must be unique" } }));
    const err = await engine
      .create("Config", { name: "survivor-config", configTypeName: "host.v1", data: {} })
      .catch((e) => e);
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 409);
    assert.equal(err.method, "GET");
    assert.deepEqual(seen(), [
      "POST /edge/management/v1/authenticate",
      "GET /edge/management/v1/config-types",
    ]);
  });

  it("a create answer that cannot be converted to state: kept as a partial failure with the inputs' state", async () => {
    const inputs = await checked(apiKey("deep-answer"));
    server.script.push(json(201, deepAnswer("made-deep-1", "deep-answer", true)));
    const err = await engine.create(KIND, inputs).catch((e) => e);
    assert.ok(err instanceof PartialFailureError, String(err));
    assert.equal(err.id, "made-deep-1");
    assert.equal(
      err.message,
      'AuthProvider "deep-answer" (id made-deep-1) exists, but its create did not complete: Maximum call stack ' +
        "size exceeded. It is kept in the state: the next up completes it, a refresh reads it.",
    );
    assert.deepStrictEqual(err.properties, stateOf("deep-answer", true));
    assert.deepEqual(seen(), [`POST ${providers}`]);
  });

  it("a partial failure whose known state cannot be converted: the state of the inputs instead", async () => {
    const inputs = await checked({ ...apiKey("deep-partial"), enabled: false });
    server.script.push(json(201, deepAnswer("made-deep-2", "deep-partial", true)));
    server.script.push(json(500, { error: "internal", message: "switching it off failed" }));
    const err = await engine.create(KIND, inputs).catch((e) => e);
    assert.ok(err instanceof PartialFailureError, String(err));
    assert.equal(err.id, "made-deep-2");
    assert.match(err.message, /PATCH .*made-deep-2 failed \(HTTP 500 internal\): switching it off failed/);
    assert.deepStrictEqual(err.properties, stateOf("deep-partial", false));
    assert.deepEqual(seen(), [`POST ${providers}`, `PATCH ${providers}/made-deep-2`]);
  });
});
