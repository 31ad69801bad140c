// Lookups and the identity-file login under the real Pulumi CLI (v3.276) against the real controller:
// the program test/programs/edge-lookups looks up the `default` auth policy and a service made outside
// Pulumi and uses them as inputs, logged in only with a Ziti identity file given as secret stack config
// (no edgeUrl, no caBundle, no password). Up, preview and refresh without changes, the key in neither
// the state nor the output, destroy leaving the looked-up objects alone.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type CliStack, cliStack } from "./peers/cli";
import { ClientApi } from "./peers/clientApi";
import { type RealController, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";

const PROGRAM = path.join(__dirname, "programs", "edge-lookups");

describe("Real Pulumi CLI: lookups and identity-file login on a real controller", function () {
  this.timeout(600_000);
  let ctrl: RealController;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", "ziti");
    ctrl = await startController();
  });
  after(async () => {
    await ctrl?.stop();
  });

  it("up with looked-up inputs, no changes on preview and refresh, no key leaked, destroy keeps the looked-up objects", async () => {
    const admin = ctrl.admin;
    // An admin identity enrolled by ott: its certificate and key make the identity file.
    const made = await admin.call("POST", "/identities", {
      body: { name: "cli-idfile-admin", type: "User", isAdmin: true, enrollment: { ott: true } },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const enrollments = await admin.call("GET", `/identities/${made.body.data.id}/enrollments`);
    const device = new ClientApi(ctrl);
    const { certPem, keyPem } = await device.enrollOtt(
      String(enrollments.body.data[0].token),
      "cli-idfile-admin",
    );
    await device.close();
    const identityJson = JSON.stringify({
      ztAPI: `${ctrl.url}/edge/client/v1`,
      id: { cert: `pem:${certPem}`, key: `pem:${keyPem}`, ca: `pem:${ctrl.caPem}` },
    });
    const service = await admin.call("POST", "/services", {
      body: { name: "cli-console-app", encryptionRequired: true, roleAttributes: ["from-console"] },
    });
    assert.equal(service.status, 201, JSON.stringify(service.body));
    const serviceId = String(service.body.data.id);

    const stack: CliStack = await cliStack(PROGRAM, {
      stack: "ci",
      config: { consoleService: "cli-console-app", prefix: "cli" },
      secretConfig: { "frontdoor:edgeIdentityJson": identityJson },
    });
    const printed: string[] = [];
    const keep = <T extends { output: string }>(result: T) => {
      printed.push(result.output);
      return result;
    };
    try {
      keep(await stack.ok(["up", "--yes", "--skip-preview"]));
      const outputs = JSON.parse(keep(await stack.ok(["stack", "output", "--json"])).stdout);
      assert.equal(outputs.defaultPolicyName, "Default");
      assert.equal(outputs.outsideServiceId, serviceId);
      assert.deepEqual(outputs.fromConsoleNames, ["cli-console-app"]);
      assert.equal(outputs.nobodyCount, 0);
      assert.equal(outputs.interceptTypeId, "g7cIWbcGg");
      assert.equal(outputs.lookedUpJwt, "[secret]");

      const user = await admin.call("GET", `/identities/${outputs.userId}`);
      assert.equal(user.body.data.authPolicyId, "default");
      const policies = await admin.call("GET", '/service-policies?filter=name="cli-dial"');
      assert.deepEqual(policies.body.data[0].serviceRoles, [`@${serviceId}`]);

      const preview = keep(await stack.run(["preview", "--expect-no-changes"]));
      assert.equal(preview.code, 0, `preview found changes:\n${preview.output}`);
      const refresh = keep(await stack.run(["refresh", "--yes", "--expect-no-changes"]));
      assert.equal(refresh.code, 0, `false drift:\n${refresh.output}`);

      const exported = JSON.stringify(await stack.exportState());
      const keyLines = keyPem.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
      assert.ok(keyLines.length > 0);
      for (const line of keyLines) {
        assert.ok(!exported.includes(line), "the identity's key is in the state");
        for (const text of printed) assert.ok(!text.includes(line), "the identity's key was printed");
      }

      keep(await stack.ok(["destroy", "--yes", "--skip-preview"]));
      assert.equal((await admin.call("GET", `/identities/${outputs.userId}`)).status, 404);
      assert.equal((await admin.call("GET", `/services/${serviceId}`)).status, 200);
      assert.equal((await admin.call("GET", "/auth-policies/default")).status, 200);
    } finally {
      await stack.dispose();
      await admin.call("DELETE", `/services/${serviceId}`);
      await admin.call("DELETE", `/identities/${made.body.data.id}`);
    }
  });
});
