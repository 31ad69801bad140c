// The certificate request token calls against a scripted Frontdoor API (test/support/scriptedServer.ts
// on 127.0.0.1): answers the mock never gives on purpose. A refusal other than 401/404 (the seed's
// errors table: 400 for an invalid body) is the API's own error, not a token refusal; a 404 names the
// function; an answer without a body gives every documented field as null; and each call closes its
// connection when it ends (the server keeps idle connections for 10 minutes, so only the client can).
import assert from "node:assert/strict";
import {
  createCertificateWithToken,
  validateCertificateRequestToken,
} from "../provider/functions/certificates";
import { type ScriptedServer, startScriptedServer } from "./support/scriptedServer";

const FD = "fd-token-answers";
const TOKEN = "crt_token-answers-value-6161";

describe("certificate request token calls: the API's other answers", () => {
  let server: ScriptedServer;
  const device = () => ({ apiUrl: server.url, frontdoorId: FD, token: TOKEN });
  const credentials = { token: "api-token-answers-77" };
  const json = (status: number, body?: unknown) =>
    server.script.push({
      status,
      headers: { "content-type": "application/json" },
      body: body === undefined ? "" : JSON.stringify(body),
    });
  const failure = (run: Promise<unknown>) =>
    run.then(
      () => assert.fail("expected a failure"),
      (e: Error) => e.message,
    );

  before(async () => {
    server = await startScriptedServer(undefined, 600);
  });
  after(async () => {
    await server?.close();
  });

  it("a 400 is the API's error about the call, not a token refusal; the token is never quoted", async () => {
    json(400, { error: "BAD_REQUEST", message: "value is not a certificate signing request" });
    const created = await failure(createCertificateWithToken({ ...device(), csrPem: "not a CSR" }));
    assert.equal(
      created,
      `certificate request token: POST ${server.url}/frontdoor/${FD}/client-certificates/token/[secret] failed ` +
        "(HTTP 400 BAD_REQUEST): value is not a certificate signing request",
    );
    assert.ok(!created.includes(TOKEN), created);
    json(400, { error: "BAD_REQUEST", message: "malformed token" });
    const validated = await failure(validateCertificateRequestToken(device(), credentials));
    assert.equal(
      validated,
      `certificate request token: GET ${server.url}/frontdoor/${FD}/certificate-request-tokens/by-token/[secret] failed ` +
        "(HTTP 400 BAD_REQUEST): malformed token",
    );
    assert.ok(!validated.includes(TOKEN), validated);
  });

  it("arguments a validation does not know are refused naming the function, before any request", async () => {
    const before = server.seen.length;
    assert.equal(
      await failure(validateCertificateRequestToken({ ...device(), csrPem: "x" } as never, credentials)),
      'validateCertificateRequestToken: (arguments): Unrecognized key: "csrPem" csrPem',
    );
    assert.equal(server.seen.length, before);
  });

  it("a 404 of a validation names the function and says the token is not found", async () => {
    json(404, { error: "NOT_FOUND", message: "no such token" });
    assert.equal(
      await failure(validateCertificateRequestToken(device(), credentials)),
      "validateCertificateRequestToken: certificate request token not found (unknown, deleted, or consumed " +
        "by a service that deletes used tokens) (HTTP 404: no such token)",
    );
  });

  it("an answer without a body gives each documented field as null", async () => {
    json(200);
    const record = await validateCertificateRequestToken(device(), credentials);
    assert.ok(Object.keys(record).length > 0);
    for (const [key, value] of Object.entries(record)) assert.equal(value, null, key);
  });

  it("each call closes its connection when it ends", async () => {
    json(200, { id: "t1", name: "n" });
    await validateCertificateRequestToken(device(), credentials);
    json(200, { id: "c1", name: "n" });
    await createCertificateWithToken({ ...device(), csrPem: "csr" });
    await server.allClosed();
  });
});
