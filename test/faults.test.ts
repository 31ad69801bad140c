// A seeded fault suite through the real dynamic-provider host: one program with 200 resources of every
// kind, applied while the mock answers a fixed-seed random ~25% of all requests with 429 (Retry-After
// 0 or 1), 503, dropped connections, slow answers, "committed, then the connection dropped" or
// "committed, then a gateway's 502/504" (creates then adopted, never duplicated). `up`,
// a clean `refresh --expect-no-changes` and `destroy` must all succeed, and the mock must then hold
// exactly the declared objects (none lost, none twice), and after destroy none of them.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type HarnessResult, runHarness } from "../harness";
import { issueCertificate } from "../mock/edge/pki";
import type { FaultKind } from "../mock/faults";
import { testCa } from "./edge-support";
import { useHarnessSetup, useMock } from "./support/fixtures";

const PROGRAM = path.join(__dirname, "programs", "faults-all");
const PREFIX = "flt";
const SEED = 20240511;
// Every kind a retry or a lookup must survive ("500" is a definite failure, not among them).
const ALL_KINDS: FaultKind[] = [
  "429",
  "503",
  "drop",
  "delay",
  "commit-then-drop",
  "commit-then-502",
  "commit-then-504",
];

/**
 * 200 resources in all, every kind. Kinds that sign with RSA in pure JS (a KeyPair's CSR, a CSR the
 * mock signs, a CA's verification certificate: ~0.5 s of CPU each) are fewer, to keep the run short.
 */
const COUNTS: Record<string, number> = {
  AuthProvider: 34,
  ClientCertificate: 16,
  CertificateRequestToken: 26,
  CustomFrontend: 15,
  KeyPair: 4,
  Identity: 40,
  AuthPolicy: 20,
  EdgeRouterPolicy: 40,
  Ca: 5,
};

/** Where each kind lives in the mock, and the name the program gives object i. */
const FRONTDOOR_COLLECTIONS = {
  AuthProvider: ["auth-providers", (i: number) => `${PREFIX}-auth-${i}`, "name"],
  ClientCertificate: ["client-certificates", (i: number) => `${PREFIX}-cert-${i}`, "name"],
  CertificateRequestToken: ["certificate-request-tokens", (i: number) => `${PREFIX}-crt-${i}`, "name"],
  CustomFrontend: ["custom-frontends", (i: number) => `${PREFIX}-${i}.apps.example.com`, "hostname"],
} as const;
const EDGE_COLLECTIONS = {
  Identity: ["identities", (i: number) => `${PREFIX}-identity-${i}`],
  AuthPolicy: ["auth-policies", (i: number) => `${PREFIX}-policy-${i}`],
  EdgeRouterPolicy: ["edge-router-policies", (i: number) => `${PREFIX}-erp-${i}`],
  Ca: ["cas", (i: number) => `${PREFIX}-ca-${i}`],
} as const;

describe("seeded faults: 200 resources of every kind through up, refresh and destroy", function () {
  this.timeout(120_000);
  const mock = useMock({ frontdoor: { customFrontendReadyAfterMs: 50 } });
  const setup = useHarnessSetup(mock, "faults-", () => {
    const cas = Array.from({ length: COUNTS.Ca }, (_, i) => testCa(`Fault CA ${i}`));
    const config = {
      // Enough retries that a 25% fault rate cannot exhaust them (0.25^11 per request).
      "frontdoor:maxRetries": "10",
      prefix: PREFIX,
      counts: JSON.stringify(COUNTS),
      caCerts: JSON.stringify(cas.map((ca) => ca.certPem)),
      uploadCertPem: issueCertificate({ commonName: "uploaded.example.com" }).certPem,
    };
    return { config, secretConfig: Object.fromEntries(cas.map((ca, i) => [`caKey${i}`, ca.keyPem])) };
  });

  const run = (
    command: "up" | "refresh" | "destroy",
    extra: { expectNoChanges?: boolean; stateFile?: string; config?: Record<string, string> } = {},
  ) =>
    runHarness(command, {
      programDir: PROGRAM,
      stateFile: path.join(setup.dir, "state.json"),
      config: setup.config,
      secretConfig: setup.secretConfig,
      parallel: 16,
      ...extra,
    });

  const expectOk = (result: HarnessResult, what: string) =>
    assert.equal(
      result.exitCode,
      0,
      `${what} failed: ${JSON.stringify(result.report?.failures ?? [], null, 1)}\n${result.stderr.slice(-4000)}`,
    );

  /** Faulted requests (answered 429/503, or dropped) since the log was cleared, per kind of fault. */
  const faultsSeen = () => ({
    refused: mock.log.filter((e) => e.status === 429 || e.status === 503).length,
    dropped: mock.log.filter((e) => e.status === 0).length,
    posts: mock.log.filter((e) => e.method === "POST" && e.status === 0).length,
    /** Creates carried out, then answered with a gateway's 502/504. */
    gatewayPosts: mock.log.filter((e) => e.method === "POST" && (e.status === 502 || e.status === 504))
      .length,
  });

  /** Names in the mock, per kind, sorted (duplicates kept, so "twice" shows). */
  function namesInMock(): Record<string, string[]> {
    const fd = mock.credentials.frontdoorId;
    const out: Record<string, string[]> = {};
    for (const [kind, [collection, , field]] of Object.entries(FRONTDOOR_COLLECTIONS)) {
      out[kind] = mock.frontdoor
        .list(fd, collection)
        .map((r) => String(r[field]))
        .filter((name) => name.startsWith(`${PREFIX}-`))
        .sort();
    }
    for (const [kind, [collection]] of Object.entries(EDGE_COLLECTIONS)) {
      out[kind] = mock.edge
        .list(collection)
        .map((r) => String(r.name))
        .filter((name) => name.startsWith(`${PREFIX}-`))
        .sort();
    }
    return out;
  }

  function declaredNames(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    const all = { ...FRONTDOOR_COLLECTIONS, ...EDGE_COLLECTIONS } as Record<
      string,
      readonly [string, (i: number) => string, ...unknown[]]
    >;
    for (const [kind, [, nameOf]] of Object.entries(all)) {
      out[kind] = Array.from({ length: COUNTS[kind] }, (_, i) => nameOf(i)).sort();
    }
    return out;
  }

  const empty = () => Object.fromEntries(Object.keys(declaredNames()).map((k) => [k, [] as string[]]));

  it("up, refresh --expect-no-changes and destroy all succeed; the mock holds exactly what is declared", async () => {
    assert.equal(
      Object.values(COUNTS).reduce((a, b) => a + b, 0),
      200,
    );

    // up: Retry-After 0 on 429s.
    mock.clearLog();
    mock.faults.random({ seed: SEED, rate: 0.25, kinds: ALL_KINDS, delayMs: 50, retryAfterSeconds: 0 });
    const up = await run("up");
    mock.faults.clear();
    expectOk(up, "up");
    const upFaults = faultsSeen();
    assert.ok(upFaults.refused > 20 && upFaults.dropped > 20, `too few faults: ${JSON.stringify(upFaults)}`);
    assert.ok(upFaults.posts > 5, `no create was left ambiguous: ${JSON.stringify(upFaults)}`);
    assert.ok(upFaults.gatewayPosts > 5, `no create was answered 502/504: ${JSON.stringify(upFaults)}`);
    console.log(`      up: ${JSON.stringify(upFaults)}`);
    assert.equal(up.report.summary.create, 200);
    assert.deepEqual(namesInMock(), declaredNames());
    // Every CA was verified with its key although verification requests were hit too.
    const cas = mock.edge.list("cas").filter((ca) => String(ca.name).startsWith(PREFIX));
    assert.deepEqual(
      cas.filter((ca) => !ca.isVerified).map((ca) => ca.name),
      [],
    );
    // The state has one entry per declared resource, each with the id of an object in the mock.
    const state = JSON.parse(fs.readFileSync(path.join(setup.dir, "state.json"), "utf8"));
    const resources = (state.resources ?? []).filter((r: any) => !String(r.type).startsWith("pulumi:"));
    assert.equal(resources.length, 200);

    // refresh: Retry-After 1 on 429s (and 503s); nothing drifted, nothing is gone.
    mock.clearLog();
    mock.faults.random({ seed: SEED + 1, rate: 0.25, kinds: ALL_KINDS, delayMs: 50, retryAfterSeconds: 1 });
    const refresh = await run("refresh", { expectNoChanges: true });
    mock.faults.clear();
    expectOk(refresh, "refresh");
    assert.deepEqual(refresh.report.changes, []);
    assert.ok(faultsSeen().refused > 10, `too few faults: ${JSON.stringify(faultsSeen())}`);
    assert.deepEqual(namesInMock(), declaredNames());

    // destroy: every object goes, once, although deletes are dropped after being carried out.
    mock.clearLog();
    mock.faults.random({ seed: SEED + 2, rate: 0.25, kinds: ALL_KINDS, delayMs: 50, retryAfterSeconds: 0 });
    const destroy = await run("destroy");
    mock.faults.clear();
    expectOk(destroy, "destroy");
    assert.ok(faultsSeen().dropped > 10, `too few faults: ${JSON.stringify(faultsSeen())}`);
    assert.equal(destroy.report.summary.delete, 200);
    assert.deepEqual(namesInMock(), empty());
  });
  it("a 50% 429 storm with Retry-After 1 s: up and destroy of 200 complete at default retry settings", async function () {
    // Retries are bounded by time (frontdoor:retryTimeoutSeconds, 120 s), not by a small count: at
    // 50%, ten refusals in a row hit one request in a thousand, which a count of ten would fail on.
    this.timeout(300_000);
    const { "frontdoor:maxRetries": _count, ...defaults } = setup.config;
    const storm = { config: defaults, stateFile: path.join(setup.dir, "storm-state.json") };
    const stormRun = async (command: "up" | "destroy", seed: number) => {
      mock.clearLog();
      mock.faults.random({ seed, rate: 0.5, kinds: ["429"], retryAfterSeconds: 1 });
      const started = Date.now();
      const result = await run(command, storm);
      mock.faults.clear();
      const seconds = (Date.now() - started) / 1000;
      const refused = mock.log.filter((e) => e.status === 429).length;
      // Figures for docs/guides/reliability-and-recovery.md (visible with --reporter spec).
      console.log(
        `      429 storm ${command}: ${seconds.toFixed(1)} s, ${mock.log.length} requests, ${refused} refused`,
      );
      expectOk(result, `${command} under the storm`);
      assert.ok(refused > mock.log.length * 0.4, `the storm was too weak: ${refused} of ${mock.log.length}`);
      return result;
    };

    const up = await stormRun("up", SEED + 10);
    assert.equal(up.report.summary.create, 200);
    assert.deepEqual(namesInMock(), declaredNames());

    const destroy = await stormRun("destroy", SEED + 11);
    assert.equal(destroy.report.summary.delete, 200);
    assert.deepEqual(namesInMock(), empty());
  });
});
