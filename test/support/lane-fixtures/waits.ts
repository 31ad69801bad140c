// A job of the lanes runner's own test: writes its pid where the test says, then waits (the test
// SIGKILLs the runner meanwhile and checks that this job ends with it).
import * as fs from "node:fs";

describe("lane fixture: waits", () => {
  it("waits for a minute", async function () {
    this.timeout(120_000);
    fs.writeFileSync(process.env.LANE_FIXTURE_PID_FILE as string, String(process.pid));
    await new Promise((resolve) => setTimeout(resolve, 60_000));
  });
});
