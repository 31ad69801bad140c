// CertificateRequestToken through the provider's host entry points, and the token-authenticated
// functions (no API credentials), against the mock over real HTTP.
import * as assert from "node:assert/strict";
import forge from "node-forge";
import { type MockServer, startMockServer } from "../mock/server";
import {
  createCertificateWithToken,
  validateCertificateRequestToken,
} from "../provider/functions/certificates";
import { redact } from "../provider/redact";
import { resourceDefinition } from "../provider/resources";
import { csrPem, selfSignedPem } from "./frontdoor-pki";
import { advanceClock, resetClock } from "./support/clock";
import { configureFor, createChecked, engine, mockConfig, updateChecked } from "./support/engine";
import { methodsSent, useMock } from "./support/fixtures";

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
    assert.deepEqual(methodsSent(mock), ["PATCH", "GET"]);
    mock.clearLog();
    const subject = await updateChecked(KIND, id, renamed.result!.outs, {
      name: "sensor-1b",
      organization: "Acme",
      organizationalUnit: "Sensors",
    });
    assert.deepEqual(methodsSent(mock), ["PUT", "GET"]);
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

  // That the hosts mark it secret on the wire is asserted through the plugin's gRPC interface by
  // test/plugin-secrets.test.ts (every secret of the table); here: the declaration and the errors.
  it("declares the token a secret output and keeps it out of the error of a call the API refuses", async () => {
    assert.deepEqual(resourceDefinition(KIND).secretOutputs, ["token"]);
    const { id, outs } = await createChecked(KIND, { name: "secret-check" });
    const token = outs.token as string;
    // The token is gone on the API's side: the call with it is refused, and the message names the
    // refusal, never the token.
    mock.frontdoor.remove(fd, "certificate-request-tokens", id);
    const refused = await createCertificateWithToken({ ...device, token, csrPem: csrPem("gone") }).catch(
      (e: Error) => e,
    );
    assert.ok(refused instanceof Error);
    assert.match(refused.message, /HTTP 4\d\d/);
    assert.ok(!refused.message.includes(token), refused.message);
    // Registered as a secret when read: any other message that would carry it is redacted too.
    assert.equal(redact(`x ${token} y`), "x [secret] y");
  });

  it("a CSR with a valid token: certificate with the token's subject and name; the token stays, which is no drift", async () => {
    const declared = { name: "device-7", commonName: "device-7.example.com", organization: "Acme" };
    const { id, outs } = await createChecked(KIND, declared);
    assert.equal(outs.status, "VALID");
    assert.equal(outs.daysUntilExpiry, 0, "a one-hour token has less than a day left");
    const token = outs.token as string;
    // The by-token lookup is authenticated (seed): the API credentials go with it.
    const credentials = { token: mock.credentials.frontdoorToken };
    const valid = await validateCertificateRequestToken({ ...device, token }, credentials);
    assert.equal(valid.name, "device-7");
    assert.equal(valid.commonName, "device-7.example.com");
    assert.equal(valid.expiresAt, outs.expiresAt);
    assert.equal(valid.id, id);
    assert.ok(!("token" in valid), "the result does not repeat the token");
    mock.clearLog();
    await assert.rejects(validateCertificateRequestToken({ ...device, token }), /credentials are missing/);
    assert.equal(mock.log.length, 0, "no anonymous lookup is sent");

    const created = await createCertificateWithToken({ ...device, token, csrPem: csrPem("ignored-cn") });
    assert.equal(created.name, "device-7");
    assert.equal(created.frontdoorId, fd);
    const cert = mock.frontdoor.get(fd, "client-certificates", created.id)!;
    const issued = forge.pki.certificateFromPem(cert.value as string);
    assert.equal(issued.subject.getField("CN").value, "device-7.example.com", "the token's subject wins");
    assert.equal(issued.subject.getField("O").value, "Acme");
    assert.ok(forge.pki.certificateFromPem(mock.frontdoor.caCertificatePem(fd)).verify(issued));

    // Usable until expiresAt: the token is still there; a refresh finds it unchanged, no drift.
    const read = await engine.read(KIND, id, outs);
    assert.deepEqual(read, { id, props: outs });
    const inputs = (await engine.check(KIND, {}, declared)).inputs;
    assert.equal((await engine.diff(KIND, id, read.props!, inputs)).changes, false);
    assert.equal((await validateCertificateRequestToken({ ...device, token }, credentials)).id, id);
    // A second CSR would make a second certificate of the token's name: the name clash is reported.
    await assert.rejects(
      createCertificateWithToken({ ...device, token, csrPem: csrPem("again") }),
      (err: Error) => {
        assert.match(err.message, /HTTP 409/);
        assert.ok(!err.message.includes(token), err.message);
        return true;
      },
    );
    // The ClientCertificate made with the token can be adopted into a program with `import`.
    const adopted = await engine.read("ClientCertificate", `${fd}/${created.id}`, { name: "device-7" });
    assert.equal(adopted.props!.subject, "O=Acme,CN=device-7.example.com");
    await engine.remove("ClientCertificate", created.id, adopted.props!);
    await engine.remove(KIND, id, outs);
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
  // An hour's tokens, expired by moving the (fake) clock past the hour: no one-second lifetimes.
  const mock = useMock({ frontdoor: { certificateRequestTokenTtlSeconds: 3600 } });
  beforeEach(() => configureFor(mockConfig(mock)));
  afterEach(resetClock);

  it("an expired token fails clearly, without the token in the message", async () => {
    const { outs } = await createChecked(KIND, { name: "short-lived" });
    const token = outs.token as string;
    const device = { apiUrl: mock.url, frontdoorId: mock.credentials.frontdoorId, token };
    const credentials = { token: mock.credentials.frontdoorToken };
    await validateCertificateRequestToken(device, credentials);
    advanceClock(3601_000);
    const refusals: [() => Promise<unknown>, RegExp][] = [
      [
        () => validateCertificateRequestToken(device, credentials),
        /validateCertificateRequestToken: refused: the certificate request token expired, or the API credentials were not accepted \(HTTP 401: .*expired\)/,
      ],
      [
        () => createCertificateWithToken({ ...device, csrPem: csrPem("late") }),
        /createCertificateWithToken: certificate request token refused: expired, unknown, .*\(HTTP 401: .*expired\)/,
      ],
    ];
    for (const [call, expected] of refusals) {
      await assert.rejects(call(), (err: Error) => {
        assert.match(err.message, expected);
        assert.ok(!err.message.includes(token), err.message);
        assert.ok(!err.message.includes("clock"), "no clock skew here");
        return true;
      });
    }
  });

  it("an expired token is no drift: status EXPIRED, and rotateWhenExpired replaces it only at the next up", async () => {
    const plain = { name: "kept-expired" };
    const rotating = { name: "rotating", rotateWhenExpired: true };
    const kept = await createChecked(KIND, plain);
    const rotated = await createChecked(KIND, rotating);
    assert.equal(rotated.outs.rotateWhenExpired, true);
    // Checked before the clock moves: neither is expired yet, so no replacement is due.
    const early = await engine.check(KIND, rotated.outs, rotating);
    assert.deepEqual((await engine.diff(KIND, rotated.id, rotated.outs, early.inputs)).replaces, []);
    advanceClock(3601_000);

    for (const [{ id, outs }, declared] of [
      [kept, plain],
      [rotated, rotating],
    ] as const) {
      // Refresh: read, then diff against the inputs stored at the last up (no new check).
      const read = await engine.read(KIND, id, outs);
      assert.equal(read.props!.status, "EXPIRED");
      assert.ok((read.props!.daysUntilExpiry as number) < 0);
      assert.equal(read.props!.token, outs.token);
      const stored = (await engine.check(KIND, {}, declared)).inputs;
      // The inputs of the last up were checked before the token expired.
      const lastUp = {
        ...stored,
        ...("rotationCheckedAt" in stored ? { rotationCheckedAt: outs.createdAt } : {}),
      };
      assert.equal(
        (await engine.diff(KIND, id, read.props!, lastUp)).changes,
        false,
        `${declared.name} refresh`,
      );
    }
    // The next up checks again: only the opted-in token is replaced.
    const upPlain = await engine.check(KIND, kept.outs, plain);
    assert.equal((await engine.diff(KIND, kept.id, kept.outs, upPlain.inputs)).changes, false);
    const upRotating = await engine.check(KIND, rotated.outs, rotating);
    const diff = await engine.diff(KIND, rotated.id, rotated.outs, upRotating.inputs);
    assert.deepEqual(diff.replaces, ["expiresAt"]);
    assert.equal(diff.deleteBeforeReplace, true, "the name must be free for the new token");
    await engine.remove(KIND, rotated.id, rotated.outs);
    const fresh = await engine.create(KIND, upRotating.inputs);
    assert.notEqual(fresh.outs.token, rotated.outs.token);
    assert.equal(fresh.outs.status, "VALID");
    await engine.remove(KIND, fresh.id, fresh.outs);
    await engine.remove(KIND, kept.id, kept.outs);
  });
});

describe("CertificateRequestToken with a service that deletes used tokens", () => {
  const mock = useMock({ frontdoor: { consumeCertificateRequestTokens: true } });
  beforeEach(() => configureFor(mockConfig(mock)));

  it("keeps a consumed token as CONSUMED (no drift); a token deleted otherwise is reported gone", async () => {
    const fd = mock.credentials.frontdoorId;
    const used = await createChecked(KIND, { name: "used-once", commonName: "used.example.com" });
    const device = { apiUrl: mock.url, frontdoorId: fd, token: used.outs.token as string };
    const made = await createCertificateWithToken({ ...device, csrPem: csrPem("x") });
    assert.equal(
      mock.frontdoor.get(fd, "certificate-request-tokens", used.id),
      undefined,
      "the mock consumed it",
    );
    const read = await engine.read(KIND, used.id, used.outs);
    assert.equal(read.id, used.id);
    assert.equal(read.props!.status, "CONSUMED");
    assert.equal(read.props!.token, used.outs.token);
    const inputs = (await engine.check(KIND, {}, { name: "used-once", commonName: "used.example.com" }))
      .inputs;
    assert.equal((await engine.diff(KIND, used.id, read.props!, inputs)).changes, false);
    await engine.remove(KIND, used.id, read.props!);

    const deleted = await createChecked(KIND, { name: "deleted-behind-our-back" });
    mock.frontdoor.remove(fd, "certificate-request-tokens", deleted.id);
    assert.deepEqual(await engine.read(KIND, deleted.id, deleted.outs), {});
    mock.frontdoor.remove(fd, "client-certificates", made.id);
  });
});
