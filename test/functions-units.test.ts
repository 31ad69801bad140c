// The functions' arguments and refusals, called directly against the mock (test/mutation/groups.json,
// group functions): every bad argument named by its path, the token-based calls' refusals by HTTP
// status (the token never in the message), the CA bundle given to the call over the configured one,
// and the registry holding exactly the functions of the independent secret table.
import assert from "node:assert/strict";
import { z } from "zod";
import { parseArgs } from "../provider/functions/args";
import {
  createCertificateWithToken,
  validateCertificateRequestToken,
} from "../provider/functions/certificates";
import { functionDefinitions } from "../provider/functions/index";
import { testCa } from "./edge-support";
import { useMock } from "./support/fixtures";
import { FUNCTION_SECRETS } from "./support/oracles/secrets";

describe("functions: arguments and refusals", function () {
  this.timeout(60_000);
  const mock = useMock({ tls: true });
  const settings = () => ({
    apiUrl: mock.url,
    frontdoorId: mock.credentials.frontdoorId,
    token: mock.credentials.frontdoorToken,
    caBundle: mock.caPem,
  });

  it("the registry holds exactly the functions of the table", () => {
    assert.deepEqual(functionDefinitions.map((f) => f.name).sort(), Object.keys(FUNCTION_SECRETS).sort());
  });

  it("parseArgs names each problem by its dotted path, unknown arguments by name, joined by '; '", () => {
    const schema = z.strictObject({ a: z.object({ b: z.string() }), c: z.number() });
    assert.throws(
      () => parseArgs("fn", schema, { a: { b: 1 }, c: "x", extra: 1, other: 2 }),
      (err: Error) => {
        const [first, second, third] = err.message.replace(/^fn: /, "").split("; ");
        assert.match(first, /^a\.b: /);
        assert.match(second, /^c: /);
        assert.match(third, /^\(arguments\): .* extra, other$/);
        return err.message.startsWith("fn: a.b: ");
      },
    );
    assert.deepEqual(parseArgs("fn", schema, { a: { b: "x" }, c: 1 }), { a: { b: "x" }, c: 1 });
  });

  it("createCertificateWithToken: exactly one of csrPem and certificatePem; name only with a certificate", async () => {
    const call = (args: Record<string, unknown>) =>
      createCertificateWithToken({ token: "crt_never-sent-0001", ...args } as never, settings());
    await assert.rejects(call({}), {
      message: "createCertificateWithToken: csrPem: give exactly one of csrPem and certificatePem",
    });
    await assert.rejects(call({ certificatePem: "pem" }), {
      message: "createCertificateWithToken: name: required with certificatePem",
    });
    await assert.rejects(call({ csrPem: "csr", name: "n" }), {
      message: "createCertificateWithToken: name: not allowed with csrPem (the token's name is used)",
    });
    assert.deepEqual(mock.log, [], "refused before any request");
  });

  it("refusals by status, never quoting the token; the call's CA bundle over the configured one", async () => {
    const token = "crt_unknown-token-value-4242";
    const otherCa = testCa("not the mock's CA").certPem;
    const notFound = await validateCertificateRequestToken(
      { token, caBundle: mock.caPem },
      { ...settings(), caBundle: otherCa },
    ).catch((e) => e);
    assert.equal(
      notFound.message,
      "validateCertificateRequestToken: certificate request token not found (unknown, deleted, or consumed by a service that deletes used tokens) (HTTP 404: " +
        `${notFound.message.split("(HTTP 404: ")[1]}`,
    );
    assert.ok(!notFound.message.includes(token));
    const refused = await validateCertificateRequestToken(
      { token },
      { ...settings(), token: "wrong-api-token-77" },
    ).catch((e) => e);
    assert.match(
      refused.message,
      /^validateCertificateRequestToken: refused: the certificate request token expired, or the API credentials were not accepted \(HTTP 401: /,
    );
    assert.ok(!refused.message.includes(token));
  });
});
