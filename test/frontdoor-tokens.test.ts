// CertificateRequestToken through the provider's host entry points, and the token-authenticated
// functions (no API credentials), against the mock over real HTTP.
import * as assert from "node:assert/strict";
import forge from "node-forge";
import {
  createCertificateWithToken,
  validateCertificateRequestToken,
} from "../provider/functions/certificates";
import { redact } from "../provider/redact";
import { resourceDefinition } from "../provider/resources";
import { csrPem, selfSignedPem } from "./frontdoor-pki";
import { type MockServer, startMockServer } from "./mock/server";
import { configureFor, createChecked, engine, mockConfig, updateChecked } from "./support/engine";

const KIND = "CertificateRequestToken";

describe("CertificateRequestToken (engine against the mock)", () => {
  let mock: MockServer;
  let fd: string;
  /** What a device has: the API address and its frontdoor, but no credentials. */
  let device: { apiUrl: string; frontdoorId: string };
  before(async () => {
    mock = await startMockServer({ frontdoor: { certificateRequestTokenTtlSeconds: 3600 } });
    fd = mock.credentials.frontdoorId;
    device = { apiUrl: mock.url, frontdoorId: fd };
  });
  after(() => mock.close());
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.clearLog();
  });

  it("creates, reads back without drift, updates in place, keeps the token, imports and deletes", async () => {
    const declared = { name: "sensor-1", commonName: "sensor-1.example.com" };
    const { id, outs } = await createChecked(KIND, declared);
    assert.match(outs.token as string, /^crt_/);
    assert.equal(outs.organization, null);
    assert.equal(outs.createdBy, "demo-user@example.com");
    const ttl = Date.parse(outs.expiresAt as string) - Date.parse(outs.createdAt as string);
    assert.equal(ttl, 3600_000);

    const read = await engine.read(KIND, id, outs);
    assert.deepEqual(read, { id, props: outs });
    const inputs = (await engine.check(KIND, {}, declared)).inputs;
    assert.equal((await engine.diff(KIND, id, read.props!, inputs)).changes, false, "unset == null");

    mock.clearLog();
    const renamed = await updateChecked(KIND, id, outs, { ...declared, name: "sensor-1b" });
    assert.deepEqual(renamed.diff.replaces, []);
    assert.deepEqual(
      mock.log.map((e) => e.method),
      ["PATCH", "GET"],
    );
    mock.clearLog();
    const subject = await updateChecked(KIND, id, renamed.result!.outs, {
      name: "sensor-1b",
      organization: "Acme",
      organizationalUnit: "Sensors",
    });
    assert.deepEqual(
      mock.log.map((e) => e.method),
      ["PUT", "GET"],
    );
    const after = subject.result!.outs;
    assert.equal(after.commonName, null, "a PUT clears what is no longer declared");
    assert.equal(after.organization, "Acme");
    assert.equal(after.token, outs.token, "the token never changes");
    assert.equal(after.createdAt, outs.createdAt);

    const imported = await engine.read(KIND, `${fd}/${id}`, { name: "sensor-1b" });
    assert.deepEqual(imported, { id, props: after });
    assert.deepEqual((await engine.diff(KIND, id, after, { ...after, frontdoorId: "elsewhere" })).replaces, [
      "frontdoorId",
    ]);
    await engine.remove(KIND, id, after);
    assert.deepEqual(await engine.read(KIND, id, after), {});
  });

  it("marks the token a secret output and keeps it out of errors", async () => {
    assert.deepEqual(resourceDefinition(KIND).secretOutputs, ["token"]);
    const { id, outs } = await createChecked(KIND, { name: "secret-check" });
    mock.frontdoor.remove(fd, "certificate-request-tokens", id);
    // Registered as a secret when read: any message that would carry it is redacted.
    assert.equal(redact(`x ${outs.token} y`), "x [secret] y");
  });

  it("a CSR with a valid token: certificate with the token's subject and name; the token is then gone", async () => {
    const { id, outs } = await createChecked(KIND, {
      name: "device-7",
      commonName: "device-7.example.com",
      organization: "Acme",
    });
    const token = outs.token as string;
    const valid = await validateCertificateRequestToken({ ...device, token });
    assert.equal(valid.name, "device-7");
    assert.equal(valid.commonName, "device-7.example.com");
    assert.equal(valid.expiresAt, outs.expiresAt);
    assert.equal(valid.id, id);
    assert.ok(!("token" in valid), "the result does not repeat the token");

    const created = await createCertificateWithToken({ ...device, token, csrPem: csrPem("ignored-cn") });
    assert.equal(created.name, "device-7");
    assert.equal(created.frontdoorId, fd);
    const cert = mock.frontdoor.get(fd, "client-certificates", created.id)!;
    const issued = forge.pki.certificateFromPem(cert.value as string);
    assert.equal(issued.subject.getField("CN").value, "device-7.example.com", "the token's subject wins");
    assert.equal(issued.subject.getField("O").value, "Acme");
    assert.ok(forge.pki.certificateFromPem(mock.frontdoor.caCertificatePem(fd)).verify(issued));

    // Single use: refresh reports the token deleted; a second use and a validation fail clearly.
    assert.deepEqual(await engine.read(KIND, id, outs), {});
    await assert.rejects(
      createCertificateWithToken({ ...device, token, csrPem: csrPem("again") }),
      (err: Error) => {
        assert.match(
          err.message,
          /createCertificateWithToken: certificate request token expired or already used \(HTTP 401/,
        );
        assert.ok(!err.message.includes(token), err.message);
        return true;
      },
    );
    await assert.rejects(validateCertificateRequestToken({ ...device, token }), (err: Error) => {
      assert.match(err.message, /not found \(unknown, or already used\)/);
      assert.ok(!err.message.includes(token), err.message);
      return true;
    });
    // The ClientCertificate made with the token can be adopted into a program with `import`.
    const adopted = await engine.read("ClientCertificate", `${fd}/${created.id}`, { name: "device-7" });
    assert.equal(adopted.props!.subject, "O=Acme,CN=device-7.example.com");
    await engine.remove("ClientCertificate", created.id, adopted.props!);
  });

  it("uploads a certificate with a token under the given name, with no API credentials at all", async () => {
    const { outs } = await createChecked(KIND, { name: "upload-token" });
    const created = await createCertificateWithToken({
      ...device,
      token: outs.token as string,
      name: "uploaded-by-device",
      certificatePem: selfSignedPem("uploaded"),
    });
    assert.equal(created.name, "uploaded-by-device");
    assert.equal(mock.log.at(-1)!.path, `/frontdoor/${fd}/client-certificates/token/[redacted]`);
    assert.equal(mock.log.at(-1)!.status, 201);
    mock.frontdoor.remove(fd, "client-certificates", created.id);
  });

  it("rejects bad arguments before calling", async () => {
    await assert.rejects(
      createCertificateWithToken({ ...device, token: "crt_x", csrPem: "a", certificatePem: "b" }),
      /csrPem: give exactly one of csrPem and certificatePem/,
    );
    await assert.rejects(
      createCertificateWithToken({ ...device, token: "crt_x", certificatePem: "b" }),
      /name: required with certificatePem/,
    );
    await assert.rejects(
      validateCertificateRequestToken({ token: "crt_x", frontdoorId: fd }),
      /needs frontdoor:apiUrl .*FRONTDOOR_API_URL/,
    );
    assert.equal(mock.log.length, 0);
  });
});

describe("CertificateRequestToken expiry", () => {
  let mock: MockServer;
  before(async () => {
    mock = await startMockServer({ frontdoor: { certificateRequestTokenTtlSeconds: 1 } });
  });
  after(() => mock.close());

  it("an expired token fails clearly, without the token in the message", async () => {
    await configureFor(mockConfig(mock));
    const { outs } = await createChecked(KIND, { name: "short-lived" });
    const token = outs.token as string;
    const device = { apiUrl: mock.url, frontdoorId: mock.credentials.frontdoorId, token };
    await validateCertificateRequestToken(device);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const call of [
      () => validateCertificateRequestToken(device),
      () => createCertificateWithToken({ ...device, csrPem: csrPem("late") }),
    ]) {
      await assert.rejects(call(), (err: Error) => {
        assert.match(
          err.message,
          /certificate request token expired or already used \(HTTP 401: .*expired\)/,
        );
        assert.ok(!err.message.includes(token), err.message);
        return true;
      });
    }
  });
});
