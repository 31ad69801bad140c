// KeyPair, ClientCertificate (issued from a CSR, and uploaded), CertificateRequestToken and
// CustomFrontend through the real dynamic-provider host (engine harness) against the mock server:
// create, clean refresh (the frontend turning ACTIVE on its own is no drift), drift of exactly one
// property, update in place (PATCH for a rename, PUT for a new value / CSR / subject), replace (KeyPair
// subject, frontend hostname), delete, destroy, and import by `<frontdoorId>/<id>` followed by `same`.
// Secrets (the token, private keys, client secrets, the API token) never show in plaintext.
import * as assert from "node:assert/strict";
import { createPublicKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { type HarnessResult, type Report, readState, runHarness } from "../harness";
import type { MockServer } from "../mock/server";
import { csrPem, selfSignedPem } from "./frontdoor-pki";
import { frontdoorApi, runOptions, tempDir, useMock } from "./support/fixtures";

const program = path.join(__dirname, "programs", "frontdoor-lifecycle");
const SSO_SECRET = "lifecycle-sso-client-secret-7f3a";
const API_KEY = "lifecycle-partner-api-key-0123456789";
const READY_AFTER_MS = 150;
const ACTIVE_AFTER_MS = 1200;

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256.replace(/:/g, "").toLowerCase();
const spki = (pem: string) => createPublicKey(pem).export({ type: "spki", format: "der" });
const op = (report: Report, name: string) => report.resources.find((r) => r.name === name)?.op;
const ops = (report: Report) =>
  Object.fromEntries(report.resources.map((r) => [r.name, r.op]).sort(([a], [b]) => (a < b ? -1 : 1)));

describe("Frontdoor certificates, tokens and custom frontends through the dynamic-provider host", function () {
  this.timeout(120_000);
  const mock = useMock({
    frontdoor: { customFrontendReadyAfterMs: READY_AFTER_MS, customFrontendActiveAfterMs: ACTIVE_AFTER_MS },
  });
  let dir: string;
  let stateFile: string;
  const fd = () => mock.credentials.frontdoorId;
  const list = (collection: Parameters<MockServer["frontdoor"]["list"]>[1]) =>
    mock.frontdoor.list(fd(), collection) as any[];
  /** Every secret a run could leak: those given to the program and those the mock made. */
  const secrets = () => [
    SSO_SECRET,
    API_KEY,
    mock.credentials.frontdoorToken,
    ...list("certificate-request-tokens").map((t) => t.token as string),
  ];
  const uploadedA = selfSignedPem("partner-a.example.com");
  const uploadedB = selfSignedPem("partner-b.example.com");

  const opts = runOptions(() => ({
    programDir: program,
    stateFile,
    config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": fd() },
    secretConfig: {
      "frontdoor:token": mock.credentials.frontdoorToken,
      ssoClientSecret: SSO_SECRET,
      apiKey: API_KEY,
    },
  }));
  const assertNoSecrets = (result: HarnessResult) => {
    const texts = { state: fs.readFileSync(stateFile, "utf8"), stdout: result.stdout, stderr: result.stderr };
    for (const [where, text] of Object.entries(texts)) {
      for (const secret of secrets()) assert.ok(!text.includes(secret), `a secret in plaintext in ${where}`);
      assert.doesNotMatch(text, /PRIVATE KEY/, `a private key in plaintext in ${where}`);
      assert.doesNotMatch(
        text,
        /crt_[A-Za-z0-9_-]{8}/,
        `a certificate request token in plaintext in ${where}`,
      );
    }
  };
  const run = async (command: "up" | "refresh" | "destroy", config?: Record<string, string>, extra = {}) => {
    const result = await runHarness(command, opts(config, extra));
    assertNoSecrets(result);
    return result;
  };
  const up = async (config?: Record<string, string>) => {
    const result = await run("up", config);
    assert.equal(result.exitCode, 0, result.stderr + result.stdout);
    return result.report;
  };
  const refresh = (config?: Record<string, string>) => run("refresh", config, { expectNoChanges: true });
  const waitForStatus = async (id: string, status: string) => {
    const deadline = Date.now() + 10_000;
    while (mock.frontdoor.get(fd(), "custom-frontends", id)?.status !== status) {
      assert.ok(Date.now() < deadline, `frontend ${id} never became ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stateOutputs = (name: string) => readState(stateFile).resources.find((r) => r.name === name)?.outputs;

  before(() => {
    dir = tempDir("fd-lifecycle-");
    stateFile = path.join(dir, "dev.json");
  });

  // The lifecycle stack: every config key is passed on every run (the harness keeps stack config).
  let config: Record<string, string>;

  it("creates all of them: the CSR's certificate issued by the frontdoor's CA, the upload as is", async () => {
    config = { uploadedPem: uploadedA };
    const report = await up(config);
    assert.deepEqual(ops(report), {
      "api-key": "create",
      "device-cert": "create",
      "device-key": "create",
      enrol: "create",
      sso: "create",
      uploaded: "create",
      web: "create",
    });
    const certs = list("client-certificates");
    assert.deepEqual(certs.map((c) => c.name).sort(), ["device-1", "partner"]);
    const device = certs.find((c) => c.name === "device-1");
    const partner = certs.find((c) => c.name === "partner");
    assert.equal(report.outputs.deviceCertId, device.id);
    assert.equal(report.outputs.uploadedId, partner.id);
    // Issued by the frontdoor's CA, for the KeyPair's key and subject.
    const issued = new X509Certificate(device.value);
    assert.ok(issued.checkIssued(new X509Certificate(mock.frontdoor.caCertificatePem(fd()))));
    assert.ok(
      spki(report.outputs.keyPublicKeyPem).equals(issued.publicKey.export({ type: "spki", format: "der" })),
    );
    assert.equal(report.outputs.deviceCertSubject, "O=Acme,CN=device-1.devices.example.com");
    assert.equal(report.outputs.deviceCertPem, device.value);
    assert.equal(report.outputs.deviceCertFingerprint, fingerprint(device.value));
    // The upload is stored as given.
    assert.equal(fingerprint(partner.value), fingerprint(uploadedA));
    assert.equal(report.outputs.uploadedFingerprint, fingerprint(uploadedA));
    // Secrets are masked in the report, encrypted in the state.
    assert.equal(report.outputs.keyPrivateKeyPem, "[secret]");
    assert.equal(report.outputs.tokenValue, "[secret]");
    const [token] = list("certificate-request-tokens");
    assert.equal(report.outputs.tokenId, token.id);
    assert.match(token.token, /^crt_/);
    assert.deepEqual(
      [token.name, token.commonName, token.organization],
      ["sensor-1", "sensor-1.devices.example.com", "Acme"],
    );
    // The frontend: created, waited for until its DNS records could be read (PENDING, not ACTIVE yet).
    const [frontend] = list("custom-frontends");
    assert.equal(report.outputs.frontendId, frontend.id);
    assert.equal(frontend.hostname, "apps.example.com");
    assert.deepEqual(frontend.authProviderIds, [report.outputs.ssoId]);
    assert.equal(report.outputs.frontendStatus, "PENDING");
    const records = report.outputs.frontendDnsRecords;
    assert.equal(records.aRecord.name, "*.apps.example.com");
    assert.equal(records.aRecord.ipAddresses.length, 2);
    assert.equal(records.cnameRecords[0].name, "_acme-challenge.apps.example.com");
  });

  it("refreshes clean although the frontend went PENDING -> ACTIVE meanwhile (no drift)", async () => {
    const id = list("custom-frontends")[0].id;
    assert.equal(stateOutputs("web")?.status, "PENDING");
    await waitForStatus(id, "ACTIVE");
    const result = await refresh(config);
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    assert.deepEqual(result.report.changes, []);
    // The refreshed state shows the new status; the CSR stays the certificate's declared value.
    assert.equal(stateOutputs("web")?.status, "ACTIVE");
    assert.match(String(stateOutputs("device-cert")?.value), /BEGIN CERTIFICATE REQUEST/);
  });

  it("reports an authProviderIds change made behind its back as drift of exactly that property", async () => {
    const [frontend] = list("custom-frontends");
    const { ssoId, apiKeyId } = (await readOutputs()) as Record<string, string>;
    mock.frontdoor.patch(fd(), "custom-frontends", frontend.id, { authProviderIds: [apiKeyId] });
    const result = await refresh(config);
    assert.equal(result.exitCode, 1, result.stdout + result.stderr);
    assert.equal(result.report.changes.length, 1, JSON.stringify(result.report.changes));
    const [change] = result.report.changes;
    assert.equal(change.name, "web");
    assert.equal(change.kind, "update");
    assert.deepEqual(change.properties, [
      {
        name: "authProviderIds",
        old: [ssoId],
        new: [apiKeyId],
        leaves: [{ path: "authProviderIds", old: [ssoId], new: [apiKeyId] }],
      },
    ]);
  });

  it("updates in place: rename (PATCH), new upload (PUT), token subject (PUT), frontend providers (PATCH)", async () => {
    const before = Object.fromEntries(list("client-certificates").map((c) => [c.name, c]));
    const [tokenBefore] = list("certificate-request-tokens");
    const [frontendBefore] = list("custom-frontends");
    mock.clearLog();
    config = {
      uploadedPem: uploadedB,
      deviceCertName: "device-1-renamed",
      tokenCn: "sensor-1b.devices.example.com",
      frontendProviders: "both",
    };
    const report = await up(config);
    assert.deepEqual(ops(report), {
      "api-key": "same",
      "device-cert": "update",
      "device-key": "same",
      enrol: "update",
      sso: "same",
      uploaded: "update",
      web: "update",
    });
    const writes = mock.log
      .filter((e) => !["GET", "POST"].includes(e.method))
      .map((e) => `${e.method} ${e.path.split("/").slice(3).join("/")}`)
      .sort();
    assert.deepEqual(
      writes,
      [
        `PATCH client-certificates/${before["device-1"].id}`,
        `PATCH custom-frontends/${frontendBefore.id}`,
        `PUT certificate-request-tokens/${tokenBefore.id}`,
        `PUT client-certificates/${before.partner.id}`,
      ].sort(),
    );
    assert.ok(!mock.log.some((e) => e.method === "POST"), "nothing was created");
    // Same objects, new contents.
    const device = mock.frontdoor.get(fd(), "client-certificates", before["device-1"].id) as any;
    assert.equal(device.name, "device-1-renamed");
    assert.equal(device.value, before["device-1"].value, "a rename does not re-issue");
    const partner = mock.frontdoor.get(fd(), "client-certificates", before.partner.id) as any;
    assert.equal(fingerprint(partner.value), fingerprint(uploadedB));
    assert.equal(report.outputs.uploadedFingerprint, fingerprint(uploadedB));
    const token = mock.frontdoor.get(fd(), "certificate-request-tokens", tokenBefore.id) as any;
    assert.equal(token.commonName, "sensor-1b.devices.example.com");
    assert.equal(token.token, tokenBefore.token, "the token itself never changes");
    const frontend = mock.frontdoor.get(fd(), "custom-frontends", frontendBefore.id) as any;
    assert.deepEqual(
      [...frontend.authProviderIds].sort(),
      [report.outputs.ssoId, report.outputs.apiKeyId].sort(),
    );
  });

  it("replaces the KeyPair on a subject change (its certificate is re-issued in place) and the frontend on a hostname change", async () => {
    const [deviceBefore] = list("client-certificates").filter((c) => c.name === "device-1-renamed");
    const [frontendBefore] = list("custom-frontends");
    const keyBefore = readState(stateFile).resources.find((r) => r.name === "device-key")?.id;
    config = { ...config, keyCn: "device-2.devices.example.com", hostname: "portal.example.com" };
    const report = await up(config);
    assert.equal(op(report, "device-key"), "replace");
    assert.equal(op(report, "device-cert"), "update");
    assert.equal(op(report, "web"), "replace");
    for (const name of ["sso", "api-key", "uploaded", "enrol"]) assert.equal(op(report, name), "same", name);
    assert.notEqual(report.outputs.keyId, keyBefore);
    // Same certificate object, re-issued for the new key and subject.
    const device = mock.frontdoor.get(fd(), "client-certificates", deviceBefore.id) as any;
    assert.notEqual(device.value, deviceBefore.value);
    const issued = new X509Certificate(device.value);
    assert.ok(
      spki(report.outputs.keyPublicKeyPem).equals(issued.publicKey.export({ type: "spki", format: "der" })),
    );
    assert.equal(report.outputs.deviceCertSubject, "O=Acme,CN=device-2.devices.example.com");
    assert.equal(report.outputs.deviceCertFingerprint, fingerprint(device.value));
    // A new frontend for the new hostname; the old one is gone.
    const frontends = list("custom-frontends");
    assert.equal(frontends.length, 1);
    assert.notEqual(frontends[0].id, frontendBefore.id);
    assert.equal(frontends[0].hostname, "portal.example.com");
    assert.equal(report.outputs.frontendId, frontends[0].id);
    assert.equal(report.outputs.frontendDnsRecords.aRecord.name, "*.portal.example.com");
    // No permanent diff: the CSR of the re-issued certificate and the new key refresh clean.
    const result = await refresh(config);
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    assert.deepEqual(result.report.changes, []);
  });

  it("deletes what was removed from the program", async () => {
    config = { ...config, withUploaded: "false", withToken: "false", withFrontend: "false" };
    const report = await up(config);
    assert.equal(op(report, "uploaded"), "delete");
    assert.equal(op(report, "enrol"), "delete");
    assert.equal(op(report, "web"), "delete");
    assert.deepEqual(
      list("client-certificates").map((c) => c.name),
      ["device-1-renamed"],
    );
    assert.equal(list("certificate-request-tokens").length, 0);
    assert.equal(list("custom-frontends").length, 0);
  });

  it("destroys everything, leaving the mock empty", async () => {
    const result = await run("destroy", config);
    assert.equal(result.exitCode, 0, result.stderr);
    assertMockEmpty();
    assert.equal(readState(stateFile).resources.length, 0);
  });

  it("imports existing objects by <frontdoorId>/<id>; the next up and a refresh show no changes", async function () {
    this.timeout(180_000);
    const api = async (collection: string, body: object) => {
      const res = await frontdoorApi(mock, "POST", collection, body);
      assert.ok(res.ok, `${collection}: ${res.status} ${await res.clone().text()}`);
      return (await res.json()) as { id: string };
    };
    // Made outside Pulumi: a certificate issued from a CSR (whose key the device keeps), an upload, a token
    // and a frontend.
    const csr = csrPem("imported-device.example.com", { organization: "Acme" });
    const device = await api("client-certificates", { name: "device-1", value: csr });
    const uploaded = await api("client-certificates", { name: "partner", value: uploadedA });
    const token = await api("certificate-request-tokens", {
      name: "sensor-1",
      commonName: "sensor-1.devices.example.com",
      organization: "Acme",
    });
    const frontend = await api("custom-frontends", { hostname: "apps.example.com", authProviderIds: [] });
    // The API never returns the CSR, so the program must give the one the certificate was issued from (or
    // the certificate itself): a CSR for another key (e.g. a new KeyPair's) is refused, naming `value`.
    stateFile = path.join(dir, "import-refused.json");
    const refusedConfig = {
      deviceCsr: csrPem("imported-device.example.com", { organization: "Acme", fresh: true }),
      importDeviceCert: `${fd()}/${device.id}`,
      withUploaded: "false",
      withToken: "false",
      withFrontend: "false",
    };
    const refused = await run("up", refusedConfig);
    assert.equal(refused.exitCode, 1);
    assert.match(refused.stderr, /import of device-cert \([^)]+\) would change properties \[value\]/);
    assert.ok(
      mock.frontdoor.get(fd(), "client-certificates", device.id),
      "the refused import changed nothing",
    );
    assert.equal(
      readState(stateFile).resources.find((r) => r.name === "device-cert"),
      undefined,
    );
    assert.equal((await run("destroy", refusedConfig)).exitCode, 0);
    // A new stack: the harness, like `pulumi config`, keeps the config of earlier runs in the state.
    stateFile = path.join(dir, "import.json");
    config = {
      deviceCsr: csr,
      uploadedPem: uploadedA,
      frontendProviders: "none",
      importDeviceCert: `${fd()}/${device.id}`,
      importUploaded: `${fd()}/${uploaded.id}`,
      importToken: `${fd()}/${token.id}`,
      importFrontend: `${fd()}/${frontend.id}`,
    };
    const imported = await up(config);
    assert.deepEqual(ops(imported), {
      "api-key": "create",
      "device-cert": "import",
      enrol: "import",
      sso: "create",
      uploaded: "import",
      web: "import",
    });
    assert.equal(imported.outputs.deviceCertId, device.id);
    assert.equal(imported.outputs.tokenId, token.id);
    assert.equal(imported.outputs.frontendId, frontend.id);
    // The CSR (which the API never returns) stays the declared value: it describes the stored certificate.
    assert.match(String(stateOutputs("device-cert")?.value), /BEGIN CERTIFICATE REQUEST/);
    assert.equal(
      stateOutputs("device-cert")?.certificatePem,
      mock.frontdoor.get(fd(), "client-certificates", device.id)?.value,
    );
    const again = await up(config);
    for (const name of ["device-cert", "uploaded", "enrol", "web", "sso", "api-key"])
      assert.equal(op(again, name), "same", name);
    await waitForStatus(frontend.id, "ACTIVE");
    const refreshed = await refresh(config);
    assert.equal(refreshed.exitCode, 0, refreshed.stdout + refreshed.stderr);
    assert.deepEqual(refreshed.report.changes, []);
    const destroyed = await run("destroy", config);
    assert.equal(destroyed.exitCode, 0, destroyed.stderr);
    assertMockEmpty();
  });

  /** Every Frontdoor collection of the mock is empty. */
  function assertMockEmpty(): void {
    for (const collection of [
      "auth-providers",
      "client-certificates",
      "certificate-request-tokens",
      "custom-frontends",
    ] as const)
      assert.equal(list(collection).length, 0, collection);
  }

  /** The program's exports from the state (for ids made in an earlier run). */
  async function readOutputs(): Promise<Record<string, unknown>> {
    const state = readState(stateFile);
    return {
      ssoId: state.resources.find((r) => r.name === "sso")?.id,
      apiKeyId: state.resources.find((r) => r.name === "api-key")?.id,
    };
  }
});
