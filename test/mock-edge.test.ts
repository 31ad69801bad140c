// The OpenZiti Edge management API mock, over real HTTPS on loopback, and its swagger conformance.
import assert from "node:assert/strict";
import { createVerify, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { type IssuedCertificate, issueCertificate, newKeyPair } from "../mock/edge/pki";
import { base32Encode, totp } from "../mock/edge/totp";
import { type MockServer, startMockServer } from "../mock/server";
import { SwaggerConformance, validateRequest, validateResponse } from "./conformance/swagger";
import { advanceClock, resetClock } from "./support/clock";
import { fullPrimary } from "./support/edge-objects";
import { EdgeClient } from "./support/edgeClient";

const ADMIN = { username: "admin", password: "edge-test-password" };

/** SHA-1 fingerprint as node:crypto computes it, turned into the controller's lowercase hex. */
function nodeFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint.replace(/:/g, "").toLowerCase();
}

function decodeJwt(jwt: string) {
  const [header, payload] = jwt
    .split(".")
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()));
  return { header, payload };
}

describe("edge management API mock", function () {
  this.timeout(20000);
  let server: MockServer;
  let client: EdgeClient;
  /** Every client made by `newClient`; their response violations are checked at the end. */
  const clients: EdgeClient[] = [];
  const newClient = (s: MockServer = server) => {
    const c = new EdgeClient(s.url, s.caPem);
    clients.push(c);
    return c;
  };
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${++seq}`;

  before(async () => {
    server = await startMockServer({
      tls: true,
      edge: { ...toOptions(), validateRequests: true, validateResponses: true },
    });
    client = newClient();
    assert.equal((await client.login(ADMIN.username, ADMIN.password)).status, 200);
  });
  after(() => server.close());

  function toOptions() {
    return { adminUsername: ADMIN.username, adminPassword: ADMIN.password };
  }

  async function createIdentity(body: Record<string, unknown> = {}): Promise<string> {
    const reply = await client.call("POST", "/identities", {
      body: { name: unique("id"), type: "User", isAdmin: false, ...body },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  }

  describe("authentication", () => {
    it("logs in with a password and answers the session in data and the zt-session header", async () => {
      const c = newClient();
      const reply = await c.login(ADMIN.username, ADMIN.password);
      assert.equal(reply.status, 200);
      const session = reply.body.data;
      assert.equal(reply.headers["zt-session"], session.token);
      assert.equal(session.identity.name, "Default Admin");
      assert.equal(session.identityId, server.edge.defaultAdminId);
      assert.equal(session.isMfaRequired, false);
      assert.deepEqual(session.authQueries, []);
      assert.ok(session.expirationSeconds > 1700 && session.expirationSeconds <= 1800);
      assert.ok(Date.parse(session.expiresAt) > Date.now());
      assert.deepEqual(Object.keys(reply.body.meta).sort(), ["apiEnrollmentVersion", "apiVersion"]);
    });

    it("answers 401 INVALID_AUTH to a wrong password or user, without echoing the password", async () => {
      const c = newClient();
      for (const body of [
        { username: ADMIN.username, password: "wrong-password" },
        { username: "nobody", password: ADMIN.password },
      ]) {
        const reply = await c.call("POST", "/authenticate?method=password", { body, token: null });
        assert.equal(reply.status, 401);
        assert.equal(reply.body.error.code, "INVALID_AUTH");
        assert.ok(reply.body.error.requestId);
        assert.ok(!JSON.stringify(reply.body).includes(body.password));
      }
      const noMethod = await c.call("POST", "/authenticate", { body: ADMIN, token: null });
      assert.equal(noMethod.status, 400);
    });

    it("requires a valid zt-session on every other call, and logout ends the session", async () => {
      const c = newClient();
      for (const token of [null, "not-a-session"]) {
        const reply = await c.call("GET", "/identities", { token });
        assert.equal(reply.status, 401);
        assert.equal(reply.body.error.code, "UNAUTHORIZED");
      }
      await c.login(ADMIN.username, ADMIN.password);
      assert.equal((await c.call("GET", "/current-api-session")).body.data.token, c.token);
      const logout = await c.call("DELETE", "/current-api-session");
      assert.equal(logout.status, 200);
      assert.deepEqual(logout.body, { data: {}, meta: {} });
      assert.equal((await c.call("GET", "/identities")).status, 401);
    });

    it("expires idle sessions after the TTL and slides the expiry on each call", async () => {
      // A minute's sessions on the fake clock (test/support/clock.ts): no sub-second lifetimes.
      const short = await startMockServer({ edge: { ...toOptions(), sessionTtlSeconds: 60 } });
      try {
        const c = newClient(short);
        await c.login(ADMIN.username, ADMIN.password);
        for (let i = 0; i < 4; i++) {
          advanceClock(40_000); // 160 s in all: only sliding keeps the session alive
          assert.equal((await c.call("GET", "/identities")).status, 200);
        }
        advanceClock(61_000);
        const expired = await c.call("GET", "/identities");
        assert.equal(expired.status, 401);
        assert.equal(expired.body.error.code, "UNAUTHORIZED");
      } finally {
        resetClock();
        await short.close();
      }
    });
  });

  describe("MFA (TOTP)", () => {
    it("computes RFC 6238 codes (SHA1 test vectors)", () => {
      const secret = base32Encode(Buffer.from("12345678901234567890"));
      assert.equal(totp(secret, 59_000, 8), "94287082");
      assert.equal(totp(secret, 1111111109_000, 8), "07081804");
      assert.equal(totp(secret, 1234567890_000, 8), "89005924");
    });

    it("holds a session at 401 until POST /authenticate/mfa with a valid code", async () => {
      const secret = base32Encode(Buffer.from("mfa-secret-0123456789"));
      server.edge.addAdmin({ username: "mfa-admin", password: "mfa-password", totpSecretBase32: secret });
      const c = newClient();
      const login = await c.login("mfa-admin", "mfa-password");
      assert.equal(login.status, 200);
      assert.equal(login.body.data.isMfaRequired, true);
      assert.equal(login.body.data.isMfaComplete, false);
      assert.equal(login.body.data.authQueries.length, 1);
      assert.deepEqual(
        (({ typeId, provider, format }) => ({ typeId, provider, format }))(login.body.data.authQueries[0]),
        { typeId: "MFA", provider: "ziti", format: "numeric" },
      );
      assert.equal((await c.call("GET", "/identities")).status, 401);
      const wrongCode = String((Number(totp(secret)) + 500000) % 1000000).padStart(6, "0");
      const bad = await c.call("POST", "/authenticate/mfa", { body: { code: wrongCode } });
      assert.equal(bad.status, 401);
      assert.equal(bad.body.error.code, "MFA_INVALID_TOKEN");
      assert.equal((await c.call("GET", "/identities")).status, 401);
      const good = await c.call("POST", "/authenticate/mfa", { body: { code: totp(secret) } });
      assert.equal(good.status, 200);
      assert.equal((await c.call("GET", "/identities")).status, 200);
      const session = (await c.call("GET", "/current-api-session")).body.data;
      assert.equal(session.isMfaComplete, true);
      assert.deepEqual(session.authQueries, []);
    });
  });

  describe("certificate login (mTLS)", () => {
    it("authenticates with the admin's cert authenticator and refuses no or unknown certificates", async () => {
      const issued = server.edge.issueAdminCertificate();
      assert.equal(issued.fingerprint, nodeFingerprint(issued.certPem));
      const c = newClient();
      const ok = await c.call("POST", "/authenticate?method=cert", {
        cert: issued.certPem,
        key: issued.keyPem,
        token: null,
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.data.identityId, server.edge.defaultAdminId);
      const withSession = await c.call("GET", "/identities", { token: ok.body.data.token });
      assert.equal(withSession.status, 200);

      assert.equal((await c.call("POST", "/authenticate?method=cert", { token: null })).status, 401);
      const stranger = issueCertificate({ commonName: "stranger", keys: newKeyPair() });
      const unknown = await c.call("POST", "/authenticate?method=cert", {
        cert: stranger.certPem,
        key: stranger.keyPem,
        token: null,
      });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error.code, "INVALID_AUTH");
    });
  });

  describe("identities", () => {
    it("creates, reads (type stored as Default), patches, puts and deletes", async () => {
      const id = await createIdentity({ type: "Device" });
      const got = await client.call("GET", `/identities/${id}`);
      assert.equal(got.status, 200);
      const identity = got.body.data;
      assert.equal(identity.typeId, "Default");
      assert.equal(identity.type.name, "Default");
      assert.equal(identity.type.id, "Default");
      assert.equal(identity.roleAttributes, null);
      assert.deepEqual(identity.tags, {});
      assert.deepEqual(identity.appData, {});
      assert.equal(identity.authPolicyId, "default");
      assert.equal(identity.authPolicy.id, "default");
      assert.equal(identity.defaultHostingCost, 0);
      assert.equal(identity.defaultHostingPrecedence, "default");
      assert.equal(identity.isAdmin, false);

      const patch = await client.call("PATCH", `/identities/${id}`, {
        body: { roleAttributes: ["web", "db"], tags: { team: "a" }, defaultHostingCost: 65535 },
      });
      assert.deepEqual(patch.body, { data: {}, meta: {} });
      const patched = (await client.call("GET", `/identities/${id}`)).body.data;
      assert.deepEqual(patched.roleAttributes, ["web", "db"]);
      assert.deepEqual(patched.tags, { team: "a" });
      assert.equal(patched.defaultHostingCost, 65535);
      assert.equal(patched.name, identity.name);

      const put = await client.call("PUT", `/identities/${id}`, {
        body: { name: `${identity.name}-renamed`, type: "Service", isAdmin: false },
      });
      assert.equal(put.status, 200);
      const replaced = (await client.call("GET", `/identities/${id}`)).body.data;
      assert.equal(replaced.name, `${identity.name}-renamed`);
      assert.equal(replaced.typeId, "Default");
      assert.equal(replaced.roleAttributes, null, "PUT resets fields it was not given");
      assert.equal(replaced.defaultHostingCost, 0);

      assert.equal((await client.call("DELETE", `/identities/${id}`)).status, 200);
      const gone = await client.call("GET", `/identities/${id}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.error.code, "NOT_FOUND");
    });

    it("accepts every permission the controller's swagger lists", async () => {
      const swagger = JSON.parse(
        fs.readFileSync(path.join(__dirname, "contracts/openziti-edge-management.json"), "utf8"),
      );
      const permissions: string[] = swagger.definitions.permissions.items.enum;
      assert.ok(
        permissions.includes("service-edge-router-policy.delete") && permissions.includes("ops.read"),
      );
      const id = await createIdentity({ permissions });
      assert.deepEqual((await client.call("GET", `/identities/${id}`)).body.data.permissions, permissions);
    });

    it("rejects invalid fields with 400 COULD_NOT_VALIDATE naming the field", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "bad-cost", type: "User", isAdmin: false, defaultHostingCost: 65536 }, "defaultHostingCost"],
        [{ name: "bad-cost2", type: "User", isAdmin: false, defaultHostingCost: -1 }, "defaultHostingCost"],
        [{ name: "bad-perm", type: "User", isAdmin: false, permissions: ["identity.fly"] }, "permissions.0"],
        [{ name: "bad-type", type: "Robot", isAdmin: false }, "type"],
        [{ type: "User", isAdmin: false }, "name"],
        [{ name: "no-admin-flag", type: "User" }, "isAdmin"],
        [
          { name: "bad-prec", type: "User", isAdmin: false, defaultHostingPrecedence: "x" },
          "defaultHostingPrecedence",
        ],
        [{ name: "bad-policy", type: "User", isAdmin: false, authPolicyId: "nope" }, "authPolicyId"],
      ];
      for (const [body, field] of cases) {
        const reply = await client.call("POST", "/identities", { body });
        assert.equal(reply.status, 400, field);
        assert.equal(reply.body.error.code, "COULD_NOT_VALIDATE");
        assert.equal(reply.body.error.cause.field, field);
        assert.ok(reply.body.error.cause.reason);
      }
      const id = await createIdentity();
      const name = (await client.call("GET", `/identities/${id}`)).body.data.name;
      const duplicate = await client.call("POST", "/identities", {
        body: { name, type: "User", isAdmin: false },
      });
      assert.equal(duplicate.status, 400);
      assert.equal(duplicate.body.error.cause.field, "name");
    });

    it("lists with limit/offset pagination, filters and sorting", async () => {
      const prefix = unique("page");
      for (let i = 0; i < 12; i++) {
        await createIdentity({ name: `${prefix}-${String(i).padStart(2, "0")}` });
      }
      const filter = (f: string) => encodeURIComponent(f);
      const all = await client.call("GET", `/identities?filter=${filter(`name contains "${prefix}-"`)}`);
      assert.equal(all.body.data.length, 10, "default limit 10");
      assert.deepEqual(all.body.meta.pagination, { limit: 10, offset: 0, totalCount: 12 });
      assert.ok(all.body.meta.filterableFields.includes("name"));

      const page = await client.call(
        "GET",
        `/identities?limit=5&offset=10&filter=${filter(`name contains "${prefix}-" sort by name desc`)}`,
      );
      assert.deepEqual(
        page.body.data.map((i: { name: string }) => i.name),
        [`${prefix}-01`, `${prefix}-00`],
      );
      assert.deepEqual(page.body.meta.pagination, { limit: 5, offset: 10, totalCount: 12 });

      const one = await client.call("GET", `/identities?filter=${filter(`name="${prefix}-03"`)}`);
      assert.equal(one.body.data.length, 1);
      const byId = await client.call("GET", `/identities?filter=${filter(`id="${one.body.data[0].id}"`)}`);
      assert.equal(byId.body.data[0].name, `${prefix}-03`);
      const either = await client.call(
        "GET",
        `/identities?filter=${filter(`name="${prefix}-03" or name="${prefix}-04" and true`)}`,
      );
      assert.equal(either.body.meta.pagination.totalCount, 2);
      const both = await client.call(
        "GET",
        `/identities?filter=${filter(`name="${prefix}-03" and id="${one.body.data[0].id}"`)}`,
      );
      assert.equal(both.body.meta.pagination.totalCount, 1);

      const clamped = await client.call("GET", "/identities?limit=1000");
      assert.equal(clamped.body.meta.pagination.limit, 500);
      const badFilter = await client.call("GET", `/identities?filter=${filter("name ~ 3")}`);
      assert.equal(badFilter.status, 400);
      assert.equal(badFilter.body.error.cause.field, "filter");
    });

    it("creates ott and updb enrollments with RS256 JWTs that expire in 180 minutes", async () => {
      const before = Date.now();
      const id = await createIdentity({ enrollment: { ott: true } });
      const identity = (await client.call("GET", `/identities/${id}`)).body.data;
      const ott = identity.enrollment.ott;
      assert.ok(ott.id && ott.token && ott.jwt);
      const expiresAt = Date.parse(ott.expiresAt);
      assert.ok(Math.abs(expiresAt - (before + 180 * 60_000)) < 10_000);
      const parts = ott.jwt.split(".");
      assert.equal(parts.length, 3);
      const { header, payload } = decodeJwt(ott.jwt);
      assert.equal(header.alg, "RS256");
      assert.equal(payload.sub, id);
      assert.equal(payload.jti, ott.token);
      assert.equal(payload.em, "ott");
      assert.equal(payload.exp, Math.floor(expiresAt / 1000));
      const signatureOk = createVerify("RSA-SHA256")
        .update(`${parts[0]}.${parts[1]}`)
        .verify(server.edge.enrollmentJwtPublicKeyPem, Buffer.from(parts[2], "base64url"));
      assert.ok(signatureOk);

      const updbId = await createIdentity({ enrollment: { updb: unique("user") } });
      const updb = (await client.call("GET", `/identities/${updbId}`)).body.data.enrollment.updb;
      assert.equal(decodeJwt(updb.jwt).payload.em, "updb");
      const list = await client.call("GET", `/identities/${updbId}/enrollments`);
      assert.equal(list.status, 200);
      assert.equal(list.body.data[0].method, "updb");
      assert.equal(list.body.data[0].token, updb.token);

      const missingCa = await client.call("POST", "/identities", {
        body: { name: unique("ottca"), type: "User", isAdmin: false, enrollment: { ottca: "no-such-ca" } },
      });
      assert.equal(missingCa.status, 400);
      assert.equal(missingCa.body.error.cause.field, "enrollment.ottca");
    });
  });

  describe("auth policies", () => {
    const fullPolicy = (name: string) => ({
      name,
      primary: fullPrimary({
        cert: { allowExpiredCerts: false },
        extJwt: { allowed: false },
        updb: {
          minPasswordLength: 12,
          requireSpecialChar: true,
          requireNumberChar: true,
          requireMixedCase: true,
          maxAttempts: 5,
          lockoutDurationMinutes: 15,
        },
      }),
      secondary: { requireTotp: true, requireExtJwtSigner: null },
    });

    it("has the default policy and validates creation", async () => {
      const def = await client.call("GET", "/auth-policies/default");
      assert.equal(def.status, 200);
      assert.equal(def.body.data.id, "default");
      const { secondary: _omit, ...noSecondary } = fullPolicy("p-no-secondary");
      const missing = await client.call("POST", "/auth-policies", { body: noSecondary });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.code, "COULD_NOT_VALIDATE");
      assert.equal(missing.body.error.cause.field, "secondary");
      const policy = fullPolicy("p-partial");
      const partial = await client.call("POST", "/auth-policies", {
        body: {
          ...policy,
          primary: {
            ...policy.primary,
            updb: { ...policy.primary.updb, minPasswordLength: undefined },
          },
        },
      });
      assert.equal(partial.status, 400);
      assert.equal(partial.body.error.cause.field, "primary.updb.minPasswordLength");
      const cannot = await client.call("DELETE", "/auth-policies/default");
      assert.equal(cannot.status, 400);
      assert.equal((await client.call("GET", "/auth-policies/default")).status, 200);
    });

    it("PATCH of nested primary fields resets those to their defaults (the controller's bug); PUT replaces correctly", async () => {
      const body = fullPolicy(unique("policy"));
      const id = (await client.call("POST", "/auth-policies", { body })).body.data.id;
      const read = async () => (await client.call("GET", `/auth-policies/${id}`)).body.data;
      assert.deepEqual((await read()).primary, body.primary);

      const patch = await client.call("PATCH", `/auth-policies/${id}`, {
        body: { primary: { updb: { minPasswordLength: 20 } } },
      });
      assert.equal(patch.status, 200);
      const broken = await read();
      assert.equal(
        broken.primary.updb.minPasswordLength,
        5,
        "the field sent is reset to its default, not set",
      );
      assert.deepEqual(
        {
          ...broken.primary,
          updb: { ...broken.primary.updb, minPasswordLength: body.primary.updb.minPasswordLength },
        },
        body.primary,
        "the fields not sent stay",
      );
      assert.equal(broken.secondary.requireTotp, body.secondary.requireTotp, "secondary is untouched");

      const fixed = {
        ...body,
        primary: { ...body.primary, updb: { ...body.primary.updb, minPasswordLength: 20 } },
      };
      assert.equal((await client.call("PUT", `/auth-policies/${id}`, { body: fixed })).status, 200);
      const after = await read();
      assert.deepEqual(after.primary, fixed.primary);
      assert.equal(after.name, body.name);
    });

    it("refuses to delete a policy in use with 409 naming the identities", async () => {
      const id = (await client.call("POST", "/auth-policies", { body: fullPolicy(unique("used")) })).body.data
        .id;
      const identityName = unique("policy-user");
      const identityId = await createIdentity({ name: identityName, authPolicyId: id });
      const refused = await client.call("DELETE", `/auth-policies/${id}`);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, "CAN_NOT_DELETE_REFERENCED_ENTITY");
      assert.ok(refused.body.error.message.includes(identityName));
      assert.ok(refused.body.error.message.includes(identityId));
      await client.call("PATCH", `/identities/${identityId}`, { body: { authPolicyId: "default" } });
      assert.equal((await client.call("DELETE", `/auth-policies/${id}`)).status, 200);
      assert.equal((await client.call("GET", `/auth-policies/${id}`)).status, 404);
    });
  });

  describe("edge router policies", () => {
    it("sorts roles, defaults semantic and roles, displays @id roles by name", async () => {
      const identityId = await createIdentity({ name: "zeta-identity" });
      const name = unique("erp");
      const create = await client.call("POST", "/edge-router-policies", {
        body: { name, identityRoles: ["#zeta", `@${identityId}`, "#alpha"] },
      });
      assert.equal(create.status, 201);
      assert.deepEqual(Object.keys(create.body.data).sort(), ["_links", "id"]);
      const id = create.body.data.id;
      const policy = (await client.call("GET", `/edge-router-policies/${id}`)).body.data;
      assert.deepEqual(policy.identityRoles, ["#alpha", "#zeta", `@${identityId}`]);
      assert.deepEqual(policy.identityRolesDisplay, [
        { role: "#alpha", name: "#alpha" },
        { role: "#zeta", name: "#zeta" },
        { role: `@${identityId}`, name: "@zeta-identity" },
      ]);
      assert.equal(policy.semantic, "AllOf");
      assert.equal(policy.edgeRouterRoles, null, "unset roles read null, as on the real controller");
      assert.deepEqual(policy.edgeRouterRolesDisplay, []);
      assert.equal(policy.isSystem, false);

      await client.call("PATCH", `/edge-router-policies/${id}`, {
        body: { edgeRouterRoles: ["#b", "#a"], semantic: "AnyOf" },
      });
      const patched = (await client.call("GET", `/edge-router-policies/${id}`)).body.data;
      assert.deepEqual(patched.edgeRouterRoles, ["#a", "#b"]);
      assert.equal(patched.semantic, "AnyOf");
      assert.deepEqual(patched.identityRoles, policy.identityRoles);

      await client.call("PUT", `/edge-router-policies/${id}`, { body: { name, semantic: "AllOf" } });
      const put = (await client.call("GET", `/edge-router-policies/${id}`)).body.data;
      assert.equal(put.identityRoles, null);
      assert.equal(put.edgeRouterRoles, null);

      const listed = await client.call(
        "GET",
        `/edge-router-policies?filter=${encodeURIComponent(`name="${name}"`)}`,
      );
      assert.equal(listed.body.data.length, 1);
      assert.equal((await client.call("DELETE", `/edge-router-policies/${id}`)).status, 200);
      assert.equal((await client.call("GET", `/edge-router-policies/${id}`)).status, 404);
    });

    it("rejects invalid roles and semantics with 400 COULD_NOT_VALIDATE", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ identityRoles: ["plain"] }, "identityRoles"],
        [{ edgeRouterRoles: ["#all", "#x"] }, "edgeRouterRoles"],
        [{ identityRoles: ["#"] }, "identityRoles"],
        [{ identityRoles: "#a" }, "identityRoles"],
        [{ semantic: "OneOf" }, "semantic"],
      ];
      for (const [body, field] of cases) {
        const reply = await client.call("POST", "/edge-router-policies", {
          body: { name: unique("bad"), ...body },
        });
        assert.equal(reply.status, 400, JSON.stringify(body));
        assert.equal(reply.body.error.code, "COULD_NOT_VALIDATE");
        assert.equal(reply.body.error.cause.field, field);
      }
      const all = await client.call("POST", "/edge-router-policies", {
        body: { name: unique("all"), edgeRouterRoles: ["#all"], identityRoles: ["#all"], semantic: "AnyOf" },
      });
      assert.equal(all.status, 201);
    });
  });

  describe("certificate authorities", () => {
    let ca: IssuedCertificate;
    let otherCa: IssuedCertificate;
    before(() => {
      ca = issueCertificate({ commonName: "Test CA", isCa: true });
      otherCa = issueCertificate({ commonName: "Other CA", isCa: true });
    });
    const caBody = (name: string, certPem: string) => ({
      name,
      certPem,
      identityRoles: ["b", "a"],
      isAuthEnabled: true,
      isAutoCaEnrollmentEnabled: false,
      isOttCaEnrollmentEnabled: true,
    });
    const signedBy = (issuer: IssuedCertificate, cn: string) =>
      issueCertificate({ commonName: cn, issuer, keys: issuer.keys }).certPem;

    it("creates CAs unverified, refuses non-CA certificates and certPem changes", async () => {
      const leaf = issueCertificate({ commonName: "leaf", keys: ca.keys });
      const notCa = await client.call("POST", "/cas", { body: caBody(unique("ca"), leaf.certPem) });
      assert.equal(notCa.status, 400);
      assert.equal(notCa.body.error.cause.field, "certPem");
      const { isAuthEnabled: _omit, ...incomplete } = caBody(unique("ca"), ca.certPem);
      const missing = await client.call("POST", "/cas", { body: incomplete });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.cause.field, "isAuthEnabled");

      const create = await client.call("POST", "/cas", { body: caBody(unique("ca"), otherCa.certPem) });
      assert.equal(create.status, 201);
      const id = create.body.data.id;
      const got = (await client.call("GET", `/cas/${id}`)).body.data;
      assert.equal(got.isVerified, false);
      assert.match(got.verificationToken, /^[\w-]{9}$/, "a short id, as on the real controller");
      assert.equal(got.fingerprint, nodeFingerprint(otherCa.certPem));
      assert.equal(got.certPem, otherCa.certPem);

      const changed = await client.call("PATCH", `/cas/${id}`, { body: { certPem: ca.certPem } });
      assert.equal(changed.status, 400);
      assert.equal(changed.body.error.cause.field, "certPem");
      const renamed = await client.call("PATCH", `/cas/${id}`, {
        body: { name: `${got.name}-2`, certPem: got.certPem },
      });
      assert.equal(renamed.status, 200);
      assert.equal((await client.call("GET", `/cas/${id}`)).body.data.name, `${got.name}-2`);
      const listed = await client.call("GET", `/cas?filter=${encodeURIComponent(`name="${got.name}-2"`)}`);
      assert.equal(listed.body.data.length, 1);
      assert.equal((await client.call("DELETE", `/cas/${id}`)).status, 200);
      assert.equal((await client.call("GET", `/cas/${id}`)).status, 404);
    });

    it("verifies with a certificate signed by the CA whose CN is the verification token", async () => {
      const id = (await client.call("POST", "/cas", { body: caBody(unique("ca"), ca.certPem) })).body.data.id;
      const token = (await client.call("GET", `/cas/${id}`)).body.data.verificationToken;

      const wrongCn = await client.call("POST", `/cas/${id}/verify`, { text: signedBy(ca, "not-the-token") });
      assert.equal(wrongCn.status, 400);
      assert.equal(wrongCn.body.error.code, "INVALID_COMMON_NAME");
      const wrongSigner = await client.call("POST", `/cas/${id}/verify`, { text: signedBy(otherCa, token) });
      assert.equal(wrongSigner.status, 400);
      assert.equal(wrongSigner.body.error.code, "CERT_FAILED_VALIDATION");
      assert.equal((await client.call("GET", `/cas/${id}`)).body.data.isVerified, false);

      const good = await client.call("POST", `/cas/${id}/verify`, { text: signedBy(ca, token) });
      assert.equal(good.status, 200, JSON.stringify(good.body));
      assert.equal((await client.call("GET", `/cas/${id}`)).body.data.isVerified, true);
      const again = await client.call("POST", `/cas/${id}/verify`, { text: signedBy(ca, token) });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, "CA_ALREADY_VERIFIED");

      // A verified, auth-enabled CA: ottca enrollment works, and its certificates log in.
      const enrolled = await createIdentity({ enrollment: { ottca: id }, externalId: "device-7" });
      const ottca = (await client.call("GET", `/identities/${enrolled}`)).body.data.enrollment.ottca;
      assert.equal(ottca.caId, id);
      assert.equal(decodeJwt(ottca.jwt).payload.em, "ottca");
      const device = issueCertificate({ commonName: "device-7", issuer: ca, keys: ca.keys });
      const login = await newClient().call("POST", "/authenticate?method=cert", {
        cert: device.certPem,
        key: device.keyPem,
        token: null,
      });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.equal(login.body.data.identityId, enrolled);
    });
  });

  describe("behind-the-back edits and errors", () => {
    it("exposes get/list/patch/remove in process, visible through the API", async () => {
      const id = await createIdentity();
      server.edge.patch("identities", id, { roleAttributes: ["drifted"] });
      assert.deepEqual((await client.call("GET", `/identities/${id}`)).body.data.roleAttributes, ["drifted"]);
      assert.deepEqual(server.edge.get("identities", id)?.roleAttributes, ["drifted"]);
      assert.ok(server.edge.list("auth-policies").some((p) => p.id === "default"));
      assert.equal(server.edge.remove("identities", id), true);
      assert.equal((await client.call("GET", `/identities/${id}`)).status, 404);
    });

    it("answers 404 NOT_FOUND in the error envelope for unknown paths", async () => {
      const reply = await new EdgeClient(server.url, server.caPem).call("GET", "/no-such-thing");
      assert.equal(reply.status, 404);
      assert.equal(reply.body.error.code, "NOT_FOUND");
      assert.ok(reply.body.meta.apiVersion);
    });
  });

  describe("swagger conformance", () => {
    it("finds operations by concrete path and reports violations with operationId and JSON path", () => {
      const conformance = new SwaggerConformance();
      assert.equal(
        conformance.findOperation("GET", "/edge/management/v1/identities/abc")?.operationId,
        "detailIdentity",
      );
      assert.equal(
        conformance.findOperation("POST", "/edge/management/v1/cas/x/verify")?.operationId,
        "verifyCa",
      );
      const request = validateRequest("POST", "/edge/management/v1/edge-router-policies", {
        name: "x",
        identityRoles: "#a",
      });
      assert.ok(request.some((v) => v.startsWith("createEdgeRouterPolicy") && v.includes("$.identityRoles")));
      assert.ok(request.some((v) => v.includes("$.semantic: is required")));
      const response = validateResponse("GET", "/edge/management/v1/auth-policies/default", 200, {
        data: { id: "default", name: 3 },
        meta: {},
      });
      assert.ok(response.some((v) => v.startsWith("detailAuthPolicy") && v.includes("$.data.name")));
      assert.ok(response.some((v) => v.includes("$.data.primary: is required")));
    });

    it("records request violations with validateRequests (and still serves the request)", async () => {
      server.edge.conformanceViolations.length = 0;
      const reply = await client.call("POST", "/edge-router-policies", {
        body: { name: unique("no-semantic") },
      });
      assert.equal(reply.status, 201, "the mock defaults semantic to AllOf");
      assert.deepEqual(server.edge.conformanceViolations, [
        "createEdgeRouterPolicy (POST /edge-router-policies) request $.semantic: is required",
      ]);
      server.edge.conformanceViolations.length = 0;
    });

    it("every response received in these tests conforms to the swagger", () => {
      const received = clients.flatMap((c) => c.violations);
      assert.deepEqual(received, []);
      // The mock's own check (validateResponses) agrees.
      const sent = server.edge.conformanceViolations.filter((v) => v.includes(" response "));
      assert.deepEqual(sent, []);
    });
  });
});
