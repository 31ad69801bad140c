#!/usr/bin/env node
// `npm run mock-server -- [--port N] [--host H] [--tls]` in the checkout; `npx pulumi-frontdoor-mock` where
// the package is installed.: runs the mock server until SIGINT/SIGTERM and
// prints its URL, the demo credentials and the control token as copy-pasteable `export` lines. These
// are demo values of a local mock, not real secrets, which is why printing them is fine here; the
// control token is random per start, so only who reads this output can drive `/__mock/`.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTROL_TOKEN_HEADER, type MockServer, type MockServerOptions, startMockServer } from "./server";

function parseArgs(argv: string[]): MockServerOptions {
  const options: MockServerOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--tls") options.tls = true;
    else if (arg === "--port") options.port = Number(argv[++i]);
    else if (arg === "--host") options.host = argv[++i];
    else throw new Error(`unknown argument '${arg}' (use --port N, --host H, --tls)`);
  }
  if (options.port !== undefined && !Number.isInteger(options.port)) throw new Error("--port needs a number");
  return options;
}

function describe(server: MockServer, caFile?: string): string {
  const c = server.credentials;
  const lines = [
    `mock server listening on ${server.url}`,
    "",
    `Frontdoor API:       ${server.url}/frontdoor/${c.frontdoorId}/...`,
    `  frontdoor id:      ${c.frontdoorId}   (token has no access to ${c.otherFrontdoorId})`,
    `  bearer token:      ${c.frontdoorToken}`,
    `  OAuth2 client:     ${c.clientId} / ${c.clientSecret}`,
    `  OAuth2 token URL:  ${c.tokenUrl}`,
    `Edge management API: ${server.url}/edge/management/v1   admin ${c.edgeUsername} / ${c.edgePassword}`,
    `Event search:        ${server.url}/<index>/_search   user ${c.searchUsername} / ${c.searchPassword}`,
    `Control interface:   ${server.url}/__mock/ (faults, log, credentials, frontdoor edits)`,
    `  control token:     ${server.controlToken}   (header ${CONTROL_TOKEN_HEADER}; writes: Content-Type application/json)`,
    "",
    "# copy and paste:",
  ];
  const env: Record<string, string> = {
    FRONTDOOR_API_URL: server.url,
    FRONTDOOR_ID: c.frontdoorId,
    FRONTDOOR_TOKEN: c.frontdoorToken,
    FRONTDOOR_CLIENT_ID: c.clientId,
    FRONTDOOR_CLIENT_SECRET: c.clientSecret,
    FRONTDOOR_TOKEN_URL: c.tokenUrl,
    ZITI_EDGE_URL: server.url,
    ZITI_USERNAME: c.edgeUsername,
    ZITI_PASSWORD: c.edgePassword,
    FRONTDOOR_SEARCH_URL: server.url,
    FRONTDOOR_SEARCH_USERNAME: c.searchUsername,
    FRONTDOOR_SEARCH_PASSWORD: c.searchPassword,
    FRONTDOOR_MOCK_TOKEN: server.controlToken,
    ...(caFile ? { FRONTDOOR_CA_BUNDLE: caFile } : {}),
  };
  for (const [name, value] of Object.entries(env)) lines.push(`export ${name}=${value}`);
  return `${lines.join("\n")}\n`;
}

async function main(): Promise<void> {
  const server = await startMockServer(parseArgs(process.argv.slice(2)));
  let caFile: string | undefined;
  if (server.caPem) {
    caFile = join(tmpdir(), `frontdoor-mock-ca-${process.pid}.pem`);
    writeFileSync(caFile, server.caPem);
  }
  process.stdout.write(describe(server, caFile));
  const shutdown = () => {
    server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error) => {
  process.stderr.write(`mock server failed to start: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
