// AuthProvider behaviour through the provider's host entry points, against the mock over real HTTP.
import * as assert from "node:assert/strict";
import { configureFor, createChecked, engine, mockConfig, updateChecked } from "./support/engine";
import { frontdoorApi, methodsSent, useMock } from "./support/fixtures";
import { waitFor } from "./support/wait";

const oidc = (secret = "oidc-client-secret-1") => ({
  name: "corp-sso",
  type: "OIDC",
  data: { issuer: "https://login.example.com", client_id: "frontdoor", client_secret: secret },
});

describe("AuthProvider (engine against the mock)", () => {
  const mock = useMock();
  /** An auth provider made by someone else, with a plain API call. */
  const createOutside = async (body: object): Promise<{ id: string }> => {
    const res = await frontdoorApi(mock, "POST", "auth-providers", body);
    assert.equal(res.status < 300, true, await res.clone().text());
    return (await res.json()) as { id: string };
  };
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.clearLog();
  });

  it("creates with defaults applied at check time and reads back the same state", async () => {
    const { id, outs } = await createChecked("AuthProvider", oidc());
    assert.deepEqual(outs, {
      frontdoorId: mock.credentials.frontdoorId,
      name: "corp-sso",
      type: "OIDC",
      enabled: true,
      data: {
        issuer: "https://login.example.com",
        client_id: "frontdoor",
        scopes: ["openid"],
        supports_pkce: false,
      },
      // The secret leaf is kept apart from `data`, in a property that is secret as a whole.
      secretValues: { "data.client_secret": "oidc-client-secret-1" },
    });
    const read = await engine.read("AuthProvider", id, outs);
    assert.deepEqual(read, { id, props: outs });
    const diff = await engine.diff(
      "AuthProvider",
      id,
      read.props!,
      (await engine.check("AuthProvider", {}, oidc())).inputs,
    );
    assert.equal(diff.changes, false);
    await engine.remove("AuthProvider", id, outs);
  });

  it("updates in place: PATCH for name/enabled, PUT for data; frontdoorId replaces", async () => {
    const { id, outs } = await createChecked("AuthProvider", oidc());
    mock.clearLog();
    const renamed = await updateChecked("AuthProvider", id, outs, {
      ...oidc(),
      name: "sso-2",
      enabled: false,
    });
    assert.equal(renamed.diff.changes, true);
    assert.deepEqual(renamed.diff.replaces, []);
    assert.deepEqual(methodsSent(mock), ["PATCH", "PATCH"]);
    assert.equal(renamed.result!.outs.name, "sso-2");
    assert.equal(renamed.result!.outs.enabled, false);
    mock.clearLog();
    const rotated = await updateChecked("AuthProvider", id, renamed.result!.outs, {
      ...oidc("rotated-secret-2"),
      name: "sso-2",
      enabled: false,
    });
    assert.deepEqual(methodsSent(mock), ["PUT"]);
    assert.deepEqual(rotated.result!.outs.secretValues, { "data.client_secret": "rotated-secret-2" });
    const moved = await engine.diff("AuthProvider", id, rotated.result!.outs, {
      ...rotated.result!.outs,
      frontdoorId: "another",
    });
    assert.deepEqual(moved.replaces, ["frontdoorId"]);
    await engine.remove("AuthProvider", id, rotated.result!.outs);
  });

  it("reports an object deleted behind its back as gone, and deleting it again is fine", async () => {
    const { id, outs } = await createChecked("AuthProvider", oidc());
    mock.frontdoor.remove(mock.credentials.frontdoorId, "auth-providers", id);
    assert.deepEqual(await engine.read("AuthProvider", id, outs), {});
    await engine.remove("AuthProvider", id, outs);
  });

  it("imports by <frontdoorId>/<id>", async () => {
    const { id, outs } = await createChecked("AuthProvider", oidc());
    const imported = await engine.read("AuthProvider", `${mock.credentials.frontdoorId}/${id}`, oidc());
    assert.deepEqual(imported, { id, props: outs });
    await engine.remove("AuthProvider", id, outs);
  });

  for (const [what, input, property] of [
    ["a missing name", { type: "OIDC", data: oidc().data }, "name"],
    ["an unknown type", { ...oidc(), type: "SAML" }, "type"],
    ["an issuer that is not a URL", { ...oidc(), data: { ...oidc().data, issuer: "login" } }, "data.issuer"],
    [
      "a wrongly typed field",
      { ...oidc(), data: { ...oidc().data, supports_pkce: "yes" } },
      "data.supports_pkce",
    ],
    ["an unknown field", { ...oidc(), colour: "blue" }, "colour"],
    ["an unknown data field", { ...oidc(), data: { ...oidc().data, extra: 1 } }, "data.extra"],
    [
      "a short API key",
      { name: "k", type: "API_KEY", data: { header_name: "x-api-key", api_key: "short" } },
      "data.api_key",
    ],
    [
      "a bad header name",
      { name: "k", type: "API_KEY", data: { header_name: "x api", api_key: "0123456789abcdef" } },
      "data.header_name",
    ],
  ] as const) {
    it(`fails check on ${what}, naming ${property}, without calling the API`, async () => {
      const { failures } = await engine.check("AuthProvider", {}, input as any);
      assert.ok(
        failures.some((f) => f.property === property),
        `expected a failure on ${property}: ${JSON.stringify(failures)}`,
      );
      assert.equal(mock.log.length, 0);
    });
  }

  it("fails check naming frontdoorId when neither the input nor the config sets it", async () => {
    const config = mockConfig(mock);
    delete config["frontdoor:frontdoorId"];
    await configureFor(config);
    const { failures } = await engine.check("AuthProvider", {}, oidc());
    assert.equal(failures[0].property, "frontdoorId");
    assert.match(failures[0].reason, /^required: set frontdoorId or the config frontdoor:frontdoorId/);
  });

  it("names the resource, status and server message on a duplicate, without the secret", async () => {
    const first = await createChecked("AuthProvider", oidc("dup-secret-value"));
    // The same declaration twice in one run: the second never adopts what the first holds.
    const error = await createChecked("AuthProvider", oidc("dup-secret-value")).catch((e) => e);
    assert.match(
      error.message,
      new RegExp(
        `AuthProvider "corp-sso": an object of that name already exists \\(id ${first.id}\\) ` +
          "\\(POST .*auth-providers: HTTP 409: .*corp-sso.*\\), and another resource of this deployment holds it",
      ),
    );
    assert.doesNotMatch(error.message, /dup-secret-value/);
    assert.equal(mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers").length, 1);
    await engine.remove("AuthProvider", first.id, first.outs);
  });

  it("explains missing credentials naming the config keys and environment variables", async () => {
    const config = mockConfig(mock);
    delete config["frontdoor:token"];
    await configureFor(config);
    const saved = { ...process.env };
    for (const name of ["FRONTDOOR_TOKEN", "NETFOUNDRY_API_TOKEN", "NETFOUNDRY_CLIENT_ID"])
      delete process.env[name];
    try {
      const error = await createChecked("AuthProvider", oidc()).catch((e) => e);
      assert.match(error.message, /frontdoor:token.*FRONTDOOR_TOKEN/);
    } finally {
      process.env = saved;
    }
  });

  it("retries 429 (honouring Retry-After) and 503, then succeeds", async () => {
    mock.faults.inject({
      method: "POST",
      path: "/auth-providers",
      kind: "429",
      retryAfterSeconds: 0,
      count: 1,
    });
    mock.faults.inject({ method: "POST", path: "/auth-providers", kind: "503", count: 1 });
    const { id, outs } = await createChecked("AuthProvider", oidc());
    assert.deepEqual(
      mock.log.filter((e) => e.method === "POST").map((e) => e.status),
      [429, 503, mock.log.at(-1)!.status],
    );
    await engine.remove("AuthProvider", id, outs);
  });

  it("does not adopt an object of the same name that differs from the declaration", async () => {
    // Made outside this provider (an object that another resource of this run holds is never adopted).
    const theirs = await createOutside(oidc("someone-elses-secret"));
    // Our create is refused (409), and the refusal is lost on the way back: ambiguous.
    mock.faults.inject({ method: "POST", path: "/auth-providers", kind: "commit-then-drop", count: 1 });
    const error = await createChecked("AuthProvider", oidc("our-secret-value-1")).catch((e) => e);
    assert.match(
      error.message,
      /AuthProvider "corp-sso": the create's answer was lost.*differs from the declaration in data: not adopted/,
    );
    assert.doesNotMatch(error.message, /our-secret-value-1|someone-elses-secret/);
    assert.equal(mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers").length, 1);
    assert.match(
      error.message,
      new RegExp(`id ${theirs.id}.*import: "${mock.credentials.frontdoorId}/${theirs.id}"`),
    );
    mock.frontdoor.remove(mock.credentials.frontdoorId, "auth-providers", theirs.id);
  });

  it("a create that times out is looked up: one object, whichever of the sends made it", async () => {
    await configureFor({ ...mockConfig(mock), "frontdoor:requestTimeoutSeconds": "1" });
    // The server carries the first POST out after 1.5 s, when the provider stopped waiting at 1 s.
    mock.faults.inject({ method: "POST", path: "/auth-providers", kind: "delay", delayMs: 1500, count: 1 });
    const from = mock.log.length;
    const { id, outs } = await createChecked("AuthProvider", oidc());
    // Until the delayed POST has been carried out (its log entry gets the status it was answered with).
    await waitFor(
      () => mock.log.slice(from).every((e) => e.method !== "POST" || e.status !== 0),
      "the delayed POST to be carried out",
    );
    const made = mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers");
    assert.deepEqual(
      made.map((p) => p.id),
      [id],
    );
    assert.ok(mock.log.filter((e) => e.method === "POST").length >= 2, "the create was sent again");
    await engine.remove("AuthProvider", id, outs);
  });

  it("a lost answer whose lookup fails says so; the next create adopts the object (the name clash)", async () => {
    mock.faults.inject({ method: "POST", path: "/auth-providers", kind: "commit-then-drop", count: 1 });
    mock.faults.inject({ method: "GET", path: "/auth-providers", kind: "500", count: 1 });
    const error = await createChecked("AuthProvider", oidc()).catch((e) => e);
    assert.match(
      String(error?.message),
      /AuthProvider "corp-sso": the create's outcome is unknown \(.*no response.*\), and looking the object up failed: .*HTTP 500.*the next up adopts it/,
    );
    const made = mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers");
    assert.equal(made.length, 1, "the lost create made it");
    const { id, outs } = await createChecked("AuthProvider", oidc());
    assert.equal(id, made[0].id);
    assert.equal(mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers").length, 1);
    await engine.remove("AuthProvider", id, outs);
  });

  it("adopts the object when a create's answer is lost, instead of duplicating it", async () => {
    mock.faults.inject({ method: "POST", path: "/auth-providers", kind: "commit-then-drop", count: 1 });
    const { id, outs } = await createChecked("AuthProvider", oidc());
    const all = mock.frontdoor.list(mock.credentials.frontdoorId, "auth-providers");
    assert.equal(all.filter((p: any) => p.name === "corp-sso").length, 1);
    assert.equal(outs.name, "corp-sso");
    await engine.remove("AuthProvider", id, outs);
  });
});
