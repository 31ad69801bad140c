// The harness's text output streams: a line per step as it finishes, with the running count, so a
// large stack never sits silent; the closing report then adds only drift, outputs and counts.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as path from "node:path";
import { useMock, useTempDir } from "./support/fixtures";

const HARNESS_CLI = path.join(__dirname, "..", "harness", "cli.ts");
const program = path.resolve(__dirname, "..", "bench", "programs", "many");
const COUNT = 60;

/** Runs the harness CLI in text mode; each stdout chunk as it arrived. */
function harnessText(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; chunks: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", HARNESS_CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: string[] = [];
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => chunks.push(c.toString()));
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve({ code, chunks }) : reject(new Error(`exit ${code}: ${stderr}${chunks.join("")}`)),
    );
  });
}

describe("harness progress output", function () {
  this.timeout(180_000);
  const mock = useMock();
  const dir = useTempDir("harness-progress-");

  it("prints each step as it finishes with a running count, then the summary", async () => {
    const c = mock.credentials;
    const args = (command: string) => [
      command,
      program,
      "--state",
      path.join(dir.path, "state.json"),
      "--parallel",
      "4",
      "--config",
      `count=${COUNT}`,
      "--config",
      `frontdoor:apiUrl=${mock.url}`,
      "--config",
      `frontdoor:frontdoorId=${c.frontdoorId}`,
    ];
    const env = {
      HARNESS_SECRET_CONFIG: JSON.stringify({
        "frontdoor:token": c.frontdoorToken,
        clientSecret: "progress-secret-1",
      }),
    };
    const up = await harnessText(args("up"), env);
    const text = up.chunks.join("");
    assert.ok(text.startsWith("Updating (bench-many/dev)\n"), text.slice(0, 200));
    const counts = [...text.matchAll(/^ {4}\+ create\s+frontdoor:AuthProvider\s+ap-\d+\s+\[(\d+)\]$/gm)].map(
      (m) => Number(m[1]),
    );
    assert.deepEqual(
      counts,
      Array.from({ length: COUNT }, (_, i) => i + 1),
      "one line per step, counted in order",
    );
    assert.match(text, /Resources: 60 created/);
    assert.ok(!text.includes("progress-secret-1"));
    // Streamed: the step lines came in several writes before the summary, not in one at the end.
    const summaryChunk = up.chunks.findIndex((chunk) => chunk.includes("Resources:"));
    const stepChunks = up.chunks.slice(0, summaryChunk).filter((chunk) => /\[\d+\]$/m.test(chunk));
    assert.ok(stepChunks.length >= 5, `step lines arrived in ${stepChunks.length} write(s)`);

    const destroy = await harnessText(args("destroy"), env);
    assert.match(destroy.chunks.join(""), /- delete\s+frontdoor:AuthProvider\s+ap-\d+\s+\[60\]/);
    assert.equal(mock.frontdoor.list(c.frontdoorId, "auth-providers").length, 0);
  });
});
