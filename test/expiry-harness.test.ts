// Expiry awareness through the real dynamic-provider host (engine harness) against the mock: objects
// near expiry give a warning at preview and up (window from frontdoor:expiryWarningDays or each kind's
// default), outputs show the days left, and a refresh reports no drift although those days change.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readState, runHarness } from "../harness";
import { type MockServer, startMockServer } from "../mock/server";
import { selfSignedPem } from "./frontdoor-pki";
import { runOptions } from "./support/fixtures";

const program = path.join(__dirname, "programs", "expiry-warnings");
const DAY_S = 24 * 60 * 60;

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
