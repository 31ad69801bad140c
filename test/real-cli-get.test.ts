// The resource classes' static `get` under the real Pulumi CLI, against the mock: objects made outside
// the program (an Edge identity, a Frontdoor auth provider) are read into it through the dynamic
// provider's read (the GET requests are asserted on the mock's log), their outputs are the objects'
// state and usable as inputs, the state records them as external, and destroy leaves them alone.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { cliStack } from "./peers/cli";
import { requirePeers } from "./peers/index";
import { configureFor, createChecked, mockConfig } from "./support/engine";

const PROGRAM = path.join(__dirname, "programs", "resource-get");

describe("Real Pulumi CLI: Resource.get of the SDK's classes", function () {
  this.timeout(600_000);
  let mock: MockServer;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    mock = await startMockServer();
  });
  after(async () => {
    await mock?.close();
  });

  it("reads existing objects by id (GET), uses them as inputs, keeps them external, destroy leaves them", async () => {
    const settings = mockConfig(mock);
    await configureFor(settings);
    const identity = await createChecked("Identity", { name: "made-elsewhere", roleAttributes: ["ops"] });
    const sso = await createChecked("AuthProvider", {
      name: "console-sso",
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "frontdoor", client_secret: "s3cret-value" },
    });
    const fd = mock.credentials.frontdoorId;
    const ssoId = sso.id.split("/").pop()!;
    const { "frontdoor:edgePassword": edgePassword, "frontdoor:token": token, ...plain } = settings;
    const stack = await cliStack(PROGRAM, {
      config: { ...plain, identityId: identity.id, authProviderId: ssoId },
      secretConfig: { "frontdoor:edgePassword": edgePassword, "frontdoor:token": token },
    });
    try {
      mock.clearLog();
      await stack.ok(["up", "--yes", "--skip-preview"]);
      const reads = mock.log.filter((e) => e.method === "GET").map((e) => e.path);
      assert.ok(reads.includes(`/edge/management/v1/identities/${identity.id}`), reads.join("\n"));
      assert.ok(reads.includes(`/frontdoor/${fd}/auth-providers/${ssoId}`), reads.join("\n"));
      assert.deepEqual(
        mock.log
          .filter((e) => e.method !== "GET" && !/authenticate|oauth|token/.test(e.path))
          .map((e) => `${e.method} ${e.path}`),
        ["POST /edge/management/v1/service-policies"],
        "get writes nothing: only the program's own policy is created",
      );

      const out = JSON.parse((await stack.ok(["stack", "output", "--json"])).stdout);
      assert.equal(out.identityName, "made-elsewhere");
      assert.deepEqual(out.identityRoles, ["ops"]);
      assert.equal(out.ssoName, "console-sso");
      assert.equal(out.ssoIssuer, "https://login.example.com");
      assert.equal(out.existingIsIdentity, true);
      assert.equal(out.existingIsCa, false);
      assert.equal(out.dialIsIdentity, false);
      assert.deepEqual(out.dialRoles, [`@${identity.id}`]);

      const state = await stack.exportState();
      const byName = (name: string) =>
        state.deployment.resources.find((r: { urn: string }) => r.urn.endsWith(`::${name}`));
      assert.equal(byName("existing").external, true);
      assert.equal(byName("existing").id, identity.id);
      assert.equal(byName("existing-sso").external, true);
      assert.equal(byName("dial").external, undefined);

      await stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.ok(mock.edge.get("identities", identity.id), "destroy deleted the identity read with get");
      assert.ok(
        mock.frontdoor.get(fd, "auth-providers", ssoId),
        "destroy deleted the auth provider read with get",
      );
      assert.equal(mock.edge.list("service-policies").length, 0);
    } finally {
      await stack.dispose();
    }
  });
});
