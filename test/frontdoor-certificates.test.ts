// ClientCertificate and KeyPair through the provider's host entry points, against the mock over real
// HTTP, with real certificates and CSRs made with node-forge.
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import forge from "node-forge";
import { type MockServer, startMockServer } from "../mock/server";
import { csrPem, keys, selfSignedPem } from "./frontdoor-pki";
import { configureFor, createChecked, engine, mockConfig, updateChecked } from "./support/engine";
import { methodsSent } from "./support/fixtures";

const KIND = "ClientCertificate";

describe("ClientCertificate (engine against the mock)", () => {
  let mock: MockServer;
  let fd: string;
  before(async () => {
    mock = await startMockServer();
    fd = mock.credentials.frontdoorId;
  });
  after(() => mock.close());
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.clearLog();
  });

  describe("check", () => {
    const keyPem = forge.pki.privateKeyToPem(keys().privateKey);
    const cases: [string, string, RegExp][] = [
      ["text that is not PEM", "hello", /must be PEM text/],
      ["a private key", keyPem, /holds a private key: give the certificate alone/],
      [
        "garbage base64 under a CERTIFICATE label",
        "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
        /not contain a valid X.509 certificate/,
      ],
      [
        "a CSR whose signature does not verify",
        csrPem("device-1", { tamper: true }),
        /signature does not verify/,
      ],
    ];
    for (const [what, value, reason] of cases) {
      it(`fails naming value for ${what}, without quoting it`, async () => {
        const { failures } = await engine.check(KIND, {}, { name: "c", value });
        assert.equal(failures.length, 1, JSON.stringify(failures));
        assert.equal(failures[0].property, "value");
        assert.match(failures[0].reason, reason);
        assert.ok(!failures[0].reason.includes(value.split("\n")[1] ?? value), "reason quotes the input");
      });
    }

    it("accepts a certificate and a CSR", async () => {
      for (const value of [selfSignedPem("up-1"), csrPem("gen-1")]) {
        const { failures } = await engine.check(KIND, {}, { name: "c", value });
        assert.deepEqual(failures, []);
      }
    });
  });

  it("issues a certificate from a CSR: every property checked, no drift, import by <frontdoorId>/<id>", async () => {
    const csr = csrPem("device-1", { organization: "Acme", organizationalUnit: "Sensors" });
    const { id, outs } = await createChecked(KIND, { name: "device-1", value: csr });
    assert.equal(outs.value, csr, "the CSR stays the value");
    assert.equal(outs.name, "device-1");
    assert.equal(outs.frontdoorId, fd);
    assert.equal(outs.createdBy, "demo-user@example.com");
    assert.ok(Date.parse(outs.createdAt as string) <= Date.now());

    const cert = forge.pki.certificateFromPem(outs.certificatePem as string);
    const ca = forge.pki.certificateFromPem(mock.frontdoor.caCertificatePem(fd));
    assert.ok(ca.verify(cert), "signed by the frontdoor's CA");
    const der = forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
    assert.equal(
      outs.fingerprintSha256,
      createHash("sha256").update(Buffer.from(der, "binary")).digest("hex"),
    );
    // Same number (the two libraries differ in leading zero bytes); lowercase hex as output.
    assert.equal(BigInt(`0x${outs.serialNumber}`), BigInt(`0x${cert.serialNumber}`));
    assert.match(String(outs.serialNumber), /^[0-9a-f]+$/);
    assert.equal(outs.subject, "OU=Sensors,O=Acme,CN=device-1");
    const caCn = ca.subject.getField("CN").value;
    assert.equal(outs.issuer, `O=Frontdoor Mock,CN=${caCn}`);
    assert.equal(outs.notBefore, isoSeconds(cert.validity.notBefore));
    assert.equal(outs.notAfter, isoSeconds(cert.validity.notAfter));
    const days = (Date.parse(outs.notAfter as string) - Date.parse(outs.notBefore as string)) / 86_400_000;
    assert.equal(days, 365);
    const keyUsage = cert.getExtension("keyUsage") as Record<string, boolean>;
    for (const on of ["digitalSignature", "keyCertSign", "cRLSign"]) assert.equal(keyUsage[on], true, on);
    for (const off of [
      "nonRepudiation",
      "keyEncipherment",
      "dataEncipherment",
      "keyAgreement",
      "encipherOnly",
      "decipherOnly",
    ])
      assert.ok(!keyUsage[off], off);
    assert.equal((cert.getExtension("extKeyUsage") as Record<string, boolean>).serverAuth, true);
    const csrKey = forge.pki.certificationRequestFromPem(csr).publicKey as forge.pki.rsa.PublicKey;
    assert.equal((cert.publicKey as forge.pki.rsa.PublicKey).n.toString(16), csrKey.n.toString(16));

    // Refresh: the same state; diff against the program's inputs: nothing to do.
    const read = await engine.read(KIND, id, outs);
    assert.deepEqual(read, { id, props: outs });
    const inputs = (await engine.check(KIND, {}, { name: "device-1", value: csr })).inputs;
    assert.equal((await engine.diff(KIND, id, read.props!, inputs)).changes, false);

    // Import: the program's inputs as state, the id scoped by the frontdoor.
    const imported = await engine.read(KIND, `${fd}/${id}`, { name: "device-1", value: csr });
    assert.equal(imported.id, id);
    assert.deepEqual(imported.props, outs);
    await engine.remove(KIND, id, outs);
    assert.deepEqual(await engine.read(KIND, id, outs), {});
  });

  it("uploads a certificate; a rename PATCHes, a new value PUTs; drift behind its back is found and fixed", async () => {
    const first = selfSignedPem("upload-1");
    const { id, outs } = await createChecked(KIND, { name: "upload-1", value: first });
    assert.equal(outs.value, first);
    assert.equal(outs.subject, "CN=upload-1");
    assert.equal(outs.issuer, "CN=upload-1");

    mock.clearLog();
    const renamed = await updateChecked(KIND, id, outs, { name: "upload-2", value: first });
    assert.deepEqual(renamed.diff.replaces, []);
    assert.deepEqual(methodsSent(mock), ["PATCH", "GET"]);
    assert.equal(renamed.result!.outs.name, "upload-2");

    mock.clearLog();
    const second = selfSignedPem("upload-2");
    const replaced = await updateChecked(KIND, id, renamed.result!.outs, { name: "upload-2", value: second });
    assert.deepEqual(methodsSent(mock), ["PUT", "GET"]);
    assert.equal(replaced.result!.outs.subject, "CN=upload-2");
    assert.equal(replaced.result!.outs.value, second);

    // Someone swaps the certificate outside Pulumi: refresh shows the server's; the diff wants it back.
    mock.frontdoor.patch(fd, "client-certificates", id, { value: selfSignedPem("intruder") });
    const refreshed = await engine.read(KIND, id, replaced.result!.outs);
    assert.equal(refreshed.props!.subject, "CN=intruder");
    assert.notEqual(refreshed.props!.value, second);
    const repaired = await updateChecked(KIND, id, refreshed.props!, { name: "upload-2", value: second });
    assert.equal(repaired.diff.changes, true);
    assert.equal(repaired.result!.outs.subject, "CN=upload-2");

    const moved = await engine.diff(KIND, id, repaired.result!.outs, {
      ...repaired.result!.outs,
      frontdoorId: "x",
    });
    assert.deepEqual(moved.replaces, ["frontdoorId"]);
    await engine.remove(KIND, id, repaired.result!.outs);
  });

  it("a changed CSR re-issues in place; a certificate for another key counts as drift", async () => {
    const csr = csrPem("gen-2");
    const { id, outs } = await createChecked(KIND, { name: "gen-2", value: csr });
    const otherCsr = csrPem("gen-2b", { fresh: true });
    mock.clearLog();
    const reissued = await updateChecked(KIND, id, outs, { name: "gen-2", value: otherCsr });
    assert.deepEqual(reissued.diff.replaces, []);
    assert.deepEqual(methodsSent(mock), ["PUT", "GET"]);
    assert.equal(reissued.result!.outs.value, otherCsr);
    assert.equal(reissued.result!.outs.subject, "CN=gen-2b");
    assert.notEqual(reissued.result!.outs.fingerprintSha256, outs.fingerprintSha256);
    // A certificate for a different key replaces ours behind our back: no longer "issued from our CSR".
    mock.frontdoor.patch(fd, "client-certificates", id, { value: selfSignedPem("other-key") });
    const refreshed = await engine.read(KIND, id, reissued.result!.outs);
    assert.equal(refreshed.props!.value, refreshed.props!.certificatePem);
    const inputs = (await engine.check(KIND, {}, { name: "gen-2", value: otherCsr })).inputs;
    assert.deepEqual((await engine.diff(KIND, id, refreshed.props!, inputs)).changes, true);
    await engine.remove(KIND, id, outs);
  });

  it("a name clash (also with a token) fails naming the name", async () => {
    const token = await createChecked("CertificateRequestToken", { name: "shared-name" });
    await assert.rejects(
      createChecked(KIND, { name: "shared-name", value: selfSignedPem("x") }),
      (err: Error) => {
        assert.match(err.message, /ClientCertificate "shared-name": POST .* failed \(HTTP 409 conflict\)/);
        assert.match(err.message, /certificate request token named 'shared-name' already exists/);
        assert.match(err.message, /share one namespace per frontdoor/);
        return true;
      },
    );
    await engine.remove("CertificateRequestToken", token.id, token.outs);
  });
});

describe("KeyPair (no API)", () => {
  it("generates a key and a CSR once; stable on refresh; a subject change replaces", async () => {
    await configureFor({});
    const { id, outs } = await createChecked("KeyPair", { commonName: "dev-9", organization: "Acme" });
    assert.equal(outs.keySize, 2048);
    const key = forge.pki.privateKeyFromPem(outs.privateKeyPem as string) as forge.pki.rsa.PrivateKey;
    const pub = forge.pki.publicKeyFromPem(outs.publicKeyPem as string) as forge.pki.rsa.PublicKey;
    assert.equal(key.n.toString(16), pub.n.toString(16));
    assert.equal(pub.n.bitLength(), 2048);
    const csr = forge.pki.certificationRequestFromPem(outs.csrPem as string);
    assert.ok(csr.verify());
    assert.equal((csr.publicKey as forge.pki.rsa.PublicKey).n.toString(16), pub.n.toString(16));
    assert.equal(csr.subject.getField("CN").value, "dev-9");
    assert.equal(csr.subject.getField("O").value, "Acme");
    const der = Buffer.from(forge.asn1.toDer(forge.pki.publicKeyToAsn1(pub)).getBytes(), "binary");
    assert.equal(id, createHash("sha256").update(der).digest("hex"));

    assert.deepEqual(await engine.read("KeyPair", id, outs), { id, props: outs });
    const same = (await engine.check("KeyPair", {}, { commonName: "dev-9", organization: "Acme" })).inputs;
    assert.equal((await engine.diff("KeyPair", id, outs, same)).changes, false);
    const renamed = (await engine.check("KeyPair", {}, { commonName: "dev-10", organization: "Acme" }))
      .inputs;
    assert.deepEqual((await engine.diff("KeyPair", id, outs, renamed)).replaces, ["commonName"]);
    const bad = await engine.check("KeyPair", {}, { commonName: "x", keySize: 1024 });
    assert.equal(bad.failures[0].property, "keySize");
  });
});

function isoSeconds(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString();
}
