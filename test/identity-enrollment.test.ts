// Identity enrollment against the mock over HTTPS: `enrollIdentity` (Edge client API, CSR by
// node-forge, trust anchored in the JWT) and the re-issue of an enrollment without replacing the
// identity (opt-in when expired, on demand with reEnrollmentTrigger), through the provider's host
// entry points. test/real-enrollment.test.ts does the same against a real controller.
import * as assert from "node:assert/strict";
import { createSign, generateKeyPairSync, X509Certificate } from "node:crypto";
import { enrollIdentity } from "../provider/functions/enrollment";
import { certificateLogin, visibleServices } from "./support/clientAccess";
import { configureFor, createChecked, engine, mockConfig, updateChecked } from "./support/engine";
import { useMock } from "./support/fixtures";
import { reEnrollByTrigger } from "./support/reEnrollment";

const KIND = "Identity";
const ENROLL_PATH = "/edge/client/v1/enroll/ott";

/** A JWT with these claims signed by a key that is not the controller's. */
function forgedJwt(claims: Record<string, unknown>): string {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const input = `${enc({ alg: "RS256", typ: "JWT" })}.${enc(claims)}`;
  return `${input}.${createSign("RSA-SHA256").update(input).sign(privateKey).toString("base64url")}`;
}

function claimsOf(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));
}

describe("Identity enrollment (enrollIdentity and re-issue) against the mock", function () {
  this.timeout(60_000);
  const mock = useMock({ tls: true });
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.clearLog();
  });

  it("enrollIdentity turns the JWT into a working identity; the enrollment consumed is no drift", async () => {
    const declared = { name: "laptop-1", enrollment: { ott: true } };
    const { id, outs } = await createChecked(KIND, declared);
    const jwt = outs.enrollmentJwt as string;
    assert.equal(claimsOf(jwt).sub, id);

    const enrolled = await enrollIdentity({ jwt });
    assert.equal(enrolled.identityId, id);
    assert.equal(enrolled.ztApi, `${mock.url}/edge/client/v1`);
    const cert = new X509Certificate(enrolled.certificatePem);
    assert.ok(
      cert.checkPrivateKey(
        await import("node:crypto").then((c) => c.createPrivateKey(enrolled.privateKeyPem)),
      ),
    );
    assert.match(cert.subject, new RegExp(`CN=${id}`));
    // The CA bundle holds the CA that signed the certificate and the one of the TLS server.
    const cas =
      enrolled.caBundlePem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ??
      ([] as string[]);
    assert.ok(
      cas.some((pem) => cert.verify(new X509Certificate(pem).publicKey)),
      "a CA of the bundle signed it",
    );
    assert.ok(cas.includes(mock.caPem!.trim()), "the TLS root is in the bundle");
    const file = JSON.parse(enrolled.identityJson);
    assert.deepEqual(Object.keys(file.id).sort(), ["ca", "cert", "key"]);
    assert.equal(file.id.key, `pem:${enrolled.privateKeyPem}`);
    assert.equal(file.ztAPI, enrolled.ztApi);
    // The same CSR flow as the SDKs: the CA bundle first, then the enrollment with the token.
    assert.deepEqual(
      mock.log.map((e) => `${e.method} ${e.path} ${e.status}`).filter((l) => !l.includes("/management/")),
      ["GET /.well-known/est/cacerts 200", `POST ${ENROLL_PATH} 200`],
    );
    assert.ok(!JSON.stringify(mock.log).includes(claimsOf(jwt).jti), "the token never reaches the log");

    // The identity has its certificate and can log in with it.
    const read = await engine.read(KIND, id, outs);
    assert.equal((read.props!.authenticators as any).cert.fingerprint, enrolled.fingerprint);
    assert.equal(read.props!.enrollmentJwt, null);
    const stored = (await engine.check(KIND, {}, declared)).inputs;
    assert.equal((await engine.diff(KIND, id, read.props!, stored)).changes, false, "consumed is not drift");
    await certificateLogin(mock.url, enrolled);

    // Single use: a second enrollment with the same JWT is refused, clearly and without the token.
    const again = await enrollIdentity({ jwt }).catch((e: Error) => e);
    assert.ok(again instanceof Error);
    assert.match(again.message, /refused the enrollment \(HTTP 400 INVALID_ENROLLMENT_TOKEN/);
    assert.ok(!again.message.includes(claimsOf(jwt).jti));
    await engine.remove(KIND, id, read.props!);
  });

  it("refuses, before enrolling, a JWT the controller did not sign, an expired one and a non-ott one", async () => {
    const { id, outs } = await createChecked(KIND, { name: "laptop-2", enrollment: { ott: true } });
    const real = claimsOf(outs.enrollmentJwt as string);
    mock.clearLog();
    const forged = await enrollIdentity({ jwt: forgedJwt(real) }).catch((e: Error) => e);
    assert.match(
      String(forged),
      /not signed by the certificate the controller at https:\/\/127\.0\.0\.1:\d+ presents/,
    );
    const expired = await enrollIdentity({ jwt: forgedJwt({ ...real, exp: 1_000_000 }) }).catch(
      (e: Error) => e,
    );
    assert.match(String(expired), /jwt expired at 1970-01-12T13:46:40\.000Z: re-issue the enrollment/);
    const updb = await enrollIdentity({ jwt: forgedJwt({ ...real, em: "updb" }) }).catch((e: Error) => e);
    assert.match(String(updb), /is a "updb" enrollment: enrollIdentity handles ott/);
    const garbage = await enrollIdentity({ jwt: "not-a-jwt" }).catch((e: Error) => e);
    assert.match(String(garbage), /enrollIdentity: jwt is not a JWT/);
    const extra = await enrollIdentity({ jwt: "a.b.c", nope: 1 } as any).catch((e: Error) => e);
    assert.match(String(extra), /enrollIdentity: \(arguments\): .*nope/);
    assert.ok(!mock.log.some((e) => e.path === ENROLL_PATH), "nothing was sent to /enroll");
    // The pending enrollment is untouched.
    assert.equal((await engine.read(KIND, id, outs)).props!.enrollmentJwt, outs.enrollmentJwt);
    await engine.remove(KIND, id, outs);
  });

  it("an expired enrollment is no drift; reissueExpiredEnrollment re-issues it at the next up, in place", async () => {
    const plain = { name: "kiosk-plain", enrollment: { ott: true } };
    const opted = {
      name: "kiosk-opted",
      enrollment: { ott: true },
      reissueExpiredEnrollment: true,
      enrollmentMinutes: 60,
    };
    const made = [await createChecked(KIND, plain), await createChecked(KIND, opted)];
    const lastUp = await Promise.all(
      [plain, opted].map(async (d) => (await engine.check(KIND, {}, d)).inputs as Record<string, unknown>),
    );
    // Not expired yet: no update is due.
    const early = await engine.diff(KIND, made[1].id, made[1].outs, lastUp[1]);
    assert.equal(early.changes, false, JSON.stringify(early));
    // The last up ran two minutes ago; since then both enrollments lapsed (as after 180 minutes).
    lastUp[1].reissueCheckedAt = new Date(Date.now() - 120_000).toISOString();
    for (const { outs } of made)
      mock.edge.patch("enrollments", outs.enrollmentId as string, {
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
    const refreshed = await Promise.all(made.map(({ id, outs }) => engine.read(KIND, id, outs)));
    for (const [i, r] of refreshed.entries()) {
      assert.ok((r.props!.enrollmentDaysUntilExpiry as number) < 0);
      // A refresh diffs against the inputs of the last up (checked before the expiry): no drift.
      assert.equal((await engine.diff(KIND, made[i].id, r.props!, lastUp[i])).changes, false);
    }
    // The next up: only the opted-in identity is updated (not replaced).
    assert.equal((await updateChecked(KIND, made[0].id, refreshed[0].props!, plain)).diff.changes, false);
    mock.clearLog();
    const up = await updateChecked(KIND, made[1].id, refreshed[1].props!, opted);
    assert.deepEqual(up.diff.replaces, []);
    assert.equal(up.diff.changes, true);
    const outs = up.result!.outs;
    assert.notEqual(outs.enrollmentJwt, made[1].outs.enrollmentJwt);
    assert.notEqual(outs.enrollmentId, made[1].outs.enrollmentId);
    const minutes = (Date.parse(outs.enrollmentExpiresAt as string) - Date.now()) / 60_000;
    assert.ok(minutes > 59 && minutes <= 60, `expires in ${minutes} min`);
    assert.deepEqual(
      mock.log
        .filter((e) => e.method !== "GET")
        .map((e) => `${e.method} ${e.path.replace(/\/(identities|enrollments)\/[^/]+$/, "/$1/{id}")}`),
      [
        "PUT /edge/management/v1/identities/{id}",
        "DELETE /edge/management/v1/enrollments/{id}",
        "POST /edge/management/v1/enrollments",
      ],
    );
    // The re-issued JWT enrolls the same identity.
    const enrolled = await enrollIdentity({ jwt: outs.enrollmentJwt as string });
    assert.equal(enrolled.identityId, made[1].id);
    // Enrolled: nothing more is due, however the old expiry looked.
    const after = (await engine.read(KIND, made[1].id, outs)).props!;
    assert.equal((await updateChecked(KIND, made[1].id, after, opted)).diff.changes, false);
    await engine.remove(KIND, made[0].id, refreshed[0].props!);
    await engine.remove(KIND, made[1].id, after);
  });

  it("reEnrollmentTrigger resets an enrolled identity to a new enrollment: the old certificate stops working", async () => {
    const { id, updated, first, second } = await reEnrollByTrigger(mock.url, "phone-1");
    assert.notEqual(second.fingerprint, first.fingerprint);
    assert.deepEqual(await visibleServices(mock.url, second), []);
    await engine.remove(KIND, id, updated);
  });

  it("check: re-issue settings need an enrollment method", async () => {
    const checked = await engine.check(KIND, {}, { name: "x", reEnrollmentTrigger: "1" });
    assert.deepEqual(
      checked.failures.map((f) => f.property),
      ["reEnrollmentTrigger"],
    );
    assert.match(checked.failures[0].reason, /needs `enrollment`/);
  });
});
