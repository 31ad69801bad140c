// The field matrix (test/support/field-matrix.ts) against real controllers, both releases: every
// settable input of every Edge kind set to a realistic non-default value in one program; `up`, then
// `refresh --expect-no-changes` and `preview --refresh --expect-no-changes` clean (harness and real
// CLI); then, round after round, one top-level input of each object changed behind Pulumi's back
// with the controller's API, reported as exactly that input of exactly that object, and `up` puts
// it back; `destroy` leaves nothing. The first describe checks, without peers, that the matrix
// covers every field the zod schemas define (a new field without a value fails it).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type HarnessResult, runHarness } from "../harness";
import { sameValue } from "../provider/resource";
import { engine, testCa } from "./edge-support";
import { authPolicyBody } from "./peers/bodies";
import { cliStack } from "./peers/cli";
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { CONTROLLER_RELEASES, requirePeers } from "./peers/index";
import { configureFor, configureForCheckOnly } from "./support/engine";
import {
  BEHIND,
  DUMMY_FIXTURES,
  type Fixtures,
  inputsFor,
  MATRIX,
  type MatrixCase,
} from "./support/field-matrix";
import { defaultOf, edgeVariants, leafPaths, setPaths, topLevelFields } from "./support/field-paths";
import { changes, expectCleanRefresh, expectOk, ops } from "./support/report";

const PROGRAM = path.join(__dirname, "programs", "field-matrix");
const COLLECTIONS: Record<string, string> = {
  AuthPolicy: "auth-policies",
  Identity: "identities",
  EdgeRouterPolicy: "edge-router-policies",
  Ca: "cas",
  EdgeRouter: "edge-routers",
  ExternalJwtSigner: "external-jwt-signers",
  PostureCheck: "posture-checks",
  ConfigType: "config-types",
  Config: "configs",
  Service: "services",
  ServicePolicy: "service-policies",
  ServiceEdgeRouterPolicy: "service-edge-router-policies",
};

/**
 * What a PATCH must carry besides the changed field: a config type's schema, a config's data
 * (400 without them), a CA's externalIdClaim (a PATCH without it clears it: test/real-vs-mock.test.ts).
 */
const PATCH_CARRIES: Record<string, string[]> = {
  ConfigType: ["schema"],
  Config: ["data"],
  Ca: ["externalIdClaim"],
};

/**
 * What another admin puts back after the change, when the controller changed it too: a change of a
 * service policy's type clears its posture check roles (even those in the same request).
 */
const PUT_BACK: Record<string, string[]> = { ServicePolicy: ["postureCheckRoles"] };

/**
 * Kinds another admin changes with PUT (the whole document), and its fields: a PATCH of an auth
 * policy's nested field is ignored, and a PATCH of a PROCESS_MULTI check's name changes its processes.
 */
const PUT_KINDS: Record<string, string[]> = {
  AuthPolicy: ["name", "primary", "secondary", "tags"],
  PostureCheck: [
    "name",
    "typeId",
    "roleAttributes",
    "tags",
    "operatingSystems",
    "domains",
    "macAddresses",
    "process",
    "semantic",
    "processes",
    "timeoutSeconds",
    "promptOnWake",
    "promptOnUnlock",
    "ignoreLegacyEndpoints",
  ],
};

const DUMMY = DUMMY_FIXTURES;

/**
 * The top-level inputs of a case that the drift rounds change, in a fixed order. Each changeable
 * input of a kind is tried on one of the kind's cases that set it (the least busy one), so the
 * rounds (one input per object each) are as few as the busiest object needs.
 */
const DRIFT_PLAN = (() => {
  const plan = new Map<string, string[]>(MATRIX.map((c) => [c.name, []]));
  for (const kind of new Set(MATRIX.map((c) => c.kind))) {
    const cases = MATRIX.filter((c) => c.kind === kind);
    const sets = new Map(cases.map((c) => [c.name, ["name", ...Object.keys(c.inputs(DUMMY))]]));
    for (const field of Object.keys(BEHIND[kind])) {
      if (!("change" in BEHIND[kind][field])) continue;
      const candidates = cases.filter((c) => sets.get(c.name)?.includes(field));
      const load = (c: MatrixCase) => plan.get(c.name)?.length ?? 0;
      const least = candidates.sort((a, b) => load(a) - load(b))[0];
      if (least) plan.get(least.name)?.push(field);
    }
  }
  return plan;
})();

function driftable(c: MatrixCase): string[] {
  return DRIFT_PLAN.get(c.name) ?? [];
}

describe("Field matrix: generated from the resource definitions, nothing left out", () => {
  const variants = edgeVariants();
  before(configureForCheckOnly);

  it("every Edge kind and variant has at least one declaration", () => {
    const missing = variants
      .filter((v) => !MATRIX.some((c) => c.variant === v.variant))
      .map((v) => v.variant);
    assert.deepEqual(missing, []);
  });

  it("every settable field (lists, maps, nested objects, each variant) is set by some declaration", () => {
    const unset: string[] = [];
    for (const variant of variants) {
      const cases = MATRIX.filter((c) => c.variant === variant.variant);
      const set = new Set(
        cases.flatMap((c) => setPaths(variant.schema, { name: c.name, ...c.inputs(DUMMY), ...c.secrets })),
      );
      for (const leaf of leafPaths(variant.schema))
        if (!set.has(leaf)) unset.push(`${variant.variant} ${leaf}`);
    }
    assert.deepEqual(unset, [], "fields with no value in test/support/field-matrix.ts");
  });

  it("every field with a default is set to another value somewhere", () => {
    const onlyDefaults: string[] = [];
    for (const variant of variants) {
      for (const field of topLevelFields(variant)) {
        const fallback = defaultOf(variant, field);
        if (fallback === undefined) continue;
        const values = MATRIX.filter((c) => c.variant === variant.variant).map((c) => c.inputs(DUMMY)[field]);
        if (!values.some((v) => v !== undefined && !sameValue(v, fallback)))
          onlyDefaults.push(`${variant.variant} ${field}`);
      }
    }
    assert.deepEqual(onlyDefaults, []);
  });

  it("every declaration passes check", async () => {
    for (const c of MATRIX) {
      const checked = await engine.check(c.kind, {}, { name: c.name, ...c.inputs(DUMMY), ...c.secrets });
      assert.deepEqual(checked.failures, [], c.name);
    }
  });

  it("every top-level input says how it drifts behind Pulumi's back, or why it cannot", () => {
    for (const variant of variants) {
      const known = BEHIND[variant.kind];
      assert.ok(known, `${variant.kind} has no drift table`);
      for (const field of topLevelFields(variant))
        assert.ok(known[field], `${variant.variant}.${field}: no way to change it behind Pulumi's back`);
    }
    for (const [kind, fields] of Object.entries(BEHIND))
      for (const [field, behind] of Object.entries(fields)) {
        if (!("change" in behind)) continue;
        const kindVariants = variants.filter((v) => v.kind === kind);
        assert.ok(
          kindVariants.some((v) => topLevelFields(v).includes(field)),
          `${kind}.${field} is not an input`,
        );
        assert.ok(
          MATRIX.some((c) => c.kind === kind && driftable(c).includes(field)),
          `${kind}.${field}: no declaration sets it, so its drift is never tried`,
        );
      }
  });
});

async function made(ctrl: RealController, collection: string, body: unknown): Promise<string> {
  const answer = await ctrl.admin.call("POST", `/${collection}`, { body });
  assert.equal(answer.status, 201, `${collection}: ${JSON.stringify(answer.body)}`);
  return String(answer.body.data.id);
}

/** The objects the matrix refers to, made as another admin would; `remove` deletes them. */
async function makeFixtures(ctrl: RealController) {
  const created: [string, string][] = [];
  const add = async (collection: string, body: unknown) => {
    const id = await made(ctrl, collection, body);
    created.push([collection, id]);
    return id;
  };
  const services = [
    await add("services", { name: "fx-svc-1", encryptionRequired: true }),
    await add("services", { name: "fx-svc-2", encryptionRequired: true }),
  ] as [string, string];
  const signers: string[] = [];
  for (const name of ["fx-signer-a", "fx-signer-b"])
    signers.push(
      await add("external-jwt-signers", {
        name,
        issuer: `https://${name}.example.com`,
        audience: "fx",
        certPem: testCa(name).certPem,
        enabled: true,
      }),
    );
  const configs = [
    await add("configs", {
      name: "fx-intercept",
      configTypeId: "g7cIWbcGg",
      data: { protocols: ["tcp"], addresses: ["fx.ziti"], portRanges: [{ low: 80, high: 80 }] },
    }),
    await add("configs", {
      name: "fx-host",
      configTypeId: "NH5p4FpGR",
      data: { protocol: "tcp", address: "localhost", port: 80 },
    }),
  ] as [string, string];
  const authPolicyId = await add("auth-policies", authPolicyBody("fx-policy"));
  const routerId = await add("edge-routers", { name: "fx-router" });
  // A verified CA for the ottca enrollment: the provider verifies it (it has the key).
  await configureFor(realEdgeConfig(ctrl));
  const pki = testCa("Field matrix ottca CA");
  const ca = await engine.create(
    "Ca",
    (
      await engine.check(
        "Ca",
        {},
        { name: "fx-ottca", certPem: pki.certPem, privateKeyPem: pki.keyPem, isOttCaEnrollmentEnabled: true },
      )
    ).inputs,
  );
  created.push(["cas", ca.id]);
  const fixtures: Fixtures = {
    services,
    signers: signers as [string, string],
    configs,
    authPolicyId,
    ottCaId: ca.id,
    routerId,
  };
  const remove = async () => {
    for (const [collection, id] of created.reverse()) await ctrl.admin.call("DELETE", `/${collection}/${id}`);
  };
  return { fixtures, remove };
}

/** The matrix as the program's config: declarations and their secret inputs. */
function programConfig(prefix: string, fx: Fixtures, release: string) {
  const resources = MATRIX.map((c) => [
    c.kind,
    c.name,
    { name: `${prefix}-${c.name}`, ...inputsFor(c, fx, release) },
    Object.keys(c.secrets ?? {}),
  ]);
  const secrets = Object.fromEntries(MATRIX.filter((c) => c.secrets).map((c) => [c.name, c.secrets]));
  return {
    config: { resources: JSON.stringify(resources) },
    secretConfig: { secrets: JSON.stringify(secrets) },
  };
}

/** Changes one top-level input of an object as another admin would (PUT for auth policies: PATCH is buggy). */
async function changeBehind(ctrl: RealController, c: MatrixCase, id: string, field: string, fx: Fixtures) {
  const collection = COLLECTIONS[c.kind];
  const current = (await ctrl.admin.call("GET", `/${collection}/${id}`)).body.data;
  const behind = BEHIND[c.kind][field] as { change: (v: unknown, fx: Fixtures) => unknown };
  const value = behind.change(current[field], fx);
  let method = "PATCH";
  let body: Record<string, unknown> = { [field]: value };
  if (PUT_KINDS[c.kind]) {
    // The whole document as read, with the one change (the fields the kind's PUT takes).
    method = "PUT";
    body = Object.fromEntries(PUT_KINDS[c.kind].filter((k) => k in current).map((k) => [k, current[k]]));
    body[field] = value;
  }
  for (const carried of PATCH_CARRIES[c.kind] ?? []) body[carried] ??= current[carried];
  const answer = await ctrl.admin.call(method, `/${collection}/${id}`, { body });
  assert.equal(answer.status, 200, `${c.name}.${field}: ${JSON.stringify(answer.body)}`);
  const now = (await ctrl.admin.call("GET", `/${collection}/${id}`)).body.data;
  for (const other of PUT_BACK[c.kind] ?? []) {
    if (other === field || sameValue(now[other], current[other])) continue;
    const back = await ctrl.admin.call("PATCH", `/${collection}/${id}`, {
      body: { [other]: current[other] },
    });
    assert.equal(back.status, 200, `${c.name}.${other}: ${JSON.stringify(back.body)}`);
  }
}

for (const { release, peer } of CONTROLLER_RELEASES) {
  describe(`Field matrix on a real controller ${release}`, function () {
    this.timeout(1_200_000);
    let ctrl: RealController;
    let fx: Fixtures;
    let removeFixtures: () => Promise<void>;
    let dir: string;

    before(async function () {
      requirePeers(this, peer);
      ctrl = await startController({ release });
      ({ fixtures: fx, remove: removeFixtures } = await makeFixtures(ctrl));
      dir = fs.mkdtempSync(path.join(os.tmpdir(), `field-matrix-${release}-`));
    });
    after(async () => {
      await removeFixtures?.();
      await ctrl?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Every object the matrix left on the controller (by name prefix). */
    const leftovers = async (prefix: string) => {
      const left: string[] = [];
      for (const collection of new Set(Object.values(COLLECTIONS))) {
        const answer = await ctrl.admin.call(
          "GET",
          `/${collection}?filter=${encodeURIComponent(`name contains "${prefix}-"`)}&limit=500`,
        );
        for (const o of answer.body.data ?? []) left.push(`${collection}/${o.name}`);
      }
      return left;
    };

    it("harness: clean after up, each input changed behind its back reported exactly, up puts it back", async () => {
      const prefix = `hm${release.replace(/\W/g, "")}`;
      const { config, secretConfig } = programConfig(prefix, fx, release);
      const { "frontdoor:edgePassword": password, ...edge } = realEdgeConfig(ctrl);
      const run = (
        command: "up" | "preview" | "refresh" | "destroy",
        more: { expectNoChanges?: boolean; refresh?: boolean } = {},
      ) =>
        runHarness(command, {
          programDir: PROGRAM,
          stateFile: path.join(dir, `${prefix}.json`),
          config: { ...edge, ...config },
          secretConfig: { "frontdoor:edgePassword": password, ...secretConfig },
          ...more,
        });
      const timings: Record<string, number> = {};
      const timed = async (label: string, result: Promise<HarnessResult>) => {
        const started = Date.now();
        const out = await result;
        timings[label] = (timings[label] ?? 0) + (Date.now() - started);
        return out;
      };
      try {
        const up = await timed("up", run("up"));
        expectOk(up);
        const ids = up.report.outputs.ids as Record<string, string>;
        expectCleanRefresh(
          await timed("refresh", run("refresh", { expectNoChanges: true })),
          "right after up",
        );
        const preview = await timed("preview", run("preview", { refresh: true, expectNoChanges: true }));
        expectOk(preview);
        assert.deepEqual(
          Object.entries(ops(preview)).filter(([, op]) => op !== "same"),
          [],
          "preview --refresh shows changes right after up",
        );

        const rounds = Math.max(...MATRIX.map((c) => driftable(c).length));
        for (let round = 0; round < rounds; round++) {
          const expected: Record<string, string[]> = {};
          for (const c of MATRIX) {
            const field = driftable(c)[round];
            if (!field) continue;
            await changeBehind(ctrl, c, ids[c.name], field, fx);
            expected[c.name] = [field];
          }
          const drift = await timed("drift refresh", run("refresh", { expectNoChanges: true }));
          assert.deepEqual(changes(drift), expected, `round ${round}: what the refresh reports`);
          assert.equal(drift.exitCode, 1, "refresh --expect-no-changes fails on drift");
          const restore = await timed("restore up", run("up"));
          expectOk(restore);
          const updated = Object.entries(ops(restore))
            .filter(([, op]) => op !== "same")
            .map(([name]) => name);
          assert.deepEqual(updated.sort(), Object.keys(expected).sort(), `round ${round}: what up puts back`);
        }
        expectCleanRefresh(
          await timed("refresh", run("refresh", { expectNoChanges: true })),
          "after every put-back",
        );
      } finally {
        const destroy = await timed("destroy", run("destroy"));
        process.stdout.write(`      ${release} harness wall time (ms): ${JSON.stringify(timings)}\n`);
        expectOk(destroy);
      }
      assert.deepEqual(await leftovers(prefix), [], "destroy left objects behind");
    });

    it("real CLI: up, refresh and preview --refresh --expect-no-changes exit 0, drift named, up restores", async function () {
      requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
      const prefix = `cm${release.replace(/\W/g, "")}`;
      const { config, secretConfig } = programConfig(prefix, fx, release);
      const { "frontdoor:edgePassword": password, ...edge } = realEdgeConfig(ctrl);
      const started = Date.now();
      const stack = await cliStack(PROGRAM, {
        config: { ...edge, ...config },
        secretConfig: { "frontdoor:edgePassword": password, ...secretConfig },
      });
      try {
        await stack.ok(["up", "--yes", "--skip-preview"]);
        await stack.ok(["refresh", "--yes", "--expect-no-changes"]);
        await stack.ok(["preview", "--refresh", "--expect-no-changes"]);
        // One input of each object changed behind Pulumi's back: the first round of the harness test.
        const state = await stack.exportState();
        const idOf = (name: string) =>
          String(state.deployment.resources.find((r: any) => String(r.urn).endsWith(`::${name}`)).id);
        for (const c of MATRIX) await changeBehind(ctrl, c, idOf(c.name), driftable(c)[1] ?? "name", fx);
        const drift = await stack.run(["preview", "--refresh", "--expect-no-changes", "--diff"]);
        assert.notEqual(drift.code, 0, "preview --refresh --expect-no-changes passed on drift");
        for (const c of MATRIX) assert.match(drift.output, new RegExp(`${c.name}`), `${c.name} not reported`);
        await stack.ok(["up", "--yes", "--skip-preview", "--refresh"]);
        await stack.ok(["refresh", "--yes", "--expect-no-changes"]);
      } finally {
        await stack.run(["destroy", "--yes", "--skip-preview"]);
        await stack.dispose();
        process.stdout.write(`      ${release} real CLI wall time: ${Date.now() - started} ms\n`);
      }
      assert.deepEqual(await leftovers(prefix), [], "destroy left objects behind");
    });
  });
}
