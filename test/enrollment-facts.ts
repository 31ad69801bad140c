// Raw observations of the enrollment endpoints, made the same way on a real controller and on the
// mock (test/real-enrollment.test.ts compares them): what the answers say, not how they are spelled
// byte for byte (ids, tokens and times differ by nature).
import { generateKeyPairAndCsr } from "../provider/resources/pem";
import { ClientApi } from "./peers/clientApi";
import type { EdgeClient } from "./support/edgeClient";

const jti = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8")).jti;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorOf(reply: { status: number; body: any }) {
  const e = reply.body?.error;
  return { status: reply.status, code: e?.code, field: e?.cause?.field, reason: e?.cause?.reason };
}

export async function enrollmentFacts(
  target: { url: string; caPem: string; admin: EdgeClient },
  prefix: string,
): Promise<Record<string, unknown>> {
  const admin = target.admin;
  const client = new ClientApi(target);
  const facts: Record<string, unknown> = {};
  try {
    const identity = async (name: string, enrollment?: object) => {
      const made = await admin.call("POST", "/identities", {
        body: {
          name: `${prefix}-${name}`,
          type: "User",
          isAdmin: false,
          ...(enrollment ? { enrollment } : {}),
        },
      });
      return String(made.body.data.id);
    };
    const pendingOtt = async (id: string) =>
      (await admin.call("GET", `/identities/${id}`)).body.data.enrollment.ott;

    // A refresh: its answer, and whether the new JWT (or the old one) still enrolls.
    const a = await identity("refresh", { ott: true });
    const before = await pendingOtt(a);
    const refresh = await admin.call("POST", `/enrollments/${before.id}/refresh`, {
      body: { expiresAt: inMinutes(60) },
    });
    const after = await pendingOtt(a);
    facts.refresh = {
      status: refresh.status,
      data: refresh.body?.data,
      expiryMoved: after.expiresAt !== before.expiresAt,
      tokenChanged: after.token !== before.token,
      jwtCarriesStoredToken: jti(after.jwt) === after.token,
      newJwtEnrolls: (await client.call("POST", "/enroll/ott", { token: jti(after.jwt), clientCsr: "x" }))
        .body?.error?.code,
      oldJwtEnrolls: (await client.call("POST", "/enroll/ott", { token: jti(before.jwt), clientCsr: "x" }))
        .body?.error?.code,
    };
    facts.refreshPast = errorOf(
      await admin.call("POST", `/enrollments/${before.id}/refresh`, { body: { expiresAt: inMinutes(-60) } }),
    );

    // One enrollment per method; a new one after deleting the old one enrolls.
    facts.duplicate = errorOf(
      await admin.call("POST", "/enrollments", {
        body: { method: "ott", identityId: a, expiresAt: inMinutes(60) },
      }),
    );
    facts.deleteStatus = (await admin.call("DELETE", `/enrollments/${after.id}`)).status;
    const recreated = await admin.call("POST", "/enrollments", {
      body: { method: "ott", identityId: a, expiresAt: inMinutes(60) },
    });
    facts.recreateStatus = recreated.status;
    const fresh = await pendingOtt(a);
    facts.freshJwtCarriesToken = jti(fresh.jwt) === fresh.token;
    const enrolled = await client.enrollOtt(fresh.token, "device");
    facts.enrolled = enrolled.certPem.includes("BEGIN CERTIFICATE");
    const detail = (await admin.call("GET", `/identities/${a}`)).body.data;
    facts.afterEnroll = { enrollment: detail.enrollment, authenticators: Object.keys(detail.authenticators) };
    facts.again = errorOf(await client.call("POST", "/enroll/ott", { token: fresh.token, clientCsr: "x" }));

    // An authenticator reset to an enrollment.
    const auths = (await admin.call("GET", `/identities/${a}/authenticators`)).body.data;
    facts.authenticator = { method: auths[0].method, isIssuedByNetwork: auths[0].isIssuedByNetwork };
    const reEnroll = await admin.call("POST", `/authenticators/${auths[0].id}/re-enroll`, {
      body: { expiresAt: inMinutes(60) },
    });
    const reset = (await admin.call("GET", `/identities/${a}`)).body.data;
    facts.reEnroll = {
      status: reEnroll.status,
      enrollments: Object.keys(reset.enrollment),
      authenticators: Object.keys(reset.authenticators),
    };

    // Expiry: creating one in the past, and enrolling with one that lapsed (it stays listed).
    const b = await identity("expiry");
    facts.createPast = errorOf(
      await admin.call("POST", "/enrollments", {
        body: { method: "ott", identityId: b, expiresAt: inMinutes(-1) },
      }),
    );
    facts.createUnknownIdentity = errorOf(
      await admin.call("POST", "/enrollments", {
        body: { method: "ott", identityId: "nope", expiresAt: inMinutes(5) },
      }),
    );
    const short = await admin.call("POST", "/enrollments", {
      body: { method: "ott", identityId: b, expiresAt: new Date(Date.now() + 1500).toISOString() },
    });
    await sleep(2000);
    const lapsed = (await admin.call("GET", `/enrollments/${short.body.data.id}`)).body.data;
    facts.lapsedListed = Object.keys((await admin.call("GET", `/identities/${b}`)).body.data.enrollment);
    facts.lapsed = errorOf(await client.call("POST", "/enroll/ott", { token: lapsed.token, clientCsr: "x" }));
    facts.unknownToken = errorOf(
      await client.call("POST", "/enroll/ott", {
        token: "00000000-0000-4000-8000-000000000000",
        clientCsr: "x",
      }),
    );
    // The SDKs' form: the CSR as the body of `POST /enroll?method=ott&token=...`.
    const c = await identity("pem", { ott: true });
    const { csrPem } = generateKeyPairAndCsr({ commonName: "device" }, 2048);
    const pem = await client.call(
      "POST",
      `/enroll?method=ott&token=${encodeURIComponent((await pendingOtt(c)).token)}`,
      csrPem,
      "application/x-pem-file",
    );
    facts.pemEnroll = {
      status: pem.status,
      cert: String(pem.body?.data?.cert ?? "").includes("BEGIN CERTIFICATE"),
    };
    for (const id of [a, b, c]) await admin.call("DELETE", `/identities/${id}`);
  } finally {
    await client.close();
  }
  return facts;
}
