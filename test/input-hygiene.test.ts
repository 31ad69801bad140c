// Input the controller cannot digest is normalised or refused before any request: names with control
// characters (ZitiQL has no escape for most of them), settings sent in HTTP headers, sizes the swagger
// bounds, PEM line endings and surrounding whitespace. Names with quotes, backslashes, unicode (and,
// made by another admin, tabs and newlines) are found by name on real controllers of both releases:
// lookups and adoption use ZitiQL quoting the controller reads back as the same string.
import assert from "node:assert/strict";
import { type MockServer, startMockServer } from "../mock/server";
import { lookup } from "../provider/functions/lookups";
import { createChecked, engine, testCa } from "./edge-support";
import { realEdgeConfig } from "./peers/controller";
import { CONTROLLER_RELEASES } from "./peers/index";
import { configureFor, mockConfig } from "./support/engine";
import { DUMMY_FIXTURES, MATRIX } from "./support/field-matrix";
import { useController } from "./support/fixtures";

/** One declaration of each Edge kind (the field matrix's first of each). */
const ONE_OF_EACH = [...new Map(MATRIX.map((c) => [c.kind, c])).values()];

describe("Input hygiene: refused or normalised at check, before any request", () => {
  let mock: MockServer;
  let config: Record<string, string>;
  before(async () => {
    mock = await startMockServer();
    config = mockConfig(mock);
    await configureFor(config);
  });
  after(() => mock?.close());

  it("names with control characters are refused naming `name`, for every Edge kind", async () => {
    for (const c of ONE_OF_EACH) {
      const inputs = { ...c.inputs(DUMMY_FIXTURES), ...c.secrets };
      for (const name of ["line\nbreak", "tab\there", "nul\u0000x", "bell\u0007", "del\u007f"]) {
        const { failures } = await engine.check(c.kind, {}, { ...inputs, name });
        assert.deepEqual(
          failures.map((f) => f.property),
          ["name"],
          `${c.kind} ${JSON.stringify(name)}: ${JSON.stringify(failures)}`,
        );
        assert.match(failures[0].reason, /control characters/);
      }
      for (const name of ['with "quotes"', "back\\slash", "two\\\\back", "uni ✓ é 😀", "it's"]) {
        const { failures } = await engine.check(c.kind, {}, { ...inputs, name });
        assert.deepEqual(failures, [], `${c.kind} ${JSON.stringify(name)} refused`);
      }
    }
  });

  describe("settings a header cannot carry, and sizes the swagger bounds, fail naming the key (never the value)", () => {
    afterEach(() => configureFor(config));
    const cases: [string, string, RegExp][] = [
      ["frontdoor:token", "abc def", /HTTP header/],
      ["frontdoor:token", "abc\r\nX-Injected: 1", /HTTP header/],
      ["frontdoor:token", "tökén-with-latin1", /HTTP header/],
      ["frontdoor:username", "team:ops", /colon/],
      ["frontdoor:clientId", "client:1", /colon/],
      ["frontdoor:searchUsername", "elastic\n", /control characters/],
      ["frontdoor:edgeUsername", "bob", /4 to 100 characters/],
      ["frontdoor:edgeUsername", "a".repeat(101), /4 to 100 characters/],
      ["frontdoor:edgePassword", "pw12", /5 to 100 characters/],
    ];
    for (const [key, value, reason] of cases) {
      it(`${key}=${JSON.stringify(value).slice(0, 30)}`, async () => {
        await configureFor({ ...config, [key]: value });
        mock.clearLog();
        const { failures } = await engine.check("Identity", {}, { name: "hygiene-user" });
        const failure = failures.find((f) => f.property === key);
        assert.ok(failure, `no failure names ${key}: ${JSON.stringify(failures)}`);
        assert.match(failure.reason, reason);
        assert.ok(!failure.reason.includes(value), "the reason quotes the value");
        assert.deepEqual(mock.log, [], "a request was made");
      });
    }
  });

  it("PEM is sent with \\n line endings and no surrounding whitespace, and kept so in the state", async () => {
    await configureFor(config);
    const ca = testCa("Hygiene CA");
    const signer = testCa("hygiene-signer.example.com");
    const lf = (pem: string) => pem.replace(/\r\n/g, "\n").trim();
    const crlf = (pem: string) => `\r\n  ${lf(pem).replace(/\n/g, "\r\n")}  \r\n\t`;
    mock.clearLog();
    const made = await createChecked("Ca", { name: "hygiene-ca", certPem: crlf(ca.certPem) });
    const signerMade = await createChecked("ExternalJwtSigner", {
      name: "hygiene-signer",
      issuer: "https://hygiene.example.com",
      audience: "hygiene",
      certPem: crlf(signer.certPem),
    });
    const sent = mock.log
      .filter((e) => e.method === "POST" && /\/(cas|external-jwt-signers)$/.test(e.path))
      .map((e) => JSON.parse(e.body as string).certPem);
    assert.deepEqual(sent, [`${lf(ca.certPem)}\n`, `${lf(signer.certPem)}\n`]);
    // Normalised at check: the state holds what was sent, so the program's text is no change.
    assert.equal(made.outs.certPem, `${lf(ca.certPem)}\n`);
    assert.equal(signerMade.outs.certPem, `${lf(signer.certPem)}\n`);
    const again = await engine.check("Ca", made.outs, { name: "hygiene-ca", certPem: crlf(ca.certPem) });
    assert.equal((await engine.diff("Ca", made.id, made.outs, again.inputs)).changes, false);
    await engine.remove("Ca", made.id, made.outs);
    await engine.remove("ExternalJwtSigner", signerMade.id, signerMade.outs);
  });
});

/** Names ZitiQL must quote; the last ones only another admin can make (check refuses them). */
const TRICKY = [
  'with "quotes"',
  "back\\slash",
  "two\\\\backslashes",
  "ends\\",
  'q"\\"mix',
  "it's ✓ 😀",
  "\\n not a newline",
  "\\\\",
];
const MADE_ELSEWHERE = ["tab\there", "new\nline", "cr\rhere"];

for (const { release } of CONTROLLER_RELEASES) {
  describe(`Names ZitiQL must quote, on a real controller ${release}`, function () {
    this.timeout(300_000);
    const ctrl = useController({ provider: true, release });

    /** The provider's settings (keys without the `frontdoor:` namespace), as lookups take them. */
    const settings = () =>
      Object.fromEntries(
        Object.entries(realEdgeConfig(ctrl)).map(([k, v]) => [k.replace(/^frontdoor:/, ""), v]),
      );
    const withName = async (name: string) => {
      const all = await ctrl.admin.call("GET", "/identities?limit=500");
      return all.body.data.filter((i: { name: string }) => i.name === name).map((i: { id: string }) => i.id);
    };

    it("the provider creates, looks up and adopts objects so named: one object each, found by name", async () => {
      for (const name of TRICKY) {
        const inputs = { name, type: "Device", roleAttributes: ["hygiene"] };
        const made = await createChecked("Identity", inputs);
        const found = await lookup("Identity", { name }, settings());
        assert.equal(found.id, made.id, `${JSON.stringify(name)}: the lookup found another object`);
        // The same declaration again: the clash is found by name (the object of this run, so it is
        // refused naming it; another run's would be adopted), never a second object.
        await assert.rejects(createChecked("Identity", inputs), (error: Error) => {
          assert.ok(error.message.includes(`already exists (id ${made.id})`), error.message);
          return true;
        });
        assert.deepEqual(await withName(name), [made.id], `${JSON.stringify(name)}: objects of that name`);
        await engine.remove("Identity", made.id, made.outs);
        assert.deepEqual(await withName(name), [], `${JSON.stringify(name)}: left behind`);
      }
    });

    it("objects another admin named with tabs or newlines are found by name", async () => {
      for (const name of MADE_ELSEWHERE) {
        const made = await ctrl.admin.call("POST", "/identities", {
          body: { name, type: "User", isAdmin: false },
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const found = await lookup("Identity", { name }, settings());
        assert.equal(found.id, made.body.data.id, JSON.stringify(name));
        await ctrl.admin.call("DELETE", `/identities/${made.body.data.id}`);
      }
    });
  });
}
