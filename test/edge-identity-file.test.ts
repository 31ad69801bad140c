// Admin login from a Ziti identity file (frontdoor:edgeIdentityFile / edgeIdentityJson) against the mock
// controller over TLS: method=cert with the file's certificate and key, the file's CA as the trusted
// bundle, the controller address from its ztAPI; bad files fail at check naming the setting, before any
// request, and the key never shows in a message.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { issueCertificate } from "../mock/edge/pki";
import { type MockServer, startMockServer } from "../mock/server";
import { EdgeClient } from "../provider/http/edge";
import { redact } from "../provider/redact";
import { configureFor, createChecked, engine } from "./support/engine";

/** The base64 body lines of a PEM key: what would show if the key leaked into a message. */
function keyLines(keyPem: string): string[] {
  return keyPem.split(/\r?\n/).filter((line) => line.length > 20 && !line.startsWith("-----"));
}

describe("Edge login with a Ziti identity file", function () {
  this.timeout(30_000);
  let mock: MockServer;
  let dir: string;
  let admin: { certPem: string; keyPem: string };
  let identityJson: string;

  before(async () => {
    mock = await startMockServer({ tls: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ziti-identity-"));
    admin = mock.edge.issueAdminCertificate();
    identityJson = JSON.stringify({
      ztAPI: `${mock.url}/edge/client/v1`,
      id: { cert: `pem:${admin.certPem}`, key: `pem:${admin.keyPem}`, ca: `pem:${mock.caPem}` },
    });
  });
  after(async () => {
    await mock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => mock.clearLog());

  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };

  it("logs in with method=cert; edgeUrl comes from ztAPI and the CA from the file (file:// values)", async () => {
    const keyFile = write("admin.key", admin.keyPem);
    const caFile = write("ca.pem", mock.caPem!);
    const file = write(
      "admin.json",
      JSON.stringify({
        ztAPI: `${mock.url}/edge/client/v1`,
        id: { cert: `pem:${admin.certPem}`, key: `file://${keyFile}`, ca: caFile },
      }),
    );
    // No edgeUrl, no caBundle: without the file's CA, TLS verification of the mock would fail.
    const client = new EdgeClient({ edgeIdentityFile: file });
    const policy = await client.get<{ name: string }>("/auth-policies/default", "AuthPolicy default");
    assert.equal(policy?.name, "Default");
    const logins = mock.log.filter((e) => e.path === "/edge/management/v1/authenticate");
    assert.deepEqual(
      logins.map((e) => e.query),
      ["method=cert"],
    );
    await client.close();
  });

  it("works for the provider from inline JSON (edgeIdentityJson), an edgeUrl setting taking precedence", async () => {
    // A ztAPI that leads nowhere: the explicit edgeUrl wins.
    const elsewhere = JSON.stringify({
      ...JSON.parse(identityJson),
      ztAPI: "https://127.0.0.1:9/edge/client/v1",
    });
    const variants: Record<string, string>[] = [
      { "frontdoor:edgeIdentityJson": identityJson },
      { "frontdoor:edgeIdentityJson": elsewhere, "frontdoor:edgeUrl": mock.url },
    ];
    for (const settings of variants) {
      await configureFor({ ...settings, "frontdoor:maxRetries": "0" });
      const { id, outs } = await createChecked("AuthPolicy", {
        name: `from-identity-${Object.keys(settings).length}`,
      });
      assert.ok(mock.edge.get("auth-policies", id));
      await engine.remove("AuthPolicy", id, outs);
      assert.equal(mock.edge.get("auth-policies", id), undefined);
    }
    assert.ok(mock.log.some((e) => e.path.endsWith("/authenticate") && e.query === "method=cert"));
  });

  it("fails at check naming the setting and the field, before any request, never showing the key", async () => {
    const stranger = issueCertificate({ commonName: "stranger" });
    const idWith = (id: Record<string, unknown>) =>
      JSON.stringify({ ztAPI: `${mock.url}/edge/client/v1`, id });
    const cases: [Record<string, string>, string, RegExp][] = [
      [
        { "frontdoor:edgeIdentityFile": path.join(dir, "missing.json") },
        "frontdoor:edgeIdentityFile",
        /cannot be read: .*missing\.json \(ENOENT\)/,
      ],
      [
        { "frontdoor:edgeIdentityFile": write("bad.json", `{"id": {"key": "pem:${admin.keyPem}"`) },
        "frontdoor:edgeIdentityFile",
        /is not valid JSON/,
      ],
      [
        { "frontdoor:edgeIdentityJson": `{"id": ${JSON.stringify(admin.keyPem)}` },
        "frontdoor:edgeIdentityJson",
        /is not valid JSON/,
      ],
      [
        { "frontdoor:edgeIdentityJson": JSON.stringify({ ztAPI: mock.url }) },
        "frontdoor:edgeIdentityJson",
        /has no "id" object/,
      ],
      [
        { "frontdoor:edgeIdentityJson": idWith({ key: `pem:${admin.keyPem}` }) },
        "frontdoor:edgeIdentityJson",
        /has no id\.cert/,
      ],
      [
        { "frontdoor:edgeIdentityJson": idWith({ cert: `pem:${admin.certPem}` }) },
        "frontdoor:edgeIdentityJson",
        /has no id\.key/,
      ],
      [
        {
          "frontdoor:edgeIdentityJson": idWith({
            cert: `pem:${admin.certPem}`,
            key: `pem:${stranger.keyPem}`,
          }),
        },
        "frontdoor:edgeIdentityJson",
        /id\.key that is not the private key of id\.cert/,
      ],
      [
        {
          "frontdoor:edgeIdentityJson": idWith({ cert: "pem:not a certificate", key: `pem:${admin.keyPem}` }),
        },
        "frontdoor:edgeIdentityJson",
        /id\.cert that is not a PEM certificate/,
      ],
      [
        {
          "frontdoor:edgeIdentityJson": idWith({
            cert: `pem:${admin.certPem}`,
            key: "file:///nonexistent/admin.key",
          }),
        },
        "frontdoor:edgeIdentityJson",
        /id\.key naming a file that cannot be read: \/nonexistent\/admin\.key/,
      ],
      [
        {
          "frontdoor:edgeIdentityJson": JSON.stringify({
            ...JSON.parse(identityJson),
            ztAPI: "http://ziti.example.com:1280/edge/client/v1",
          }),
        },
        "frontdoor:edgeIdentityJson",
        /ztAPI that uses plain http/,
      ],
      [
        { "frontdoor:edgeIdentityJson": identityJson, "frontdoor:edgeCertPem": admin.certPem },
        "frontdoor:edgeIdentityJson",
        /edgeCertPem/,
      ],
      [
        { "frontdoor:edgeIdentityJson": identityJson, "frontdoor:edgeIdentityFile": "x.json" },
        "frontdoor:edgeIdentityJson",
        /both set/,
      ],
    ];
    for (const [settings, key, reason] of cases) {
      await configureFor(settings);
      const checked = await engine.check("AuthPolicy", {}, { name: "never-made" });
      const failure = checked.failures.find((f) => f.property === key);
      assert.ok(
        failure,
        `no failure naming ${key} for ${JSON.stringify(Object.keys(settings))}: ${JSON.stringify(checked.failures)}`,
      );
      assert.match(failure.reason, reason);
      const shown = redact(JSON.stringify(checked.failures));
      for (const line of [...keyLines(admin.keyPem), ...keyLines(stranger.keyPem)])
        assert.ok(!JSON.stringify(checked.failures).includes(line) && !shown.includes(line), "the key shows");
      // Creating anyway (no check) fails the same way, before any request.
      await assert.rejects(engine.create("AuthPolicy", checked.inputs), (err: Error) => {
        assert.ok(err.message.includes(key), err.message);
        for (const line of keyLines(admin.keyPem)) assert.ok(!err.message.includes(line), "the key shows");
        return true;
      });
    }
    assert.deepEqual(mock.log, [], "a request went out with a bad identity file");
  });

  it("a certificate the controller does not know: 401 from method=cert, the key not in the error", async () => {
    const stranger = issueCertificate({ commonName: "stranger" });
    const json = JSON.stringify({
      ztAPI: `${mock.url}/edge/client/v1`,
      id: { cert: `pem:${stranger.certPem}`, key: `pem:${stranger.keyPem}`, ca: `pem:${mock.caPem}` },
    });
    const client = new EdgeClient({ edgeIdentityJson: json, maxRetries: "0" });
    await assert.rejects(client.get("/identities", "Identity list"), (err: Error) => {
      assert.match(err.message, /method=cert.*401/);
      for (const line of keyLines(stranger.keyPem)) assert.ok(!err.message.includes(line));
      return true;
    });
    await client.close();
  });
});
