// The engine (provider/engine.ts) through its host entry points against the mock on 127.0.0.1, with
// the requests asserted from the mock's log. From the contracts (DESIGN.md): a create whose answer was
// lost, or that meets a name clash, never leaves an orphan or a duplicate: the object of that name is
// looked up and adopted only when it is exactly what is declared and no other resource of the run holds
// it; otherwise the error names it, its id and how to import it. Ids given to import may carry the
// frontdoor (`<frontdoorId>/<id>`); an id that is no id fails before any request. Each test uses its
// own names: a mutation run repeats the tests in one process.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { ApiError, ProviderError } from "../provider/http/errors";
import { debugging, restoreDebug } from "../provider/log";
import { UNKNOWN } from "../provider/resource";
import { markHeld } from "../provider/resources/operations";
import { configureFor, engine, mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";
import { captureStderr } from "./support/stderr";

const KIND = "AuthProvider";

describe("engine: adoption, import ids, errors (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  const mock = useMock();
  // Every test configures debug output on: the setting found is restored, so the rest of the mocha
  // process is not flooded with it.
  let debugWas = false;
  before(() => {
    debugWas = debugging();
  });
  after(() => restoreDebug(debugWas));
  const unique = () => `e-${randomUUID().slice(0, 8)}`;
  const oidc = (name: string, issuer = "https://login.example.com") => ({
    name,
    type: "OIDC",
    data: { issuer, client_id: "frontdoor", client_secret: "engine-client-secret-1" },
  });
  const base = () => `/frontdoor/${mock.credentials.frontdoorId}/auth-providers`;
  const posts = () => mock.log.filter((e) => e.method === "POST" && e.path === base());
  const named = (name: string) =>
    mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers").filter((p) => p.name === name);
  /** Made by someone else, with a plain API call. */
  const createOutside = async (body: object): Promise<string> => {
    const res = await fetch(`${mock.url}${base()}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${mock.credentials.frontdoorToken}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    assert.ok(res.status < 300, await res.clone().text());
    return ((await res.json()) as { id: string }).id;
  };
  const checked = async (news: object) => {
    const result = await engine.check(KIND, {}, news as Record<string, unknown>);
    assert.deepEqual(result.failures, []);
    return result.inputs;
  };
  beforeEach(async () => {
    await configureFor({ ...mockConfig(mock), "frontdoor:debug": "true" });
    mock.clearLog();
    mock.faults.clear();
  });

  it("config frontdoor:debug true switches debug output on: each request's method, path and status on stderr", async () => {
    restoreDebug(false);
    await configureFor({ ...mockConfig(mock), "frontdoor:debug": "true" });
    const name = unique();
    const { result, written } = await captureStderr(async () =>
      engine.create(KIND, await checked(oidc(name))),
    );
    const text = written.join("");
    assert.ok(result?.id, text);
    assert.match(
      text,
      new RegExp(`\\[frontdoor\\] POST /frontdoor/${mock.credentials.frontdoorId}/auth-providers -> 20\\d`),
    );
    assert.doesNotMatch(text, /engine-client-secret-1/, "debug output is redacted");
  });

  it("a name clash with a matching object adopts it (a warning says so), without a second object", async () => {
    const name = unique();
    const id = await createOutside(oidc(name));
    mock.clearLog();
    const { result, written } = await captureStderr(async () =>
      engine.create(KIND, await checked(oidc(name))),
    );
    const text = written.join("");
    assert.equal(result?.id, id);
    assert.equal(named(name).length, 1);
    assert.match(
      text,
      new RegExp(
        `warning: AuthProvider "${name}": an object of that name already existed \\(id ${id}\\) and matches the declaration: adopted instead of created \\(it is now managed, and deleted by destroy\\)`,
      ),
    );
    assert.equal(posts().length, 1, "the clash, then no second POST");
  });

  it("a name clash with a differing object: not adopted; the error names the differences, the server's answer and the import id", async () => {
    const name = unique();
    const id = await createOutside(oidc(name, "https://other.example.com"));
    const err = await engine.create(KIND, await checked(oidc(name))).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    const fd = mock.credentials.frontdoorId;
    assert.match(
      err.message,
      new RegExp(
        `^AuthProvider "${name}": an object of that name already exists \\(id ${id}\\) \\(POST ${base()}: HTTP 409: .+\\) and differs from the declaration in data: not adopted\\. To manage it with this program, import it: add the resource option import: "${fd}/${id}" and make the inputs match it; or delete it, or choose another name\\.$`,
      ),
    );
  });

  it("a name clash with an object another resource of this run holds: not adopted, the error says why", async () => {
    const name = unique();
    const id = await createOutside(oidc(name));
    markHeld(KIND, id);
    const err = await engine.create(KIND, await checked(oidc(name))).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    assert.match(
      err.message,
      new RegExp(
        `^AuthProvider "${name}": an object of that name already exists \\(id ${id}\\) \\(POST .+: HTTP 409: .+\\), and another resource of this deployment holds it .*: not adopted\\. Give each resource a name of its own, or set deleteBeforeReplace\\.$`,
      ),
    );
  });

  it("a create whose answer was lost (carried out, then 503): the object it made is adopted, quietly", async () => {
    const name = unique();
    mock.faults.inject({ method: "POST", path: base(), kind: "commit-then-503" });
    const { result, written } = await captureStderr(async () =>
      engine.create(KIND, await checked(oidc(name))),
    );
    const text = written.join("");
    assert.equal(named(name).length, 1);
    assert.equal(result?.id, named(name)[0].id);
    assert.equal(posts().length, 1, "not sent again");
    assert.doesNotMatch(text, /warning/);
    assert.match(
      text,
      new RegExp(
        `AuthProvider "${name}": create answer lost; adopted the object it made \\(id ${result?.id}\\)`,
      ),
    );
  });

  it("a create whose answer was lost and that was not carried out (dropped): sent again, one object", async () => {
    const name = unique();
    mock.faults.inject({ method: "POST", path: base(), kind: "drop" });
    const { result, written } = await captureStderr(async () =>
      engine.create(KIND, await checked(oidc(name))),
    );
    const text = written.join("");
    assert.equal(named(name).length, 1);
    assert.equal(result?.id, named(name)[0].id);
    assert.equal(posts().length, 2);
    assert.match(text, /AuthProvider: create answer lost and no object exists; sending it again in \d+ ms/);
  });

  it("lost answers, none carried out: sent at most max(3, maxRetries) times, then the error", async () => {
    const name = unique();
    await configureFor({ ...mockConfig(mock), "frontdoor:maxRetries": "0" });
    mock.faults.inject({ method: "POST", path: base(), kind: "drop", count: 10 });
    const err = await engine.create(KIND, await checked(oidc(name))).catch((e) => e);
    assert.ok(err instanceof ApiError && err.ambiguous, String(err));
    assert.equal(posts().length, 3);
    assert.equal(named(name).length, 0);
  });

  it("a lost answer and a differing object of that name: the error says the answer was lost", async () => {
    const name = unique();
    await createOutside(oidc(name, "https://other.example.com"));
    mock.clearLog();
    // The POST is answered 409 by the server, but the client sees the connection drop.
    mock.faults.inject({ method: "POST", path: base(), kind: "commit-then-drop" });
    const err = await engine.create(KIND, await checked(oidc(name))).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    assert.match(
      err.message,
      new RegExp(
        `^AuthProvider "${name}": the create's answer was lost, and an object of that name already exists \\(id [^)]+\\) and differs`,
      ),
    );
  });

  it("a 400 that is not a clash is the server's error, with no lookup", async () => {
    const err = await engine
      .create(KIND, {
        name: unique(),
        type: "OIDC",
        frontdoorId: mock.credentials.frontdoorId,
        data: { issuer: "x" },
      })
      .catch((e) => e);
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 400);
    assert.deepEqual(
      mock.log.map((e) => e.method),
      ["POST"],
    );
  });

  it("import ids: `<frontdoorId>/<id>` reads that frontdoor's object; an id that is no id fails before any request", async () => {
    const name = unique();
    const id = await createOutside(oidc(name));
    mock.clearLog();
    const fd = mock.credentials.frontdoorId;
    const read = await engine.read(KIND, `${fd}/${id}`, {});
    assert.equal(read.id, id);
    assert.equal((read.props as { frontdoorId: string }).frontdoorId, fd);
    assert.equal((read.props as { name: string }).name, name);
    const plain = await engine.read(KIND, id, {});
    assert.equal(plain.id, id, "a plain id: the configured frontdoor");
    mock.clearLog();
    for (const [bad, why] of [
      ["..", 'AuthProvider: id ".." must be an id, not ".."'],
      [`${fd}/a?b`, `AuthProvider: id "${fd}/a?b" must be an id: no / ? # % or control characters`],
      ["../x", 'AuthProvider: frontdoorId ".." must be an id, not ".."'],
    ]) {
      const err = await engine.read(KIND, bad, {}).catch((e) => e);
      assert.ok(err instanceof ProviderError, String(err));
      assert.equal(err.message, why);
    }
    assert.deepEqual(mock.log, [], "nothing sent");
  });

  it("an object gone on read is an empty answer; delete releases it; an unexpected error names the resource", async () => {
    const name = unique();
    const id = await createOutside(oidc(name));
    await engine.remove(KIND, id, { name });
    assert.deepEqual(await engine.read(KIND, id, { name }), {});
    // A state whose data is no object: the update's own code fails, and the error names the resource.
    const err = await engine
      .update(KIND, id, { name, data: {} }, { name, type: "OIDC", data: null })
      .catch((e) => e);
    assert.ok(err instanceof Error, String(err));
    assert.match(err.message, new RegExp(`^AuthProvider "${name}": `));
  });

  it("check: bad settings fail every resource naming the setting, before its own failures", async () => {
    await configureFor({ ...mockConfig(mock), "frontdoor:maxRetries": "-1" });
    const result = await engine.check(KIND, {}, { name: "", type: "OIDC", data: {} });
    assert.equal(result.failures[0].property, "frontdoor:maxRetries");
    assert.ok(result.failures.length > 1, "the resource's own failures follow");
    await configureFor(mockConfig(mock));
    const fine = await engine.check(KIND, {}, { ...oidc(unique()), __provider: "serialized" });
    assert.deepEqual(fine.failures, []);
    assert.equal(fine.inputs.__provider, "serialized");
    assert.equal(
      fine.inputs.frontdoorId,
      mock.credentials.frontdoorId,
      "the configured frontdoor is the default",
    );
    assert.deepEqual(mock.log, [], "check sends nothing");
  });
});

// The hosts' check (engine.checkOnline, provider/preflight.ts): before anything is planned, one login
// and one read-only request per process and API prove the credentials `up` needs, failing with the
// server's answer as `up` gets it (the mock's answers: 401 for an unknown token, 403 for a frontdoor the
// token has no access to, the Edge login's 401). Each test configures settings of its own (a distinct
// requestTimeoutSeconds), so it gets new clients and a proof of its own.
describe("engine: the hosts' check proves the credentials online (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  const mock = useMock();
  let round = 0;
  const configured = async (overrides: Record<string, string> = {}) => {
    round++;
    await configureFor({
      ...mockConfig(mock),
      "frontdoor:requestTimeoutSeconds": `${30 + round}`,
      ...overrides,
    });
    mock.clearLog();
  };
  const provider = (name: string) => ({
    name,
    type: "OIDC",
    data: {
      issuer: "https://login.example.com",
      client_id: "frontdoor",
      client_secret: "preflight-secret-1",
    },
  });
  const identity = (name: string) => ({ name, type: "Device", isAdmin: false });
  const sent = () => mock.log.map((e) => `${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
  /** The one failure of a check that the proof failed: the setting it blames and the server's answer. */
  const proofFailure = async (work: Promise<{ failures: { property: string; reason: string }[] }>) => {
    const { failures } = await work;
    assert.equal(failures.length, 1, JSON.stringify(failures));
    return failures[0];
  };
  const rejection = (work: Promise<unknown>) =>
    work.then(
      () => assert.fail("expected the check to fail"),
      (err: unknown) => err as ApiError,
    );

  it("good settings: one read per frontdoor and one login and one read for the Edge API, for any number of checks", async () => {
    await configured();
    const fd = mock.credentials.frontdoorId;
    for (const name of ["p-1", "p-2", "p-3"]) {
      const result = await engine.checkOnline(KIND, {}, provider(name));
      assert.deepEqual(result.failures, []);
    }
    for (const name of ["i-1", "i-2"]) await engine.checkOnline("Identity", {}, identity(name));
    assert.deepEqual(sent(), [
      `GET /frontdoor/${fd}/auth-providers?page=0&size=1 200`,
      "POST /edge/management/v1/authenticate?method=password 200",
      "GET /edge/management/v1/auth-policies?limit=1 200",
    ]);
    // The login is the session the creates of `up` go on with: no second login.
    await engine.create("Identity", (await engine.check("Identity", {}, identity("i-made"))).inputs);
    assert.equal(sent().filter((r) => r.includes("/authenticate")).length, 1);
  });

  it("a wrong token fails the check with the server's answer, as the create of `up` fails; every later check alike", async () => {
    await configured({ "frontdoor:token": "not-the-token-0000" });
    const failure = await proofFailure(engine.checkOnline(KIND, {}, provider("p-bad")));
    assert.equal(failure.property, "frontdoor:token");
    assert.match(
      failure.reason,
      new RegExp(
        `^AuthProvider "p-bad": GET http://127\\.0\\.0\\.1:\\d+/frontdoor/${mock.credentials.frontdoorId}/auth-providers failed \\(HTTP 401 unauthorized\\): invalid access token$`,
      ),
    );
    const again = await proofFailure(engine.checkOnline(KIND, {}, provider("p-bad-2")));
    assert.equal(again.reason, failure.reason, "the same proof: one request, not one per resource");
    assert.equal(sent().length, 1);
    const up = await rejection(engine.create(KIND, (await engine.check(KIND, {}, provider("p-bad"))).inputs));
    assert.ok(up instanceof ApiError, String(up));
    assert.equal(up.status, 401);
    assert.ok(failure.reason.endsWith(up.serverMessage), `${failure.reason} / ${up.serverMessage}`);
  });

  it("a frontdoor the token cannot reach fails the check (403), each frontdoor proved once", async () => {
    await configured();
    const other = mock.credentials.otherFrontdoorId;
    const failure = await proofFailure(
      engine.checkOnline(KIND, {}, { ...provider("p-other"), frontdoorId: other }),
    );
    assert.equal(failure.property, "frontdoorId");
    assert.match(
      failure.reason,
      new RegExp(
        `GET http://127\\.0\\.0\\.1:\\d+/frontdoor/${other}/auth-providers failed \\(HTTP 403 not_found\\): frontdoor ${other} not found`,
      ),
    );
    assert.deepEqual((await engine.checkOnline(KIND, {}, provider("p-mine"))).failures, []);
    assert.equal(sent().length, 2, "one read for each frontdoor");
  });

  it("a wrong Edge password fails the check with the login's answer, as `up` does", async () => {
    await configured({ "frontdoor:edgePassword": "not-the-password" });
    const failure = await proofFailure(engine.checkOnline("Identity", {}, identity("i-bad")));
    assert.equal(failure.property, "frontdoor:edgePassword");
    assert.match(
      failure.reason,
      /^Edge authentication \(method=password\): POST http:\/\/127\.0\.0\.1:\d+\/edge\/management\/v1\/authenticate failed \(HTTP 401/,
    );
    assert.deepEqual(sent(), ["POST /edge/management/v1/authenticate?method=password 401"]);
    const up = await rejection(
      engine.create("Identity", (await engine.check("Identity", {}, identity("i-bad"))).inputs),
    );
    assert.equal(up.message, failure.reason);
  });

  it("no request: with bad input, with bad settings, with frontdoor:offlinePreview, for a frontdoor id not known yet", async () => {
    await configured({ "frontdoor:token": "not-the-token-0000" });
    const bad = await engine.checkOnline(KIND, {}, { name: "", type: "OIDC", data: {} });
    assert.ok(bad.failures.length > 0);
    const unknown = await engine.checkOnline(KIND, {}, { ...provider("p-later"), frontdoorId: UNKNOWN });
    assert.deepEqual(unknown.failures, []);
    await configured({ "frontdoor:token": "not-the-token-0000", "frontdoor:maxRetries": "-1" });
    const settings = await engine.checkOnline(KIND, {}, provider("p-settings"));
    assert.equal(settings.failures[0].property, "frontdoor:maxRetries");
    await configured({ "frontdoor:token": "not-the-token-0000", "frontdoor:offlinePreview": "true" });
    assert.deepEqual((await engine.checkOnline(KIND, {}, provider("p-offline"))).failures, []);
    assert.deepEqual((await engine.checkOnline("Identity", {}, identity("i-offline"))).failures, []);
    assert.deepEqual(mock.log, []);
  });
});
