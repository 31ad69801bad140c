// The packed package in a user's project, run by the real Pulumi CLI with the project's own
// @pulumi/pulumi (FRONTDOOR_PULUMI_VERSION in the Node version matrix: the newest) and the Node.js on
// PATH (the matrix puts Node 22 or 24 first): the CLI's default TypeScript handling (ts-node with
// type-checking), up, a drift check that finds nothing, destroy; against the mock and against the
// real OpenZiti controller. The objects are checked on the server side, created and then gone.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { requirePeers } from "./peers";
import { cliStack } from "./peers/cli";
import { type RealController, realEdgeConfig, startController } from "./peers/controller";
import { cliSettings, mockConfig } from "./support/engine";
import { createUserProject, packPackage, templateTsconfig, USER_PULUMI_VERSION } from "./support/userProject";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const prefix = \`user-\${pulumi.getStack()}\`;
const service = new frontdoor.Service("app", { name: \`\${prefix}-app\`, roleAttributes: ["web"] });
const alice = new frontdoor.Identity("alice", { name: \`\${prefix}-alice\`, type: "User", roleAttributes: ["staff"] });
export const serviceId = service.id;
export const aliceId = alice.id;
export const nodeVersion = process.version;
`;

describe("the packed package in a user's project under the real Pulumi CLI", function () {
  this.timeout(1_200_000);
  let scratch: string;
  let project: string;
  let mock: MockServer | undefined;
  let ctrl: RealController | undefined;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-user-cli-"));
    const packed = await packPackage(scratch);
    project = path.join(scratch, "my-infra");
    await createUserProject(project, {
      files: {
        "index.ts": PROGRAM,
        // Pulumi's TypeScript template's tsconfig: the CLI type-checks the program with it.
        "tsconfig.json": templateTsconfig(),
      },
      manifest: { main: "index.ts" },
      install: [packed.tarball, `@pulumi/pulumi@${USER_PULUMI_VERSION}`],
    });
  });
  after(async () => {
    await mock?.close();
    await ctrl?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** up, a clean drift check, destroy: `exists(id)` answers whether the server has the object. */
  async function lifecycle(
    stackName: string,
    settings: Record<string, string>,
    exists: (id: string) => Promise<boolean>,
  ) {
    const stack = await cliStack(project, { inPlace: true, stack: stackName, ...cliSettings(settings) });
    try {
      await stack.ok(["up", "--yes", "--skip-preview"]);
      const outputs = JSON.parse((await stack.ok(["stack", "output", "--json"])).stdout);
      assert.equal(outputs.nodeVersion, process.version, "the program ran on another Node.js");
      for (const id of [outputs.serviceId, outputs.aliceId]) assert.ok(await exists(id), `${id} not created`);
      const drift = await stack.run(["preview", "--refresh", "--expect-no-changes"]);
      assert.equal(drift.code, 0, `drift reported on an untouched stack:\n${drift.output}`);
      await stack.ok(["destroy", "--yes", "--skip-preview"]);
      for (const id of [outputs.serviceId, outputs.aliceId])
        assert.equal(await exists(id), false, `${id} left behind`);
    } finally {
      await stack.dispose();
    }
  }

  it(`against the mock (@pulumi/pulumi ${USER_PULUMI_VERSION}, Node ${process.version})`, async () => {
    mock = await startMockServer();
    const server = mock;
    await lifecycle("mock", mockConfig(server), async (id) =>
      Boolean(server.edge.get("services", id) ?? server.edge.get("identities", id)),
    );
  });

  it(`against the real OpenZiti controller (@pulumi/pulumi ${USER_PULUMI_VERSION}, Node ${process.version})`, async function () {
    requirePeers(this, "ziti");
    ctrl = await startController();
    const admin = ctrl.admin;
    await lifecycle("controller", realEdgeConfig(ctrl), async (id) => {
      const answers = await Promise.all(
        ["services", "identities"].map((c) => admin.call("GET", `/${c}/${id}`)),
      );
      return answers.some((a) => a.status === 200);
    });
  });
});
