// A create that meets a name clash looks the object up (to adopt it when it matches). When that
// lookup fails too, the error says both: that the name is taken (the server's answer), and why the
// lookup failed, so the user knows an object of that name may exist. Mock on 127.0.0.1, with faults.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { ProviderError } from "../provider/http/errors";
import { configureFor, engine, mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";

describe("engine: a name clash whose lookup fails (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  const mock = useMock();
  const base = () => `/frontdoor/${mock.credentials.frontdoorId}/auth-providers`;
  const oidc = (name: string) => ({
    name,
    type: "OIDC",
    frontdoorId: mock.credentials.frontdoorId,
    data: {
      issuer: "https://login.example.com",
      client_id: "frontdoor",
      client_secret: "lookup-client-secret-1",
    },
  });
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.faults.clear();
  });
  afterEach(() => mock.faults.clear());

  it("the error names the clash, the failed lookup (its own message) and what the next up does", async () => {
    const name = `l-${randomUUID().slice(0, 8)}`;
    await engine.create("AuthProvider", oidc(name));
    mock.clearLog();
    mock.faults.inject({ method: "GET", path: base(), kind: "500", count: 10 });
    const err = await engine.create("AuthProvider", oidc(name)).catch((e) => e);
    assert.ok(err instanceof ProviderError, String(err));
    const quoted = `AuthProvider "${name}"`;
    assert.match(
      err.message,
      new RegExp(
        `^${quoted}: the name is taken \\(${quoted}: POST ${mock.url}${base()} failed \\(HTTP 409 conflict\\): [^)]*${name}[^)]*\\), ` +
          `and looking the object up failed: ${quoted}: GET ${mock.url}${base()} failed \\(HTTP 500 internal_error\\): internal error \\(injected\\)\\. ` +
          "An object of that name may exist: the next up adopts it if it matches the declaration\\.$",
      ),
    );
    assert.doesNotMatch(err.message, /lookup-client-secret-1/);
    assert.deepEqual(
      mock.log.map((e) => `${e.method} ${e.path} ${e.status}`),
      [`POST ${base()} 409`, `GET ${base()} 500`],
    );
  });
});
