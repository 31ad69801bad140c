// Secrets beyond the examples' scan (secrets-scan.test.ts): a secret input given as a plain value
// (not `pulumi.secret`, not `config.requireSecret`) is still stored as a secret, nested ones included;
// and a secret is masked in its encoded forms (percent-encoding, base64) in URLs, logs and errors.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { readState, runHarness } from "../harness";
import { isSecret } from "../harness/secrets";
import { HttpClient } from "../provider/http/client";
import { ApiError } from "../provider/http/errors";
import { setDebug } from "../provider/log";
import { redact, registerSecret } from "../provider/redact";
import { testCa } from "./edge-support";
import { mockConfig } from "./support/engine";
import { useMock, useTempDir } from "./support/fixtures";
import { encodedForms } from "./support/oracles/leaks";
import { captureStderr } from "./support/stderr";

/** Every form a secret may leak in (plain, JSON-escaped, base64(url), hex, URL-encoded: test/support/oracles). */
const leakedForms = encodedForms;

describe("secret inputs given as plain values are stored as secrets", function () {
  this.timeout(120_000);
  const mock = useMock();
  const dir = useTempDir("plain-secrets-");

  /** One resource declared with plain inputs (the program reads them with config.requireObject). */
  async function upAndDestroy(kind: string, inputs: Record<string, unknown>, check: (state: any) => void) {
    const { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword, ...plain } = mockConfig(mock);
    const options = {
      programDir: path.join(__dirname, "programs", "faults-bad-input"),
      stateFile: path.join(dir.path, `${kind}.json`),
      config: { ...plain, kind, inputs: JSON.stringify(inputs) },
      secretConfig: { "frontdoor:token": token, "frontdoor:edgePassword": edgePassword },
    };
    const up = await runHarness("up", options);
    assert.equal(up.exitCode, 0, up.stderr);
    check(readState(options.stateFile).resources.find((r) => r.name === "bad"));
    // What the state keeps of the resource (the state's config holds the test's own plain `inputs`).
    const file = JSON.parse(fs.readFileSync(options.stateFile, "utf8"));
    const raw = JSON.stringify([file.resources, file.outputs]);
    assert.ok(raw.includes('"ciphertext"'));
    const destroy = await runHarness("destroy", options);
    assert.equal(destroy.exitCode, 0, destroy.stderr);
    return { up, raw };
  }

  it("AuthProvider: data.client_secret (nested) is a secret leaf in the inputs and in secretValues", async () => {
    const secret = "plain-given-oidc-secret-7f3a";
    const { up, raw } = await upAndDestroy(
      "AuthProvider",
      {
        name: "plain-sso",
        type: "OIDC",
        data: { issuer: "https://login.example.com", client_id: "fd", client_secret: secret },
      },
      (resource) => {
        // The leaf is secret, not `data` as a whole (so a changed issuer shows by name); the outputs
        // keep the leaf in the secret property `secretValues`, not in `data`.
        assert.ok(isSecret(resource.inputs.data.client_secret), "the input secret is stored in plaintext");
        assert.ok(!isSecret(resource.inputs.data), "data as a whole is marked secret");
        assert.equal(resource.outputs.data.client_secret, undefined);
        assert.ok(isSecret(resource.outputs.secretValues));
      },
    );
    for (const form of leakedForms(secret)) {
      assert.ok(!raw.includes(form), `the state file holds ${form}`);
    }
    assert.ok(!up.stderr.includes(secret), "printed");
  });

  it("Ca: privateKeyPem given as a plain string is encrypted in the state", async () => {
    const ca = testCa("Plain Key CA");
    const { raw } = await upAndDestroy(
      "Ca",
      { name: "plain-key-ca", certPem: ca.certPem, privateKeyPem: ca.keyPem },
      (resource) => {
        assert.ok(isSecret(resource.inputs.privateKeyPem));
        assert.ok(isSecret(resource.outputs.privateKeyPem));
        assert.ok(!isSecret(resource.inputs.certPem), "only what is secret is marked");
      },
    );
    assert.ok(!raw.includes("PRIVATE KEY"), "the key's PEM label is in the state file");
    const keyBody = ca.keyPem.split(/\r?\n/)[1];
    assert.ok(!raw.includes(keyBody), `a line of the key is in the state file: ${keyBody}`);
  });
});

describe("redaction covers a secret's encoded forms", () => {
  const secret = "Zq9/secret value+with=odd&chars";
  before(() => registerSecret(secret));

  it("masks the secret raw, percent-encoded (either case), form-encoded, JSON-escaped and in base64", () => {
    const texts = [
      `GET /items/${encodeURIComponent(secret)} failed`,
      `GET /items/${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())}`,
      `?q=${new URLSearchParams({ q: secret }).toString().slice(2)}`,
      JSON.stringify({ echoed: `${secret}"quoted"` }),
      `token ${Buffer.from(secret).toString("base64")}`,
      `url-safe ${Buffer.from(secret).toString("base64url")}`,
      // Inside a longer encoded value, at each byte alignment: Basic credentials, a JWT-like blob.
      `Basic ${Buffer.from(`admin:${secret}`).toString("base64")}`,
      `Basic ${Buffer.from(`ad:${secret}`).toString("base64")}`,
      `blob ${Buffer.from(`{"k":"${secret}"}`).toString("base64url")}`,
    ];
    for (const text of texts) {
      const out = redact(text);
      assert.ok(out.includes("[secret]"), `not masked: ${text}`);
      for (const form of leakedForms(secret)) assert.ok(!out.includes(form), `${form} left in ${out}`);
      // Not even a long run of the encoded secret survives (at most the characters at the edges).
      const b64 = Buffer.from(secret).toString("base64");
      assert.ok(!out.includes(b64.slice(4, 16)), `part of the base64 left in ${out}`);
    }
    assert.equal(redact("nothing to see here"), "nothing to see here");
  });

  it("in a real error and debug log: a server echoing the URL and the Authorization header", async () => {
    // A server that quotes the request back in its error, as some do.
    const server = http.createServer((req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: "bad_request",
          message: `rejected ${req.url} (${req.headers.authorization})`,
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const basic = `Basic ${Buffer.from(`admin:${secret}`).toString("base64")}`;
    const client = new HttpClient(
      { baseUrl: `http://127.0.0.1:${port}`, apiName: "Echo API" },
      { headers: async () => ({ authorization: basic }) },
      (body) => body as { code?: string; message?: string },
    );
    setDebug(true);
    const { written, error } = await captureStderr(() =>
      client.request({ method: "GET", path: `/items/${encodeURIComponent(secret)}` }),
    );
    await client.close();
    server.close();
    assert.ok(error instanceof ApiError, String(error));
    const everything = [error.message, error.path, error.serverMessage, ...written].join("\n");
    assert.match(error.message, /HTTP 400/);
    assert.ok(written.length > 0, "the debug log wrote nothing");
    for (const form of leakedForms(secret))
      assert.ok(!everything.includes(form), `${form} in:\n${everything}`);
    assert.ok(everything.includes("/items/[secret]"), everything);
  });
});
