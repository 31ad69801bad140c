// Effective access against a real OpenZiti controller (`ziti edge quickstart`, built by `npm run peers`):
// the program of test/access-support.ts created through the provider, and the computed matrix compared
// with what the controller answers for itself: each identity's dial and bind service lists (which go by
// service policies only) and, for each grant, the policy advice (allowed, and the edge routers both the
// identity and the service may use).
import * as assert from "node:assert/strict";
import { accessMatrix } from "../provider/audit/access";
import { context } from "../provider/engine";
import { createAccessProgram, disagreements } from "./access-support";
import { useController } from "./support/fixtures";

describe("Real OpenZiti controller: the access matrix agrees with the controller", function () {
  this.timeout(300_000);
  const ctrl = useController({ provider: true });

  it("5 services, 10 identities, #attr/@id/#all, AllOf/AnyOf, Dial/Bind, router policies, a posture check", async () => {
    const program = await createAccessProgram("acc-");
    const matrix = await accessMatrix(context());
    assert.equal(matrix.services.filter((s) => s.service.name.startsWith("acc-")).length, 5);
    assert.deepEqual(await disagreements(ctrl.admin, matrix, Object.values(program.identities)), []);
    // not vacuous: the program grants something on every service
    for (const s of matrix.services) assert.ok(s.dial.length > 0, `nobody dials ${s.service.name}`);
    assert.deepEqual(ctrl.admin.violations, []);
  });
});
