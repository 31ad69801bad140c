// A program run through the real dynamic-provider host (engine harness) that looks up the controller's
// `default` auth policy and a service made outside Pulumi, and uses them as inputs of its own resources;
// then the same program logged in with a Ziti identity file (secret stack config) over TLS, whose key
// must not reach the state.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { EdgeClient as RawClient } from "./support/edgeClient";
import { mockConfig } from "./support/engine";
import { useTempDir } from "./support/fixtures";
import { expectCleanRefresh, expectOk, ops } from "./support/report";

const PROGRAM = path.join(__dirname, "programs", "edge-lookups");

/** Services made with raw API calls, as the console makes them; returns the id of the first. */
async function consoleServices(mock: MockServer, names: string[]): Promise<string> {
  const raw = new RawClient(mock.url, mock.caPem);
  assert.equal((await raw.login(mock.credentials.edgeUsername, mock.credentials.edgePassword)).status, 200);
  const ids: string[] = [];
  for (const name of names) {
    const reply = await raw.call("POST", "/services", {
      body: { name, encryptionRequired: true, roleAttributes: ["from-console"] },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    ids.push(reply.body.data.id);
  }
  return ids[0];
}

describe("Lookups in a program through the dynamic-provider host", function () {
  this.timeout(180_000);
  const dir = useTempDir("lookups-harness-");

  it("uses the default auth policy and a service made outside Pulumi as inputs; refresh clean; destroy keeps them", async () => {
    const mock = await startMockServer();
    try {
      const serviceId = await consoleServices(mock, ["console-app", "console-other"]);
      const { "frontdoor:edgePassword": edgePassword, ...plain } = mockConfig(mock);
      const run = (command: Parameters<typeof runHarness>[0], expectNoChanges = false) =>
        runHarness(command, {
          programDir: PROGRAM,
          stateFile: path.join(dir.path, "password.json"),
          config: { ...plain, consoleService: "console-app" },
          secretConfig: { "frontdoor:edgePassword": edgePassword },
          expectNoChanges,
        });

      const up = await run("up");
      expectOk(up);
      assert.deepEqual(ops(up), { user: "create", dial: "create" });
      const out = up.report.outputs;
      assert.equal(out.defaultPolicyName, "Default");
      assert.equal(out.outsideServiceId, serviceId);
      assert.deepEqual(out.fromConsoleNames, ["console-app", "console-other"]);
      assert.equal(out.nobodyCount, 0);
      assert.equal(out.interceptTypeId, "g7cIWbcGg");
      // The looked-up identity holds a pending enrollment JWT: the Output variant made it secret, as a
      // whole (an Output is secret or not), so its other fields are secret in the program too.
      assert.equal(out.lookedUpJwt, "[secret]");
      assert.equal(out.lookedUpPolicy, "[secret]");
      // The looked-up values really became the inputs of the program's resources.
      const user = mock.edge.get("identities", out.userId)!;
      assert.equal(user.authPolicyId, "default");
      const dial = mock.edge.list("service-policies").find((p) => p.name === "lkp-dial")!;
      assert.deepEqual(dial.serviceRoles, [`@${serviceId}`]);
      assert.deepEqual(dial.identityRoles, [`@${out.userId}`]);

      expectCleanRefresh(await run("refresh", true), "after up with looked-up inputs");
      const again = await run("up");
      expectOk(again);
      assert.deepEqual(ops(again), { user: "same", dial: "same" });

      expectOk(await run("destroy"));
      assert.equal(mock.edge.get("identities", out.userId), undefined);
      // Looked-up objects are not the program's: destroy leaves them.
      assert.ok(mock.edge.get("services", serviceId));
      assert.ok(mock.edge.get("auth-policies", "default"));
    } finally {
      await mock.close();
    }
  });

  it("logs in with a Ziti identity file (secret config, TLS) for lookups and resources; the key stays out of the state", async () => {
    const mock = await startMockServer({ tls: true });
    try {
      await consoleServices(mock, ["console-app"]);
      mock.clearLog();
      const admin = mock.edge.issueAdminCertificate();
      const identityJson = JSON.stringify({
        ztAPI: `${mock.url}/edge/client/v1`,
        id: { cert: `pem:${admin.certPem}`, key: `pem:${admin.keyPem}`, ca: `pem:${mock.caPem}` },
      });
      const stateFile = path.join(dir.path, "identity.json");
      // No edgeUrl, no caBundle, no password: everything Edge comes from the identity.
      const run = (command: Parameters<typeof runHarness>[0], expectNoChanges = false) =>
        runHarness(command, {
          programDir: PROGRAM,
          stateFile,
          config: { consoleService: "console-app", prefix: "lki" },
          secretConfig: { "frontdoor:edgeIdentityJson": identityJson },
          expectNoChanges,
        });
      const up = await run("up");
      expectOk(up);
      assert.equal(up.report.outputs.defaultPolicyName, "Default");
      const logins = mock.log.filter((e) => e.path === "/edge/management/v1/authenticate");
      assert.ok(logins.length >= 2, "the program and the provider host each logged in");
      assert.ok(logins.every((e) => e.query === "method=cert"));
      expectCleanRefresh(await run("refresh", true), "after up with an identity file");
      expectOk(await run("destroy"));
      const keyLines = admin.keyPem.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
      const written = fs
        .readdirSync(dir.path)
        .filter((f) => f.startsWith("identity"))
        .map((f) => fs.readFileSync(path.join(dir.path, f), "utf8"))
        .join("\n");
      assert.ok(written.length > 0);
      for (const line of keyLines) assert.ok(!written.includes(line), "the identity's key is in the state");
      const printed = `${up.stdout}\n${up.stderr}`;
      for (const line of keyLines) assert.ok(!printed.includes(line), "the identity's key was printed");
    } finally {
      await mock.close();
    }
  });
});
