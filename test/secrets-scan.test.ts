// Secret scan over every example in examples/: each runs against the mock through the real
// dynamic-provider host (up, refresh, destroy, plus one run provoked to fail with a 401), with the
// provider's debug log on. The plaintext of every secret used must appear nowhere: not in the state
// file, not in any `__provider`, not in anything the harness or the provider printed, not in an error.
// Secrets: the config secrets passed, every value the server handed out (read from the mock's own
// records, see test/support/oracles), and every value found in the state at a path the independent
// table (test/support/oracles/secrets.ts, from the API descriptions and the swagger) calls secret; never
// the provider's own schema, which would stop looking at a field the moment the provider stopped
// marking it. Each is searched for in every encoded form (test/support/oracles/leaks.ts).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type Command,
  type HarnessOptions,
  type HarnessResult,
  readState,
  runHarness as runHarnessLibrary,
} from "../harness";
import { apiConfig } from "./support/engine";
import { dynamicProviderExamples, itCoversEveryDynamicProviderExample } from "./support/examples";
import { useMock, useTempDir } from "./support/fixtures";
import { findLeaks, type KnownSecret, serverSecrets, tableSecrets } from "./support/oracles/leaks";

const ROOT = path.resolve(__dirname, "..");

type Json = Record<string, any>;

/** `runHarness` with `--debug`: the host's output, with the provider's debug log, is captured too. */
const runHarness = (command: Command, opts: HarnessOptions) =>
  runHarnessLibrary(command, { ...opts, debug: true });

interface Example {
  dir: string;
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  env?: Record<string, string>;
  /** Wrong credentials, so that `up` fails with a 401 (the wrong values are scanned for too). */
  badSecretConfig: Record<string, string>;
  /** Config of the failing run instead (e.g. a name clash: 409). */
  badConfig?: Record<string, string>;
  /** What the failing run's error says. */
  badError?: RegExp;
  /** Runs that have no resources (queries only): nothing to refresh or destroy. */
  queriesOnly?: boolean;
}

describe("secret scan: no secret in plaintext anywhere, for every example", function () {
  this.timeout(120_000);
  const mock = useMock({ frontdoor: { customFrontendReadyAfterMs: 50 } });
  const work = useTempDir("secrets-scan-");

  const examples = (): Example[] => {
    const frontdoor = apiConfig(mock, "frontdoor");
    const edge = apiConfig(mock, "edge");
    const search = apiConfig(mock, "search");
    return [
      {
        dir: "frontdoor-basic",
        config: frontdoor.config,
        secretConfig: {
          ...frontdoor.secretConfig,
          ssoClientSecret: "scan-sso-client-secret-4711",
          partnerApiKey: "scan-partner-api-key-0815-abcdef",
        },
        badSecretConfig: { "frontdoor:token": "scan-wrong-frontdoor-token-0001" },
      },
      {
        dir: "frontdoor-mtls",
        config: frontdoor.config,
        secretConfig: frontdoor.secretConfig,
        badSecretConfig: { "frontdoor:token": "scan-wrong-frontdoor-token-0002" },
      },
      {
        dir: "custom-frontend",
        config: { ...frontdoor.config, hostname: "scan.apps.example.com" },
        secretConfig: {
          ...frontdoor.secretConfig,
          ssoClientSecret: "scan-cf-sso-secret-9876",
          apiKey: "scan-cf-api-key-0123456789",
        },
        // A 409 instead of a 401: the same hostname again, under other auth-provider names. (With a 401
        // the auth providers fail and the harness waits forever for the frontend that depends on them.)
        badSecretConfig: {},
        badConfig: { namePrefix: "scan-bad" },
        badError: /409|already exists/,
      },
      {
        dir: "edge-access",
        config: edge.config,
        secretConfig: edge.secretConfig,
        badSecretConfig: { "frontdoor:edgePassword": "scan-wrong-edge-password-0004" },
      },
      {
        dir: "zero-trust-app",
        config: { ...edge.config, namePrefix: "scan-zt" },
        secretConfig: edge.secretConfig,
        badSecretConfig: { "frontdoor:edgePassword": "scan-wrong-edge-password-0007" },
      },
      {
        dir: "event-report",
        config: search.config,
        secretConfig: search.secretConfig,
        badSecretConfig: { "frontdoor:searchPassword": "scan-wrong-search-password-0005" },
        queriesOnly: true,
      },
      {
        dir: "gitops",
        config: frontdoor.config,
        secretConfig: frontdoor.secretConfig,
        env: { FRONTDOOR_OIDC_CLIENT_SECRET: "scan-gitops-oidc-secret-2468" },
        badSecretConfig: { "frontdoor:token": "scan-wrong-frontdoor-token-0006" },
      },
    ];
  };

  itCoversEveryDynamicProviderExample(() => examples().map((e) => e.dir));

  for (const name of dynamicProviderExamples().sort()) {
    it(`examples/${name}: up, refresh, a failing up and destroy leak no secret`, async () => {
      const example = examples().find((e) => e.dir === name)!;
      const stateFile = path.join(work.path, `${name}.json`);
      const env = { FRONTDOOR_DEBUG: "1", ...example.env };
      const base = { programDir: path.join(ROOT, "examples", name), config: example.config, env };
      const texts: Array<[string, string]> = [];
      const record = (what: string, r: HarnessResult) => {
        texts.push([`${what} stdout`, r.stdout], [`${what} stderr`, r.stderr]);
        for (const f of r.report?.failures ?? []) texts.push([`${what} error`, f.message]);
        return r;
      };
      const ok = (r: HarnessResult, what: string) =>
        assert.equal(r.exitCode, 0, `${what}: ${r.stderr.slice(-3000)}`);

      const badRun = {
        ...base,
        config: { ...example.config, ...example.badConfig },
        stateFile: path.join(work.path, `${name}-bad.json`),
        secretConfig: { ...example.secretConfig, ...example.badSecretConfig },
      };
      let destroyed = false;
      try {
        const up = record(
          "up",
          await runHarness("up", { ...base, stateFile, secretConfig: example.secretConfig }),
        );
        ok(up, "up");
        assert.ok(
          /->/.test(up.stderr) || example.queriesOnly,
          "the provider's debug log is not in the output",
        );

        // Secret values: config secrets passed, env secrets, what the server handed out, and every
        // value at a secret path of the independent table.
        const secrets: KnownSecret[] = [
          ...Object.entries(example.secretConfig ?? {}).map(([k, value]) => ({
            label: `config ${k}`,
            value,
          })),
          ...Object.entries(example.env ?? {})
            .filter(([, v]) => v !== "1")
            .map(([k, value]) => ({ label: `env ${k}`, value })),
          ...Object.entries(example.badSecretConfig).map(([k, value]) => ({
            label: `bad config ${k}`,
            value,
          })),
          ...serverSecrets(mock),
        ];
        const state = readState(stateFile);
        const atSecretPaths = state.resources.flatMap((r) => tableSecrets(r));
        if (!example.queriesOnly)
          assert.ok(
            atSecretPaths.length > 0,
            "no value at a secret path in the state: the scan would be vacuous",
          );
        secrets.push(...atSecretPaths);
        const providers = state.resources.map((r) =>
          JSON.stringify((r.outputs as Json)?.__provider ?? (r.inputs as Json)?.__provider ?? ""),
        );

        const refresh = record(
          "refresh",
          await runHarness("refresh", {
            ...base,
            stateFile,
            secretConfig: example.secretConfig,
            expectNoChanges: true,
          }),
        );
        ok(refresh, "refresh");

        // A run that fails (on a fresh state): wrong credentials -> 401, or a name clash -> 409.
        const bad = record("failing up", await runHarness("up", badRun));
        assert.equal(bad.exitCode, 1, `the failing run did not fail: ${bad.stdout.slice(0, 2000)}`);
        assert.match(
          `${bad.stdout}${bad.stderr}`,
          example.badError ?? /401|unauthori[sz]ed|credentials|authenticat/i,
        );

        // What the server handed out during the refresh and the failing run too (before destroy).
        secrets.push(...serverSecrets(mock));
        const stateText = fs.readFileSync(stateFile, "utf8");
        const destroy = record(
          "destroy",
          await runHarness("destroy", { ...base, stateFile, secretConfig: example.secretConfig }),
        );
        ok(destroy, "destroy");
        destroyed = true;

        texts.push(
          ["state file", stateText],
          [
            "failing up state",
            fs.existsSync(badRun.stateFile) ? fs.readFileSync(badRun.stateFile, "utf8") : "",
          ],
        );
        for (const [i, provider] of providers.entries()) texts.push([`__provider #${i}`, provider]);
        const hits = findLeaks(secrets, texts);
        assert.deepEqual(hits, [], `secrets in plaintext (${secrets.length} secrets scanned)`);
      } finally {
        // Leave nothing behind for the next example (some share names), even after a failure.
        if (!destroyed)
          await runHarness("destroy", { ...base, stateFile, secretConfig: example.secretConfig });
        if (example.badConfig) await runHarness("destroy", { ...badRun, secretConfig: example.secretConfig });
      }
    });
  }
});
