// Creates whose outcome is partial or unclear, through the real dynamic-provider host (harness) and
// the mock's fault injection: the engine always learns the id of what the server made.
// - A failure after the POST (the read-back answers 500, the custom frontend's readiness poll answers
//   500): `up` fails, but every object is in the state (as Pulumi keeps an initialization failure);
//   a refresh shows no drift, the next `up` finishes them (updates), nothing is duplicated, destroy
//   leaves nothing.
// - A POST carried out and then answered 502, 503 or 504 (a gateway): adopted, no error, no duplicate.
// - A create that meets an object of its name made elsewhere (here: by another stack): adopted with a
//   warning the user sees when it matches the declaration, otherwise an error naming its id and the
//   `import` option that takes it over.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type HarnessResult, readState, runHarness } from "../harness";
import { issueCertificate } from "../mock/edge/pki";
import { testCa } from "./edge-support";
import { useHarnessSetup, useMock } from "./support/fixtures";

const PROGRAM = path.join(__dirname, "programs", "faults-all");
const PREFIX = "co";
const COUNTS = {
  AuthProvider: 2,
  Identity: 2,
  EdgeRouterPolicy: 1,
  Ca: 1,
  CustomFrontend: 1,
  ClientCertificate: 1,
  CertificateRequestToken: 1,
};
const TOTAL = Object.values(COUNTS).reduce((a, b) => a + b, 0);
/**
 * For the partial creates: no auth provider, so that no resource waits for another. A run starts no
 * step after a failed one (as Pulumi), and every resource must have been tried for the test to hold.
 */
const INDEPENDENT = { ...COUNTS, AuthProvider: 0 };
const INDEPENDENT_TOTAL = TOTAL - COUNTS.AuthProvider;

const FRONTDOOR = {
  "auth-providers": "name",
  "client-certificates": "name",
  "certificate-request-tokens": "name",
  "custom-frontends": "hostname",
} as const;
const EDGE = ["identities", "edge-router-policies", "cas"] as const;

describe("create outcomes: partial creates, gateway errors after the commit, name clashes (harness)", function () {
  // Several harness runs each; on a loaded 2-core machine one takes 5-15 s.
  this.timeout(240_000);
  const mock = useMock({ frontdoor: { customFrontendReadyAfterMs: 50 } });
  const setup = useHarnessSetup(mock, "create-outcomes-", () => {
    const ca = testCa("Create outcomes CA");
    const config = {
      prefix: PREFIX,
      counts: JSON.stringify(COUNTS),
      caCerts: JSON.stringify([ca.certPem]),
      uploadCertPem: issueCertificate({ commonName: "uploaded.example.com" }).certPem,
    };
    return { config, secretConfig: { caKey0: ca.keyPem } };
  });
  afterEach(() => mock.faults.clear());

  const fd = () => mock.credentials.frontdoorId;
  const run = (
    command: "up" | "refresh" | "destroy",
    stack: string,
    extra: { expectNoChanges?: boolean; counts?: Record<string, number> } = {},
  ) =>
    runHarness(command, {
      programDir: PROGRAM,
      stateFile: path.join(setup.dir, `${stack}.json`),
      config: { ...setup.config, counts: JSON.stringify(extra.counts ?? COUNTS) },
      secretConfig: setup.secretConfig,
      // Every resource's step starts at once (there are fewer than this).
      parallel: 16,
      expectNoChanges: extra.expectNoChanges,
    });
  const output = (r: HarnessResult) => `${r.stdout}\n${r.stderr}`.slice(-6000);

  /** The test's objects in the mock: name (hostname) -> ids (more than one would be a duplicate). */
  function objectsInMock(): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const add = (name: unknown, id: unknown) => {
      if (!String(name).startsWith(`${PREFIX}-`)) return;
      found.set(String(name), [...(found.get(String(name)) ?? []), String(id)]);
    };
    for (const [collection, field] of Object.entries(FRONTDOOR))
      for (const r of mock.frontdoor.list(fd(), collection as keyof typeof FRONTDOOR)) add(r[field], r.id);
    for (const collection of EDGE) for (const r of mock.edge.list(collection)) add(r.name, r.id);
    return found;
  }

  /** Every declared object exists exactly once, and the stack's state holds each (by id). */
  function assertOneEachInStateAndMock(stack: string, total = TOTAL) {
    const objects = objectsInMock();
    assert.equal(objects.size, total, JSON.stringify([...objects.keys()]));
    for (const [name, ids] of objects) assert.equal(ids.length, 1, `${name} is duplicated: ${ids}`);
    const state = readState(path.join(setup.dir, `${stack}.json`));
    const inState = state.resources
      .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))
      .map((r) => String(r.id))
      .sort();
    assert.deepEqual(inState, [...objects.values()].flat().sort());
    return state;
  }

  /**
   * The requests of an `up` in which the POST to each of `faulted` (collection paths) was carried out
   * and answered 502/503/504, from the mock's log. What the contract asks (a 50x after a POST says
   * nothing of whether it was carried out; the object is looked up by its unique name, and adopted
   * when found): each declared object is POSTed exactly once, never again after its gateway error,
   * and each gateway error is followed by a GET of that collection (the lookup by name).
   */
  function assertGatewayRequests(faulted: string[]) {
    const posts = mock.log.filter((e) => e.method === "POST" && !/\/(verify|authenticate)$/.test(e.path));
    const nameOf = (body: string | undefined) => {
      const parsed = body ? JSON.parse(body) : {};
      return String(parsed.name ?? parsed.hostname);
    };
    const perName = new Map<string, number>();
    for (const e of posts) perName.set(nameOf(e.body), (perName.get(nameOf(e.body)) ?? 0) + 1);
    const ours = [...perName].filter(([name]) => name.startsWith(`${PREFIX}-`));
    assert.equal(ours.length, TOTAL, JSON.stringify(ours));
    for (const [name, count] of ours) assert.equal(count, 1, `${name} was POSTed ${count} times`);
    for (const suffix of faulted) {
      const i = mock.log.findIndex((e) => e.method === "POST" && e.path.endsWith(suffix) && e.status >= 502);
      assert.ok(i >= 0, `no gateway error on POST ${suffix}`);
      const lookup = mock.log
        .slice(i + 1)
        .find((e) => e.method === "GET" && e.path.endsWith(suffix) && (suffix !== "/identities" || e.query));
      assert.ok(lookup, `the POST ${suffix} answered ${mock.log[i].status} was not looked up`);
    }
  }

  async function destroyAll(stack: string, counts: Record<string, number> = COUNTS) {
    const destroy = await run("destroy", stack, { counts });
    assert.equal(destroy.exitCode, 0, output(destroy));
  }

  it("a failure after the POST keeps every object in the state; refresh is clean, the next up finishes them", async () => {
    // The read-back after each Edge create, the certificate's read-back and the frontend's first
    // readiness poll answer 500 (not retried: a definite failure after the object was made).
    const byId = (collection: string) => new RegExp(`/${collection}/[^/]+$`);
    mock.faults.inject({ method: "GET", path: byId("identities"), kind: "500", count: COUNTS.Identity });
    mock.faults.inject({ method: "GET", path: byId("edge-router-policies"), kind: "500", count: 1 });
    mock.faults.inject({ method: "GET", path: byId("cas"), kind: "500", count: 1 });
    mock.faults.inject({ method: "GET", path: byId("client-certificates"), kind: "500", count: 1 });
    // The frontend's readiness polls lose their connection, more often than the retries allow (4).
    mock.faults.inject({ method: "GET", path: byId("custom-frontends"), kind: "drop", count: 5 });
    const up = await run("up", "partial", { counts: INDEPENDENT });
    assert.equal(mock.faults.pending, 0, "every fault was met");
    assert.equal(up.exitCode, 1, output(up));
    const failed = up.report.failures.filter((f) => f.name).map((f) => f.name);
    assert.deepEqual(failed.sort(), ["ca-0", "cert-0", "erp-0", "frontend-0", "identity-0", "identity-1"]);
    for (const failure of up.report.failures.filter((f) => f.name)) {
      const cause = failure.name === "frontend-0" ? "no response" : "HTTP 500";
      assert.match(
        failure.message,
        new RegExp(`\\(id [^)]+\\) exists, but its create did not complete: .*${cause}`),
      );
      assert.match(failure.message, /kept in the state/);
    }
    const state = assertOneEachInStateAndMock("partial", INDEPENDENT_TOTAL);
    const unfinished = state.resources.filter((r) => r.initErrors?.length).map((r) => r.name);
    assert.deepEqual(unfinished.sort(), failed.sort());
    // No secret of the program in the state's plain text (secret outputs of partial states included).
    const text = fs.readFileSync(path.join(setup.dir, "partial.json"), "utf8");
    assert.doesNotMatch(text, /client-secret-0|api-key-0123456789-1|BEGIN (RSA )?PRIVATE KEY/);

    // A refresh reads the full objects: no drift (the partial states were the declaration's).
    const refresh = await run("refresh", "partial", { expectNoChanges: true, counts: INDEPENDENT });
    assert.equal(refresh.exitCode, 0, output(refresh));
    assert.deepEqual(refresh.report.changes, []);

    // The next up updates the unfinished ones (as Pulumi does with init errors), creates nothing.
    const again = await run("up", "partial", { counts: INDEPENDENT });
    assert.equal(again.exitCode, 0, output(again));
    assert.deepEqual(again.report.summary, {
      update: failed.length,
      same: INDEPENDENT_TOTAL - failed.length,
    });
    const finished = assertOneEachInStateAndMock("partial", INDEPENDENT_TOTAL);
    assert.deepEqual(
      finished.resources.filter((r) => r.initErrors?.length),
      [],
    );
    // The CA was verified by that update, the frontend's DNS records were read.
    const ca = mock.edge.list("cas").find((c) => c.name === `${PREFIX}-ca-0`);
    assert.equal(ca?.isVerified, true);
    const frontend = finished.resources.find((r) => r.name === "frontend-0");
    assert.ok(
      (frontend?.outputs.dnsRecords?.cnameRecords ?? []).length > 0,
      JSON.stringify(frontend?.outputs),
    );
    const clean = await run("refresh", "partial", { expectNoChanges: true, counts: INDEPENDENT });
    assert.equal(clean.exitCode, 0, output(clean));

    await destroyAll("partial", INDEPENDENT);
    assert.equal(objectsInMock().size, 0);
  });

  it("a POST carried out, then answered 502, 503 or 504: adopted, no error, no duplicate", async () => {
    const kinds = ["commit-then-502", "commit-then-503", "commit-then-504"] as const;
    const posts = ["/identities", "/auth-providers", "/edge-router-policies", "/custom-frontends", "/cas"];
    posts.forEach((p, i) => {
      mock.faults.inject({ method: "POST", path: new RegExp(`${p}$`), kind: kinds[i % 3], count: 1 });
    });
    mock.clearLog();
    const up = await run("up", "gateway");
    assert.equal(up.exitCode, 0, output(up));
    assert.equal(mock.faults.pending, 0, "every fault was met");
    const gatewayAnswers = mock.log.filter((e) => e.method === "POST" && e.status >= 502 && e.status <= 504);
    assert.equal(gatewayAnswers.length, posts.length);
    assert.equal(up.report.summary.create, TOTAL);
    assertOneEachInStateAndMock("gateway");
    assertGatewayRequests(posts);
    // An ambiguous create that is looked up and found is no clash with someone else's object: the
    // user is not told "adopted instead of created" (that is for objects made elsewhere).
    assert.doesNotMatch(`${up.stdout}${up.stderr}`, /adopted instead of created/);
    mock.clearLog();
    const refresh = await run("refresh", "gateway", { expectNoChanges: true });
    assert.equal(refresh.exitCode, 0, output(refresh));
    // A refresh reads: GETs only (and the Edge login), one read per object at least, nothing written.
    const writes = mock.log.filter((e) => e.method !== "GET" && !e.path.endsWith("/authenticate"));
    assert.deepEqual(writes, [], "a refresh wrote");
    assert.ok(mock.log.filter((e) => e.method === "GET").length >= TOTAL);
    await destroyAll("gateway");
    assert.equal(objectsInMock().size, 0);
  });

  it("an object of the declared name made elsewhere: adopted with a warning when identical, else named with its id and the import option", async () => {
    // Another stack (another state file) made the objects; two of them are then changed behind its back.
    const theirs = await run("up", "theirs");
    assert.equal(theirs.exitCode, 0, output(theirs));
    const idOf = (name: string) => objectsInMock().get(name)?.[0] ?? "";
    const authId = idOf(`${PREFIX}-auth-1`);
    const identityId = idOf(`${PREFIX}-identity-1`);
    const auth = mock.frontdoor.get(fd(), "auth-providers", authId)!;
    mock.frontdoor.patch(fd(), "auth-providers", authId, {
      data: { ...(auth.data as object), header_name: "x-other-key" },
    });
    mock.edge.patch("identities", identityId, { roleAttributes: ["elsewhere"] });

    const ours = await run("up", "ours");
    assert.equal(ours.exitCode, 1, output(ours));
    const failures = Object.fromEntries(
      ours.report.failures.filter((f) => f.name).map((f) => [f.name, f.message]),
    );
    assert.deepEqual(Object.keys(failures).sort(), ["auth-1", "identity-1"], JSON.stringify(failures));
    assert.match(
      failures["auth-1"],
      new RegExp(
        `AuthProvider "${PREFIX}-auth-1": an object of that name already exists \\(id ${authId}\\).*HTTP 409.*` +
          `differs from the declaration in data: not adopted.*import: "${fd()}/${authId}"`,
      ),
    );
    assert.match(
      failures["identity-1"],
      new RegExp(
        `Identity "${PREFIX}-identity-1": an object of that name already exists \\(id ${identityId}\\).*HTTP 400.*` +
          `duplicate.*differs from the declaration in roleAttributes: not adopted.*import: "${identityId}"`,
      ),
    );
    assert.doesNotMatch(JSON.stringify(failures), /api-key-0123456789|client-secret-/);
    // The identical ones were adopted, each with a warning the user sees naming it and its id. (The
    // run stops starting steps after the first failure, as Pulumi does: those not started yet, e.g.
    // the frontend waiting for its auth provider, are adopted by the next run.)
    const state = readState(path.join(setup.dir, "ours.json"));
    const adopted = state.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    assert.equal(ours.report.summary.create, adopted.length);
    assert.ok(adopted.length >= 4, `adopted: ${adopted.map((r) => r.name)}`);
    const warnings = ours.stderr.split("\n").filter((l) => l.includes("adopted instead of created"));
    assert.equal(warnings.length, adopted.length, ours.stderr);
    for (const r of adopted) {
      const name = String(r.outputs.name ?? r.outputs.hostname);
      assert.equal(objectsInMock().get(name)?.[0], r.id, `${r.name} holds the existing object`);
      assert.ok(
        warnings.some((w) => w.includes(`"${name}": an object of that name already existed (id ${r.id})`)),
        `no warning for ${name}: ${warnings.join("\n")}`,
      );
    }
    // Nothing was duplicated; the differing ones are in no state of ours.
    const objects = objectsInMock();
    assert.equal(objects.size, TOTAL);
    for (const [name, ids] of objects) assert.equal(ids.length, 1, `${name} is duplicated: ${ids}`);
    const held = new Set(adopted.map((r) => String(r.id)));
    assert.ok(!held.has(identityId) && !held.has(authId));

    // The user settles the differing ones as the message says (here: deletes them, so that ours
    // creates them), and everything converges.
    mock.frontdoor.remove(fd(), "auth-providers", authId);
    mock.edge.remove("identities", identityId);
    const fixed = await run("up", "ours");
    assert.equal(fixed.exitCode, 0, output(fixed));
    assert.deepEqual(fixed.report.summary, { create: TOTAL - adopted.length, same: adopted.length });
    assertOneEachInStateAndMock("ours");
    await destroyAll("ours");
    assert.equal(objectsInMock().size, 0);
    await destroyAll("theirs"); // its objects are gone already: nothing left to delete
  });

  it("an update that fails half way keeps the new inputs with the error; the next up finishes it", async () => {
    const withProvider = { AuthProvider: 1, CustomFrontend: 1 };
    const up = await run("up", "update-partial", { counts: withProvider });
    assert.equal(up.exitCode, 0, output(up));
    // The frontend loses its auth provider (an update), and its readiness polls then lose their
    // connection more often than the retries allow: the update fails after its PATCH was made.
    mock.faults.inject({ method: "GET", path: /\/custom-frontends\/[^/]+$/, kind: "drop", count: 5 });
    const failed = await run("up", "update-partial", { counts: { CustomFrontend: 1 } });
    assert.equal(failed.exitCode, 1, output(failed));
    assert.equal(mock.faults.pending, 0, "every fault was met");
    const state = readState(path.join(setup.dir, "update-partial.json"));
    const frontend = state.resources.find((r) => r.name === "frontend-0");
    // As Pulumi keeps it: the new inputs and the outputs the provider reported, with the init error.
    assert.equal(frontend?.initErrors?.length, 1, JSON.stringify(frontend));
    assert.deepEqual(frontend?.inputs.authProviderIds, []);
    assert.deepEqual(frontend?.outputs.authProviderIds, []);
    const again = await run("up", "update-partial", { counts: { CustomFrontend: 1 } });
    assert.equal(again.exitCode, 0, output(again));
    assert.equal(again.report.summary.update, 1, JSON.stringify(again.report.summary));
    const clean = await run("refresh", "update-partial", {
      expectNoChanges: true,
      counts: { CustomFrontend: 1 },
    });
    assert.equal(clean.exitCode, 0, output(clean));
    await destroyAll("update-partial", { CustomFrontend: 1 });
    assert.equal(objectsInMock().size, 0);
  });
});
