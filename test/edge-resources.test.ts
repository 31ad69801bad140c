// Identity, AuthPolicy, EdgeRouterPolicy and Ca through the provider's host entry points against the
// mock controller: create, refresh without drift, update, replace, import by id, delete, and the
// controller quirks that would otherwise show as false drift.
import assert from "node:assert/strict";
import { issueCertificate } from "../mock/edge/pki";
import { type Props, UNKNOWN } from "../provider/resource";
import * as edge from "./edge-support";
import { fullPrimary } from "./support/edge-objects";
import { EdgeClient } from "./support/edgeClient";
import { requestsTo, useMockProvider } from "./support/fixtures";

describe("Edge resources", () => {
  const mock = useMockProvider();

  const requests = requestsTo(mock);

  describe("Identity", () => {
    it("creates with an ott enrollment, keeps the declared type, refreshes and imports without drift", async () => {
      const inputs = {
        name: "alice-laptop",
        type: "Device",
        roleAttributes: ["zeta", "alpha"],
        enrollment: { ott: true },
      };
      const { id, outs } = await edge.createChecked("Identity", inputs);
      assert.equal(mock.edge.get("identities", id)?.typeId, "Default"); // the controller's quirk
      assert.equal(outs.type, "Device");
      assert.equal(outs.authPolicyId, "default");
      assert.equal(outs.isAdmin, false);
      assert.match(String(outs.enrollmentJwt), /^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.match(String(outs.enrollmentToken), /^[0-9a-f-]{36}$/);
      assert.ok(Date.parse(String(outs.enrollmentExpiresAt)) > Date.now() + 170 * 60_000);
      assert.equal(outs.enrollmentDaysUntilExpiry, 0, "a 3-hour enrollment has less than a day left");
      assert.deepEqual(outs.enrollment, { ott: true });
      await edge.expectNoDrift("Identity", id, outs, inputs);
      const imported = await edge.importById("Identity", id, inputs);
      assert.equal(imported.type, "Device");

      // The enrollment is consumed (the device enrolled): not drift, the JWT is gone.
      const enrollment = mock.edge.list("enrollments").find((e) => e.identityId === id)!;
      mock.edge.remove("enrollments", enrollment.id);
      const after = await edge.expectNoDrift("Identity", id, outs, inputs);
      assert.equal(after.enrollmentJwt, null);
      assert.equal(after.enrollmentDaysUntilExpiry, null, "no pending enrollment, no days left");
      assert.deepEqual(after.enrollment, { ott: true });

      // Changing the enrollment replaces the identity (its name must be free first).
      const diff = await edge.engine.diff(
        "Identity",
        id,
        after,
        (await edge.engine.check("Identity", after, { ...inputs, enrollment: { updb: "alice" } })).inputs,
      );
      assert.deepEqual(diff.replaces, ["enrollment"]);
      assert.equal(diff.deleteBeforeReplace, true);
      await edge.engine.remove("Identity", id, after);
      assert.equal((await edge.refresh("Identity", id, after, inputs)).gone, true);
    });

    it("updates with PUT, resets removed fields and detects drift made behind its back", async () => {
      const inputs: Props = {
        name: "svc-billing",
        type: "Service",
        externalId: "billing@corp",
        roleAttributes: ["billing"],
        defaultHostingCost: 10,
        defaultHostingPrecedence: "required",
        appData: { team: "payments", pager: true },
        tags: { env: "test" },
        permissions: ["service.read", "identity.read"],
        enrollment: { updb: "svc-billing" },
      };
      const { id, outs } = await edge.createChecked("Identity", inputs);
      assert.equal(outs.authenticators && typeof outs.authenticators, "object");
      assert.ok(String(outs.enrollmentJwt).length > 20);
      await edge.expectNoDrift("Identity", id, outs, inputs);

      const news = {
        ...inputs,
        externalId: undefined,
        roleAttributes: ["billing", "ops"],
        isAdmin: true,
        tags: {},
      };
      const { diff, result } = await edge.updateChecked("Identity", id, outs, news);
      assert.equal(diff.changes, true);
      assert.deepEqual(diff.replaces, []);
      assert.equal(requests("PUT", `/identities/${id}`).length, 1);
      assert.equal(requests("PATCH", `/identities/${id}`).length, 0);
      const stored = mock.edge.get("identities", id)!;
      assert.equal(stored.externalId, null);
      assert.equal(stored.isAdmin, true);
      assert.deepEqual(stored.tags, {});
      const updated = result!.outs as Props;
      await edge.expectNoDrift("Identity", id, updated, news);

      mock.edge.patch("identities", id, { roleAttributes: ["intruder"], defaultHostingCost: 99 });
      const drift = await edge.refresh("Identity", id, updated, news);
      assert.equal(drift.gone, false);
      assert.equal(drift.gone || drift.diff.changes, true);
      await edge.engine.remove("Identity", id, updated);
    });

    it("a real type change (Router) is a change; the default admin's fields are readable", async () => {
      const { id, outs } = await edge.createChecked("Identity", { name: "t-router", type: "User" });
      mock.edge.patch("identities", id, { typeId: "Router" });
      const drift = await edge.refresh("Identity", id, outs, { name: "t-router", type: "User" });
      assert.equal(!drift.gone && drift.diff.changes, true);
      await edge.engine.remove("Identity", id, outs);
      const admin = await edge.importById("Identity", mock.edge.defaultAdminId, {
        name: "Default Admin",
        type: "Default",
        isAdmin: true,
      });
      assert.equal(admin.isDefaultAdmin, true);
      assert.equal(admin.hasApiSession, true);
    });

    it("a name clash adopts an identity made elsewhere only with the declared enrollment pending", async () => {
      // Another admin's identities: one with an ott enrollment pending, one without any.
      const admin = new EdgeClient(mock.url);
      await admin.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
      const made = async (name: string, enrollment?: object) => {
        const body = {
          name,
          type: "User",
          isAdmin: false,
          roleAttributes: ["x"],
          ...(enrollment ? { enrollment } : {}),
        };
        const answer = await admin.call("POST", "/identities", { body });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        return String(answer.body.data.id);
      };
      const pending = await made("elsewhere-pending", { ott: true });
      const none = await made("elsewhere-none");
      const declared = (name: string) => ({ name, roleAttributes: ["x"], enrollment: { ott: true } });

      const adopted = await edge.createChecked("Identity", declared("elsewhere-pending"));
      assert.equal(adopted.id, pending);
      assert.ok(adopted.outs.enrollmentJwt, "the pending enrollment's JWT is an output");
      const error = await edge.createChecked("Identity", declared("elsewhere-none")).catch((e) => e);
      assert.match(
        String(error?.message),
        new RegExp(
          `already exists \\(id ${none}\\).*differs from the declaration in enrollment: not adopted.*import: "${none}"`,
        ),
      );
      await edge.engine.remove("Identity", adopted.id, adopted.outs);
      await admin.call("DELETE", `/identities/${none}`);
    });

    it("rejects bad inputs at check time, naming the property", async () => {
      const { failures } = await edge.engine.check(
        "Identity",
        {},
        {
          name: "bad",
          defaultHostingCost: 70000,
          permissions: ["identity.read", "root"],
          enrollment: { ott: true, updb: "two" },
        },
      );
      const props = failures.map((f) => f.property).sort();
      assert.ok(props.includes("defaultHostingCost"), JSON.stringify(failures));
      assert.ok(
        props.some((p) => p.startsWith("permissions")),
        JSON.stringify(failures),
      );
      assert.ok(
        props.some((p) => p.startsWith("enrollment")),
        JSON.stringify(failures),
      );
    });
  });

  describe("AuthPolicy", () => {
    it("compares allowedSigners as a set (a real controller does not keep their order)", async () => {
      const signers = (order: string[]) => ({
        name: "p",
        primary: { extJwt: { allowed: true, allowedSigners: order } },
      });
      const signer = async (name: string) =>
        (
          await edge.createChecked("ExternalJwtSigner", {
            name,
            issuer: `https://${name}.example`,
            audience: "a",
            jwksEndpoint: `https://${name}.example/jwks`,
          })
        ).id;
      const [a, b, c] = [await signer("s-a"), await signer("s-b"), await signer("s-c")];
      // What the diff gets as olds: the outputs stored at create (the controller's defaults filled in).
      const { id, outs: olds } = await edge.createChecked("AuthPolicy", signers([a, b]));
      const same = (await edge.engine.check("AuthPolicy", {}, signers([b, a]))).inputs;
      const other = (await edge.engine.check("AuthPolicy", {}, signers([b, c]))).inputs;
      assert.equal((await edge.engine.diff("AuthPolicy", id, olds, same)).changes, false);
      assert.deepEqual((await edge.engine.diff("AuthPolicy", id, olds, other)).changed, ["primary"]);
      await edge.engine.remove("AuthPolicy", id, olds);
    });

    it("fills the controller's defaults, updates with PUT only, imports and refreshes clean", async () => {
      const inputs = {
        name: "strict",
        primary: { updb: { minPasswordLength: 12 } },
        secondary: { requireTotp: true },
      };
      const { id, outs } = await edge.createChecked("AuthPolicy", inputs);
      const stored = mock.edge.get("auth-policies", id)!;
      assert.deepEqual(stored.primary, fullPrimary({ updb: { minPasswordLength: 12 } }));
      await edge.expectNoDrift("AuthPolicy", id, outs, inputs);
      await edge.importById("AuthPolicy", id, inputs);

      const news = { ...inputs, primary: { updb: { minPasswordLength: 12, maxAttempts: 5 } } };
      const { result } = await edge.updateChecked("AuthPolicy", id, outs, news);
      assert.equal(requests("PATCH", "/auth-policies/").length, 0);
      assert.equal(requests("PUT", `/auth-policies/${id}`).length, 1);
      const after = mock.edge.get("auth-policies", id)! as any;
      assert.equal(after.primary.updb.maxAttempts, 5);
      assert.equal(after.primary.cert.allowed, true); // PATCH would have reset it (controller bug)
      await edge.expectNoDrift("AuthPolicy", id, result!.outs, news);
      await edge.engine.remove("AuthPolicy", id, result!.outs);
    });

    it("refuses to delete a policy identities use, saying what to do", async () => {
      const policy = await edge.createChecked("AuthPolicy", { name: "in-use" });
      const user = await edge.createChecked("Identity", { name: "policy-user", authPolicyId: policy.id });
      await assert.rejects(edge.engine.remove("AuthPolicy", policy.id, policy.outs), (err: Error) => {
        assert.match(err.message, /AuthPolicy "in-use".*still used by identities.*authPolicyId/);
        assert.match(err.message, /CAN_NOT_DELETE_REFERENCED_ENTITY|referenced/);
        return true;
      });
      await edge.engine.remove("Identity", user.id, user.outs);
      await edge.engine.remove("AuthPolicy", policy.id, policy.outs);
      assert.equal(mock.edge.get("auth-policies", policy.id), undefined);
    });
  });

  describe("EdgeRouterPolicy", () => {
    it("treats roles as sets (the server sorts them), updates, imports and detects drift", async () => {
      const inputs = { name: "erp-1", identityRoles: ["#zeta", "#alpha"], edgeRouterRoles: ["#all"] };
      const { id, outs } = await edge.createChecked("EdgeRouterPolicy", inputs);
      assert.deepEqual(mock.edge.get("edge-router-policies", id)?.identityRoles, ["#alpha", "#zeta"]);
      assert.equal(outs.semantic, "AllOf");
      assert.equal(outs.isSystem, false);
      assert.deepEqual(outs.identityRolesDisplay, [
        { role: "#alpha", name: "#alpha" },
        { role: "#zeta", name: "#zeta" },
      ]);
      await edge.expectNoDrift("EdgeRouterPolicy", id, outs, inputs);
      await edge.importById("EdgeRouterPolicy", id, inputs);
      const sent = requests("POST", "/edge-router-policies").at(-1)!;
      assert.match(sent.body ?? "", /"semantic":"AllOf"/);

      const news = { ...inputs, semantic: "AnyOf", identityRoles: ["#alpha"] };
      const { result } = await edge.updateChecked("EdgeRouterPolicy", id, outs, news);
      assert.deepEqual(mock.edge.get("edge-router-policies", id)?.identityRoles, ["#alpha"]);
      mock.edge.patch("edge-router-policies", id, { edgeRouterRoles: ["#edge"] });
      const drift = await edge.refresh("EdgeRouterPolicy", id, result!.outs, news);
      assert.equal(!drift.gone && drift.diff.changes, true);
      await edge.engine.remove("EdgeRouterPolicy", id, result!.outs);
    });

    it("validates roles at check time", async () => {
      const { failures } = await edge.engine.check(
        "EdgeRouterPolicy",
        {},
        {
          name: "bad",
          identityRoles: ["#all", "#x"],
          edgeRouterRoles: ["routers"],
        },
      );
      assert.deepEqual(failures.map((f) => f.property).sort(), ["edgeRouterRoles.0", "identityRoles"]);
      assert.match(failures.find((f) => f.property === "identityRoles")!.reason, /#all/);
    });
  });

  describe("Ca", () => {
    it("checks certPem is a CA certificate and privateKeyPem belongs to it", async () => {
      const leaf = issueCertificate({ commonName: "leaf" });
      const ca = edge.testCa("Check CA");
      const other = edge.testCa("Other CA");
      const check = (inputs: Props) => edge.engine.check("Ca", {}, { name: "c", ...inputs });
      const notCa = (await check({ certPem: leaf.certPem })).failures[0];
      assert.deepEqual(
        [notCa.property, notCa.reason],
        ["certPem", "is not a CA certificate (basicConstraints cA is not true)"],
      );
      const notPem = (await check({ certPem: "garbage" })).failures[0];
      assert.deepEqual([notPem.property, notPem.reason], ["certPem", "is not a PEM certificate"]);
      const wrongKey = await check({ certPem: ca.certPem, privateKeyPem: other.keyPem });
      assert.equal(wrongKey.failures[0].property, "privateKeyPem");
      assert.match(wrongKey.failures[0].reason, /does not belong to certPem/);
      assert.deepEqual((await check({ certPem: ca.certPem, privateKeyPem: ca.keyPem })).failures, []);
      // A preview where the certificate is computed from another resource: checked later.
      assert.deepEqual((await check({ certPem: UNKNOWN, privateKeyPem: UNKNOWN })).failures, []);
    });

    it("made elsewhere with \\r\\n line endings, reads by id alone in the form a program declares it", async () => {
      // As `pulumi import` reads it (no state): the program the CLI writes from that read (a YAML block
      // keeps no \r) must then be no change, not a replacement (found with a CA Terraform uploaded).
      const admin = new EdgeClient(mock.url);
      await admin.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
      const ca = edge.testCa("CRLF CA");
      const crlf = ca.certPem.replace(/\r?\n/g, "\r\n");
      const made = await admin.call("POST", "/cas", {
        body: {
          name: "crlf-ca",
          certPem: crlf,
          isAuthEnabled: false,
          isAutoCaEnrollmentEnabled: false,
          isOttCaEnrollmentEnabled: false,
          identityRoles: [],
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = String(made.body.data.id);
      assert.equal(
        (await admin.call("GET", `/cas/${id}`)).body.data.certPem,
        crlf,
        "the controller keeps \\r\\n",
      );
      const read = await edge.engine.read("Ca", id, {});
      assert.ok("props" in read && read.props);
      const lf = `${ca.certPem.replace(/\r\n/g, "\n").trim()}\n`;
      assert.equal((read.props as Props).certPem, lf);
      const checked = await edge.engine.check("Ca", {}, { name: "crlf-ca", certPem: lf });
      const diff = await edge.engine.diff("Ca", id, read.props as Props, checked.inputs);
      assert.deepEqual(diff.replaces ?? [], []);
    });

    it("is created unverified without its key; verification is left to the user", async () => {
      const pki = edge.testCa("Unverified CA");
      const inputs = { name: "ca-unverified", certPem: pki.certPem };
      const { id, outs } = await edge.createChecked("Ca", inputs);
      assert.equal(outs.isVerified, false);
      assert.match(String(outs.verificationToken), /^[\w-]{8,}$/);
      assert.equal(outs.identityNameFormat, "[caName]-[commonName]"); // the controller's default
      assert.equal(requests("POST", `/cas/${id}/verify`).length, 0);
      await edge.expectNoDrift("Ca", id, outs, inputs);
      await edge.engine.remove("Ca", id, outs);
    });

    it("verifies itself with the CA key, updates with PUT, replaces on a new certPem, imports", async () => {
      const pki = edge.testCa("Corp CA");
      const inputs = {
        name: "corp-ca",
        certPem: pki.certPem,
        privateKeyPem: pki.keyPem,
        isAuthEnabled: true,
        isOttCaEnrollmentEnabled: true,
        identityRoles: ["robots", "devices"],
        externalIdClaim: { location: "COMMON_NAME" },
      };
      const { id, outs } = await edge.createChecked("Ca", inputs);
      assert.equal(outs.isVerified, true);
      assert.equal(mock.edge.get("cas", id)?.isVerified, true);
      assert.equal(requests("POST", `/cas/${id}/verify`).length, 1);
      assert.equal(outs.privateKeyPem, pki.keyPem);
      assert.match(String(outs.fingerprint), /^[0-9a-f]{40}$/);
      await edge.expectNoDrift("Ca", id, outs, inputs);
      // Import: the key is never returned by the controller, it comes from the program.
      const imported = await edge.importById("Ca", id, inputs);
      assert.equal(imported.privateKeyPem, pki.keyPem);

      // A verified CA can enroll identities by ottca.
      const robot = await edge.createChecked("Identity", {
        name: "robot",
        type: "Device",
        enrollment: { ottca: id },
      });
      assert.ok(robot.outs.enrollmentJwt);
      await edge.engine.remove("Identity", robot.id, robot.outs);

      const news = { ...inputs, isAuthEnabled: false, identityRoles: ["devices"] };
      const { diff, result } = await edge.updateChecked("Ca", id, outs, news);
      assert.deepEqual(diff.replaces, []);
      assert.equal(requests("PUT", `/cas/${id}`).length, 1);
      assert.equal(mock.edge.get("cas", id)?.isAuthEnabled, false);
      await edge.expectNoDrift("Ca", id, result!.outs, news);

      // Same certificate in other whitespace: no change. Another certificate: replacement.
      const reformatted = { ...news, certPem: pki.certPem.replace(/\r?\n/g, "\r\n") };
      assert.equal((await edge.updateChecked("Ca", id, result!.outs, reformatted)).diff.changes, false);
      const next = edge.testCa("Corp CA 2");
      const replaced = await edge.engine.diff("Ca", id, result!.outs, {
        ...news,
        certPem: next.certPem,
        privateKeyPem: next.keyPem,
      });
      assert.deepEqual(replaced.replaces, ["certPem"]);
      assert.equal(replaced.deleteBeforeReplace, true);
      await edge.engine.remove("Ca", id, result!.outs);
    });
  });
});
