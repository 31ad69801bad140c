// ExternalJwtSigner through the provider's host entry points against the mock controller: JWKS and
// certificate signers, the controller's "" and zero-time answers for "none" (not drift), update with
// PUT, import, exact drift, an AuthPolicy that allows the signer by id, delete and 404-as-gone.
import assert from "node:assert/strict";
import type { Props } from "../provider/resource";
import * as edge from "./edge-support";
import { requestsTo, useMockProvider } from "./support/fixtures";

describe("ExternalJwtSigner", () => {
  const mock = useMockProvider();

  const requests = requestsTo(mock);

  it("a JWKS signer: created, refreshed and imported clean, allowed by an AuthPolicy, updated, drift, delete", async () => {
    const inputs: Props = {
      name: "keycloak",
      issuer: "https://login.example.com/realms/corp",
      audience: "openziti",
      jwksEndpoint: "https://login.example.com/realms/corp/protocol/openid-connect/certs",
      claimsProperty: "email",
      useExternalId: true,
      externalAuthUrl: "https://login.example.com/realms/corp",
      clientId: "ziti-clients",
      scopes: ["openid", "email"],
      tags: { owner: "iam" },
    };
    const { id, outs } = await edge.createChecked("ExternalJwtSigner", inputs);
    const stored = mock.edge.get("external-jwt-signers", id)!;
    assert.equal(stored.claimsProperty, "email");
    assert.equal(stored.certPem, null);
    assert.equal(outs.enabled, true);
    assert.equal(outs.targetToken, "ACCESS");
    // The controller answers "" and the zero time for a JWKS signer's certificate fields: null here.
    assert.equal(outs.fingerprint, null);
    assert.equal(outs.notAfter, null);
    assert.equal(outs.kid, null);
    await edge.expectNoDrift("ExternalJwtSigner", id, outs, inputs);
    await edge.importById("ExternalJwtSigner", id, inputs);

    // An auth policy that only accepts JWTs of this signer, by the id this resource made.
    const policyInputs = {
      name: "sso-only",
      primary: { updb: { allowed: false }, extJwt: { allowed: true, allowedSigners: [id] } },
      secondary: { requireExtJwtSigner: id },
    };
    const policy = await edge.createChecked("AuthPolicy", policyInputs);
    const storedPolicy = mock.edge.get("auth-policies", policy.id) as any;
    assert.deepEqual(storedPolicy.primary.extJwt.allowedSigners, [id]);
    assert.equal(storedPolicy.secondary.requireExtJwtSigner, id);
    await edge.expectNoDrift("AuthPolicy", policy.id, policy.outs, policyInputs);

    const news = { ...inputs, enabled: false, scopes: ["openid"], clientId: undefined, tags: {} };
    mock.clearLog(); // the create PUT the tags again (dropped by the controller on create)
    const { diff, result } = await edge.updateChecked("ExternalJwtSigner", id, outs, news);
    assert.deepEqual(diff.replaces, []);
    assert.equal(requests("PUT", `/external-jwt-signers/${id}`).length, 1);
    const after = mock.edge.get("external-jwt-signers", id)!;
    assert.equal(after.enabled, false);
    assert.equal(after.clientId, null);
    assert.deepEqual(after.scopes, ["openid"]);
    await edge.expectNoDrift("ExternalJwtSigner", id, result!.outs, news);

    mock.edge.patch("external-jwt-signers", id, { audience: "someone-else", useExternalId: false });
    assert.deepEqual(await edge.driftedProperties("ExternalJwtSigner", id, result!.outs, news), [
      "audience",
      "useExternalId",
    ]);

    await edge.engine.remove("AuthPolicy", policy.id, policy.outs);
    await edge.engine.remove("ExternalJwtSigner", id, result!.outs);
    assert.equal((await edge.refresh("ExternalJwtSigner", id, result!.outs, news)).gone, true);
    await edge.engine.remove("ExternalJwtSigner", id, result!.outs); // already gone: fine
  });

  it("a certificate signer: certificate details as outputs, reformatted PEM is no change", async () => {
    const pki = edge.testCa("JWT signing cert");
    const inputs = {
      name: "workloads",
      issuer: "spiffe://corp",
      audience: "ziti",
      certPem: pki.certPem,
      kid: "k1",
    };
    const { id, outs } = await edge.createChecked("ExternalJwtSigner", inputs);
    assert.match(String(outs.fingerprint), /^[0-9a-f]{40}$/);
    assert.equal(outs.commonName, "JWT signing cert");
    assert.ok(Date.parse(String(outs.notAfter)) > Date.now());
    await edge.expectNoDrift("ExternalJwtSigner", id, outs, inputs);
    const reformatted = { ...inputs, certPem: pki.certPem.replace(/\r?\n/g, "\r\n") };
    assert.equal((await edge.updateChecked("ExternalJwtSigner", id, outs, reformatted)).diff.changes, false);
    await edge.expectNoDrift("ExternalJwtSigner", id, outs, reformatted);
    await edge.engine.remove("ExternalJwtSigner", id, outs);
  });

  it("rejects bad inputs at check time, naming the property; the controller's uniqueness is reported", async () => {
    const check = async (inputs: Props) =>
      (await edge.engine.check("ExternalJwtSigner", {}, { name: "s", issuer: "i", audience: "a", ...inputs }))
        .failures;
    assert.deepEqual(
      (await check({})).map((f) => [f.property, f.reason]),
      [["jwksEndpoint", "set either jwksEndpoint or certPem"]],
    );
    assert.deepEqual(
      (await check({ jwksEndpoint: "https://x.example/jwks", certPem: edge.testCa("c").certPem })).map(
        (f) => f.property,
      ),
      ["certPem"],
    );
    assert.deepEqual(
      (await check({ certPem: "not a pem" })).map((f) => [f.property, f.reason]),
      [["certPem", "is not a PEM certificate"]],
    );
    const bad = await check({ jwksEndpoint: "ftp://x", targetToken: "REFRESH", scopes: "openid" });
    assert.deepEqual(bad.map((f) => f.property).sort(), ["jwksEndpoint", "scopes", "targetToken"]);

    const first = await edge.createChecked("ExternalJwtSigner", {
      name: "dup-1",
      issuer: "https://same.example",
      audience: "a",
      jwksEndpoint: "https://same.example/jwks",
    });
    await assert.rejects(
      edge.createChecked("ExternalJwtSigner", {
        name: "dup-2",
        issuer: "https://same.example",
        audience: "a",
        jwksEndpoint: "https://same.example/jwks",
      }),
      (err: Error) => {
        assert.match(err.message, /ExternalJwtSigner "dup-2"/);
        assert.match(err.message, /400/);
        assert.match(err.message, /issuer/);
        return true;
      },
    );
    await edge.engine.remove("ExternalJwtSigner", first.id, first.outs);
  });
});
