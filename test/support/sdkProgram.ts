// One scenario for the example programs written against the plugin's generated SDKs (examples/go-edge
// in Go, examples/ts-native in TypeScript: the same resources): the real Pulumi CLI, the provider
// plugin (bin/plugin) on PATH, the mock for the Frontdoor kind and the real OpenZiti controller
// (behind a recording proxy that checks every exchange against the swagger) for the Edge kinds.
// up; refresh --expect-no-changes (exit 0); changes behind Pulumi's back on both sides, then
// preview --refresh --expect-no-changes (non-zero, the properties named); up --refresh putting them
// back; destroy; every secret value used (config, the provider-made enrollment JWT) looked for in
// `pulumi stack export` and in everything the CLI printed.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../../mock/server";
import type { CliResult, CliStack } from "../peers/cli";
import { type RealController, startController } from "../peers/controller";
import { type PeerName, REPO_ROOT, requirePeers } from "../peers/index";
import { type Recorder, startRecorder } from "../peers/recorder";
import { mockConfig } from "./engine";
import { useNativeSdks } from "./fixtures";
import { pluginStack } from "./plugin";

export interface SdkProgram {
  /** Suite title. */
  title: string;
  /** The example program's folder. */
  programDir: string;
  /** The language host the program needs, besides the CLI and the controller. */
  languageHost: PeerName;
  /** Resource names the program prefixes with this (unique per suite on a shared controller). */
  namePrefix: string;
  /** Anything the work copy needs before the CLI runs it (the Go module's replace path). */
  prepare?: (stack: CliStack) => Promise<void> | void;
}

const SIG = "4dabf18193072939515e22adb298388d";
const EDGE = ["identities", "services", "service-policies"] as const;

export function describeSdkProgram(program: SdkProgram): void {
  describe(program.title, function () {
    this.timeout(1_200_000);
    // The program imports the generated SDK of its language (sdk/native, generated from schema.json).
    useNativeSdks(`${path.relative(REPO_ROOT, program.programDir)} is not run`);
    let mock: MockServer;
    let ctrl: RealController;
    let recorder: Recorder;
    let stack: CliStack | undefined;
    const outputs: string[] = [];
    const keep = (result: CliResult) => {
      outputs.push(result.output);
      return result;
    };
    const secrets = {
      ssoClientSecret: `sdk-sso-client-secret-${program.namePrefix}-4711`,
    };

    before(async function () {
      requirePeers(this, "pulumi", program.languageHost, "ziti");
      mock = await startMockServer();
      ctrl = await startController();
      recorder = await startRecorder(ctrl.url, ctrl.caPem);
    });
    after(async () => {
      if (stack) {
        await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
        await stack.dispose();
      }
      await recorder?.close();
      await ctrl?.stop();
      mock?.close();
    });

    const fd = () => mock.credentials.frontdoorId;
    const live = async (collection: string, id: string) => {
      const answer = await ctrl.admin.call("GET", `/${collection}/${id}`);
      return answer.status === 200 ? answer.body.data : undefined;
    };
    const run = async (args: string[]) => keep(await (stack as CliStack).run(args));
    const ok = async (args: string[]) => keep(await (stack as CliStack).ok(args));
    const exchanges = (method: string, collection: string) =>
      recorder.exchanges.filter(
        (e) => e.method === method && e.path.split("?")[0].startsWith(`/edge/management/v1/${collection}`),
      );

    it("up creates every object through the plugin: the mock's auth provider, the controller's identity, service and dial policy", async () => {
      const c = mockConfig(mock);
      stack = await pluginStack(program.programDir, {
        stack: "ci",
        config: {
          "frontdoor:apiUrl": c["frontdoor:apiUrl"],
          "frontdoor:frontdoorId": c["frontdoor:frontdoorId"],
          "frontdoor:edgeUrl": recorder.url,
          "frontdoor:edgeUsername": ctrl.username,
          namePrefix: program.namePrefix,
        },
        secretConfig: {
          "frontdoor:token": c["frontdoor:token"],
          "frontdoor:edgePassword": ctrl.password,
          ssoClientSecret: secrets.ssoClientSecret,
        },
      });
      await program.prepare?.(stack);
      const up = await ok(["up", "--yes", "--skip-preview"]);
      assert.match(
        up.output,
        /pulumi-resource-frontdoor/,
        "the CLI did not say it used the plugin from PATH",
      );

      const state = await stack.exportState();
      const resources: any[] = state.deployment.resources;
      const byName = (name: string) => resources.find((r) => String(r.urn).endsWith(`::${name}`));
      // Native tokens, not the dynamic provider's, and the plugin's version recorded with its provider.
      for (const [name, kind] of [
        ["corp-sso", "AuthProvider"],
        ["alice", "Identity"],
        ["app", "Service"],
        ["app-dial", "ServicePolicy"],
      ])
        assert.equal(byName(name)?.type, `frontdoor:index:${kind}`, `${name} in the state`);
      const provider = resources.find((r) => r.type === "pulumi:providers:frontdoor");
      assert.ok(provider, "no frontdoor provider in the state");
      const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
      assert.equal(provider.inputs.version, version, "the plugin version the SDK asks for (the release's)");

      // The Frontdoor kind went to the mock: one POST with the declared body (secret redacted in the log).
      const ssoId = String(byName("corp-sso").id).split("/").pop() as string;
      const posted = mock.log.filter((e) => e.method === "POST" && /\/auth-providers$/.test(e.path));
      assert.equal(posted.length, 1, JSON.stringify(mock.log.map((e) => `${e.method} ${e.path}`)));
      assert.equal(JSON.parse(posted[0].body as string).name, `${program.namePrefix}-sso`);
      const sso = mock.frontdoor.get(fd(), "auth-providers", ssoId);
      assert.equal(sso?.name, `${program.namePrefix}-sso`);
      assert.equal(
        (sso?.data as any)?.client_secret,
        secrets.ssoClientSecret,
        "the secret did not reach the API",
      );

      // The Edge kinds went to the controller, one POST each, every exchange within the swagger.
      for (const collection of EDGE) assert.equal(exchanges("POST", collection).length, 1, collection);
      assert.deepEqual(recorder.violations, []);
      const alice = await live("identities", byName("alice").id);
      assert.equal(alice.name, `${program.namePrefix}-alice`);
      assert.deepEqual(alice.roleAttributes, ["staff"]);
      const app = await live("services", byName("app").id);
      assert.equal(app.encryptionRequired, true);
      const dial = await live("service-policies", byName("app-dial").id);
      assert.equal(dial.type, "Dial");
      assert.deepEqual(dial.serviceRoles, [`@${byName("app").id}`]);
      assert.deepEqual(dial.identityRoles, ["#staff"]);

      // The function (the plugin's Invoke) found the service the program made.
      const out = JSON.parse((await ok(["stack", "output", "--json"])).stdout);
      assert.equal(out.appFoundId, out.appId);
      assert.equal(out.aliceEnrollmentJwt, "[secret]", "the enrollment JWT output is not secret");
    });

    it("refresh --expect-no-changes right after up exits 0", async () => {
      const clean = await run(["refresh", "--yes", "--expect-no-changes"]);
      assert.equal(clean.code, 0, `false drift right after up:\n${clean.output}`);
    });

    it("changes behind Pulumi's back are found by preview --refresh --expect-no-changes, by property, and put back by up", async () => {
      const s = stack as CliStack;
      const ssoId = (await s.idOf("corp-sso")).split("/").pop() as string;
      const aliceId = await s.idOf("alice");
      mock.frontdoor.patch(fd(), "auth-providers", ssoId, { name: "renamed-behind-its-back" });
      const patched = await ctrl.admin.call("PATCH", `/identities/${aliceId}`, {
        body: { roleAttributes: ["intruders"] },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));

      const drift = await run(["preview", "--refresh", "--expect-no-changes", "--diff"]);
      assert.notEqual(drift.code, 0, `drift not reported:\n${drift.output}`);
      assert.match(drift.output, /\bname\b/, `the auth provider's name is not named:\n${drift.output}`);
      assert.match(
        drift.output,
        /\broleAttributes\b/,
        `the identity's roleAttributes are not named:\n${drift.output}`,
      );
      assert.match(drift.output, /renamed-behind-its-back/);

      const updatesBefore = exchanges("PUT", "identities").length + exchanges("PATCH", "identities").length;
      await ok(["up", "--refresh", "--yes", "--skip-preview"]);
      assert.equal(mock.frontdoor.get(fd(), "auth-providers", ssoId)?.name, `${program.namePrefix}-sso`);
      assert.deepEqual((await live("identities", aliceId)).roleAttributes, ["staff"]);
      const updatesAfter = exchanges("PUT", "identities").length + exchanges("PATCH", "identities").length;
      assert.equal(updatesAfter - updatesBefore, 1, "the identity was not updated exactly once");
      assert.equal(exchanges("POST", "identities").length, 1, "the identity was replaced, not updated");

      const restored = await run(["refresh", "--yes", "--expect-no-changes"]);
      assert.equal(restored.code, 0, `not put back by up:\n${restored.output}`);
    });

    it("no secret in plaintext: config secrets and the enrollment JWT, in the exported state and the CLI's output", async () => {
      const s = stack as CliStack;
      // Asked for on purpose (not kept among the outputs scanned below).
      const jwt = JSON.parse(
        (await s.ok(["stack", "output", "aliceEnrollmentJwt", "--show-secrets", "--json"])).stdout,
      );
      assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/, "the enrollment JWT output is not a JWT");
      const c = mockConfig(mock);
      const values = [secrets.ssoClientSecret, c["frontdoor:token"], ctrl.password, jwt];
      const exported = await s.exportState();
      const text = JSON.stringify(exported);
      for (const value of values) {
        assert.ok(!text.includes(value), "a secret is in the exported state");
        for (const output of outputs) assert.ok(!output.includes(value), "a secret is in the CLI's output");
      }
      // Stored as secrets (ciphertext), not dropped: the client secret and the JWT are in the state.
      const alice = exported.deployment.resources.find((r: any) => String(r.urn).endsWith("::alice"));
      assert.equal(alice.outputs.enrollmentJwt?.[SIG], "1b47061264138c4ac30d75fd1eb44270");
      const sso = exported.deployment.resources.find((r: any) => String(r.urn).endsWith("::corp-sso"));
      assert.ok(JSON.stringify(sso.inputs).includes(SIG), "the client secret is not kept as a secret input");
    });

    it("destroy removes every object from the mock and the controller", async () => {
      const s = stack as CliStack;
      const ids = Object.fromEntries(
        await Promise.all(["corp-sso", "alice", "app", "app-dial"].map(async (n) => [n, await s.idOf(n)])),
      );
      await ok(["destroy", "--yes", "--skip-preview"]);
      assert.equal(mock.frontdoor.get(fd(), "auth-providers", ids["corp-sso"].split("/").pop()), undefined);
      for (const [collection, name] of [
        ["identities", "alice"],
        ["services", "app"],
        ["service-policies", "app-dial"],
      ])
        assert.equal(await live(collection, ids[name]), undefined, `${name} left on the controller`);
      for (const collection of EDGE) assert.equal(exchanges("DELETE", collection).length, 1, collection);
      assert.deepEqual(recorder.violations, []);
      const left = (await s.exportState()).deployment.resources ?? [];
      assert.deepEqual(
        left.filter((r: any) => r.custom && !String(r.type).startsWith("pulumi:providers")),
        [],
      );
    });
  });
}
