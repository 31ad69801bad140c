// TLS is always verified: the provider trusts a server with its own CA only when given the CA bundle,
// and fails with a message that says what to configure otherwise. There is no switch to turn it off.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { CONFIG_KEYS } from "../provider/config";
import { configureFor, createChecked, engine, mockConfig } from "./support/engine";
import { tempDir, useMock } from "./support/fixtures";

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

  /** The mock's CA certificate in a file of its own (each a new path: settings a client has not had). */
  const caBundleFile = () => {
    const file = path.join(tempDir("fd-ca-"), "ca.pem");
    fs.writeFileSync(file, mock.caPem!);
    return file;
  };

  it("accepts the CA bundle as a file path too", async () => {
    await configureFor({ ...mockConfig(mock), "frontdoor:caBundle": caBundleFile() });
    const { id, outs } = await createChecked("AuthProvider", provider);
    await engine.remove("AuthProvider", id, outs);
  });

  it("makes one TLS context per client, not one per connection (each parses every root certificate)", async () => {
    // A fresh client: settings that differ from the previous tests' (the bundle from another file).
    await configureFor({ ...mockConfig(mock), "frontdoor:caBundle": caBundleFile() });
    // Counted as Node's TLS layer sees them (the module object itself: its exports are what
    // tls.connect and undici call), then passed through unchanged.
    const tls = require("node:tls") as typeof import("node:tls");
    const real = { connect: tls.connect, createSecureContext: tls.createSecureContext };
    const calls = { connect: 0, createSecureContext: 0 };
    const spy = tls as unknown as Record<keyof typeof real, (...args: unknown[]) => unknown>;
    for (const name of Object.keys(real) as (keyof typeof real)[])
      spy[name] = (...args: unknown[]) => {
        calls[name]++;
        return (real[name] as (...a: unknown[]) => unknown)(...args);
      };
    try {
      const made = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          createChecked("AuthProvider", { ...provider, name: `tls-ctx-${i}` }),
        ),
      );
      for (const { id, outs } of made) await engine.remove("AuthProvider", id, outs);
    } finally {
      Object.assign(tls, real);
    }
    assert.ok(calls.connect > 1, `several connections were opened in parallel (${calls.connect})`);
    assert.equal(calls.createSecureContext, 1, "one context, shared by every connection");
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
