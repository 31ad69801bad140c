// OAuth2 client-credentials authentication of the Frontdoor API against the mock's token endpoint:
// renewal before expiry (counting the tokens issued), environment-variable fallbacks, and a wrong
// secret failing clearly without showing the secret.
import * as assert from "node:assert/strict";
import { type MockServer, startMockServer } from "../mock/server";
import { advanceClock, resetClock } from "./support/clock";
import { configureFor, createChecked, engine } from "./support/engine";

const KIND = "CertificateRequestToken";
const ENV_KEYS = [
  "NETFOUNDRY_CLIENT_ID",
  "NETFOUNDRY_PASSWORD",
  "NETFOUNDRY_OAUTH_URL",
  "NETFOUNDRY_API_TOKEN",
  "FRONTDOOR_API_URL",
  "FRONTDOOR_ID",
];

describe("Frontdoor OAuth2 client credentials (against the mock)", () => {
  let mock: MockServer;
  const saved: Record<string, string | undefined> = {};
  before(async () => {
    // Tokens of the default hour: renewed when fewer than 600 s remain (test/contracts/frontdoor-management-api.md, as NetFoundry's
    // tools do), which the fake clock reaches without waiting.
    mock = await startMockServer();
    for (const key of ENV_KEYS) saved[key] = process.env[key];
  });
  after(async () => {
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await mock.close();
  });
  afterEach(resetClock);
  beforeEach(() => {
    mock.clearLog();
    for (const key of ENV_KEYS) delete process.env[key];
  });

  const oauthConfig = (secret = mock.credentials.clientSecret) => ({
    "frontdoor:apiUrl": mock.url,
    "frontdoor:frontdoorId": mock.credentials.frontdoorId,
    "frontdoor:clientId": mock.credentials.clientId,
    "frontdoor:clientSecret": secret,
    "frontdoor:tokenUrl": mock.credentials.tokenUrl,
  });

  it("gets a token once, reuses it, and renews it before it expires", async () => {
    await configureFor(oauthConfig());
    const before = mock.frontdoor.oauthTokensIssued;
    const { id, outs } = await createChecked(KIND, { name: "oauth-1" });
    await engine.read(KIND, id, outs);
    await engine.read(KIND, id, outs);
    assert.equal(mock.frontdoor.oauthTokensIssued - before, 1, "one token for three calls");
    // 2999 s later 601 s remain: no renewal yet; one more second and fewer than 600 s remain.
    advanceClock(2999_000);
    await engine.read(KIND, id, outs);
    assert.equal(mock.frontdoor.oauthTokensIssued - before, 1, "renewed with more than 600 s left");
    advanceClock(2_000);
    const read = await engine.read(KIND, id, outs);
    assert.equal(read.id, id);
    assert.equal(mock.frontdoor.oauthTokensIssued - before, 2, "not renewed with fewer than 600 s left");
    // No call was refused on the way: renewal happened before expiry, not after a 401.
    assert.ok(mock.log.every((e) => e.status !== 401));
    await engine.remove(KIND, id, outs);
  });

  it("retries the token endpoint on 503 and a dropped connection, like any other call", async () => {
    await configureFor({
      ...oauthConfig(),
      "frontdoor:clientId": mock.credentials.clientId,
      "frontdoor:retryTimeoutSeconds": "30",
    });
    mock.faults.inject({ path: "/oauth2/token", kind: "503", retryAfterSeconds: 0 });
    mock.faults.inject({ path: "/oauth2/token", kind: "drop" });
    const { id, outs } = await createChecked(KIND, { name: "oauth-retried" });
    assert.deepEqual(
      mock.log.filter((e) => e.path === "/oauth2/token").map((e) => e.status),
      [503, 0, 200],
    );
    await engine.remove(KIND, id, outs);
  });

  it("falls back to NETFOUNDRY_CLIENT_ID + NETFOUNDRY_PASSWORD + NETFOUNDRY_OAUTH_URL", async () => {
    process.env.NETFOUNDRY_CLIENT_ID = mock.credentials.clientId;
    process.env.NETFOUNDRY_PASSWORD = mock.credentials.clientSecret;
    process.env.NETFOUNDRY_OAUTH_URL = mock.credentials.tokenUrl;
    process.env.FRONTDOOR_API_URL = mock.url;
    process.env.FRONTDOOR_ID = mock.credentials.frontdoorId;
    // The environment yields the same settings as the previous test's config, and the engine keeps its
    // clients (and cached token) while settings stay the same: start from other settings first.
    await configureFor({ "frontdoor:apiUrl": "http://127.0.0.1:9" });
    await configureFor({});
    const before = mock.frontdoor.oauthTokensIssued;
    const { id, outs } = await createChecked(KIND, { name: "oauth-env" });
    assert.equal(outs.frontdoorId, mock.credentials.frontdoorId);
    assert.equal(mock.frontdoor.oauthTokensIssued - before, 1);
    await engine.remove(KIND, id, outs);
  });

  it("falls back to NETFOUNDRY_API_TOKEN as a static bearer token", async () => {
    process.env.NETFOUNDRY_API_TOKEN = mock.credentials.frontdoorToken;
    await configureFor({
      "frontdoor:apiUrl": mock.url,
      "frontdoor:frontdoorId": mock.credentials.frontdoorId,
    });
    const before = mock.frontdoor.oauthTokensIssued;
    const { id, outs } = await createChecked(KIND, { name: "static-env" });
    assert.equal(mock.frontdoor.oauthTokensIssued, before, "no grant for a static token");
    await engine.remove(KIND, id, outs);
  });

  it("a wrong client secret fails clearly without showing the secret", async () => {
    const wrong = "wrong-client-secret-987654321";
    // One attempt: a refused grant is not worth retrying (and not a reason to look for an adoptable object).
    await configureFor({ ...oauthConfig(wrong), "frontdoor:maxRetries": "0" });
    await assert.rejects(createChecked(KIND, { name: "oauth-wrong" }), (err: Error) => {
      assert.match(
        err.message,
        new RegExp(`OAuth2 token: POST ${mock.url}/oauth2/token failed \\(HTTP 401 invalid_client\\)`),
      );
      assert.ok(!err.message.includes(wrong), err.message);
      assert.ok(!err.message.includes(mock.credentials.clientSecret), err.message);
      return true;
    });
    assert.ok(
      mock.log.every((e) => e.path === "/oauth2/token"),
      "no API call without a token",
    );
  });

  it("missing credentials name the config keys and environment variables", async () => {
    await configureFor({
      "frontdoor:apiUrl": mock.url,
      "frontdoor:frontdoorId": mock.credentials.frontdoorId,
    });
    await assert.rejects(
      createChecked(KIND, { name: "no-creds" }),
      /frontdoor:clientId \+ frontdoor:clientSecret \+ frontdoor:tokenUrl \(NETFOUNDRY_CLIENT_ID \+ NETFOUNDRY_PASSWORD \+ NETFOUNDRY_OAUTH_URL\)/,
    );
  });
});
