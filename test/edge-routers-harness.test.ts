// EdgeRouter, ExternalJwtSigner (allowed by an AuthPolicy) and the six PostureCheck types through the
// real dynamic-provider host (engine harness): up, a clean refresh, the router's enrollment consumed
// (full) or expired (minimal), still clean, a drift matrix with every optional input set and with none
// set (each change reported on exactly that resource and property), up puts it back, an update that
// re-enrolls the router without replacing it, adoption with the `import` option, destroy.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readState } from "../harness";
import { EdgeClient } from "../provider/http/edge";
import { fullPrimary } from "./support/edge-objects";
import { runStack, useHarnessSetup, useMock } from "./support/fixtures";
import { changes, expectCleanRefresh, expectOk, ops } from "./support/report";

const PROGRAM = path.join(__dirname, "programs", "edge-routers-signers");
const TYPES = ["OS", "DOMAIN", "MAC", "PROCESS", "PROCESS_MULTI", "MFA"];
type Ids = Record<string, string>;

describe("EdgeRouter, ExternalJwtSigner and PostureCheck through the dynamic-provider host", function () {
  this.timeout(180_000);
  const mock = useMock();
  const setup = useHarnessSetup(mock, "edge-routers-", undefined, ["frontdoor:edgePassword"]);

  const stack =
    (mode: "full" | "minimal", prefix: string) =>
    (command: "up" | "refresh" | "destroy", extra: Record<string, string> = {}, expectNoChanges = false) =>
      runStack(setup, PROGRAM, { mode, prefix }, command, extra, expectNoChanges);
  const expectClean = async (
    run: ReturnType<typeof stack>,
    why: string,
    extra: Record<string, string> = {},
  ) => {
    expectCleanRefresh(await run("refresh", extra, true), why);
  };
  const reEnrollments = (id: string) =>
    mock.log.filter((e) => e.method === "POST" && e.path.endsWith(`/edge-routers/${id}/re-enroll`)).length;

  for (const [mode, prefix] of [
    ["full", "erf"],
    ["minimal", "erm"],
  ] as const) {
    it(`${mode}: up, clean refresh (enrollment consumed or expired too), exact drift, up puts it back`, async () => {
      const run = stack(mode, prefix);
      const up = await run("up");
      expectOk(up);
      assert.deepEqual(
        Object.values(ops(up)).filter((op) => op !== "create"),
        [],
      );
      assert.equal(Object.keys(ops(up)).length, 3 + TYPES.length);
      assert.equal(up.report.outputs.routerJwt, "[secret]");
      const ids = up.report.outputs.ids as Ids;
      const jwt = String(mock.edge.get("edge-routers", ids.router)?.enrollmentJwt);
      assert.match(jwt, /^ey/);
      const stateText = fs.readFileSync(path.join(setup.dir, `${prefix}.json`), "utf8");
      assert.ok(!stateText.includes(jwt), "the enrollment JWT is stored in clear text");
      assert.ok(!`${up.stdout}${up.stderr}`.includes(jwt), "the enrollment JWT is printed");
      assert.deepEqual((mock.edge.get("auth-policies", ids.policy) as any).primary.extJwt.allowedSigners, [
        ids.signer,
      ]);
      await expectClean(run, "right after up");

      // Full: the router enrolled (its enrollment is gone). Minimal: it never did and the enrollment lapsed.
      mock.edge.patch(
        "edge-routers",
        ids.router,
        mode === "full"
          ? { enrollmentJwt: null, enrollmentToken: null, enrollmentExpiresAt: null, isVerified: true }
          : { enrollmentExpiresAt: new Date(Date.now() - 60_000).toISOString() },
      );
      await expectClean(run, mode === "full" ? "after the router enrolled" : "after the enrollment expired");

      const expected = mode === "full" ? driftFull(ids) : driftMinimal(ids);
      const drift = await run("refresh", {}, true);
      assert.equal(drift.exitCode, 1, "--expect-no-changes fails on drift");
      assert.deepEqual(changes(drift), expected);
      assert.ok(!`${drift.stdout}${drift.stderr}`.includes(jwt), "the enrollment JWT is printed");

      const back = await run("up");
      expectOk(back);
      for (const [name, change] of Object.entries(expected)) {
        assert.equal(ops(back)[name], change === "delete" ? "create" : "update", name);
      }
      await expectClean(run, "after up put everything back");
    });
  }

  /** Every optional input set: changes behind Pulumi's back, and what the refresh must report. */
  function driftFull(ids: Ids) {
    const router = mock.edge.get("edge-routers", ids.router) as any;
    mock.edge.patch("edge-routers", ids.router, {
      cost: 99,
      tags: { site: "paris" },
      roleAttributes: [...router.roleAttributes].reverse(), // a set: not drift
    });
    mock.edge.patch("external-jwt-signers", ids.signer, { audience: "someone-else" });
    const domains = mock.edge.get("posture-checks", ids.DOMAIN)?.domains as string[];
    mock.edge.patch("posture-checks", ids.DOMAIN, { domains: [...domains].reverse() }); // not drift
    mock.edge.patch("posture-checks", ids.MAC, { macAddresses: ["00:11:22:33:44:55"] });
    mock.edge.patch("posture-checks", ids.MFA, { timeoutSeconds: 5 });
    const process = mock.edge.get("posture-checks", ids.PROCESS)?.process as Record<string, unknown>;
    mock.edge.patch("posture-checks", ids.PROCESS, { process: { ...process, path: "C:\\other.exe" } });
    assert.ok(mock.edge.remove("posture-checks", ids.OS));
    return {
      router: ["cost", "tags"],
      signer: ["audience"],
      "posture-mac": ["macAddresses"],
      "posture-mfa": ["timeoutSeconds"],
      "posture-process": ["process"],
      "posture-os": "delete",
    };
  }

  /** No optional input set: values appear where the server had its defaults (null, [], false). */
  function driftMinimal(ids: Ids) {
    mock.edge.patch("edge-routers", ids.router, { roleAttributes: ["intruders"], noTraversal: true });
    mock.edge.patch("external-jwt-signers", ids.signer, { scopes: ["openid"], clientId: "someone" });
    mock.edge.patch("posture-checks", ids.PROCESS_MULTI, { semantic: "AnyOf" });
    mock.edge.patch("posture-checks", ids.MFA, { promptOnUnlock: true });
    mock.edge.patch("posture-checks", ids.OS, { roleAttributes: ["x"] });
    assert.ok(mock.edge.remove("auth-policies", ids.policy));
    return {
      router: ["noTraversal", "roleAttributes"],
      signer: ["clientId", "scopes"],
      "posture-process_multi": ["semantic"],
      "posture-mfa": ["promptOnUnlock"],
      "posture-os": ["roleAttributes"],
      policy: "delete",
    };
  }

  it("stage 2 updates every kind in place and re-enrolls the router (no replacement), then destroys", async () => {
    const run = stack("full", "erf");
    const ids = readState(path.join(setup.dir, "erf.json")).resources.find((r) => r.name === "router")!;
    const before = reEnrollments(ids.id);
    const oldJwt = mock.edge.get("edge-routers", ids.id)?.enrollmentJwt;
    const stage2 = await run("up", { stage: "2" });
    expectOk(stage2);
    const changed = Object.entries(ops(stage2)).filter(([, op]) => op !== "same");
    for (const [name, op] of changed) assert.equal(op, "update", name);
    assert.deepEqual(changed.map(([name]) => name).sort(), [
      "policy",
      "posture-domain",
      "posture-mfa",
      "posture-os",
      "posture-process_multi",
      "router",
      "signer",
    ]);
    assert.equal(reEnrollments(ids.id), before + 1);
    const router = mock.edge.get("edge-routers", ids.id)!;
    assert.equal(router.cost, 20);
    assert.notEqual(router.enrollmentJwt, oldJwt);
    assert.equal(stage2.report.outputs.routerVerified, false);
    await expectClean(run, "after stage 2", { stage: "2" });

    expectOk(await run("destroy", { stage: "2" }));
    for (const collection of [
      "edge-routers",
      "external-jwt-signers",
      "posture-checks",
      "auth-policies",
    ] as const) {
      assert.deepEqual(
        mock.edge.list(collection).filter((r) => String(r.name).startsWith("erf-")),
        [],
        `${collection} left behind`,
      );
    }
  });

  it("adopts existing objects with the import option without a change, then destroys them", async () => {
    const client = new EdgeClient({
      edgeUrl: mock.url,
      edgeUsername: "admin",
      edgePassword: mock.credentials.edgePassword,
    });
    const prefix = "eri";
    const create = (collection: string, body: Record<string, unknown>) =>
      client.create(`/${collection}`, body, collection);
    const importIds: Ids = {
      router: await create("edge-routers", { name: `${prefix}-router` }),
      signer: await create("external-jwt-signers", {
        name: `${prefix}-signer`,
        issuer: `https://login.example.com/realms/${prefix}`,
        audience: "openziti",
        enabled: true,
        jwksEndpoint: `https://login.example.com/realms/${prefix}/certs`,
      }),
    };
    importIds.policy = await create("auth-policies", {
      name: `${prefix}-sso-only`,
      primary: fullPrimary({ extJwt: { allowedSigners: [importIds.signer] }, updb: { allowed: false } }),
      secondary: { requireTotp: false, requireExtJwtSigner: null },
    });
    const checkBodies: Record<string, Record<string, unknown>> = {
      OS: { operatingSystems: [{ type: "Linux", versions: [] }] },
      DOMAIN: { domains: ["corp.example.com", "ad.example.com"] },
      MAC: { macAddresses: ["66:77:88:99:aa:bb", "00:11:22:33:44:55"] },
      PROCESS: { process: { osType: "Linux", path: "/opt/edr/agent" } },
      PROCESS_MULTI: {
        semantic: "AllOf",
        processes: [
          { osType: "Linux", path: "/opt/edr/agent" },
          { osType: "macOS", path: "/Applications/EDR.app/agent" },
        ],
      },
      MFA: {},
    };
    for (const [typeId, body] of Object.entries(checkBodies)) {
      importIds[typeId] = await create("posture-checks", {
        name: `${prefix}-${typeId.toLowerCase()}`,
        typeId,
        ...body,
      });
    }
    await client.close();
    const run = stack("minimal", prefix);
    const extra = { importIds: JSON.stringify(importIds) };
    const adopted = await run("up", extra);
    expectOk(adopted);
    assert.deepEqual([...new Set(Object.values(ops(adopted)))], ["import"]);
    assert.equal((adopted.report.outputs.ids as Ids).router, importIds.router);
    const again = await run("up", extra);
    expectOk(again);
    assert.deepEqual([...new Set(Object.values(ops(again)))], ["same"]);
    expectOk(await run("destroy", extra));
    assert.equal(mock.edge.get("edge-routers", importIds.router), undefined);
    assert.equal(mock.edge.get("posture-checks", importIds.MFA), undefined);
  });
});
