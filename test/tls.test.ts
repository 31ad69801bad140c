// TLS is always verified: the provider trusts a server with its own CA only when given the CA bundle,
// and fails with a message that says what to configure otherwise. There is no switch to turn it off.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CONFIG_KEYS } from "../provider/config";
import { configureFor, createChecked, engine, mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";

const provider = {
  name: "tls-sso",
  type: "OIDC",
  data: { issuer: "https://login.example.com", client_id: "c", client_secret: "tls-client-secret" },
};

describe("TLS", () => {
  const mock = useMock({ tls: true });

  it("connects to an HTTPS server with its own CA when given the CA bundle as PEM", async () => {
    assert.match(mock.url, /^https:\/\/127\.0\.0\.1:/);
    await configureFor(mockConfig(mock));
    const { id, outs } = await createChecked("AuthProvider", provider);
    await engine.remove("AuthProvider", id, outs);
  });

  it("accepts the CA bundle as a file path too", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fd-ca-")), "ca.pem");
    fs.writeFileSync(file, mock.caPem!);
    await configureFor({ ...mockConfig(mock), "frontdoor:caBundle": file });
    const { id, outs } = await createChecked("AuthProvider", provider);
    await engine.remove("AuthProvider", id, outs);
  });

  it("refuses the server without the CA bundle, and says what to configure", async () => {
    const config = mockConfig(mock);
    delete config["frontdoor:caBundle"];
    await configureFor(config);
    mock.clearLog();
    const saved = process.env.FRONTDOOR_CA_BUNDLE;
    delete process.env.FRONTDOOR_CA_BUNDLE;
    try {
      const error = await createChecked("AuthProvider", provider).catch((e) => e);
      assert.ok(error instanceof Error, "the connection must fail");
      assert.match(error.message, /TLS verification failed.*frontdoor:caBundle/);
      assert.equal(mock.log.filter((e) => e.method === "POST").length, 0, "nothing reached the server");
    } finally {
      if (saved !== undefined) process.env.FRONTDOOR_CA_BUNDLE = saved;
    }
  });

  it("offers no setting that disables certificate verification", () => {
    const names = CONFIG_KEYS.map((k) => `${k.key} ${k.env.join(" ")}`).join(" ");
    assert.doesNotMatch(names, /insecure|reject|verify|skip/i);
    const sources = ["provider/http/client.ts", "provider/http/frontdoorAuth.ts"].map((f) =>
      fs.readFileSync(path.resolve(__dirname, "..", f), "utf8"),
    );
    for (const source of sources) assert.doesNotMatch(source, /rejectUnauthorized/);
  });
});
