// `npm run demo`: the whole story against the mock server, through the real dynamic-provider host.
// 1. start the mock server   2. `up` examples/frontdoor-basic   3. `refresh --expect-no-changes` (clean)
// 4. change an auth provider behind Pulumi's back, through the real API   5. refresh again: drift shown,
// non-zero exit   6. `destroy`   7. stop the server.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readState } from "../harness";
import { startMockServer } from "../mock/server";

const root = path.resolve(__dirname, "..");
const program = path.join(root, "examples", "frontdoor-basic");

async function main(): Promise<void> {
  const mock = await startMockServer();
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-demo-"));
  const stateFile = path.join(workdir, "dev.json");
  const { frontdoorId, frontdoorToken } = mock.credentials;
  const harness = (command: string, ...flags: string[]): Promise<number> => {
    banner(`npm run harness -- ${command} examples/frontdoor-basic ${flags.join(" ")}`.trim());
    const args = [
      "-r",
      "ts-node/register/transpile-only",
      path.join(root, "harness", "cli.ts"),
      command,
      program,
      "--state",
      stateFile,
      "--config",
      `frontdoor:apiUrl=${mock.url}`,
      "--config",
      `frontdoor:frontdoorId=${frontdoorId}`,
      "--secret-config",
      `frontdoor:token=${frontdoorToken}`,
      "--secret-config",
      "ssoClientSecret=demo-oidc-client-secret",
      "--secret-config",
      "partnerApiKey=demo-partner-api-key-0123456789",
      ...flags,
    ];
    // Asynchronously: the mock server runs in this process and must keep answering meanwhile.
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
      child.once("error", reject);
      child.once("close", (code) => resolve(code ?? 1));
    });
  };
  try {
    console.log(`mock server: ${mock.url} (frontdoor ${frontdoorId})`);
    await expectExit(harness("up"), 0, "up");
    await expectExit(harness("refresh", "--expect-no-changes"), 0, "clean refresh");

    const ssoId = readState(stateFile).resources.find((r) => r.name === "corp-sso")!.id;
    banner(
      `PATCH /frontdoor/${frontdoorId}/auth-providers/${ssoId} {"enabled": false, "name": "corp-sso-renamed"} (behind Pulumi's back)`,
    );
    const res = await fetch(`${mock.url}/frontdoor/${frontdoorId}/auth-providers/${ssoId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${frontdoorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ enabled: false, name: "corp-sso-renamed" }),
    });
    console.log(`HTTP ${res.status}`);

    await expectExit(
      harness("refresh", "--expect-no-changes"),
      1,
      "refresh after the change (drift expected)",
    );
    await expectExit(harness("destroy"), 0, "destroy");
    banner("demo finished: up, clean refresh, drift detected, destroy");
  } finally {
    await mock.close();
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

async function expectExit(code: Promise<number>, expected: number, what: string): Promise<void> {
  const actual = await code;
  if (actual !== expected) throw new Error(`${what}: exit code ${actual}, expected ${expected}`);
}

function banner(text: string): void {
  console.log(`\n\x1b[1m$ ${text}\x1b[0m`);
}

main().catch((err: Error) => {
  console.error(`demo failed: ${err.message}`);
  process.exit(1);
});
