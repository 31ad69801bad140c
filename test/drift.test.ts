// Drift detection for every resource kind through the real dynamic-provider host (engine harness):
// no false drift right after `up` (every optional input set, and none set), and a matrix of changes
// made behind Pulumi's back, each reported on exactly the resource and properties that changed,
// with secrets masked; a deleted object leaves the state and the next `up` recreates it.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type HarnessResult, readState, runHarness } from "../harness";
import { createCertificateWithToken } from "../provider/functions/certificates";
import { generateKeyPairAndCsr } from "../provider/resources/pem";
import { testCa } from "./edge-support";
import { driftSigners } from "./support/edge-objects";
import { EdgeClient } from "./support/edgeClient";
import { frontdoorApi, useHarnessSetup, useMock } from "./support/fixtures";
import { createdOneOfEach, driftOf, refreshesClean, refreshFindsDrift, stepsOfOk } from "./support/report";

const PROGRAM = path.join(__dirname, "programs", "drift-all");
const SSO_SECRET = "drift-sso-client-secret-0001";
const ROTATED_SECRET = "drift-sso-client-secret-ROTATED";
const PARTNER_KEY = "drift-partner-api-key-0123456789";
const KINDS = [
  "AuthProvider",
  "ClientCertificate",
  "CertificateRequestToken",
  "CustomFrontend",
  "KeyPair",
  "Identity",
  "AuthPolicy",
  "EdgeRouterPolicy",
  "Ca",
];

type Ids = Record<
  "sso" | "partner" | "key" | "cert" | "token" | "frontend" | "policy" | "user" | "erp" | "ca",
  string
>;

describe("Drift: every resource kind through the dynamic-provider host", function () {
  this.timeout(180_000);
  const mock = useMock({ frontdoor: { customFrontendReadyAfterMs: 50 } });
  const fd = () => mock.credentials.frontdoorId;
  const setup = useHarnessSetup(mock, "drift-", async () => {
    // The full auth policy names two external JWT signers, which must exist (as on a real controller).
    const admin = new EdgeClient(mock.url, mock.caPem);
    await admin.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
    const signers = await driftSigners(admin);
    return {
      config: { signerA: signers[0], signerB: signers[1] },
      secretConfig: { ssoClientSecret: SSO_SECRET, partnerApiKey: PARTNER_KEY },
    };
  });

  // Both stacks' first `up` run at once (separate processes and state files): the slowest step.
  let firstUps: Promise<[HarnessResult, HarnessResult]> | undefined;
  const firstUp = async (mode: "full" | "minimal") => {
    firstUps ??= Promise.all([full("up"), minimal("up")]);
    return (await firstUps)[mode === "full" ? 0 : 1];
  };

  /** One stack per mode (fresh state file), sharing the mock server through the name prefix. */
  const stack = (mode: "full" | "minimal", prefix: string) => {
    // CA certificates are unique per controller: one per stack.
    const pki = testCa(`Drift CA ${prefix}`);
    return (command: "up" | "refresh", expectNoChanges = false) =>
      runHarness(command, {
        programDir: PROGRAM,
        stateFile: path.join(setup.dir, `${prefix}.json`),
        config: { ...setup.config, mode, prefix, caCertPem: pki.certPem },
        secretConfig: { ...setup.secretConfig, caKeyPem: pki.keyPem },
        expectNoChanges,
      });
  };
  const noPlaintext = (result: HarnessResult, ...secrets: string[]) => {
    const text = `${result.stdout}\n${result.stderr}`;
    for (const secret of secrets) assert.ok(!text.includes(secret), "a secret shows in clear text");
  };

  /** A real API call, as another admin would make it. */
  const asOtherAdmin = async (method: string, apiPath: string, body: unknown) => {
    const res = await frontdoorApi(mock, method, apiPath, body);
    assert.ok(res.ok, `${method} ${apiPath}: ${res.status} ${await res.text()}`);
  };
  /** Uses a certificate request token the way a device does: it stays usable until expiresAt. */
  const useToken = async (id: string) => {
    const record = mock.frontdoor.get(fd(), "certificate-request-tokens", id);
    assert.ok(record, "token exists");
    const { csrPem } = generateKeyPairAndCsr({ commonName: "device-in-the-field" }, 2048);
    const issued = await createCertificateWithToken(
      { token: String(record.token), csrPem },
      { apiUrl: mock.url, frontdoorId: fd() },
    );
    assert.ok(mock.frontdoor.get(fd(), "certificate-request-tokens", id), "the used token stays");
    return issued;
  };

  const full = stack("full", "fu");
  const minimal = stack("minimal", "mi");

  describe("every optional input set", () => {
    const run = full;
    let ids: Ids;
    let issuedWithToken: string;

    it("refreshes clean right after up", async () => {
      ids = createdOneOfEach<Ids>(await firstUp("full"), KINDS);
      await refreshesClean(run, "right after up (every optional input set)");
    });

    it("refreshes clean after the frontend turned ACTIVE and the identity enrolled", async () => {
      assert.notEqual(mock.frontdoor.get(fd(), "custom-frontends", ids.frontend), undefined);
      mock.frontdoor.setCustomFrontendStatus(fd(), ids.frontend, "ACTIVE");
      const enrollments = mock.edge.list("enrollments").filter((e) => e.identityId === ids.user);
      assert.equal(enrollments.length, 1);
      for (const e of enrollments) mock.edge.remove("enrollments", String(e.id));
      await refreshesClean(run, "after status and enrollment moved on");
      const state = readState(path.join(setup.dir, "fu.json"));
      const frontend = state.resources.find((r) => r.name === "frontend");
      assert.equal(frontend?.outputs.status, "ACTIVE");
    });

    it("reports each change behind its back on exactly that resource and property", async () => {
      // String: a rename. Secret: the OIDC client secret rotated through the real API.
      mock.frontdoor.patch(fd(), "auth-providers", ids.partner, { name: "fu-partner-renamed" });
      const sso = mock.frontdoor.get(fd(), "auth-providers", ids.sso) as any;
      await asOtherAdmin("PUT", `auth-providers/${ids.sso}`, {
        name: sso.name,
        type: sso.type,
        enabled: sso.enabled,
        data: { ...sso.data, client_secret: ROTATED_SECRET },
      });
      // Array (a set): an auth provider id removed from the frontend.
      mock.frontdoor.patch(fd(), "custom-frontends", ids.frontend, { authProviderIds: [ids.sso] });
      // Nested object: a number deep inside the policy.
      const policy = mock.edge.get("auth-policies", ids.policy) as any;
      mock.edge.patch("auth-policies", ids.policy, {
        primary: { ...policy.primary, updb: { ...policy.primary.updb, minPasswordLength: 6 } },
      });
      // Number and map.
      mock.edge.patch("identities", ids.user, { defaultHostingCost: 9, tags: { site: "paris" } });
      // Boolean.
      mock.edge.patch("cas", ids.ca, { isAuthEnabled: false });
      // Reordered roles: not drift.
      const erp = mock.edge.get("edge-router-policies", ids.erp) as any;
      mock.edge.patch("edge-router-policies", ids.erp, {
        identityRoles: [...erp.identityRoles].reverse(),
        edgeRouterRoles: [...erp.edgeRouterRoles].reverse(),
      });
      // Not drift: a used token that then expired. Gone: a deleted certificate.
      issuedWithToken = (await useToken(ids.token)).id;
      mock.frontdoor.patch(fd(), "certificate-request-tokens", ids.token, {
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      assert.ok(mock.frontdoor.remove(fd(), "client-certificates", ids.cert));

      const drift = await refreshFindsDrift(run, {
        partner: ["name"],
        sso: ["secretValues"],
        frontend: ["authProviderIds"],
        policy: ["primary"],
        user: ["defaultHostingCost", "tags"],
        ca: ["isAuthEnabled"],
        cert: "delete",
      });
      // Old and new values (the changed leaves are checked in readable-drift.test.ts).
      const property = (name: string, prop: string) => driftOf(drift.report, name, prop);
      assert.deepEqual(property("partner", "name"), {
        name: "name",
        old: "fu-partner",
        new: "fu-partner-renamed",
      });
      // The rotated secret is drift of `secretValues` (secret as a whole); `data` itself is unchanged.
      assert.deepEqual(property("sso", "secretValues"), {
        name: "secretValues",
        old: "[secret]",
        new: "[secret]",
      });
      assert.deepEqual(property("frontend", "authProviderIds"), {
        name: "authProviderIds",
        old: [ids.partner, ids.sso],
        new: [ids.sso],
      });
      assert.deepEqual(property("user", "tags"), {
        name: "tags",
        old: { site: "berlin" },
        new: { site: "paris" },
      });
      assert.deepEqual(property("ca", "isAuthEnabled"), { name: "isAuthEnabled", old: true, new: false });
      noPlaintext(drift, SSO_SECRET, ROTATED_SECRET, PARTNER_KEY);
      // Deleted objects left the state; the rest is still there.
      const names = readState(path.join(setup.dir, "fu.json")).resources.map((r) => r.name);
      assert.ok(!names.includes("cert"));
      const token = readState(path.join(setup.dir, "fu.json")).resources.find((r) => r.name === "token");
      assert.equal(token?.outputs.status, "EXPIRED", "the used, expired token stays, shown as EXPIRED");
      assert.ok(names.includes("user") && names.includes("erp"));
    });

    it("recreates what was deleted, puts the rest back, then refreshes clean", async () => {
      // The certificate made with the token took the token's name, next to the token itself.
      assert.equal(mock.frontdoor.get(fd(), "client-certificates", issuedWithToken)?.name, "fu-token");
      mock.frontdoor.remove(fd(), "client-certificates", issuedWithToken);
      assert.deepEqual(await stepsOfOk(run("up")), {
        sso: "update",
        partner: "update",
        key: "same",
        cert: "create",
        token: "same",
        frontend: "update",
        policy: "update",
        user: "update",
        erp: "same",
        ca: "update",
      });
      const sso = mock.frontdoor.get(fd(), "auth-providers", ids.sso) as any;
      assert.equal(sso.data.client_secret, SSO_SECRET);
      assert.deepEqual(mock.frontdoor.get(fd(), "custom-frontends", ids.frontend)?.authProviderIds, [
        ids.partner,
        ids.sso,
      ]);
      await refreshesClean(run, "after up put everything back");
    });
  });

  describe("every optional input left unset", () => {
    const run = minimal;
    let ids: Ids;

    it("refreshes clean right after up, and after the frontend turned ACTIVE", async () => {
      ids = createdOneOfEach<Ids>(await firstUp("minimal"), KINDS);
      await refreshesClean(run, "right after up (no optional input set)");
      mock.frontdoor.setCustomFrontendStatus(fd(), ids.frontend, "ACTIVE");
      await refreshesClean(run, "after the frontend turned ACTIVE");
    });

    it("reports each change behind its back on exactly that resource and property", async () => {
      // A field the program left to its default, set behind its back.
      const sso = mock.frontdoor.get(fd(), "auth-providers", ids.sso) as any;
      mock.frontdoor.patch(fd(), "auth-providers", ids.sso, { data: { ...sso.data, supports_pkce: true } });
      mock.frontdoor.patch(fd(), "auth-providers", ids.partner, { enabled: false });
      // An auth provider id added to a frontend that had none.
      mock.frontdoor.patch(fd(), "custom-frontends", ids.frontend, { authProviderIds: [ids.partner] });
      await asOtherAdmin("PATCH", `client-certificates/${ids.cert}`, { name: "mi-cert-renamed" });
      mock.frontdoor.patch(fd(), "certificate-request-tokens", ids.token, { commonName: "someone" });
      // A policy's roles changed; optional strings and sets that were unset (null) get values.
      mock.edge.patch("edge-router-policies", ids.erp, { identityRoles: ["#intruders"] });
      mock.edge.patch("identities", ids.user, { externalId: "ext-1", roleAttributes: ["admins"] });
      mock.edge.patch("cas", ids.ca, { tags: { owner: "someone" } });
      assert.ok(mock.edge.remove("auth-policies", ids.policy));

      const drift = await refreshFindsDrift(run, {
        sso: ["data"],
        partner: ["enabled"],
        frontend: ["authProviderIds"],
        cert: ["name"],
        token: ["commonName"],
        erp: ["identityRoles"],
        user: ["externalId", "roleAttributes"],
        ca: ["tags"],
        policy: "delete",
      });
      assert.deepEqual(driftOf(drift.report, "erp", "identityRoles"), {
        name: "identityRoles",
        old: [],
        new: ["#intruders"],
      });
      noPlaintext(drift, SSO_SECRET, PARTNER_KEY);
    });

    it("recreates the deleted policy, puts the rest back, then refreshes clean", async () => {
      const steps = await stepsOfOk(run("up"));
      assert.equal(steps.policy, "create");
      assert.equal(steps.key, "same");
      assert.equal(mock.edge.list("auth-policies").filter((p) => p.name === "mi-policy").length, 1);
      assert.deepEqual(mock.edge.get("edge-router-policies", ids.erp)?.identityRoles ?? [], []);
      await refreshesClean(run, "after up put everything back");
    });
  });
});
