// The settings' schema (provider/settings.ts) and what is read through it (provider/config.ts): every
// key has its environment variable and description; an unknown `frontdoor:` key is refused naming the
// key meant; a base URL pasted with its API path is used without it, with a warning; the OpenZiti
// Terraform provider's ZITI_API_* variables are fallbacks after the provider's own; and a resource's
// check (the engine's, which both hosts run) fails when a setting its API needs is missing.
import assert from "node:assert/strict";
import { readSettings, unknownSettingProblems } from "../provider/config";
import * as engine from "../provider/engine";
import * as provider from "../provider/plugin/provider";
import { editDistance, nearestSetting, parseSettings, SETTING_NAMES, SETTINGS } from "../provider/settings";
import { captureStderr } from "./support/stderr";

const read = (config: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  readSettings((key) => config[key], env);

describe("settings schema", () => {
  it("every setting has an environment variable, a description and a zod form; the names are unique", () => {
    assert.ok(SETTING_NAMES.length >= 29);
    for (const name of SETTING_NAMES) {
      const spec = SETTINGS[name];
      assert.ok(spec.env.length > 0 && spec.env.every((e) => /^[A-Z][A-Z0-9_]+$/.test(e)), name);
      assert.ok(spec.description.length > 10, name);
      assert.equal(typeof spec.value, "function", name);
    }
    const envs = SETTING_NAMES.flatMap((n) => [...SETTINGS[n].env]);
    assert.equal(new Set(envs).size, envs.length, "no environment variable feeds two settings");
  });

  it("offlinePreview: FRONTDOOR_OFFLINE_PREVIEW, a boolean, false by default", () => {
    assert.deepEqual(SETTINGS.offlinePreview.env, ["FRONTDOOR_OFFLINE_PREVIEW"]);
    const parsed = parseSettings({});
    assert.ok(parsed.ok);
    assert.equal(parsed.settings.offlinePreview, false);
    const on = parseSettings({ offlinePreview: "yes" });
    assert.ok(on.ok && on.settings.offlinePreview === true);
    const bad = parseSettings({ offlinePreview: "maybe" });
    assert.ok(!bad.ok);
    assert.deepEqual(bad.issues, [{ name: "offlinePreview", reason: 'must be true or false, got "maybe"' }]);
  });

  it("parses once into typed values, defaults filled in, every bad value named in the schema's order", () => {
    const parsed = parseSettings({
      maxRetries: " 3 ",
      requestTimeoutSeconds: "2.5",
      edgeUrls: "https://a, https://b",
    });
    assert.ok(parsed.ok);
    assert.equal(parsed.settings.maxRetries, 3);
    assert.equal(parsed.settings.requestTimeoutSeconds, 2.5);
    assert.equal(parsed.settings.retryTimeoutSeconds, 120);
    assert.deepEqual(parsed.settings.edgeUrls, ["https://a", "https://b"]);
    assert.equal(parsed.settings.debug, false);
    const bad = parseSettings({ maxRetries: "many", apiUrl: "http://api.example.com", debug: "x" });
    assert.ok(!bad.ok);
    assert.deepEqual(
      bad.issues.map((i) => i.name),
      ["apiUrl", "maxRetries", "debug"],
    );
    assert.match(bad.issues[0]!.reason, /^uses plain http to api\.example\.com/);
    assert.ok(parseSettings({ apiUrl: "http://api.example.com", allowPlainHttp: "true" }).ok);
  });

  it("edit distance: insertions, deletions and substitutions", () => {
    assert.equal(editDistance("retryTimeoutSecond", "retryTimeoutSeconds"), 1);
    assert.equal(editDistance("edgeUrl2", "edgeUrl"), 1);
    assert.equal(editDistance("kitten", "sitting"), 3);
    assert.equal(editDistance("", "abc"), 3);
  });

  it("an unknown key names the key meant; one far from every key names none; the engine's keys pass", () => {
    assert.equal(nearestSetting("retryTimeoutSecond"), "retryTimeoutSeconds");
    assert.equal(nearestSetting("edgeurl2"), "edgeUrl");
    assert.equal(nearestSetting("apiURL"), "apiUrl");
    assert.equal(nearestSetting("somethingElseEntirely"), undefined);
    const problems = unknownSettingProblems([
      "retryTimeoutSecond",
      "apiUrl",
      "version",
      "pluginDownloadURL",
      "zzz",
    ]);
    assert.deepEqual(
      problems.map((p) => p.key),
      ["frontdoor:retryTimeoutSecond", "frontdoor:zzz"],
    );
    assert.match(problems[0]!.reason, /did you mean `frontdoor:retryTimeoutSeconds`\?/);
    assert.doesNotMatch(problems[1]!.reason, /did you mean/);
  });

  it("plugin CheckConfig refuses an unknown key with the suggestion, and accepts version", () => {
    const failures = provider.checkConfig({
      edgeUrl2: "https://ctrl",
      version: "0.1.0",
      apiUrl: "https://a",
    });
    assert.deepEqual(
      failures.map((f) => f.property),
      ["edgeUrl2"],
    );
    assert.match(
      failures[0]!.reason,
      /^frontdoor:edgeUrl2 is no setting of this provider: did you mean `frontdoor:edgeUrl`\?/,
    );
  });
});

describe("settings: API paths pasted into base URLs, ZITI_API_* fallbacks", () => {
  it("edgeUrl with /edge/management/v1 (the Terraform provider's host) or /edge/client/v1: the path removed, one warning", async () => {
    const { result, written } = await captureStderr(async () => [
      read({ "frontdoor:edgeUrl": "https://ctrl.example.com:1280/edge/management/v1" }).edgeUrl,
      read({ "frontdoor:edgeUrl": "https://ctrl.example.com:1280/edge/management/v1" }).edgeUrl,
      read({ "frontdoor:edgeUrl": "https://ctrl.example.com:1280/edge/client/v1/" }).edgeUrl,
      read({ "frontdoor:edgeUrls": "https://a:1280/edge/management/v1, https://b:1280" }).edgeUrls,
      read({ "frontdoor:edgeUrl": "https://ctrl.example.com:1280/base" }).edgeUrl,
    ]);
    assert.deepEqual(result, [
      "https://ctrl.example.com:1280",
      "https://ctrl.example.com:1280",
      "https://ctrl.example.com:1280",
      "https://a:1280, https://b:1280",
      "https://ctrl.example.com:1280/base",
    ]);
    const warnings = written
      .join("")
      .split("\n")
      .filter((l) => l.includes("ends in the API path"));
    assert.equal(warnings.length, 3, written.join(""));
    assert.match(
      warnings[0]!,
      /frontdoor:edgeUrl: https:\/\/ctrl\.example\.com:1280\/edge\/management\/v1 ends in the API path \/edge\/management\/v1, which the provider adds itself: using https:\/\/ctrl\.example\.com:1280$/,
    );
  });

  it("apiUrl with /frontdoor or /frontdoor/<id>/...: the path removed; a prefix before it kept", async () => {
    const { result } = await captureStderr(async () => [
      read({ "frontdoor:apiUrl": "https://gateway.example.com/frontdoor" }).apiUrl,
      read({ "frontdoor:apiUrl": "https://gateway.example.com/api/frontdoor/fd-1/auth-providers" }).apiUrl,
      read({ "frontdoor:apiUrl": "https://gateway.example.com/frontdoors" }).apiUrl,
    ]);
    assert.deepEqual(result, [
      "https://gateway.example.com",
      "https://gateway.example.com/api",
      "https://gateway.example.com/frontdoors",
    ]);
  });

  it("ZITI_API_HOST, ZITI_API_USERNAME, ZITI_API_PASSWORD: after frontdoor: config and the provider's own variables", async () => {
    const tf = {
      ZITI_API_HOST: "https://tf.example.com:1280/edge/management/v1",
      ZITI_API_USERNAME: "tf-admin",
      ZITI_API_PASSWORD: "tf-password-1",
    };
    const { result } = await captureStderr(async () => [
      read({}, tf),
      read(
        {},
        { ...tf, ZITI_EDGE_URL: "https://own.example.com", ZITI_USERNAME: "own", ZITI_PASSWORD: "own-pw" },
      ),
      read({ "frontdoor:edgeUrl": "https://cfg.example.com", "frontdoor:edgeUsername": "cfg" }, tf),
    ]);
    assert.deepEqual(
      result!.map((s) => [s.edgeUrl, s.edgeUsername, s.edgePassword]),
      [
        ["https://tf.example.com:1280", "tf-admin", "tf-password-1"],
        ["https://own.example.com", "own", "own-pw"],
        ["https://cfg.example.com", "cfg", "tf-password-1"],
      ],
    );
  });
});

describe("settings: what a resource's API needs is checked at its check (before any resource is planned)", () => {
  const checkWith = async (config: Record<string, string>, kind: string, inputs: Record<string, unknown>) => {
    await engine.configure({ get: (key) => config[key] });
    return (await engine.check(kind, {}, inputs)).failures;
  };
  after(() => engine.configure({ get: () => undefined }));

  it("a Frontdoor kind: apiUrl and a token (or client credentials), each named with its environment variable", async () => {
    const failures = await checkWith({}, "AuthProvider", {
      frontdoorId: "fd-1",
      name: "n",
      type: "API_KEY",
      data: { header_name: "x-api-key", api_key: "k-0123456789abcdef" },
    });
    const named = failures.filter((f) => f.property.startsWith("frontdoor:"));
    assert.deepEqual(
      named.map((f) => f.property),
      ["frontdoor:apiUrl", "frontdoor:token"],
    );
    assert.match(
      named[0]!.reason,
      /^is not set: .*pulumi config set frontdoor:apiUrl \.\.\., or FRONTDOOR_API_URL\)$/,
    );
    assert.match(
      named[1]!.reason,
      /^Frontdoor API credentials are missing: set frontdoor:token \(FRONTDOOR_TOKEN/,
    );
    const oauth = await checkWith(
      {
        "frontdoor:apiUrl": "https://a.example.com",
        "frontdoor:clientId": "c",
        "frontdoor:clientSecret": "s",
        "frontdoor:tokenUrl": "https://a.example.com/oauth2/token",
      },
      "AuthProvider",
      {
        frontdoorId: "fd-1",
        name: "n",
        type: "API_KEY",
        data: { header_name: "x-api-key", api_key: "k-0123456789abcdef" },
      },
    );
    assert.deepEqual(oauth, [], "client credentials are a login");
  });

  it("an Edge kind: a controller and one login; an identity file, a certificate or a JWT is a login", async () => {
    const none = await checkWith({}, "AuthPolicy", { name: "p" });
    assert.deepEqual(
      none.filter((f) => f.property.startsWith("frontdoor:")).map((f) => f.property),
      ["frontdoor:edgeUrl", "frontdoor:edgeUsername"],
    );
    assert.match(none[0]!.reason, /ZITI_EDGE_URL \/ ZITI_API_HOST\)$/);
    const noPassword = await checkWith(
      { "frontdoor:edgeUrl": "https://c", "frontdoor:edgeUsername": "admin" },
      "AuthPolicy",
      {
        name: "p",
      },
    );
    assert.deepEqual(
      noPassword.map((f) => f.property),
      ["frontdoor:edgePassword"],
    );
    for (const login of <Record<string, string>[]>[
      { "frontdoor:edgeJwt": "a.b.c" },
      { "frontdoor:edgeJwtAudience": "ziti" },
      { "frontdoor:edgeUsername": "admin", "frontdoor:edgePassword": "secret1" },
    ])
      assert.deepEqual(
        await checkWith({ "frontdoor:edgeUrl": "https://c", ...login }, "AuthPolicy", { name: "p" }),
        [],
      );
  });

  it("a setting not known yet (an explicit provider fed by another resource, in preview) is not missing", async () => {
    await engine.configure({ get: () => undefined, pending: ["apiUrl", "token"] });
    const { failures } = await engine.check(
      "AuthProvider",
      {},
      {
        frontdoorId: "fd-1",
        name: "n",
        type: "API_KEY",
        data: { header_name: "x-api-key", api_key: "k-0123456789abcdef" },
      },
    );
    assert.deepEqual(failures, []);
  });

  it("the dynamic host's stack config: an unknown frontdoor: key fails every check, other namespaces pass", async () => {
    const raw = { "frontdoor:edgeUrl2": "https://c", "proj:edgeUrl2": "x", "frontdoor:edgeJwt": "a.b.c" };
    await engine.configure({ get: (key) => (raw as Record<string, string>)[key], rawConfig: raw });
    const { failures } = await engine.check("AuthPolicy", {}, { name: "p" });
    assert.deepEqual(
      failures.map((f) => f.property),
      ["frontdoor:edgeUrl2", "frontdoor:edgeUrl"],
    );
    assert.match(failures[0]!.reason, /did you mean `frontdoor:edgeUrl`\?/);
  });
});
