// What a user sees in the cases a pipeline meets most (a preview with bad settings, a drift job on an
// expired token, a closed port, a Terraform-style URL, a misspelled key, a fresh Identity): each run
// with the real Pulumi CLI (.peers/bin) on test/programs/preflight against the shipped mock, printing
// the exit code, the command's wall time and the line a user reads first. Observations for the docs and
// the changelog, not a performance claim: `npm run bench:user-cases` (after `npm run build`; the
// peers from `npm run peers`), a Markdown table on stdout.
import { execFile } from "node:child_process";
import * as net from "node:net";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliResult, type CliStack, cliStack } from "../test/peers/cli";
import { mockConfig } from "../test/support/engine";

const PROGRAM = path.join(__dirname, "..", "test", "programs", "preflight");
const DRIFT = path.join(__dirname, "..", "bin", "provider", "tools", "driftCli.js");

interface Case {
  name: string;
  run(mock: MockServer): Promise<{ result: CliResult; ms: number }>;
  /** The line a user reads first. */
  pick: RegExp;
}

const secretKeys = new Set(["frontdoor:token", "frontdoor:edgePassword"]);
/** The mock's settings split into plain and secret config, with changes (undefined removes a key). */
function settings(mock: MockServer, change: Record<string, string | undefined> = {}) {
  const all: Record<string, string | undefined> = { ...mockConfig(mock), ...change };
  const config: Record<string, string> = {};
  const secretConfig: Record<string, string> = {};
  for (const [key, value] of Object.entries(all))
    if (value !== undefined) (secretKeys.has(key) ? secretConfig : config)[key] = value;
  return { config, secretConfig };
}

async function timed(stack: CliStack, args: string[]): Promise<{ result: CliResult; ms: number }> {
  const started = Date.now();
  const result = await stack.run(args);
  return { result, ms: Date.now() - started };
}

async function withStack<T>(options: Parameters<typeof cliStack>[1], body: (s: CliStack) => Promise<T>) {
  const stack = await cliStack(PROGRAM, options);
  try {
    return await body(stack);
  } finally {
    await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
    await stack.dispose();
  }
}

const preview = (change: Record<string, string | undefined>) => (mock: MockServer) =>
  withStack(settings(mock, change), (s) => timed(s, ["preview"]));

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const CASES: Case[] = [
  {
    name: "No settings",
    run: () => withStack({}, (s) => timed(s, ["preview"])),
    pick: /has a problem: .*/,
  },
  {
    name: "Wrong token",
    run: preview({ "frontdoor:token": "not-the-token-0123456789" }),
    pick: /failed \(HTTP 401.*/,
  },
  {
    name: "Drift job, expired token",
    run: (mock) =>
      withStack(settings(mock), async (s) => {
        await s.ok(["up", "--yes", "--skip-preview"]);
        const expired = mock.frontdoor.issueToken({
          frontdoorIds: [mock.credentials.frontdoorId],
          ttlSeconds: 0,
        });
        await s.ok(["config", "set", "--secret", "frontdoor:token", expired]);
        const started = Date.now();
        const result = await new Promise<CliResult>((resolve) =>
          execFile(
            process.execPath,
            [DRIFT, "--stack", "dev", "--cwd", s.dir],
            { env: s.env },
            (error, stdout, stderr) =>
              resolve({
                code: error ? Number(error.code) : 0,
                stdout,
                stderr,
                output: `${stdout}\n${stderr}`,
              }),
          ),
        );
        // Back to the good token, so the stack can be destroyed.
        await s.ok(["config", "set", "--secret", "frontdoor:token", mock.credentials.frontdoorToken]);
        return { result, ms: Date.now() - started };
      }),
    pick: /error: .*access token expired.*|error: .*/,
  },
  {
    name: "edgeUrl on a closed port",
    run: async (mock) => preview({ "frontdoor:edgeUrl": `http://127.0.0.1:${await closedPort()}` })(mock),
    pick: /cannot be reached.*|ECONNREFUSED.*/,
  },
  {
    name: "Terraform-style `.../edge/management/v1`",
    run: (mock) =>
      preview({ "frontdoor:edgeUrl": `${mockConfig(mock)["frontdoor:edgeUrl"]}/edge/management/v1` })(mock),
    pick: /ends in the API path.*/,
  },
  {
    name: "`frontdoor:retryTimeoutSecond`",
    run: preview({ "frontdoor:retryTimeoutSecond": "30" }),
    pick: /did you mean.*/,
  },
  {
    name: "A fresh Identity, up",
    run: (mock) => withStack(settings(mock), (s) => timed(s, ["up", "--yes", "--skip-preview"])),
    pick: /warning: (?!using pulumi).*|\d+ created/,
  },
];

async function main(): Promise<void> {
  const mock = await startMockServer();
  const rows = ["| Case | Exit | Wall time | What the user reads |", "|---|---|---|---|"];
  try {
    for (const c of CASES) {
      const { result, ms } = await c.run(mock);
      const line = (result.output.match(c.pick)?.[0] ?? "(nothing matched)")
        .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:…")
        .replace(/\|/g, "\\|")
        .slice(0, 240);
      rows.push(`| ${c.name} | ${result.code} | ${(ms / 1000).toFixed(1)} s | ${line} |`);
      process.stderr.write(`${c.name}: exit ${result.code} in ${ms} ms\n`);
    }
  } finally {
    await mock.close();
  }
  process.stdout.write(`${rows.join("\n")}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
