// Where the provider and the mock could share an assumption the API description (test/contracts/frontdoor-management-api.md)
// does not make, the provider is tested against what the API description says, over real HTTP: the exact
// `Basic <username:token>` header, the clock-skew hint on 401, and custom frontends with and without
// the list endpoint the API description marks "not shown" (import by id, adoption after a lost create answer).
import * as assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type MockServer, startMockServer } from "../mock/server";
import { context } from "../provider/engine";
import { importSnippets } from "../provider/tools/importSnippets";
import { configureFor, createChecked, engine, mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";

/** A loopback server that records the Authorization header of each request and answers an empty page. */
async function headerRecorder(): Promise<{
  url: string;
  seen: (string | undefined)[];
  close(): Promise<void>;
}> {
  const seen: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ content: [], totalElements: 0, totalPages: 0 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("Frontdoor contract: Basic username:token", () => {
  const mock = useMock();

  it("sends exactly 'Basic <username:token>' (one space, colon, no base64), which the mock accepts", async () => {
    const recorder = await headerRecorder();
    try {
      await configureFor({
        ...mockConfig(mock),
        "frontdoor:apiUrl": recorder.url,
        "frontdoor:username": "ci-bot",
      });
      assert.deepEqual(await resourceList("AuthProvider"), []);
      assert.deepEqual(recorder.seen, [`Basic ci-bot:${mock.credentials.frontdoorToken}`]);
    } finally {
      await recorder.close();
    }
    await configureFor({ ...mockConfig(mock), "frontdoor:username": "ci-bot" });
    const { id, outs } = await createChecked("AuthProvider", {
      name: "basic-auth-check",
      type: "API_KEY",
      data: { header_name: "x-api-key", api_key: "basic-auth-api-key-0123" },
    });
    assert.equal(outs.name, "basic-auth-check");
    await engine.remove("AuthProvider", id, outs);
  });

  it("refuses a username that would make the header ambiguous, before any call", async () => {
    await configureFor({ ...mockConfig(mock), "frontdoor:username": "ci:bot" });
    mock.clearLog();
    await assert.rejects(resourceList("AuthProvider"), /frontdoor:username must not contain a colon/);
    assert.equal(mock.log.length, 0);
  });
});

describe("Frontdoor contract: clock skew on 401", () => {
  for (const [skewSeconds, hint] of [
    [
      7200,
      /local clock is 7\d{3} s behind the server's Date header: clock skew can make a token look expired/,
    ],
    [-600, /local clock is \d{3} s ahead of the server's Date header/],
    [0, undefined],
  ] as const) {
    it(`server clock ${skewSeconds} s off: the 401 ${hint ? "names clock skew" : "says nothing of clocks"}`, async () => {
      const mock = await startMockServer({ frontdoor: { clockSkewSeconds: skewSeconds } });
      try {
        const expired = mock.frontdoor.issueToken({ frontdoorIds: ["fd-skew"], ttlSeconds: -1 });
        await configureFor({
          ...mockConfig(mock),
          "frontdoor:token": expired,
          "frontdoor:frontdoorId": "fd-skew",
        });
        await assert.rejects(resourceList("AuthProvider"), (err: Error) => {
          assert.match(err.message, /HTTP 401 unauthorized\): access token expired/);
          if (hint) assert.match(err.message, hint);
          else assert.doesNotMatch(err.message, /clock/);
          assert.ok(!err.message.includes(expired), "the token stays out of the message");
          return true;
        });
      } finally {
        await mock.close();
      }
    });
  }
});

describe("Frontdoor contract: custom frontends without the list endpoint", () => {
  let mock: MockServer;
  const fd = () => mock.credentials.frontdoorId;
  before(async () => {
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 50 } });
    await configureFor(mockConfig(mock));
  });
  after(() => mock.close());
  afterEach(() => {
    mock.frontdoor.options.listCustomFrontends = true;
    mock.faults.clear();
  });

  for (const listed of [true, false]) {
    it(`import by id works ${listed ? "with" : "without"} the list`, async () => {
      mock.frontdoor.options.listCustomFrontends = listed;
      const hostname = `import-${listed}.example.com`;
      const { id, outs } = await createChecked("CustomFrontend", { hostname });
      const imported = await engine.read("CustomFrontend", `${fd()}/${id}`, { hostname });
      assert.equal(imported.id, id);
      assert.equal(imported.props!.hostname, hostname);
      assert.deepEqual(imported.props!.dnsRecords, outs.dnsRecords);
      await engine.remove("CustomFrontend", id, outs);
    });

    it(`a create whose answer was lost is ${listed ? "adopted through the list" : "a clear error naming import by id"}`, async () => {
      mock.frontdoor.options.listCustomFrontends = listed;
      const hostname = `lost-answer-${listed}.example.com`;
      mock.faults.inject({ method: "POST", path: "/custom-frontends", kind: "commit-then-drop", count: 1 });
      const made = () => mock.frontdoor.list(fd(), "custom-frontends").filter((f) => f.hostname === hostname);
      mock.clearLog();
      if (listed) {
        const { id, outs } = await createChecked("CustomFrontend", { hostname });
        const calls = mock.log.map((e) => `${e.method} ${e.path.split("/").slice(3).join("/")}`);
        assert.deepEqual(
          calls.slice(0, 2),
          ["POST custom-frontends", "GET custom-frontends"],
          "one POST, then the list",
        );
        assert.deepEqual(
          made().map((f) => f.id),
          [id],
          "adopted, not duplicated",
        );
        await engine.remove("CustomFrontend", id, outs);
        return;
      }
      await assert.rejects(createChecked("CustomFrontend", { hostname }), (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`a frontend for ${hostname} may exist \\(the create's answer was lost`),
        );
        assert.match(
          err.message,
          /offers no list of custom frontends \(GET .*custom-frontends answered HTTP 405/,
        );
        assert.match(err.message, new RegExp(`import resource option with "${fd()}/<id>"`));
        return true;
      });
      assert.equal(made().length, 1, "the frontend the lost create made is there, for the user to import");
      mock.frontdoor.remove(fd(), "custom-frontends", made()[0].id as string);
    });
  }

  it("a hostname taken on a server without the list: a clear error naming import by id, nothing made", async () => {
    const hostname = "taken-unlisted.example.com";
    const first = await createChecked("CustomFrontend", { hostname });
    mock.frontdoor.options.listCustomFrontends = false;
    await assert.rejects(createChecked("CustomFrontend", { hostname }), (err: Error) => {
      assert.match(err.message, new RegExp(`a frontend for ${hostname} may exist .*the hostname is taken`));
      assert.match(
        err.message,
        /offers no list of custom frontends \(GET .*custom-frontends answered HTTP 405/,
      );
      assert.match(err.message, new RegExp(`import resource option with "${fd()}/<id>"`));
      return true;
    });
    const made = mock.frontdoor.list(fd(), "custom-frontends").filter((f) => f.hostname === hostname);
    assert.deepEqual(
      made.map((f) => f.id),
      [first.id],
    );
    await engine.remove("CustomFrontend", first.id, first.outs);
  });

  it("the import generator says why custom frontends are left out, and fails when asked for them", async () => {
    mock.frontdoor.options.listCustomFrontends = false;
    const text = await importSnippets(context(), {});
    assert.match(text, /\/\/ CustomFrontend: not listed\. .*HTTP 405.*Import custom frontends by id/);
    await assert.rejects(
      importSnippets(context(), { kinds: ["CustomFrontend"] }),
      /offers no list of custom frontends .*Import custom frontends by id/,
    );
  });
});

/** The ids a kind's `list` finds (the import generator's source). */
async function resourceList(kind: string): Promise<string[]> {
  const { resourceDefinition } = await import("../provider/resources");
  const ctx = context();
  return resourceDefinition(kind).list!(ctx, { frontdoorId: ctx.settings.frontdoorId });
}
