// The real Pulumi CLI (v3.276, built by `npm run peers`) on every example, with a local backend and a
// passphrase secrets provider: up, refresh --expect-no-changes (exit 0), a change made behind its
// back then preview --refresh --expect-no-changes (non-zero, naming the property), up putting it back,
// a clean refresh again, the state and output scanned for secrets, `pulumi import` (which cannot work
// for dynamic resources: the CLI's own message is checked), destroy. Edge examples run against the
// real controller, Frontdoor ones against the mock.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../mock/server";
import { type CliStack, cliStack } from "./peers/cli";
import { type RealController, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { EDGE_COLLECTIONS, FRONTDOOR_COLLECTIONS } from "./support/collections";
import { apiConfig } from "./support/engine";
import { dynamicProviderExamples, itCoversEveryDynamicProviderExample } from "./support/examples";
import { findLeaks, type KnownSecret, serverSecrets, tableSecrets } from "./support/oracles/leaks";

const ROOT = path.resolve(__dirname, "..");
type FrontdoorCollection =
  | "auth-providers"
  | "client-certificates"
  | "certificate-request-tokens"
  | "custom-frontends";

interface Example {
  dir: string;
  config: Record<string, string>;
  secretConfig: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  /** A change behind Pulumi's back and the property the CLI must name; none for query-only programs. */
  drift?: {
    resource: string;
    property: string;
    make: (id: string) => Promise<void>;
    check?: (id: string) => Promise<void>;
  };
  /** Whether the objects are gone after destroy. */
  gone?: (ids: string[]) => Promise<void>;
}

describe("Real Pulumi CLI: every example", function () {
  this.timeout(900_000);
  let mock: MockServer;
  let ctrl: RealController;

  before(async function () {
    requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", "ziti");
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 50 } });
    ctrl = await startController();
  });
  after(async () => {
    mock?.close();
    await ctrl?.stop();
  });

  const fd = () => mock.credentials.frontdoorId;
  const frontdoor = () => apiConfig(mock, "frontdoor");
  const rename = (collection: FrontdoorCollection) => async (stateId: string) => {
    const id = stateId.split("/").pop() as string; // Frontdoor ids are <frontdoorId>/<id>
    const found = mock.frontdoor.get(fd(), collection, id);
    assert.ok(found, `${collection} ${id} is not on the mock`);
    mock.frontdoor.patch(fd(), collection, id, { name: `${found.name}-renamed` });
  };
  const frontdoorGone = async (ids: string[]) => {
    for (const id of ids)
      for (const [collection] of FRONTDOOR_COLLECTIONS)
        assert.equal(
          mock.frontdoor.get(fd(), collection, id.split("/").pop() as string),
          undefined,
          `${id} left behind`,
        );
  };

  const controller = () => ({
    config: {
      "frontdoor:edgeUrl": ctrl.url,
      "frontdoor:edgeUsername": ctrl.username,
      "frontdoor:caBundle": ctrl.caPem,
    },
    secretConfig: { "frontdoor:edgePassword": ctrl.password },
  });
  /** Another admin changes the object of the state's id on the controller (drift). */
  const patchOnController = (collection: string, body: object) => async (id: string) => {
    const answer = await ctrl.admin.call("PATCH", `/${collection}/${id}`, { body });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  };
  /** No collection of the controller holds any of the objects once the stack is destroyed. */
  const controllerGone = async (ids: string[]) => {
    for (const id of ids) {
      const answers = await Promise.all(EDGE_COLLECTIONS.map((c) => ctrl.admin.call("GET", `/${c}/${id}`)));
      assert.ok(
        answers.every((a) => a.status === 404),
        `${id} left behind on the controller`,
      );
    }
  };

  const examples = (): Example[] => [
    {
      dir: "frontdoor-basic",
      ...frontdoor(),
      secretConfig: {
        ...frontdoor().secretConfig,
        ssoClientSecret: "cli-sso-client-secret-4711",
        partnerApiKey: "cli-partner-api-key-0815-abcdef",
      },
      drift: { resource: "partner-api-key", property: "name", make: rename("auth-providers") },
      gone: frontdoorGone,
    },
    {
      dir: "frontdoor-mtls",
      ...frontdoor(),
      drift: { resource: "partner", property: "name", make: rename("client-certificates") },
      gone: frontdoorGone,
    },
    {
      dir: "custom-frontend",
      ...frontdoor(),
      config: { ...frontdoor().config, hostname: "cli.apps.example.com" },
      secretConfig: {
        ...frontdoor().secretConfig,
        ssoClientSecret: "cli-cf-sso-secret-9876",
        apiKey: "cli-cf-api-key-0123456789",
      },
      drift: { resource: "api-key", property: "name", make: rename("auth-providers") },
      gone: frontdoorGone,
    },
    {
      dir: "gitops",
      ...frontdoor(),
      env: { FRONTDOOR_OIDC_CLIENT_SECRET: "cli-gitops-oidc-secret-2468" },
      drift: { resource: "corp-sso", property: "name", make: rename("auth-providers") },
      gone: frontdoorGone,
    },
    {
      dir: "edge-access",
      ...controller(),
      drift: {
        resource: "alice",
        property: "roleAttributes",
        make: patchOnController("identities", { roleAttributes: ["intruders"] }),
      },
      gone: controllerGone,
    },
    {
      dir: "zero-trust-app",
      ...controller(),
      drift: {
        resource: "app-dial",
        property: "identityRoles",
        make: patchOnController("service-policies", { identityRoles: ["#all"] }),
      },
      gone: controllerGone,
    },
    {
      dir: "event-report",
      config: {
        "frontdoor:searchUrl": mock.url,
        "frontdoor:searchUsername": mock.credentials.searchUsername,
      },
      secretConfig: { "frontdoor:searchPassword": mock.credentials.searchPassword },
    },
  ];

  itCoversEveryDynamicProviderExample(() => examples().map((e) => e.dir));

  for (const name of dynamicProviderExamples().sort()) {
    it(`examples/${name}: up, clean refresh, drift found and put back, no secret leaked, import refused, destroy`, async () => {
      const example = examples().find((e) => e.dir === name) as Example;
      const env = example.env;
      const stack: CliStack = await cliStack(path.join(ROOT, "examples", name), {
        stack: "ci",
        config: example.config,
        secretConfig: example.secretConfig,
      });
      const outputs: string[] = [];
      const keep = <T extends { output: string }>(result: T) => {
        outputs.push(result.output);
        return result;
      };
      try {
        keep(await stack.ok(["up", "--yes", "--skip-preview"], { env }));
        const clean = keep(await stack.run(["refresh", "--yes", "--expect-no-changes"], { env }));
        assert.equal(clean.code, 0, `false drift right after up:\n${clean.output}`);

        const state = await stack.exportState();
        const custom = state.deployment.resources.filter(
          (r: any) => r.custom && !String(r.type).startsWith("pulumi:providers"),
        );
        const ids = custom.map((r: any) => String(r.id));

        if (example.drift) {
          const id = await stack.idOf(example.drift.resource);
          await example.drift.make(id);
          const drift = keep(
            await stack.run(["preview", "--refresh", "--expect-no-changes", "--diff"], { env }),
          );
          assert.notEqual(drift.code, 0, `drift not reported:\n${drift.output}`);
          assert.match(
            drift.output,
            new RegExp(`\\b${example.drift.property}\\b`),
            `the property is not named:\n${drift.output}`,
          );
          // `up` alone plans against the state, which still holds the old value: --refresh reads first.
          keep(await stack.ok(["up", "--refresh", "--yes", "--skip-preview"], { env }));
          const restored = keep(await stack.run(["refresh", "--yes", "--expect-no-changes"], { env }));
          assert.equal(restored.code, 0, `not put back by up:\n${restored.output}`);
        }

        // No secret in plaintext: the state as the CLI exports it, and everything it printed.
        // Secrets: those given, those the mock handed out, and any plaintext value at a path the
        // independent table (test/support/oracles/secrets.ts) calls secret; in every encoded form.
        const exportedState = await stack.exportState();
        const exported = JSON.stringify(exportedState);
        const secrets: KnownSecret[] = [
          ...Object.entries({ ...example.secretConfig, ...env })
            .filter((e): e is [string, string] => typeof e[1] === "string")
            .map(([key, value]) => ({ label: key, value })),
          ...serverSecrets(mock),
          ...(exportedState.deployment.resources ?? []).flatMap((r: any) => tableSecrets(r)),
        ];
        const leaks = findLeaks(secrets, [
          ["exported state", exported],
          ...outputs.map((text, i): [string, string] => [`CLI output ${i}`, text]),
        ]);
        assert.deepEqual(leaks, [], `secrets in plaintext (${name})`);

        if (custom.length > 0) {
          // `pulumi import` on the command line reads by id only, without the serialized provider
          // that every dynamic resource needs: the CLI refuses, and nothing changes.
          const first = custom[0];
          const imported = await stack.run(
            ["import", "--yes", "--", String(first.type), "imported-copy", String(first.id)],
            { env },
          );
          assert.notEqual(
            imported.code,
            0,
            `pulumi import of a dynamic resource unexpectedly worked:\n${imported.output}`,
          );
          assert.match(imported.output, /__provider|dynamic|not supported|unknown|error/i, imported.output);
        }

        keep(await stack.ok(["destroy", "--yes", "--skip-preview"], { env }));
        await example.gone?.(ids);
        const left = await stack.exportState();
        assert.equal(
          (left.deployment.resources ?? []).filter(
            (r: any) => r.custom && !String(r.type).startsWith("pulumi:providers"),
          ).length,
          0,
        );
      } finally {
        await stack.run(["destroy", "--yes", "--skip-preview"], { env }).catch(() => undefined);
        await stack.dispose();
      }
    });
  }
});
