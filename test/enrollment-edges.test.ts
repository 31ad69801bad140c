// enrollIdentity's refusals and wire details against a scripted controller on 127.0.0.1 (real TLS,
// real certificates from the mock's PKI, JWTs signed with the server's own key in each algorithm
// family): what the mock controller never answers on purpose (an empty or broken CA bundle, a refusal
// without a code, an answer without a certificate) and the JWTs it never issues (PS*, odd algorithms,
// missing claims, an EC controller key). test/identity-enrollment.test.ts covers the working flow
// against the mock.
import * as assert from "node:assert/strict";
import { constants, createPrivateKey, generateKeyPairSync, sign, X509Certificate } from "node:crypto";
import forge from "node-forge";
import { pkcs7CertsOnly } from "../mock/edge/pki";
import { createRootCa, issueServerCertificate } from "../mock/pki";
import { enrollIdentity } from "../provider/functions/enrollment";
import { closedPort, type ScriptedServer, startScriptedServer } from "./support/scriptedServer";

const CACERTS = "/.well-known/est/cacerts";
const ENROLL = "/edge/client/v1/enroll/ott";

const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("enrollIdentity against a scripted controller", function () {
  this.timeout(60_000);
  const root = createRootCa("enroll-edges root");
  const other = createRootCa("enroll-edges other");
  const tls = issueServerCertificate(root, ["127.0.0.1"]);
  const key = createPrivateKey(tls.privateKeyPem);
  const issued = issueServerCertificate(root, ["identity"]).certificatePem;
  let server: ScriptedServer;
  before(async () => {
    server = await startScriptedServer(tls);
  });
  after(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
    server.script.length = 0;
  });

  let n = 0;
  /** A JWT with these claims over the server's origin, signed by the server's key with `alg`. */
  function jwt(extra: Record<string, unknown> = {}, alg = "RS256", iss = server.url): string {
    n += 1;
    const claims = { iss, sub: `identity-${n}`, jti: `token-${n}-${Date.now()}`, em: "ott", ...extra };
    const input = `${enc({ alg, typ: "JWT" })}.${enc(claims)}`;
    const pss = { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
    const sig = alg.startsWith("PS")
      ? sign("sha256", Buffer.from(input), pss)
      : sign("sha256", Buffer.from(input), key);
    return `${input}.${sig.toString("base64url")}`;
  }
  /** The EST answer as a controller sends it: base64 in lines of 64. */
  const bundleOf = (pems: string[]) => (pkcs7CertsOnly(pems).match(/.{1,64}/g) ?? []).join("\r\n");
  const cacerts = (pems = [root.certificatePem, other.certificatePem]) => ({
    status: 200,
    headers: { "content-type": "application/pkcs7-mime" },
    body: bundleOf(pems),
  });
  const refusal = (message: string) => ({ message });
  const failed = (run: Promise<unknown>) =>
    run.then(
      () => assert.fail("expected a refusal"),
      (e: Error) => e.message,
    );

  it("enrolls with an RS256 and a PS256 JWT: the bundle, the certificate and the identity file", async () => {
    for (const alg of ["RS256", "PS256"]) {
      server.seen.length = 0;
      // The controller's answer: a certificate of its CA (this test does not check the CSR's key).
      server.script.push(cacerts(), { status: 200, body: JSON.stringify({ data: { cert: issued } }) });
      const token = jwt({}, alg);
      // Pasted with a line break around it (as from a file): the JWT is the text without it.
      const enrolled = await enrollIdentity({ jwt: `\n${token} `, caBundle: other.certificatePem });
      const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
      assert.equal(enrolled.identityId, claims.sub);
      assert.equal(enrolled.caBundlePem, `${root.certificatePem}${other.certificatePem}`);
      assert.equal(enrolled.certificatePem, issued);
      const cert = new X509Certificate(issued);
      assert.equal(enrolled.fingerprint, cert.fingerprint.replace(/:/g, "").toLowerCase());
      assert.deepEqual(JSON.parse(enrolled.identityJson), {
        ztAPI: `${server.url}/edge/client/v1`,
        ztAPIs: [`${server.url}/edge/client/v1`],
        id: {
          cert: `pem:${enrolled.certificatePem}`,
          key: `pem:${enrolled.privateKeyPem}`,
          ca: `pem:${enrolled.caBundlePem}`,
        },
      });
      const [get, post] = server.seen;
      assert.equal(`${get.method} ${get.url} ${get.headers.accept}`, `GET ${CACERTS} application/pkcs7-mime`);
      assert.equal(get.headers["content-type"], undefined);
      assert.equal(`${post.method} ${post.url} ${post.headers.accept}`, `POST ${ENROLL} application/json`);
      assert.equal(post.headers["content-type"], "application/json");
      assert.equal(JSON.parse(post.body).token, claims.jti);
    }
  });

  it("refuses a JWT that is malformed or lacks what an ott enrollment needs, before any request", async () => {
    const cases: [string, string][] = [
      ["x.y", "enrollIdentity: jwt is not a JWT (three base64url parts separated by dots expected)"],
      ["aaa.bbb.ccc", "enrollIdentity: jwt is not a JWT (its header or claims are not base64url JSON)"],
      [jwt({ sub: undefined }), 'enrollIdentity: jwt has no "sub" claim'],
      [jwt({ jti: "" }), 'enrollIdentity: jwt has no "jti" claim'],
      [jwt({ iss: 7 }), 'enrollIdentity: jwt has no "iss" claim'],
      [jwt({ iss: "not a url" }), "enrollIdentity: jwt has an issuer that is not a URL"],
      [
        jwt({ iss: "http://127.0.0.1:1" }),
        "enrollIdentity: jwt names an issuer that is not https (http://127.0.0.1:1)",
      ],
      [
        jwt({ exp: 1_000_000 }),
        "enrollIdentity: jwt expired at 1970-01-12T13:46:40.000Z: re-issue the enrollment " +
          "(Identity reissueExpiredEnrollment or reEnrollmentTrigger)",
      ],
    ];
    for (const [token, message] of cases) assert.equal(await failed(enrollIdentity({ jwt: token })), message);
    assert.deepEqual(server.seen, []);
    // A caBundle that is neither PEM nor a file is named as such.
    assert.match(
      await failed(enrollIdentity({ jwt: jwt(), caBundle: "/nonexistent/ca.pem" })),
      /^frontdoor:caBundle is neither PEM text nor a readable file/,
    );
  });

  it("an exp that is not a number is no expiry; algorithms other than RS/PS/ES 256-512 verify nothing", async () => {
    const notSigned = (origin: string) =>
      `enrollIdentity: the enrollment JWT is not signed by the certificate the controller at ${origin} presents ` +
      "(wrong controller, or a connection that is not the controller's): not enrolled";
    for (const token of [
      jwt({ exp: "1000000" }, "HS256"),
      jwt({}, "xRS256"),
      jwt({}, "RS256x"),
      jwt({}, "none"),
    ]) {
      server.script.push(cacerts());
      assert.equal(await failed(enrollIdentity({ jwt: token })), notSigned(server.url));
    }
    assert.equal(server.seen.filter((s) => s.method === "POST").length, 0);
  });

  it("refuses a CA bundle that failed, is no PKCS#7 or is empty", async () => {
    const cases: [object, string][] = [
      [{ status: 404, body: "no" }, `enrollIdentity: GET ${CACERTS} at ${server.url} failed (HTTP 404)`],
      [
        { status: 200, body: "not base64 pkcs7" },
        `enrollIdentity: the CA bundle from ${CACERTS} is not a base64 PKCS#7 of certificates`,
      ],
      [{ status: 200, body: bundleOf([]) }, `enrollIdentity: the CA bundle from ${CACERTS} is empty`],
    ];
    for (const [answer, message] of cases) {
      server.script.push(answer as never);
      assert.equal(await failed(enrollIdentity({ jwt: jwt() })), message);
    }
  });

  it("verifies the enrollment's TLS with the controller's bundle plus caBundle, nothing else", async () => {
    // Neither the controller's bundle nor caBundle holds the CA of the server: the POST is refused.
    server.script.push(cacerts([other.certificatePem]));
    assert.match(
      await failed(enrollIdentity({ jwt: jwt(), caBundle: other.certificatePem })),
      new RegExp(`^enrollIdentity: POST ${ENROLL} at ${server.url} failed: .*certificate`),
    );
    assert.equal(server.seen.filter((s) => s.method === "POST").length, 0);
  });

  it("words each refusal of the enrollment and an answer without a certificate", async () => {
    const tail =
      "; an ott is single-use and expires: re-issue it (Identity reEnrollmentTrigger) if it was used or lapsed";
    const long = "r".repeat(300);
    const cases: [object, string][] = [
      [
        { status: 400, body: JSON.stringify({ error: refusal("only a message") }) },
        "HTTP 400 : only a message)",
      ],
      [{ status: 409, body: JSON.stringify({ error: { code: "ONLY_CODE" } }) }, "HTTP 409 ONLY_CODE: )"],
      [{ status: 500, body: long }, `HTTP 500 ${"r".repeat(200)})`],
    ];
    for (const [answer, detail] of cases) {
      server.script.push(cacerts(), answer as never);
      assert.equal(
        await failed(enrollIdentity({ jwt: jwt() })),
        `enrollIdentity: the controller refused the enrollment (${detail}${tail}`,
      );
    }
    for (const body of ["not json", "{}", '{"data":{}}']) {
      server.script.push(cacerts(), { status: 200, body });
      assert.equal(
        await failed(enrollIdentity({ jwt: jwt() })),
        "enrollIdentity: the controller's answer holds no certificate",
      );
    }
  });

  it("a controller that does not answer: the request and the origin are named", async () => {
    const origin = `https://127.0.0.1:${await closedPort()}`;
    assert.match(
      await failed(enrollIdentity({ jwt: jwt({}, "RS256", origin) })),
      new RegExp(`^enrollIdentity: GET ${CACERTS} at ${origin} failed: connect ECONNREFUSED`),
    );
  });
});

/**
 * A TLS certificate for 127.0.0.1 with an EC P-256 key, signed by `ca` (node-forge writes RSA keys
 * only: its certificate is made for an RSA key, then the key info is swapped and the TBS signed again).
 */
function ecServerCertificate(ca: ReturnType<typeof createRootCa>) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const made = forge.pki.certificateFromPem(issueServerCertificate(ca, ["127.0.0.1"]).certificatePem);
  const cert = forge.pki.certificateToAsn1(made) as forge.asn1.Asn1 & { value: forge.asn1.Asn1[] };
  const tbs = cert.value[0] as forge.asn1.Asn1 & { value: forge.asn1.Asn1[] };
  // TBSCertificate: version, serial, signature, issuer, validity, subject, subjectPublicKeyInfo, ...
  tbs.value[6] = forge.asn1.fromDer(publicKey.export({ type: "spki", format: "der" }).toString("binary"));
  const md = forge.md.sha256.create().update(forge.asn1.toDer(tbs).getBytes());
  const signature = ca.privateKey.sign(md);
  cert.value[2] = forge.asn1.create(
    forge.asn1.Class.UNIVERSAL,
    forge.asn1.Type.BITSTRING,
    false,
    String.fromCharCode(0) + signature,
  );
  const body = forge.asn1.toDer(cert).getBytes();
  return {
    certificatePem: forge.pem.encode({ type: "CERTIFICATE", body }),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    privateKey,
  };
}

describe("enrollIdentity against a scripted controller with an EC key", function () {
  this.timeout(60_000);
  const root = createRootCa("enroll-edges ec root");
  const tls = ecServerCertificate(root);
  let server: ScriptedServer;
  before(async () => {
    server = await startScriptedServer(tls);
  });
  after(() => server.close());

  it("an ES256 JWT (JOSE's r||s signature) signed by the key the controller presents is trusted", async () => {
    const claims = { iss: server.url, sub: "identity-ec", jti: `token-ec-${Date.now()}`, em: "ott" };
    const input = `${enc({ alg: "ES256", typ: "JWT" })}.${enc(claims)}`;
    const jose = sign("sha256", Buffer.from(input), { key: tls.privateKey, dsaEncoding: "ieee-p1363" });
    const der = sign("sha256", Buffer.from(input), tls.privateKey);
    // Signed: the next step is the CA bundle (answered 404 here); a DER signature is not JOSE's.
    server.script.push({ status: 404, body: "no" }, { status: 404, body: "no" });
    const outcome = (jwt: string) =>
      enrollIdentity({ jwt }).then(
        () => "enrolled",
        (e: Error) => e.message,
      );
    assert.equal(
      await outcome(`${input}.${jose.toString("base64url")}`),
      `enrollIdentity: GET ${CACERTS} at ${server.url} failed (HTTP 404)`,
    );
    assert.match(
      await outcome(`${input}.${der.toString("base64url")}`),
      /not signed by the certificate the controller at .* presents/,
    );
  });
});
