// Expiry awareness through the real dynamic-provider host (engine harness) against the mock: objects
// near expiry give a warning at preview and up (window from frontdoor:expiryWarningDays or each kind's
// default), outputs show the days left, and a refresh reports no drift although those days change.
// Enrollments (Identity, EdgeRouter) are quiet while fresh: none at creation nor on the next preview;
// one still unused in its last hour warns, with what to do.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readState, runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { selfSignedPem } from "./frontdoor-pki";
import { mockConfig } from "./support/engine";
import { runOptions } from "./support/fixtures";
import { expectCleanRefresh, expectOk } from "./support/report";

const program = path.join(__dirname, "programs", "expiry-warnings");
const enrollmentProgram = path.join(__dirname, "programs", "enrollment-warnings");
const DAY_S = 24 * 60 * 60;
const MINUTE_MS = 60 * 1000;

const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("warning:"));

describe("Expiry warnings and days left through the dynamic-provider host", function () {
  this.timeout(120_000);
  let mock: MockServer;
  let dir: string;
  let stateFile: string;
  const certPem = selfSignedPem("partner.example.com", 10);

  const opts = runOptions(() => ({
    programDir: program,
    stateFile,
    config: { "frontdoor:apiUrl": mock.url, "frontdoor:frontdoorId": mock.credentials.frontdoorId, certPem },
    secretConfig: { "frontdoor:token": mock.credentials.frontdoorToken },
  }));

  before(async () => {
    // Tokens live 3 days: outside the tokens' default window (1 day), inside a 5-day one.
    mock = await startMockServer({ frontdoor: { certificateRequestTokenTtlSeconds: 3 * DAY_S } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-expiry-"));
    stateFile = path.join(dir, "dev.json");
  });
  after(async () => {
    await runHarness("destroy", opts());
    await mock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("up warns about the certificate in the default 30-day window, not about the 3-day token", async () => {
    const result = await runHarness("up", opts());
    assert.equal(result.exitCode, 0, result.stderr);
    const lines = warnings(result.stderr);
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(
      lines[0],
      /ClientCertificate "partner": the certificate expires in 9 day\(s\) \(.*; warning window 30 day\(s\), frontdoor:expiryWarningDays\)/,
    );
    assert.equal(result.report.outputs.certificateDaysLeft, 9);
    assert.equal(result.report.outputs.tokenDaysLeft, 2);
    assert.equal(result.report.outputs.tokenStatus, "VALID");
  });

  it("preview with frontdoor:expiryWarningDays=5 warns about the token instead (values from the state)", async () => {
    const result = await runHarness("preview", opts({ "frontdoor:expiryWarningDays": "5" }));
    assert.equal(result.exitCode, 0, result.stderr);
    const lines = warnings(result.stderr);
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0], /CertificateRequestToken "enrol": the token expires in 2 day\(s\)/);
  });

  it("a refresh a week later is no drift, although the days left in the state change", async () => {
    // The state as a run a week ago wrote it: more days left than now.
    const state = JSON.parse(fs.readFileSync(stateFile, "utf8"));
    const outputsOf = (name: string) => state.resources.find((r: any) => r.name === name).outputs;
    outputsOf("partner").daysUntilExpiry = 16;
    outputsOf("enrol").daysUntilExpiry = 9;
    fs.writeFileSync(stateFile, JSON.stringify(state));
    const result = await runHarness("refresh", opts({}, { expectNoChanges: true }));
    assert.equal(result.exitCode, 0, result.stderr + result.stdout);
    assert.deepEqual(result.report.changes, []);
    const after = readState(stateFile).resources;
    assert.equal(after.find((r) => r.name === "partner")!.outputs.daysUntilExpiry, 9);
    assert.equal(after.find((r) => r.name === "enrol")!.outputs.daysUntilExpiry, 2);
  });
});

describe("Enrollment warnings through the dynamic-provider host: only for an old enrollment still unused", function () {
  this.timeout(120_000);
  let mock: MockServer;
  let dir: string;
  let options: Parameters<typeof runHarness>[1];
  before(async () => {
    mock = await startMockServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-enrollment-warnings-"));
    const { "frontdoor:edgePassword": edgePassword, ...config } = mockConfig(mock);
    options = {
      programDir: enrollmentProgram,
      stateFile: path.join(dir, "dev.json"),
      config,
      secretConfig: { "frontdoor:edgePassword": edgePassword },
    };
  });
  after(async () => {
    await runHarness("destroy", options).catch(() => undefined);
    await mock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a new Identity and EdgeRouter: no warning at up, nor at the preview after it", async () => {
    const up = await runHarness("up", options);
    expectOk(up);
    assert.deepEqual(warnings(up.stderr), []);
    // Both were issued the controller's default enrollment (180 minutes), pending.
    const [enrollment] = mock.edge.list("enrollments");
    const [router] = mock.edge.list("edge-routers");
    for (const expiresAt of [enrollment.expiresAt, router.enrollmentExpiresAt]) {
      const minutes = (Date.parse(String(expiresAt)) - Date.now()) / MINUTE_MS;
      assert.ok(minutes > 170 && minutes <= 180, `expires in ${minutes} min`);
    }
    const preview = await runHarness("preview", options);
    expectOk(preview);
    assert.deepEqual(warnings(preview.stderr), []);
  });

  it("two and a half hours later, both still unused: the refresh is clean and the preview warns about each", async () => {
    // What the controller holds 150 minutes after the up: the same enrollments, 30 minutes left.
    const issued = new Date(Date.now() - 150 * MINUTE_MS).toISOString();
    const expires = new Date(Date.now() + 30 * MINUTE_MS).toISOString();
    for (const e of mock.edge.list("enrollments"))
      mock.edge.patch("enrollments", e.id, { expiresAt: expires });
    for (const r of mock.edge.list("edge-routers"))
      mock.edge.patch("edge-routers", r.id, { enrollmentCreatedAt: issued, enrollmentExpiresAt: expires });
    expectCleanRefresh(
      await runHarness("refresh", { ...options, expectNoChanges: true }),
      "as enrollments age",
    );

    const preview = await runHarness("preview", options);
    expectOk(preview);
    const lines = warnings(preview.stderr).sort();
    assert.equal(lines.length, 2, lines.join("\n"));
    const left =
      "expires in (29|30) minute\\(s\\), unused \\(.*; warning window: its last 60 minutes\\); enroll it before then, or";
    assert.match(
      lines[0],
      new RegExp(
        `EdgeRouter "router": the enrollment ${left} issue a new one in place with a new reEnrollmentTrigger$`,
      ),
    );
    assert.match(
      lines[1],
      new RegExp(
        `Identity "laptop": the enrollment ${left} re-issue it in place with reissueExpiredEnrollment: true or a new reEnrollmentTrigger$`,
      ),
    );
  });
});
