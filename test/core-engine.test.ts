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
