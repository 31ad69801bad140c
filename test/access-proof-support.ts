// The proof that declared access is real, shared by the mock and the real-controller suites: the
// access-proof program is applied through the real dynamic-provider host (engine harness); both of its
// identities enroll with `enrollIdentity` (Edge client API, CSR by node-forge) and log in to the client
// API with their certificates; the member of the Dial group sees the service, the outsider does not;
// after destroy the service and the identities are gone.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readState, runHarness } from "../harness";
import { SIG_KEY } from "../harness/secrets";
import { enrollIdentity } from "../provider/functions/enrollment";
import { certificateLogin, visibleServices } from "./support/clientAccess";

const PROGRAM = path.join(__dirname, "programs", "access-proof");

export interface ProofTarget {
  /** The controller's base URL (https). */
  url: string;
  /** Provider settings (frontdoor:edgeUrl, ...): the password goes to the stack's secret config. */
  settings: Record<string, string>;
  /** Whether `/edge/management/v1/<collection>/<id>` exists, asked as an admin outside Pulumi. */
  exists(collection: string, id: string): Promise<boolean>;
}

function plain(value: unknown): string {
  const v = value as Record<string, unknown>;
  return String(v && typeof v === "object" && SIG_KEY in v ? v.value : value);
}

export async function proveAccess(target: ProofTarget, prefix: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "access-proof-"));
  const { "frontdoor:edgePassword": edgePassword, ...config } = target.settings;
  const options = {
    programDir: PROGRAM,
    stateFile: path.join(dir, "state.json"),
    config: { ...config, prefix },
    secretConfig: { "frontdoor:edgePassword": edgePassword },
  };
  try {
    const up = await runHarness("up", options);
    assert.equal(up.exitCode, 0, `${up.stdout}\n${up.stderr}`);
    assert.equal((up.report.outputs as any).memberJwt, "[secret]");
    const state = readState(options.stateFile);
    const ids = state.outputs.ids as Record<string, string>;

    const member = await enrollIdentity({ jwt: plain(state.outputs.memberJwt) });
    const outsider = await enrollIdentity({ jwt: plain(state.outputs.outsiderJwt) });
    assert.equal(member.identityId, ids.member);
    assert.equal(outsider.identityId, ids.outsider);

    assert.deepEqual(await visibleServices(target.url, member), [
      { name: `${prefix}-app`, permissions: ["Dial"] },
    ]);
    assert.deepEqual(await visibleServices(target.url, outsider), []);

    // Enrolling consumed both enrollments: a refresh reports no drift for it.
    const refresh = await runHarness("refresh", { ...options, expectNoChanges: true });
    assert.equal(refresh.exitCode, 0, `${refresh.stdout}\n${refresh.stderr}`);

    const destroy = await runHarness("destroy", options);
    assert.equal(destroy.exitCode, 0, `${destroy.stdout}\n${destroy.stderr}`);
    assert.equal(await target.exists("services", ids.service), false, "the service is gone");
    assert.equal(await target.exists("identities", ids.member), false, "the member is gone");
    assert.equal(await target.exists("identities", ids.outsider), false, "the outsider is gone");
    // The certificates no longer log in: their identities are gone.
    await assert.rejects(certificateLogin(target.url, member), /cert login: 401/);
  } finally {
    await runHarness("destroy", options).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
