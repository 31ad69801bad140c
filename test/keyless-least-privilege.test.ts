// Least privilege for the GitOps pipeline's keyless login (examples/gitops/controller-setup's shape),
// on the real OpenZiti controller: the signer maps GitHub's `sub`, so the main branch's jobs
// (`repo:R:ref:refs/heads/main`) and the same repository's pull requests (`repo:R:pull_request`) log in
// as two identities; the main one is an admin on an auth policy whose secondary factor is the same
// signer, the pull requests' one is not an admin. What the controller itself does is asserted with a
// raw client (a session of that policy has an outstanding EXT-JWT auth query unless the request carries
// the token as bearer); the provider's Edge client, which sends it with each request, leaves none and
// works as the main identity, and the preview identity cannot do what the
// main one can; other branches, repositories and events get no identity.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { EdgeClient } from "../provider/http/edge";
import { type RealController, startController } from "./peers/controller";
import { requirePeers } from "./peers/index";
import { EdgeClient as RawEdgeClient } from "./support/edgeClient";
import { configureFor } from "./support/engine";
import { useTempDir } from "./support/fixtures";
import { type JwtIssuer, startJwtIssuer } from "./support/jwtIssuer";
import { declareKeylessAccess } from "./support/keylessAccess";

const AUDIENCE = "ziti-pipelines";
const REPOSITORY = "acme/infra";
/** GitHub's `sub` of a push to main / the schedule, and of a pull request of the same repository. */
const MAIN_SUB = `repo:${REPOSITORY}:ref:refs/heads/main`;
const PR_SUB = `repo:${REPOSITORY}:pull_request`;

describe("keyless login, least privilege (sub-mapped main and preview identities) on the real controller", function () {
  this.timeout(180_000);
  const dir = useTempDir("keyless-lp-");
  let issuer: JwtIssuer;
  let ctrl: RealController;
  const clients: EdgeClient[] = [];

  const token = (sub: string) => {
    const now = Math.floor(Date.now() / 1000);
    return issuer.sign({ iss: issuer.url, aud: AUDIENCE, sub, iat: now, exp: now + 600 });
  };
  const raw = () => new RawEdgeClient(ctrl.url, ctrl.caPem);
  const login = (jwt: string) =>
    raw().call("POST", "/authenticate?method=ext-jwt", {
      token: null,
      body: {},
      headers: { authorization: `Bearer ${jwt}` },
    });
  const clientWith = (jwt: string) => {
    const client = new EdgeClient({
      edgeUrl: ctrl.url,
      caBundle: `${ctrl.caPem}\n${issuer.caPem}`,
      maxRetries: "1",
      edgeJwt: jwt,
    });
    clients.push(client);
    return client;
  };
  /** The session's identity, and the auth queries the controller still has for it. */
  const session = async (client: EdgeClient) =>
    (
      await client.request<{ data: { identity: { name: string }; authQueries: unknown[] } }>({
        method: "GET",
        path: "/current-api-session",
      })
    ).body.data;
  const whoAmI = async (client: EdgeClient) => (await session(client)).identity.name;

  before(async function () {
    requirePeers(this, "ziti");
    issuer = await startJwtIssuer();
    const roots = path.join(dir.path, "jwks-roots.pem");
    fs.writeFileSync(roots, issuer.caPem);
    ctrl = await startController({ env: { SSL_CERT_FILE: roots } });
    await configureFor({
      "frontdoor:edgeUrl": ctrl.url,
      "frontdoor:edgeUsername": ctrl.username,
      "frontdoor:edgePassword": ctrl.password,
      "frontdoor:caBundle": ctrl.caPem,
    });
    await declareKeylessAccess(issuer, {
      prefix: "lp-",
      audience: AUDIENCE,
      identities: { "pipeline-main": MAIN_SUB, "pipeline-preview": PR_SUB },
      secondFactor: true,
      nonAdmins: ["pipeline-preview"],
    });
    // The controller loads a new signer (and fetches its JWKS) a moment after answering its create.
    for (const deadline = Date.now() + 30_000; ; ) {
      if ((await login(token(MAIN_SUB))).status === 200 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await issuer?.close();
    await ctrl?.stop();
  });

  it("the controller counts the token as the policy's second factor only when it comes with the request", async () => {
    // v1.6.0 lists an outstanding EXT-JWT auth query on a session of the policy whose request has no
    // bearer (it still serves the request: it does not enforce the query on management calls).
    const jwt = token(MAIN_SUB);
    const session = await login(jwt);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.deepEqual(session.body.data.authQueries, []);
    const client = raw();
    const queries = async (headers: Record<string, string>) =>
      (await client.call("GET", "/current-api-session", { token: session.body.data.token, headers })).body
        .data.authQueries;
    assert.deepEqual(
      (await queries({})).map((q: { typeId: string }) => q.typeId),
      ["EXT-JWT"],
    );
    assert.deepEqual(await queries({ authorization: `Bearer ${jwt}` }), []);
    // And it serves a management read on the session token alone, the factor outstanding: the second
    // factor does not stop a leaked zt-session (docs/guides/gitops-pipeline.md says so; this pins it).
    const read = await client.call("GET", "/identities?limit=1", { token: session.body.data.token });
    assert.equal(read.status, 200, JSON.stringify(read.body));
  });

  it("the provider logs in as the main identity and may create and delete (an admin)", async () => {
    const client = clientWith(token(MAIN_SUB));
    const current = await session(client);
    assert.equal(current.identity.name, "pipeline-main");
    // The provider sends the session's token with each request: no factor is left outstanding.
    assert.deepEqual(current.authQueries, []);
    const names = (await client.list<{ name: string }>("/identities", undefined, "identities")).map(
      (i) => i.name,
    );
    assert.ok(names.includes("pipeline-preview"), names.join());
    const made = await client.request<{ data: { id: string } }>({
      method: "POST",
      path: "/identities",
      body: { name: "lp-made-by-main", type: "User", isAdmin: false },
    });
    await client.request({ method: "DELETE", path: `/identities/${made.body.data.id}` });
  });

  it("a pull request's token logs in as the preview identity, which cannot do what the main one can", async () => {
    const client = clientWith(token(PR_SUB));
    assert.equal(await whoAmI(client), "pipeline-preview");
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => assert.fail("the preview identity was allowed"),
        (err: Error) => err.message,
      );
    assert.match(await refused(client.list("/identities", undefined, "identities")), /401|403|UNAUTHORIZED/);
    assert.match(
      await refused(
        client.request({
          method: "POST",
          path: "/identities",
          body: { name: "lp-made-by-preview", type: "User", isAdmin: true },
        }),
      ),
      /401|403|UNAUTHORIZED/,
    );
  });

  it("another branch, another repository or another event gets no identity", async () => {
    for (const sub of [
      `repo:${REPOSITORY}:ref:refs/heads/feature`,
      `repo:${REPOSITORY}:environment:production`,
      "repo:mallory/infra:pull_request",
      "repo:mallory/infra:ref:refs/heads/main",
    ]) {
      const reply = await login(token(sub));
      assert.equal(reply.status, 401, `${sub}: ${JSON.stringify(reply.body)}`);
    }
  });
});
