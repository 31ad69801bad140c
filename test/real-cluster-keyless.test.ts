// Keyless login (authenticate method=ext-jwt) on the run's real 3-node HA cluster (test/peers/cluster.ts,
// shared): the provider's Edge client configured with edgeUrls = every node and an external JWT from a
// token file logs in on the node it uses, creates objects, then that node is SIGKILLed and the client
// moves on and logs in on another node with the same JWT; a token for another audience is refused on
// the cluster with the reason. The nodes fetch the JWKS from the issuer on loopback: its certificate is
// of the cluster's outbound CA, which every node trusts from its start (SSL_CERT_FILE). No token in any
// message or in the provider's debug output.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { EdgeClient } from "../provider/http/edge";
import { debugging, restoreDebug } from "../provider/log";
import type { Props } from "../provider/resource";
import { configureFor, engine } from "./support/engine";
import { useCluster, useTempDir } from "./support/fixtures";
import { type JwtIssuer, startJwtIssuer } from "./support/jwtIssuer";
import { declareKeylessAccess } from "./support/keylessAccess";

const AUDIENCE = "ziti-cluster-pipelines";
const SUBJECT = "repo:acme/infra:ref:refs/heads/main";

describe("keyless login (ext-jwt) on the real HA cluster (3 nodes)", function () {
  this.timeout(300_000);
  const cluster = useCluster();
  const dir = useTempDir("cluster-ext-jwt-");
  let issuer: JwtIssuer;
  let adminConfig: Record<string, string>;
  /** Node names in the order the provider is given them: a follower first (its kill leaves writes alone). */
  let order: string[];
  const made: { kind: string; id: string; outs: Props }[] = [];
  const clients: EdgeClient[] = [];
  let killed: string | undefined;

  before(async () => {
    issuer = await startJwtIssuer({ ca: cluster.outboundCa });
    const leader = await cluster.waitForLeader();
    order = [...cluster.nodes.map((n) => n.name).filter((n) => n !== leader), leader];
    adminConfig = {
      "frontdoor:edgeUrls": order.map((n) => cluster.node(n).url).join(","),
      "frontdoor:edgeUsername": cluster.username,
      "frontdoor:edgePassword": cluster.password,
      "frontdoor:caBundle": cluster.caPem,
    };
    // The controller side, declared through the provider by an admin (password login).
    await configureFor(adminConfig);
    made.push(
      ...(await declareKeylessAccess(issuer, {
        prefix: "cluster-",
        audience: AUDIENCE,
        identities: { "cluster-pipeline": SUBJECT },
      })),
    );
  });

  after(async function () {
    this.timeout(180_000);
    await Promise.all(clients.map((c) => c.close()));
    // Other suites share the cluster: all three nodes up again, and nothing of ours left.
    if (killed) await cluster.restart(killed);
    if (made.length) {
      await configureFor(adminConfig);
      for (const { kind, id, outs } of made.reverse()) await engine.remove(kind, id, outs);
    }
    await issuer?.close();
  });

  const token = (claims: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return issuer.sign({ iss: issuer.url, aud: AUDIENCE, sub: SUBJECT, iat: now, exp: now + 600, ...claims });
  };

  /** A provider Edge client on every node (edgeUrls), logging in with `settings`. */
  const clientWith = (settings: Record<string, string>) => {
    const client = new EdgeClient({
      edgeUrls: order.map((n) => cluster.node(n).url).join(","),
      caBundle: `${cluster.caPem}\n${issuer.caPem}`,
      ...settings,
    });
    clients.push(client);
    return client;
  };

  const nodeNameOf = (url: string) => cluster.nodes.find((n) => n.url === url)?.name;

  const whoAmI = async (client: EdgeClient) =>
    (
      await client.request<{ data: { identity: { name: string } } }>({
        method: "GET",
        path: "/current-api-session",
      })
    ).body.data.identity.name;

  /** Runs `work` with the provider's debug output on, returning what it wrote to stderr. */
  const debugOutput = async (work: () => Promise<void>): Promise<string> => {
    const wasOn = debugging();
    const write = process.stderr.write;
    let captured = "";
    process.stderr.write = ((chunk: string | Uint8Array) => {
      captured += chunk.toString();
      return true;
    }) as typeof process.stderr.write;
    restoreDebug(true);
    try {
      await work();
    } finally {
      process.stderr.write = write;
      restoreDebug(wasOn);
    }
    return captured;
  };

  it("logs in on its node with the JWT, creates objects; its node SIGKILLed, it logs in on another node with the same JWT", async () => {
    const file = path.join(dir.path, "token.jwt");
    const jwt = token();
    fs.writeFileSync(file, jwt);
    const client = clientWith({ edgeJwtFile: file });
    const cl = client.cluster;
    assert.ok(cl, "edgeUrls with three nodes is a cluster client");
    const first = cl.node;
    let second = first;
    const log = await debugOutput(async () => {
      // The identity's auth policy allows only ext-jwt: a session as it is an ext-jwt login.
      assert.equal(await whoAmI(client), "cluster-pipeline");
      assert.equal(nodeNameOf(first.url), order[0]);
      for (const n of [1, 2, 3]) {
        const reply = await client.request<{ data: { id: string } }>({
          method: "POST",
          path: "/services",
          body: { name: `cluster-keyless-svc-${n}`, encryptionRequired: true },
        });
        assert.equal(reply.status, 201);
        made.push({ kind: "Service", id: reply.body.data.id, outs: { name: `cluster-keyless-svc-${n}` } });
      }
      assert.equal(first.auth.logins, 1);

      killed = order[0];
      await cluster.kill(killed);
      // The next request finds the node gone, moves on, and logs in there with the token file.
      const names = (await client.list<{ name: string }>("/services", undefined, "services")).map(
        (s) => s.name,
      );
      for (const n of [1, 2, 3]) assert.ok(names.includes(`cluster-keyless-svc-${n}`), `svc-${n} listed`);
      second = cl.node;
      assert.notEqual(second.url, first.url, "the client moved to another node");
      assert.equal(await whoAmI(client), "cluster-pipeline");
      const reply = await client.request<{ data: { id: string } }>({
        method: "POST",
        path: "/services",
        body: { name: "cluster-keyless-svc-after", encryptionRequired: true },
      });
      assert.equal(reply.status, 201);
      made.push({ kind: "Service", id: reply.body.data.id, outs: { name: "cluster-keyless-svc-after" } });
    });
    assert.equal(second.auth.logins, 1, "one login on the second node");
    // The nodes' side: the second node lists an API session of the pipeline identity (its own, local).
    const sessions = await cluster
      .node(nodeNameOf(second.url) as string)
      .admin.call("GET", "/api-sessions?limit=500");
    assert.equal(sessions.status, 200);
    const pipeline = made.find((m) => m.kind === "Identity")?.id;
    assert.ok(
      sessions.body.data.some((s: { identityId: string }) => s.identityId === pipeline),
      "the second node holds the pipeline's session",
    );
    // The provider's debug log: two ext-jwt logins, the move between them, no token.
    assert.equal(log.match(/Edge API session obtained \(method=ext-jwt/g)?.length, 2, log);
    assert.match(
      log,
      new RegExp(`moving from ${first.url.replace(/\./g, "\\.")} to ${second.url.replace(/\./g, "\\.")}`),
    );
    assert.ok(!log.includes(jwt), "the token is in the debug output");
  });

  it("a token for another audience is refused on the cluster, saying the audience is wrong", async () => {
    const jwt = token({ aud: "someone-else" });
    const client = clientWith({ edgeJwt: jwt, maxRetries: "1" });
    const error = await client.list("/identities", undefined, "identities").then(
      () => assert.fail("the login was accepted"),
      (err: Error) => err,
    );
    assert.ok(!error.message.includes(jwt), "the token is in the message");
    assert.match(error.message, /wrong audience: the token is for "someone-else"/);
    assert.match(error.message, new RegExp(`accept "${AUDIENCE}"`));
  });
});
