// The drift matrix of test/drift.test.ts with the Edge kinds on a real OpenZiti controller (the
// Frontdoor kinds stay on the mock), through the real dynamic-provider host: no false drift right
// after up (every optional input set, and none), each change made behind Pulumi's back with the
// controller's own API reported on exactly that resource and property, up puts it back, destroy
// leaves nothing on the controller.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { testCa } from "./edge-support";
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { driftSigners } from "./support/edge-objects";
import { mockConfig } from "./support/engine";
import { expectOk, refreshesClean, refreshFindsDrift } from "./support/report";

const PROGRAM = path.join(__dirname, "programs", "drift-all");
const EDGE = ["policy", "user", "erp", "ca"] as const;
const EDGE_COLLECTIONS = {
  policy: "auth-policies",
  user: "identities",
  erp: "edge-router-policies",
  ca: "cas",
};

describe("Drift on a real OpenZiti controller through the dynamic-provider host", function () {
  this.timeout(600_000);
  let ctrl: RealController;
  let mock: MockServer;
  let dir: string;
  let config: Record<string, string>;
  let secretConfig: Record<string, string>;

  before(async function () {
    requirePeers(this, "ziti");
    ctrl = await startController();
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 50 } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "real-drift-"));
    const { "frontdoor:edgePassword": edgePassword, ...edge } = realEdgeConfig(ctrl);
    const { "frontdoor:token": token, ...frontdoor } = mockConfig(mock);
    // The full auth policy names two external JWT signers: the controller must have them.
    const signers = await driftSigners(ctrl.admin);
    // ... and the full identity's hosting costs name two services.
    const services: string[] = [];
    for (const name of ["drift-svc-1", "drift-svc-2"]) {
      const made = await ctrl.admin.call("POST", "/services", { body: { name, encryptionRequired: true } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      services.push(String(made.body.data.id));
    }
    config = {
      "frontdoor:apiUrl": frontdoor["frontdoor:apiUrl"],
      "frontdoor:frontdoorId": frontdoor["frontdoor:frontdoorId"],
      ...edge,
      signerA: signers[0],
      signerB: signers[1],
      service1: services[0],
      service2: services[1],
    };
    secretConfig = {
      "frontdoor:edgePassword": edgePassword,
      "frontdoor:token": token,
      ssoClientSecret: "real-drift-sso-secret-0001",
      partnerApiKey: "real-drift-partner-key-0123456789",
    };
  });
  after(async () => {
    mock?.close();
    await ctrl?.stop();
  });

  const stack = (mode: "full" | "minimal", prefix: string) => {
    const pki = testCa(`Real drift CA ${prefix}`);
    return (command: "up" | "refresh" | "destroy", expectNoChanges = false) =>
      runHarness(command, {
        programDir: PROGRAM,
        stateFile: path.join(dir, `${prefix}.json`),
        config: { ...config, mode, prefix, caCertPem: pki.certPem },
        secretConfig: { ...secretConfig, caKeyPem: pki.keyPem },
        expectNoChanges,
      });
  };
  const patch = async (kind: (typeof EDGE)[number], id: string, body: unknown) => {
    const answer = await ctrl.admin.call("PATCH", `/${EDGE_COLLECTIONS[kind]}/${id}`, { body });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  };
  const detail = async (kind: (typeof EDGE)[number], id: string) =>
    (await ctrl.admin.call("GET", `/${EDGE_COLLECTIONS[kind]}/${id}`)).body.data;
  const noneLeft = async (ids: Record<string, string>) => {
    for (const kind of EDGE) {
      const answer = await ctrl.admin.call("GET", `/${EDGE_COLLECTIONS[kind]}/${ids[kind]}`);
      assert.equal(answer.status, 404, `${kind} ${ids[kind]} left behind`);
    }
  };

  it("every optional input set: clean after up, each change reported exactly, put back, destroyed", async () => {
    const run = stack("full", "rf");
    const up = await run("up");
    expectOk(up);
    const ids = up.report.outputs.ids as Record<string, string>;
    assert.equal(up.report.outputs.caVerified, true, "the CA was verified with a real certificate");
    assert.equal((await detail("ca", ids.ca)).isVerified, true);
    await refreshesClean(run, "right after up (every optional input set)");

    const policy = await detail("policy", ids.policy);
    await patch("policy", ids.policy, {
      primary: { ...policy.primary, updb: { ...policy.primary.updb, minPasswordLength: 6 } },
    });
    await patch("user", ids.user, { defaultHostingCost: 9, tags: { site: "paris" } });
    // A PATCH without externalIdClaim clears it on the controller (test/real-vs-mock.test.ts): send it.
    await patch("ca", ids.ca, {
      isAuthEnabled: false,
      externalIdClaim: (await detail("ca", ids.ca)).externalIdClaim,
    });
    const erp = await detail("erp", ids.erp);
    await patch("erp", ids.erp, {
      identityRoles: [...erp.identityRoles].reverse(),
      edgeRouterRoles: [...erp.edgeRouterRoles].reverse(),
    });
    await refreshFindsDrift(run, {
      policy: ["primary"],
      user: ["defaultHostingCost", "tags"],
      ca: ["isAuthEnabled"],
    });

    const restore = await run("up");
    expectOk(restore);
    assert.equal((await detail("policy", ids.policy)).primary.updb.minPasswordLength, 12);
    await refreshesClean(run, "after up put everything back");
    expectOk(await run("destroy"));
    await noneLeft(ids);
  });

  it("every optional input left unset: clean after up, each change reported exactly, put back, destroyed", async () => {
    const run = stack("minimal", "rm");
    const up = await run("up");
    expectOk(up);
    const ids = up.report.outputs.ids as Record<string, string>;
    await refreshesClean(run, "right after up (no optional input set)");

    await patch("erp", ids.erp, { identityRoles: ["#intruders"] });
    await patch("user", ids.user, { externalId: "ext-1", roleAttributes: ["admins"] });
    await patch("ca", ids.ca, { tags: { owner: "someone" } });
    assert.equal((await ctrl.admin.call("DELETE", `/auth-policies/${ids.policy}`)).status, 200);
    await refreshFindsDrift(run, {
      erp: ["identityRoles"],
      user: ["externalId", "roleAttributes"],
      ca: ["tags"],
      policy: "delete",
    });

    const restore = await run("up");
    expectOk(restore);
    await refreshesClean(run, "after up put everything back");
    const after = await run("up");
    expectOk(after);
    expectOk(await run("destroy"));
    await noneLeft({ ...ids, policy: after.report.outputs.ids.policy });
  });
});
