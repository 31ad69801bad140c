// The built provider plugin process (bin/plugin/pulumi-resource-frontdoor) driven over gRPC with Pulumi's
// own generated client, as the engine drives it, against the mock server: what only the process shows
// (the package root it finds from bin/, the settings of its environment). The protocol itself (secrets
// marked, preview's unknowns, the requests each call sends) is test/plugin-server.test.ts, served in
// this process so that mutation testing reaches it.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { useMock } from "./support/fixtures";
import { type PluginProcess, secret, startPlugin, struct } from "./support/plugin";

const ROOT = path.resolve(__dirname, "..");

describe("Provider plugin over gRPC (mock server)", function () {
  this.timeout(60_000);
  const mock = useMock();
  let plugin: PluginProcess;

  before(async () => {
    // No FRONTDOOR_*/ZITI_* from the test's environment: the settings come from Configure only.
    const env = Object.fromEntries(
      Object.keys(process.env)
        .filter((k) => /^(FRONTDOOR|ZITI|NETFOUNDRY)_/.test(k))
        .map((k) => [k, undefined]),
    );
    plugin = await startPlugin({ env });
  });
  after(async () => {
    await plugin?.stop();
  });

  it("reports the package's version and serves schema.json", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const info = await plugin.call<any>("getPluginInfo", new emptyproto.Empty());
    assert.equal(info.getVersion(), version);
    const schema = await plugin.call<provproto.GetSchemaResponse>(
      "getSchema",
      new provproto.GetSchemaRequest(),
    );
    assert.equal(schema.getSchema(), fs.readFileSync(path.join(ROOT, "schema.json"), "utf8"));
    const parsed = JSON.parse(schema.getSchema());
    assert.deepEqual(
      Object.keys(parsed.provider.inputProperties).sort(),
      Object.keys(parsed.config.variables).sort(),
      "an explicit provider takes every frontdoor:* setting",
    );
  });

  it("settings not given come from the environment, as for the dynamic provider (the same configure)", async () => {
    const fromEnv = await startPlugin({
      env: {
        FRONTDOOR_API_URL: mock.url,
        FRONTDOOR_TOKEN: mock.credentials.frontdoorToken,
        FRONTDOOR_ID: mock.credentials.frontdoorId,
      },
    });
    try {
      const req = new provproto.ConfigureRequest();
      req.setArgs(struct({ version: "0.1.0" }));
      await fromEnv.call("configure", req);
      mock.clearLog();
      const read = new provproto.InvokeRequest();
      read.setTok("frontdoor:index:validateCertificateRequestToken");
      read.setArgs(struct({ token: secret("no-such-token-value-42") }));
      await assert.rejects(fromEnv.call("invoke", read), /certificate request token not found/);
      assert.deepEqual(
        mock.log.map((e) => `${e.method} ${e.path}`),
        [`GET /frontdoor/${mock.credentials.frontdoorId}/certificate-request-tokens/by-token/[redacted]`],
        "the call went to the API and frontdoor of the environment",
      );
      assert.doesNotMatch(fromEnv.stderr(), /no-such-token-value-42/);
    } finally {
      await fromEnv.stop();
    }
  });
});
