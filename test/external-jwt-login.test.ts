// Keyless login (authenticate method=ext-jwt) through the provider's Edge client, against the real
// controller and the mock alike (the same tests): a JWT issuer on loopback (test/support/jwtIssuer.ts:
// HTTPS with a test CA the controller trusts through SSL_CERT_FILE, since it fetches the JWKS itself
// with Go's default client); the controller-side objects (ExternalJwtSigner, AuthPolicy with extJwt,
// Identity with externalId) created through the provider; a valid token logs in from a setting, a
// file and GitHub's OIDC token request; expired, wrong-audience, wrong-issuer and unknown-key tokens
// are refused with messages that say which; a token file rotated during a run is read again at the
// next login; no token appears in any message.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { type MockServer, startMockServer } from "../mock/server";
import { EdgeClient } from "../provider/http/edge";
import { cliStack } from "./peers/cli";
import { type RealController, startController } from "./peers/controller";
import { REPO_ROOT as ROOT, requirePeers } from "./peers/index";
import { EdgeClient as RawEdgeClient } from "./support/edgeClient";
import { configureFor, createChecked, engine, mockConfig } from "./support/engine";
import { useTempDir } from "./support/fixtures";
import { type JwtIssuer, startJwtIssuer } from "./support/jwtIssuer";
import { declareKeylessAccess } from "./support/keylessAccess";
import { secret, servePlugin, struct, URN } from "./support/plugin";

const AUDIENCE = "ziti-pipelines";
const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const OTHER_SUBJECT = "repo:acme/infra:environment:prod";

interface Target {
  url: string;
  caPem: string;
  adminConfig: Record<string, string>;
  stop(): Promise<void>;
}

const targets: {
  name: string;
  /** Whether the real CLI and the plugin run here too (once: on the real controller). */
  hosts?: boolean;
  start(issuer: JwtIssuer, dir: string, ctx: Mocha.Context): Promise<Target>;
}[] = [
  {
    name: "the mock",
    async start(issuer) {
      const mock: MockServer = await startMockServer({ tls: true, edge: { trustedCaPems: [issuer.caPem] } });
      return { url: mock.url, caPem: mock.caPem!, adminConfig: mockConfig(mock), stop: () => mock.close() };
    },
  },
  {
    name: "the real controller",
    hosts: true,
    async start(issuer, dir, ctx) {
      requirePeers(ctx, "ziti");
      // The controller fetches the signer's JWKS with Go's default HTTP client: its roots are SSL_CERT_FILE's.
      const roots = path.join(dir, "jwks-roots.pem");
      fs.writeFileSync(roots, issuer.caPem);
      const ctrl: RealController = await startController({ env: { SSL_CERT_FILE: roots } });
      return {
        url: ctrl.url,
        caPem: ctrl.caPem,
        adminConfig: {
          "frontdoor:edgeUrl": ctrl.url,
          "frontdoor:edgeUsername": ctrl.username,
          "frontdoor:edgePassword": ctrl.password,
          "frontdoor:caBundle": ctrl.caPem,
        },
        stop: () => ctrl.stop(),
      };
    },
  },
];

for (const { name, start, hosts } of targets) {
  describe(`keyless login (ext-jwt) on ${name}`, function () {
    this.timeout(180_000);
    const dir = useTempDir("ext-jwt-");
    let issuer: JwtIssuer;
    let target: Target;
    const clients: EdgeClient[] = [];
    const messages: string[] = [];

    before(async function () {
      issuer = await startJwtIssuer();
      target = await start(issuer, dir.path, this);
      // The controller side, declared through the provider as an admin would (password login).
      await configureFor(target.adminConfig);
      await declareKeylessAccess(issuer, {
        prefix: "",
        audience: AUDIENCE,
        identities: { "pipeline-main": SUBJECT, "pipeline-prod": OTHER_SUBJECT },
      });
      // A real controller takes a new signer into account a moment after answering its create (it
      // loads the signer and fetches its JWKS on its own): under load, a login at once can still be
      // refused. Wait until a valid token is accepted before the tests assert what it answers.
      for (const deadline = Date.now() + 30_000; ; ) {
        if ((await rawLogin(token())).status === 200 || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });

    after(async () => {
      if (process.env.FRONTDOOR_SHOW_REFUSALS) console.log(messages.join("\n"));
      await Promise.all(clients.map((c) => c.close()));
      await issuer?.close();
      await target?.stop();
    });

    /** A provider Edge client logging in with these settings (and the controller's and issuer's CAs). */
    const clientWith = (settings: Record<string, string>) => {
      const client = new EdgeClient({
        edgeUrl: target.url,
        caBundle: `${target.caPem}\n${issuer.caPem}`,
        maxRetries: "1",
        ...settings,
      });
      clients.push(client);
      return client;
    };

    const token = (
      claims: Record<string, unknown> = {},
      options: { unknownKey?: boolean; forged?: boolean } = {},
    ) => {
      const now = Math.floor(Date.now() / 1000);
      return issuer.sign(
        { iss: issuer.url, aud: AUDIENCE, sub: SUBJECT, iat: now, exp: now + 600, ...claims },
        options,
      );
    };

    /** The name of the identity the client's API session belongs to. */
    const whoAmI = async (client: EdgeClient) => {
      const res = await client.request<{ data: { identity: { name: string } } }>({
        method: "GET",
        path: "/current-api-session",
      });
      return res.body.data.identity.name;
    };

    /** The controller's own answer to an ext-jwt login with `jwt` (swagger-checked). */
    const rawLogin = async (jwt: string) => {
      const raw = new RawEdgeClient(target.url, target.caPem);
      const reply = await raw.call("POST", "/authenticate?method=ext-jwt", {
        token: null,
        body: {},
        headers: { authorization: `Bearer ${jwt}` },
      });
      assert.deepEqual(raw.violations, []);
      return reply;
    };

    /**
     * The message of a refused login, checked to hold no token; the controller itself refuses the
     * token too (401 INVALID_AUTH), so the provider's explanation never covers a token it would take.
     */
    const refusal = async (jwt: string) => {
      const raw = await rawLogin(jwt);
      assert.equal(raw.status, 401);
      assert.equal(raw.body.error.code, "INVALID_AUTH");
      const client = clientWith({ edgeJwt: jwt });
      const error = await client.list("/identities", undefined, "identities").then(
        () => assert.fail("the login was accepted"),
        (err: Error) => err,
      );
      messages.push(error.message);
      assert.ok(!error.message.includes(jwt), "the token appears in the message");
      assert.match(error.message, /external JWT from frontdoor:edgeJwt was refused/);
      return error.message;
    };

    it("a valid token from frontdoor:edgeJwt logs in as the identity whose externalId is its subject", async () => {
      const jwt = token();
      const raw = await rawLogin(jwt);
      assert.equal(raw.status, 200);
      assert.equal(raw.body.data.identity.name, "pipeline-main");
      const client = clientWith({ edgeJwt: jwt });
      assert.equal(await whoAmI(client), "pipeline-main");
      const names = (await client.list<{ name: string }>("/identities", undefined, "identities")).map(
        (i) => i.name,
      );
      assert.ok(names.includes("pipeline-prod"));
    });

    it("an expired token is refused, saying it expired", async () => {
      const past = Math.floor(Date.now() / 1000) - 120;
      assert.match(await refusal(token({ iat: past - 600, exp: past })), /it expired at/);
    });

    it("a token for another audience is refused, saying the audience is wrong and which one is accepted", async () => {
      const message = await refusal(token({ aud: "someone-else" }));
      assert.match(message, /wrong audience: the token is for "someone-else"/);
      assert.match(message, new RegExp(`accept "${AUDIENCE}"`));
    });

    it("a token of another issuer is refused, saying the issuer is wrong", async () => {
      const message = await refusal(token({ iss: `${issuer.url}/other-realm` }));
      assert.match(message, /wrong issuer: the token's issuer is ".*\/other-realm"/);
      assert.match(message, new RegExp(`expect "${issuer.url}"`));
    });

    it("a token signed with a key the issuer does not publish is refused, saying the key is unknown", async () => {
      const message = await refusal(token({}, { unknownKey: true }));
      assert.match(message, new RegExp(`unknown key: the token is signed with key "${issuer.kid}-old"`));
    });

    it("a token under the published key's id whose signature does not verify is refused, saying so", async () => {
      const message = await refusal(token({}, { forged: true }));
      assert.match(message, new RegExp(`bad signature: the token does not verify with key "${issuer.kid}"`));
    });

    it("a right token for no known identity is refused, saying what it cannot tell", async () => {
      const message = await refusal(token({ sub: "repo:acme/unknown" }));
      assert.match(message, /refused it for a reason it does not publish: no identity/);
    });

    it("a refused token whose issuer publishes nothing to check against: the message says it cannot tell", async () => {
      // A second signer, with no externalAuthUrl, for an issuer without a discovery document; the
      // pipeline identity's auth policy does not allow it, so the controller refuses its tokens.
      const elsewhere = `${issuer.url}/no-discovery`;
      await configureFor(target.adminConfig);
      const signer = await createChecked("ExternalJwtSigner", {
        name: "no-discovery",
        issuer: elsewhere,
        audience: "no-discovery-audience",
        jwksEndpoint: issuer.jwksUrl,
        // The token names the pipeline identity: only its auth policy (allowedSigners) refuses it.
        useExternalId: true,
      });
      try {
        const message = await refusal(token({ iss: elsewhere, aud: "no-discovery-audience" }));
        assert.match(message, /the cause cannot be told: the audience matches signer "no-discovery"/);
      } finally {
        await engine.remove("ExternalJwtSigner", signer.id, signer.outs);
      }
    });

    it("a token file rotated during a run is read again when the session must be renewed", async () => {
      const file = path.join(dir.path, "token.jwt");
      fs.writeFileSync(file, token());
      const client = clientWith({ edgeJwtFile: file });
      assert.equal(await whoAmI(client), "pipeline-main");
      // The CI rotates the file (here: a token of another subject, so the test sees which was used),
      // and the session ends (logged out, as an expiry or a controller restart would end it).
      fs.writeFileSync(file, token({ sub: OTHER_SUBJECT }));
      await client.request({ method: "DELETE", path: "/current-api-session" });
      assert.equal(await whoAmI(client), "pipeline-prod");
      assert.equal(client.auth.logins, 2);
    });

    it("shortly before the token expires, a newer token from the file logs in again (a fixed token's session goes on)", async () => {
      const file = path.join(dir.path, "expiring.jwt");
      const now = Math.floor(Date.now() / 1000);
      const expiring = () => token({ exp: now + 600 });
      // 10 s before the first token's expiry (the clock of the client moved there).
      const nearExpiry = () => Date.now() + 590_000;

      // The file rotated meanwhile (a token of the other subject, so the test sees which was used).
      fs.writeFileSync(file, expiring());
      const rotated = clientWith({ edgeJwtFile: file });
      assert.equal(await whoAmI(rotated), "pipeline-main");
      fs.writeFileSync(file, token({ sub: OTHER_SUBJECT, exp: now + 3600 }));
      rotated.auth.now = nearExpiry;
      assert.equal(await whoAmI(rotated), "pipeline-prod");
      assert.equal(rotated.auth.logins, 2);

      // Not rotated yet: no newer token, the session goes on.
      fs.writeFileSync(file, expiring());
      const stale = clientWith({ edgeJwtFile: file });
      assert.equal(await whoAmI(stale), "pipeline-main");
      stale.auth.now = nearExpiry;
      assert.equal(await whoAmI(stale), "pipeline-main");
      assert.equal(stale.auth.logins, 1);

      const fixed = clientWith({ edgeJwt: expiring() });
      assert.equal(await whoAmI(fixed), "pipeline-main");
      fixed.auth.now = nearExpiry;
      assert.equal(await whoAmI(fixed), "pipeline-main");
      assert.equal(fixed.auth.logins, 1, "a fixed token cannot be renewed: its session goes on");
    });

    it("GitHub Actions' OIDC token request: a fresh token with the configured audience at each login", async () => {
      const saved = {
        url: process.env.ACTIONS_ID_TOKEN_REQUEST_URL,
        bearer: process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN,
      };
      process.env.ACTIONS_ID_TOKEN_REQUEST_URL = issuer.tokenRequestUrl;
      process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = issuer.requestToken;
      issuer.requestClaims = { sub: SUBJECT };
      try {
        const before = issuer.issued.length;
        const client = clientWith({ edgeJwtAudience: AUDIENCE });
        assert.equal(await whoAmI(client), "pipeline-main");
        await client.request({ method: "DELETE", path: "/current-api-session" });
        assert.equal(await whoAmI(client), "pipeline-main");
        assert.equal(issuer.issued.length - before, 2, "one token request per login");
        assert.notEqual(issuer.issued.at(-1), issuer.issued.at(-2));

        // The wrong audience asked for: refused, and the message says so without the token or the request token.
        const wrong = clientWith({ edgeJwtAudience: "not-ours" });
        const error = await wrong.list("/identities", undefined, "identities").then(
          () => assert.fail("accepted"),
          (err: Error) => err,
        );
        assert.match(error.message, /ACTIONS_ID_TOKEN_REQUEST_URL, audience "not-ours".*wrong audience/);
        for (const secret of [...issuer.issued, issuer.requestToken])
          assert.ok(!error.message.includes(secret));
      } finally {
        restoreEnv("ACTIONS_ID_TOKEN_REQUEST_URL", saved.url);
        restoreEnv("ACTIONS_ID_TOKEN_REQUEST_TOKEN", saved.bearer);
      }
    });

    it("without the token request variables, the message says which permission the job needs", async () => {
      const saved = process.env.ACTIONS_ID_TOKEN_REQUEST_URL;
      delete process.env.ACTIONS_ID_TOKEN_REQUEST_URL;
      try {
        const client = clientWith({ edgeJwtAudience: AUDIENCE });
        await assert.rejects(() => whoAmI(client), /permissions: id-token: write/);
      } finally {
        restoreEnv("ACTIONS_ID_TOKEN_REQUEST_URL", saved);
      }
    });

    if (hosts) {
      it("the real CLI (dynamic host): up and destroy log in with the CI's OIDC token; a wrong audience fails saying so; no token in state or output", async function () {
        requirePeers(this, "pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs");
        issuer.requestClaims = { sub: SUBJECT };
        const stack = await cliStack(path.join(ROOT, "test", "programs", "ext-jwt-login"), {
          config: {
            "frontdoor:edgeUrl": target.url,
            "frontdoor:caBundle": `${target.caPem}\n${issuer.caPem}`,
            "frontdoor:edgeJwtAudience": AUDIENCE,
            "ext-jwt-login:identityName": "made-by-cli-pipeline",
          },
          // As GitHub Actions gives them to a job with `permissions: id-token: write`.
          env: {
            ACTIONS_ID_TOKEN_REQUEST_URL: issuer.tokenRequestUrl,
            ACTIONS_ID_TOKEN_REQUEST_TOKEN: issuer.requestToken,
          },
        });
        const outputs: string[] = [];
        try {
          const before = issuer.issued.length;
          outputs.push((await stack.ok(["up", "--yes", "--skip-preview"])).output);
          assert.ok(issuer.issued.length > before, "the provider asked for the CI's token");
          const id = await stack.idOf("device");
          const admin = new EdgeClient(settingsOf(target.adminConfig));
          clients.push(admin);
          assert.equal(
            (await admin.get<{ name: string }>(`/identities/${id}`, "identity"))?.name,
            "made-by-cli-pipeline",
          );
          // The state as exported, and every file of the stack's backend (the state file itself, its backups).
          const backend = path.join(path.dirname(stack.home), "backend");
          const state = [
            JSON.stringify(await stack.exportState()),
            ...fs
              .readdirSync(backend, { recursive: true, encoding: "utf8" })
              .map((file) => path.join(backend, file))
              .filter((file) => fs.statSync(file).isFile())
              .map((file) => fs.readFileSync(file, "utf8")),
          ].join("\n");
          assert.match(state, /made-by-cli-pipeline/, "the state files were not found");

          outputs.push((await stack.ok(["destroy", "--yes", "--skip-preview"])).output);
          assert.equal(await admin.get(`/identities/${id}`, "identity"), undefined);

          // The next run asks for a token of another audience: refused, and the CLI shows why.
          // (A refresh or destroy would log in with the settings recorded in the state.)
          await stack.ok(["config", "set", "frontdoor:edgeJwtAudience", "not-ours"]);
          const refused = await stack.run(["up", "--yes", "--skip-preview"]);
          outputs.push(refused.output);
          assert.notEqual(refused.code, 0);
          assert.match(refused.output, /wrong audience: the token is for "not-ours"/);

          for (const secret of [...issuer.issued, issuer.requestToken]) {
            assert.ok(!state.includes(secret), "a token is in the state");
            for (const output of outputs)
              assert.ok(!output.includes(secret), "a token is in the CLI's output");
          }
        } finally {
          await stack.dispose();
        }
      });

      it("the plugin (gRPC, in process): configured with frontdoor:edgeJwt, it creates and deletes", async () => {
        const plugin = await servePlugin();
        try {
          const jwt = token();
          const configure = new provproto.ConfigureRequest();
          configure.setArgs(
            struct({
              edgeUrl: target.url,
              caBundle: `${target.caPem}\n${issuer.caPem}`,
              edgeJwt: secret(jwt),
              version: "0.1.0",
            }),
          );
          configure.setAcceptsecrets(true);
          await plugin.call("configure", configure);
          const check = new provproto.CheckRequest();
          check.setUrn(URN("Identity", "plugin-device"));
          check.setOlds(struct({}));
          check.setNews(struct({ name: "made-by-plugin-pipeline", type: "Device" }));
          const create = new provproto.CreateRequest();
          create.setUrn(URN("Identity", "plugin-device"));
          create.setProperties((await plugin.call<provproto.CheckResponse>("check", check)).getInputs());
          const made = await plugin.call<provproto.CreateResponse>("create", create);
          assert.ok(!JSON.stringify(made.getProperties()?.toJavaScript()).includes(jwt));
          const remove = new provproto.DeleteRequest();
          remove.setId(made.getId());
          remove.setUrn(URN("Identity", "plugin-device"));
          remove.setProperties(made.getProperties());
          await plugin.call("delete", remove);
        } finally {
          await plugin.stop();
        }
      });
    }

    it("the engine's own configuration logs in with the JWT too (check, create, delete)", async () => {
      await configureFor({
        "frontdoor:edgeUrl": target.url,
        "frontdoor:caBundle": `${target.caPem}\n${issuer.caPem}`,
        "frontdoor:edgeJwt": token(),
      });
      try {
        const { id, outs } = await createChecked("Identity", { name: "made-by-pipeline", type: "Device" });
        await engine.remove("Identity", id, outs);
      } finally {
        await configureFor(target.adminConfig);
      }
    });
  });
}

/** Provider settings (`edgeUrl`, ...) of stack configuration (`frontdoor:edgeUrl`, ...). */
function settingsOf(config: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [key.replace(/^frontdoor:/, ""), value]),
  );
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
