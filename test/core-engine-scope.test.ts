// The engine's scoping and client reuse, through its host entry points against the mock on 127.0.0.1:
// a frontdoorId given on a resource wins over the configured one; an Edge id is never split at a
// slash (only Frontdoor import ids carry `<frontdoorId>/<id>`); configure with unchanged settings
// keeps the clients, so the Edge session is not opened again.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { ProviderError } from "../provider/http/errors";
import { configureFor, engine, mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";

describe("engine: scope defaults, import ids of Edge objects, client reuse (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  const mock = useMock();
  const unique = () => `s-${randomUUID().slice(0, 8)}`;
  const logins = () => mock.log.filter((e) => e.path.endsWith("/authenticate")).length;
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.clearLog();
  });

  it("check keeps a frontdoorId given on the resource, and fills in the configured one only when none is given", async () => {
    const given = `fd-${unique()}`;
    const news = {
      name: unique(),
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "c" },
    };
    const own = await engine.check("AuthProvider", {}, { ...news, frontdoorId: given });
    assert.equal(own.inputs.frontdoorId, given);
    const defaulted = await engine.check("AuthProvider", {}, news);
    assert.equal(defaulted.inputs.frontdoorId, mock.credentials.frontdoorId);
    assert.deepEqual(mock.log, [], "check makes no request");
  });

  it("an Edge id with a slash is refused before any request (only Frontdoor ids carry a scope)", async () => {
    const err = await engine.read("EdgeRouter", "scope/abc", {}).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    assert.equal(err.message, 'EdgeRouter: id "scope/abc" must be an id: no / ? # % or control characters');
    assert.deepEqual(mock.log, []);
  });

  it("configure again with the same settings keeps the Edge session: one login for reads on both sides", async () => {
    // Settings of this test alone: clients (and a session) of earlier tests are not reused.
    const settings = { ...mockConfig(mock), "frontdoor:maxRetries": "5" };
    await configureFor(settings);
    const missing = randomUUID();
    assert.deepEqual(await engine.read("EdgeRouter", missing, {}), {});
    const first = logins();
    assert.equal(first, 1, "the first Edge call logs in");
    await configureFor({ ...settings });
    assert.deepEqual(await engine.read("EdgeRouter", missing, {}), {});
    assert.equal(logins(), first, "no second login");
    await configureFor({ ...mockConfig(mock), "frontdoor:maxRetries": "3" });
    assert.deepEqual(await engine.read("EdgeRouter", missing, {}), {});
    assert.equal(logins(), first + 1, "changed settings: new clients, a new session");
  });
});
