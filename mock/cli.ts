#!/usr/bin/env node
// `npm run mock-server -- [--port N] [--host H] [--tls] | [--cluster N [--lag-ms N]]` in the checkout; `npx pulumi-frontdoor-mock` where
// the package is installed.: runs the mock server until SIGINT/SIGTERM and
// prints its URL, the demo credentials and the control token as copy-pasteable `export` lines. These
// are demo values of a local mock, not real secrets, which is why printing them is fine here; the
// control token is random per start, so only who reads this output can drive `/__mock/`.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockCluster, startMockCluster } from "./cluster";
import { CONTROL_TOKEN_HEADER, type MockServer, type MockServerOptions, startMockServer } from "./server";

interface CliOptions extends MockServerOptions {
  /** `--cluster N`: N controller nodes (HTTPS on 127.0.0.1, ephemeral ports) over one replicated store. */
  cluster?: number;
  /** `--lag-ms N`: the followers' replication lag in cluster mode. */
  lagMs?: number;
}

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--tls") options.tls = true;
    else if (arg === "--port") options.port = Number(argv[++i]);
    else if (arg === "--host") options.host = argv[++i];
    else if (arg === "--cluster") options.cluster = Number(argv[++i]);
    else if (arg === "--lag-ms") options.lagMs = Number(argv[++i]);
    else
      throw new Error(`unknown argument '${arg}' (use --port N, --host H, --tls, --cluster N, --lag-ms N)`);
  }
  if (options.port !== undefined && !Number.isInteger(options.port)) throw new Error("--port needs a number");
  if (options.cluster !== undefined) {
    if (!Number.isInteger(options.cluster) || options.cluster < 1)
      throw new Error("--cluster needs a node count");
    if (options.port !== undefined || options.host !== undefined)
      throw new Error("--cluster takes no --port/--host: its nodes listen on 127.0.0.1, ephemeral ports");
  }
  if (options.lagMs !== undefined && !(options.lagMs >= 0)) throw new Error("--lag-ms needs a number >= 0");
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
    // Whoever started it through a wrapper (`npx` does not pass a `kill` on) stops this process by it.
    FRONTDOOR_MOCK_PID: String(process.pid),
    ...(caFile ? { FRONTDOOR_CA_BUNDLE: caFile } : {}),
  };
  for (const [name, value] of Object.entries(env)) lines.push(`export ${name}=${value}`);
  return `${lines.join("\n")}\n`;
}

/** Cluster mode: the first node's lines (any node serves every API), then every node and ZITI_EDGE_URLS. */
function describeCluster(cluster: MockCluster, caFile: string): string {
  const lines = [
    describe(cluster.nodes[0].server, caFile).trimEnd(),
    `export ZITI_EDGE_URLS=${cluster.urls.join(",")}`,
    "",
    `cluster of ${cluster.nodes.length} nodes (leader ${cluster.leader()?.name}); control: /__mock/cluster on any node`,
    ...cluster.nodes.map((node) => `  node ${node.name}: ${node.url}`),
  ];
  return `${lines.join("\n")}\n`;
}

function writeCaFile(caPem: string): string {
  const caFile = join(tmpdir(), `frontdoor-mock-ca-${process.pid}.pem`);
  writeFileSync(caFile, caPem);
  return caFile;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  let close: () => Promise<void>;
  if (options.cluster !== undefined) {
    const cluster = await startMockCluster({ nodes: options.cluster, lagMs: options.lagMs });
    process.stdout.write(describeCluster(cluster, writeCaFile(cluster.caPem)));
    close = () => cluster.close();
  } else {
    const server = await startMockServer(options);
    process.stdout.write(describe(server, server.caPem ? writeCaFile(server.caPem) : undefined));
    close = () => server.close();
  }
  const shutdown = () => {
    close().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error) => {
  process.stderr.write(`mock server failed to start: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
