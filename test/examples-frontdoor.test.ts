// The Frontdoor examples (examples/frontdoor-mtls, examples/custom-frontend) as users run them, through
// the engine harness against the mock server: up (stack outputs checked against the mock's objects),
// a clean `refresh --expect-no-changes`, destroy (the mock is left empty). The programs import the
// installed package, so `npm run build` first, as `npm test` does.
import * as assert from "node:assert/strict";
import { createPublicKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type HarnessOptions, type HarnessResult, readState, runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";

const EXAMPLES = path.resolve(__dirname, "..", "examples");
const COLLECTIONS = [
  "auth-providers",
  "client-certificates",
  "certificate-request-tokens",
  "custom-frontends",
] as const;
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256.replace(/:/g, "").toLowerCase();

describe("examples/frontdoor-mtls and examples/custom-frontend", function () {
  this.timeout(120_000);
  let mock: MockServer;
  let dir: string;

  before(async () => {
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 100 } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-examples-"));
  });
  after(async () => {
    await mock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const fd = () => mock.credentials.frontdoorId;
  const list = (collection: (typeof COLLECTIONS)[number]) => mock.frontdoor.list(fd(), collection) as any[];
  const options = (example: string, secretConfig: Record<string, string> = {}): HarnessOptions => ({
    programDir: path.join(EXAMPLES, example),
    stateFile: path.join(dir, `${example}.json`),
    config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": fd() },
    secretConfig: { "frontdoor:token": mock.credentials.frontdoorToken, ...secretConfig },
  });
  const ok = (result: HarnessResult) => {
    assert.equal(result.exitCode, 0, result.stderr + result.stdout);
    return result;
  };
  /** No secret in plaintext in the state file or the output of a run. */
  const assertNoSecrets = (opts: HarnessOptions, result: HarnessResult, secrets: string[]) => {
    const texts = {
      state: fs.readFileSync(opts.stateFile!, "utf8"),
      stdout: result.stdout,
      stderr: result.stderr,
    };
    for (const [where, text] of Object.entries(texts)) {
      for (const secret of secrets) assert.ok(!text.includes(secret), `a secret in plaintext in ${where}`);
      assert.doesNotMatch(text, /PRIVATE KEY/, `a private key in plaintext in ${where}`);
    }
  };
  /** A clean refresh, then destroy: nothing of the example is left in the mock. */
  const refreshAndDestroy = async (opts: HarnessOptions) => {
    const refreshed = ok(await runHarness("refresh", { ...opts, expectNoChanges: true }));
    assert.deepEqual(refreshed.report.changes, []);
    ok(await runHarness("destroy", opts));
    for (const collection of COLLECTIONS) assert.deepEqual(list(collection), [], collection);
    assert.equal(readState(opts.stateFile!).resources.length, 0);
  };

  it("frontdoor-mtls: an issued and an uploaded certificate and an enrolment token; refresh clean; destroy", async () => {
    const opts = options("frontdoor-mtls");
    const { report, ...result } = ok(await runHarness("up", opts));
    assert.deepEqual(report.summary, { create: 5 });
    const certs = Object.fromEntries(list("client-certificates").map((c) => [c.name, c]));
    assert.deepEqual(Object.keys(certs).sort(), ["mtls-gateway", "mtls-partner"]);
    const gateway = certs["mtls-gateway"];
    const [token] = list("certificate-request-tokens");
    assert.equal(token.name, "mtls-sensor-17");
    assertNoSecrets(opts, { report, ...result }, [token.token, mock.credentials.frontdoorToken]);

    // The gateway certificate: issued by the frontdoor's CA for the KeyPair's subject, as the outputs say.
    const ca = new X509Certificate(mock.frontdoor.caCertificatePem(fd()));
    const issued = new X509Certificate(gateway.value);
    assert.ok(issued.checkIssued(ca));
    assert.equal(report.outputs.gatewayCertificatePem, gateway.value);
    assert.equal(report.outputs.gatewayFingerprint, fingerprint(gateway.value));
    assert.match(report.outputs.gatewayFingerprint, /^[0-9a-f]{64}$/);
    assert.equal(
      issued.subject.split("\n").find((l) => l.startsWith("CN=")),
      "CN=mtls-gateway.devices.example.com",
    );
    assert.ok(report.outputs.gatewayIssuer.length > 0);
    assert.equal(Date.parse(report.outputs.gatewayNotAfter), Date.parse(issued.validTo));
    // The key the KeyPair generated is the certificate's key (its public half is in the state, in clear).
    const key = readState(opts.stateFile!).resources.find((r) => r.name === "gateway-key");
    assert.ok(
      createPublicKey(key?.outputs.publicKeyPem)
        .export({ type: "spki", format: "der" })
        .equals(issued.publicKey.export({ type: "spki", format: "der" })),
    );
    // The uploaded certificate is self-signed (stored as uploaded, not issued by the frontdoor).
    const partner = new X509Certificate(certs["mtls-partner"].value);
    assert.ok(partner.checkIssued(partner));
    assert.equal(report.outputs.partnerFingerprint, fingerprint(certs["mtls-partner"].value));
    // Secrets stay masked.
    assert.equal(report.outputs.gatewayPrivateKeyPem, "[secret]");
    assert.equal(report.outputs.enrolmentToken, "[secret]");
    assert.equal(report.outputs.enrolmentExpiresAt, token.expiresAt);

    // A second up changes nothing (the self-signed upload is deterministic).
    const again = ok(await runHarness("up", opts));
    assert.deepEqual(again.report.summary, { same: 5 });
    await refreshAndDestroy(opts);
  });

  it("custom-frontend: DNS records as outputs shaped for DNS providers; refresh clean; destroy", async () => {
    const SSO_SECRET = "example-test-sso-secret-0042";
    const API_KEY = "example-test-api-key-0123456789";
    const opts = options("custom-frontend", { ssoClientSecret: SSO_SECRET, apiKey: API_KEY });
    const { report, ...result } = ok(await runHarness("up", opts));
    assert.deepEqual(report.summary, { create: 3 });
    assertNoSecrets(opts, { report, ...result }, [SSO_SECRET, API_KEY, mock.credentials.frontdoorToken]);
    const providers = list("auth-providers");
    assert.deepEqual(providers.map((p) => p.name).sort(), ["custom-frontend-api-key", "custom-frontend-sso"]);
    const [frontend] = list("custom-frontends");
    assert.equal(frontend.hostname, "apps.example.com");
    assert.deepEqual([...frontend.authProviderIds].sort(), providers.map((p) => p.id).sort());

    // The records as the service shows them, in the shape DNS providers take.
    const res = await fetch(`${mock.url}/frontdoor/${fd()}/custom-frontends/${frontend.id}/dns-records`, {
      headers: { authorization: `Bearer ${mock.credentials.frontdoorToken}` },
    });
    const served = (await res.json()) as any;
    const expected = {
      aRecord: { name: "*.apps.example.com", ipAddresses: served.aRecord.ipAddress },
      cnameRecords: served.cnameRecords.map((r: any) => ({ name: r.name, value: r.value })),
    };
    assert.equal(expected.aRecord.ipAddresses.length, 2);
    assert.equal(expected.cnameRecords.length, 1);
    assert.deepEqual(report.outputs.dnsRecords, expected);
    assert.equal(report.outputs.aRecordName, expected.aRecord.name);
    assert.deepEqual(report.outputs.aRecordAddresses, expected.aRecord.ipAddresses);
    assert.deepEqual(report.outputs.cnameRecords, expected.cnameRecords);
    assert.equal(report.outputs.domainName, "apps.example.com");
    assert.equal(report.outputs.status, "PENDING");
    assert.equal(report.outputs.frontendId, frontend.id);

    // Records propagated: ACTIVE, which a refresh records without calling it drift.
    mock.frontdoor.setCustomFrontendStatus(fd(), frontend.id, "ACTIVE");
    await refreshAndDestroy(opts);
  });
});
