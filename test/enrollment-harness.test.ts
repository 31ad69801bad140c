// Enrollment re-issue through the real dynamic-provider host (engine harness) against the mock: an
// enrollment that lapsed is no drift for `refresh --expect-no-changes` (the nightly job stays green),
// `preview` shows an in-place update of the identity that opted in (reissueExpiredEnrollment) and none
// for the other, `up` re-issues it, and the new JWT enrolls with enrollIdentity.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readState, runHarness } from "../harness";
import { SIG_KEY } from "../harness/secrets";
import { type MockServer, startMockServer } from "../mock/server";
import { enrollIdentity } from "../provider/functions/enrollment";
import { visibleServices } from "./support/clientAccess";
import { mockConfig } from "./support/engine";
import { changes, expectOk, ops } from "./support/report";
import { waitFor } from "./support/wait";

const PROGRAM = path.join(__dirname, "programs", "access-proof");
const plain = (v: any) => String(v && typeof v === "object" && SIG_KEY in v ? v.value : v);

describe("Enrollment re-issue through the dynamic-provider host", function () {
  this.timeout(180_000);
  let mock: MockServer;
  let dir: string;
  let options: Parameters<typeof runHarness>[1];
  let stateFile: string;
  before(async () => {
    mock = await startMockServer({ tls: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "enroll-harness-"));
    const { "frontdoor:edgePassword": edgePassword, ...config } = mockConfig(mock);
    stateFile = path.join(dir, "state.json");
    options = {
      programDir: PROGRAM,
      stateFile,
      config: { ...config, prefix: "lapse" },
      secretConfig: { "frontdoor:edgePassword": edgePassword },
    };
  });
  after(async () => {
    await runHarness("destroy", options).catch(() => undefined);
    await mock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a lapsed enrollment: refresh clean, preview and up re-issue only the opted-in identity, in place", async () => {
    expectOk(await runHarness("up", options));
    const before = readState(stateFile);
    const ids = before.outputs.ids as Record<string, string>;
    // Both enrollments lapse after the up checked its inputs (an expiry before that check would be one
    // the up already saw) and before anyone enrolled: they expire now, and the refresh comes after.
    const lapse = Date.now();
    for (const e of mock.edge.list("enrollments"))
      mock.edge.patch("enrollments", e.id, { expiresAt: new Date(lapse).toISOString() });
    await waitFor(() => Date.now() > lapse, "the enrollments' expiry to pass");

    const refresh = await runHarness("refresh", { ...options, expectNoChanges: true });
    assert.deepEqual(changes(refresh), {});
    expectOk(refresh);

    const preview = await runHarness("preview", options);
    expectOk(preview);
    assert.deepEqual(
      Object.entries(ops(preview)).filter(([, op]) => op !== "same"),
      [["member", "update"]],
    );
    assert.match(
      preview.stderr,
      /Identity "outsider": the enrollment expired less than a day ago \(.*\); re-issue it in place with reissueExpiredEnrollment: true or a new reEnrollmentTrigger/,
    );

    const up = await runHarness("up", options);
    expectOk(up);
    assert.deepEqual(
      Object.entries(ops(up)).filter(([, op]) => op !== "same"),
      [["member", "update"]],
    );
    const after = readState(stateFile);
    assert.equal((after.outputs.ids as Record<string, string>).member, ids.member, "not replaced");
    assert.notEqual(plain(after.outputs.memberJwt), plain(before.outputs.memberJwt));
    const member = await enrollIdentity({ jwt: plain(after.outputs.memberJwt) });
    assert.equal(member.identityId, ids.member);
    assert.deepEqual(await visibleServices(mock.url, member), [{ name: "lapse-app", permissions: ["Dial"] }]);
    await assert.rejects(
      enrollIdentity({ jwt: plain(after.outputs.outsiderJwt) }),
      /HTTP 400 ENROLLMENT_EXPIRED/,
    );

    // Enrolled now: the next up has nothing to do, and refresh stays clean.
    const again = await runHarness("up", options);
    expectOk(again);
    assert.deepEqual(
      Object.values(ops(again)).filter((op) => op !== "same"),
      [],
    );
    const clean = await runHarness("refresh", { ...options, expectNoChanges: true });
    assert.deepEqual(changes(clean), {});
    expectOk(clean);
  });
});
